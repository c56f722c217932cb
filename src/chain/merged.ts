/**
 * The chain's side of merged mining: the block merged miners work on (mnr_getWork, eth_getWork)
 * and the import of a block sealed with a miner's proof (mnr_submitBitcoinBlock*, via submit.ts).
 */
import { equalsBytes } from '@ethereumjs/util';
import type { BlockProducer } from './producer.js';
import { type ChainParts, blockReceipts, emitBlockConsoleLogs } from './parts.js';
import { type MergedMiningProof, validateMergedMiningProof } from './merged-mining/proof.js';
import { hashForMergedMining } from './merged-mining/seal.js';
import { OverlayDb } from './storage/state-db.js';
import { sealWithProof } from './merged-mining/submit.js';
import { type MergedMiningImport, type MiningWork, WORK_REFRESH_MS, WorkBook } from './merged-mining/work.js';

export class MergedBlocks {
  /** Blocks handed to merged miners, kept for their solutions. */
  readonly works = new WorkBook();

  constructor(
    private readonly parts: ChainParts,
    private readonly producer: BlockProducer,
    private readonly now: () => number,
  ) {}

  /**
   * The pending block on the head with its RSKIP110 hashForMergedMining. It changes with the head,
   * the pool and the clock settings, and is rebuilt after WORK_REFRESH_MS as rskj refreshes its template.
   */
  currentWork(): Promise<MiningWork> {
    const { lock, clock } = this.parts;
    return lock.run(async () => {
      let view = await this.producer.pending();
      const latest = this.works.latest;
      if (latest?.view === view && this.now() - latest.handedOutAt >= WORK_REFRESH_MS) {
        this.producer.dropPending();
        view = await this.producer.pending();
      }
      if (latest?.view === view) return latest;
      return this.works.register({
        view,
        hashForMergedMining: await hashForMergedMining(view.header, this.producer.forkDetection),
        parentStateRoot: view.parentStateRoot,
        clock: clock.save(),
        handedOutAt: this.now(),
      });
    });
  }

  /**
   * Seals `work` with a merged miner's proof and, if the proof passes rskj's ProofOfWorkRule for
   * the work's hashForMergedMining, makes it the head with exactly that proof. A block already
   * stored is 'exist' (rskj's EXIST); work no longer on the head is 'stale' (no side chains here).
   */
  import(work: MiningWork, proof: MergedMiningProof): Promise<MergedMiningImport> {
    const { lock, head, store, pool, clock, events } = this.parts;
    return lock.run(async () => {
      const block = sealWithProof(work, proof);
      const validation = validateMergedMiningProof(proof, work.hashForMergedMining, block.header.difficulty);
      if (!validation.ok) return { status: 'invalid', block, reason: validation.reason };
      if ((await head.blockByHash(block.hash)) !== undefined) return { status: 'exist', block };
      const onHead = equalsBytes(block.header.parentHash, head.block.hash) && equalsBytes(work.parentStateRoot, head.stateRoot);
      if (!onHead) return { status: 'stale', block };
      const { view } = work;
      if (!(view.db instanceof OverlayDb)) throw new Error('merged-mining work has no state overlay to commit');
      const receipts = blockReceipts(block, view.receipts);
      const now = clock.nowSeconds();
      try {
        // The pending block's state nodes join the block's atomic commit, as the miner's would.
        await store.stateDb.batch([...view.db.written()].map(([key, value]) => ({ type: 'put' as const, key, value })));
        await store.commitBlock(block, receipts, head.irregularRecord());
      } catch (err) {
        store.stateDb.discardPending();
        throw err;
      }
      // A mined nonce is spent, whichever pooled transaction holds it now.
      for (const entry of view.included) {
        const pooled = pool.sameNonce(entry.sender, entry.record.nonce);
        if (pooled !== undefined) pool.remove(pooled);
      }
      for (const { entry } of view.invalid) if (pool.get(entry.record.hash) === entry) pool.remove(entry);
      head.advance(block);
      // The work used the pending clock settings; if they are still pending, this block used them up.
      const pending = clock.save();
      if (work.clock.timeOffset === pending.timeOffset && work.clock.nextTimestamp === pending.nextTimestamp && clock.travels()) {
        clock.blockMined(block.header.timestamp, now, true);
      }
      events.emit('block', block, receipts);
      emitBlockConsoleLogs(events, block, view.consoleCalls);
      return { status: 'imported', block };
    });
  }
}
