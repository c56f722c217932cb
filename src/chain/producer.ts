/**
 * Block production: the next block's template, the miner's VM, mining from the pool (evm_mine,
 * automine, interval mining) and the pending block (rskj's `pending`), built but not sealed.
 */
import { RLP } from '@ethereumjs/rlp';
import { Address, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { MINER_ACCOUNT } from './keys/accounts.js';
import { type RskBlock, blockRlpLength } from './records/block.js';
import type { BuiltBlock, Executor, PendingView } from './exec/block-builder.js';
import { type ChainParts, blockReceipts, emitBlockConsoleLogs } from './parts.js';
import { nextGasLimit, nextMinimumGasPrice } from './mining/economics.js';
import { ChainError } from './base/errors.js';
import { baseHashForMergedMining } from './records/header.js';
import { type PoolTx, orderForBlock } from './pool/mempool.js';
import { MAX_TIMESTAMP, timestampTooLarge } from './mining/clock.js';
import type { MinerTargets } from './mining/targets.js';
import type { BlockReceipts } from './records/receipt.js';
import { ForkDetectionAncestors, sealBlock } from './merged-mining/seal.js';
import { OverlayDb } from './storage/state-db.js';

/** extraData of mined blocks, as rskj's miner writes it: RLP [version 1, "<modifier>-<build>"]. */
const MINED_EXTRA_DATA = RLP.encode([1, 'rsk-devnode']);
/** Most blocks one hardhat_mine/anvil_mine call may mine (about a minute and a half of work). */
export const MAX_BLOCKS_PER_MINE = 100_000n;
/**
 * hardhat_mine writes its blocks in chunks of this many, each in one batch with the head (a
 * LevelDB batch per block was a sixth of an empty block's CPU), and lets HTTP, WebSocket and
 * signals through between chunks. Kept below half the store's recent-block cache, which serves
 * the chunk's blocks to the miner until they are written.
 */
const CHUNK_BLOCKS = 64n;

export class BlockProducer {
  /** The mining VM, kept across blocks (building one costs milliseconds). */
  private miner: (Executor & { root: Uint8Array }) | undefined;
  private pendingCache: { headHash: Uint8Array; version: number; built: Promise<PendingView> } | undefined;
  /** Who mined blocks name (hardhat_/anvil_setCoinbase); rskj's regtest miner by default. */
  private coinbaseBytes = hexToBytes(MINER_ACCOUNT.address as `0x${string}`);
  /** evm_setBlockGasLimit's limit: every next block has it exactly, instead of stepping toward the target. */
  private fixedGasLimit: bigint | undefined;
  /** The RSKIP110 ancestors hashForMergedMining reads, for our blocks and merged miners' work. */
  readonly forkDetection: ForkDetectionAncestors;

  constructor(
    private readonly parts: ChainParts,
    private readonly targets: MinerTargets,
  ) {
    this.forkDetection = new ForkDetectionAncestors((n) => parts.head.blockByNumber(n));
  }

  /** Mines one block from the pool (evm_mine, automine, interval mining). */
  async mine(timestamp?: bigint): Promise<RskBlock> {
    if (timestamp !== undefined && timestamp > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(timestamp));
    return this.parts.lock.run(async () => (await this.mineLocked(timestamp)).block);
  }

  /** Mines `count` blocks, `interval` seconds apart (hardhat_mine / anvil_mine). */
  async mineMany(count: bigint, interval: bigint): Promise<void> {
    if (count > MAX_BLOCKS_PER_MINE) {
      throw new ChainError('invalidArgument', `at most ${MAX_BLOCKS_PER_MINE} blocks per call; call again for more`);
    }
    const { head, clock, lock, store } = this.parts;
    await lock.run(async () => {
      // Checked before the first block, so a refused call mines nothing.
      clock.checkRun(head.block.header.timestamp, count, interval);
      try {
        for (let i = 0n; i < count; i++) {
          if (i % CHUNK_BLOCKS === 0n) store.openChunk();
          await this.mineLocked(i === 0n ? undefined : head.block.header.timestamp + interval);
          if (i % CHUNK_BLOCKS === CHUNK_BLOCKS - 1n) {
            await store.closeChunk();
            // An in-memory store never yields by itself.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
      } finally {
        // The blocks mined before a failure are kept, as when each was written on its own.
        await store.closeChunk();
      }
    });
  }

  /** Builds, seals and commits one block on the head; the caller holds the lock. */
  async mineLocked(timestamp?: bigint, poolCandidates?: PoolTx[]): Promise<{ block: RskBlock; built: BuiltBlock }> {
    const { head, clock, store, execution, pool, events } = this.parts;
    const parent = head.block;
    const candidates = poolCandidates ?? (await this.poolCandidates(parent));
    const miner = await this.minerAt(parent);
    // While a snapshot is live, what the block overwrites in the miner's caches is kept for evm_revert.
    miner.stateManager.journalBlock(store.revertedNodes.isTracking ? miner.root : undefined);
    const now = clock.nowSeconds();
    const timeTravel = clock.travels(timestamp);
    let block: RskBlock;
    let built: BuiltBlock;
    let receipts: BlockReceipts;
    try {
      const { buildBlock } = await execution.runtime();
      built = await buildBlock(execution, miner, parent, this.template(parent, now, timestamp), candidates);
      block = await sealBlock(built, parent, this.forkDetection);
      receipts = blockReceipts(block, built.receipts);
      await store.commitBlock(block, receipts, head.irregularRecord());
    } catch (err) {
      // A failed block drops the miner: its state may be half-applied.
      this.miner = undefined;
      store.stateDb.discardPending();
      clock.clearPending();
      throw err;
    }
    miner.root = block.header.stateRoot;
    miner.stateManager.blockBuilt(miner.root);
    for (const entry of built.included) pool.remove(entry);
    for (const { entry } of built.invalid) pool.remove(entry);
    head.advance(block, built.changes);
    clock.blockMined(block.header.timestamp, now, timeTravel);
    events.emit('block', block, receipts);
    emitBlockConsoleLogs(events, block, built.consoleCalls);
    return { block, built };
  }

  /**
   * A fork moved to another remote block (Chain.refork): the miner's state manager reads the old
   * remote, so the next block builds a new one. Call under the chain's lock.
   */
  forgetMiner(): void {
    this.miner = undefined;
  }

  /** The miner VM at `parent`'s state: after a revert, reset or state override it moves to the new root. */
  private async minerAt(parent: RskBlock): Promise<Executor & { root: Uint8Array }> {
    const { head, execution, store } = this.parts;
    const root = head.stateRootOf(parent);
    if (this.miner !== undefined && equalsBytes(this.miner.root, root)) return this.miner;
    if (this.miner !== undefined) {
      // Back to a journaled block's state (evm_revert) with its caches, else with empty caches.
      if (!(await this.miner.stateManager.rewindCachesTo(root, this.miner.root))) await this.miner.stateManager.setStateRoot(root);
      this.miner.root = root;
      return this.miner;
    }
    const stateManager = execution.stateManager(store.stateDb, root);
    this.miner = { stateManager, vm: await execution.vm(stateManager), root };
    return this.miner;
  }

  /** Pooled transactions that can run on `parent`, in block order. */
  async poolCandidates(parent: RskBlock): Promise<PoolTx[]> {
    const { pool, head } = this.parts;
    if (pool.size === 0) return [];
    const root = head.stateRootOf(parent);
    const nonces = new Map<string, bigint>();
    for (const sender of pool.senderKeys()) {
      nonces.set(sender, (await head.stateReader(root).getAccount(new Address(hexToBytes(sender as `0x${string}`))))?.nonce ?? 0n);
    }
    return orderForBlock(pool.pendingBySender((sender) => nonces.get(sender) ?? 0n));
  }

  /** The pool split as rskj shows it: pending (runnable now, in nonce order) and queued (behind a gap). */
  async poolContent(): Promise<{ pending: PoolTx[]; queued: PoolTx[] }> {
    const runnable = new Set(await this.poolCandidates(this.parts.head.block));
    const pending: PoolTx[] = [];
    const queued: PoolTx[] = [];
    for (const [, txs] of this.parts.pool.senders()) for (const entry of txs) (runnable.has(entry) ? pending : queued).push(entry);
    return { pending, queued };
  }

  /** The next block's minimum gas price, which may be above the latest block's while it rises to a target. */
  nextMinimumGasPrice(): bigint {
    const latest = this.parts.head.block.header.minimumGasPrice;
    const next = nextMinimumGasPrice(latest, this.targets.minGasPrice);
    return next > latest ? next : latest;
  }

  get coinbase(): Uint8Array {
    return this.coinbaseBytes;
  }

  /** The coinbase of the blocks mined from now on; the caller holds the lock. */
  setCoinbaseLocked(coinbase: Uint8Array): void {
    this.coinbaseBytes = coinbase;
    this.parts.head.changed();
  }

  /**
   * The gas limit of every block mined from now on (evm_setBlockGasLimit), at once rather than by
   * rskj's parent/1024 steps, as Hardhat does; it also becomes the miner's target. The caller holds the lock.
   */
  setGasLimitLocked(gasLimit: bigint): void {
    this.fixedGasLimit = gasLimit;
    this.targets.gasLimit = gasLimit;
    this.parts.head.changed();
  }

  /** The gas limit evm_setBlockGasLimit set, if any. */
  get setGasLimit(): bigint | undefined {
    return this.fixedGasLimit;
  }

  /** The gas limit of the block mined next on the head. */
  nextGasLimit(): bigint {
    return this.fixedGasLimit ?? nextGasLimit(this.parts.head.block.header.gasLimit, this.targets.gasLimit);
  }

  /** The next block's fields on `parent` (rskj's block template). */
  private template(parent: RskBlock, now: bigint, explicit?: bigint) {
    return {
      coinbase: this.coinbaseBytes,
      extraData: MINED_EXTRA_DATA,
      timestamp: this.parts.clock.timestampFor(parent.header.timestamp, now, explicit),
      gasLimit: this.fixedGasLimit ?? nextGasLimit(parent.header.gasLimit, this.targets.gasLimit),
      minimumGasPrice: nextMinimumGasPrice(parent.header.minimumGasPrice, this.targets.minGasPrice),
      difficulty: parent.header.difficulty,
    };
  }

  /** The block the pool would produce next, built on latest without sealing (rskj's `pending`). */
  pending(): Promise<PendingView> {
    const { head } = this.parts;
    const cache = this.pendingCache;
    if (cache !== undefined && cache.headHash === head.block.hash && cache.version === head.version) return cache.built;
    const built = this.buildPending();
    this.pendingCache = { headHash: head.block.hash, version: head.version, built };
    built.catch(() => (this.pendingCache = undefined));
    return built;
  }

  /** Forgets the pending block, so the next `pending()` builds it again (a refreshed mining template). */
  dropPending(): void {
    this.pendingCache = undefined;
  }

  private async buildPending(): Promise<PendingView> {
    const { head, store, execution, clock } = this.parts;
    const parent = head.block;
    const candidates = await this.poolCandidates(parent);
    const db = new OverlayDb(store.stateDb);
    const parentStateRoot = head.stateRootOf(parent);
    const stateManager = execution.stateManager(db, parentStateRoot);
    const executor = { stateManager, vm: await execution.vm(stateManager) };
    const { buildBlock } = await execution.runtime();
    const built = await buildBlock(execution, executor, parent, this.template(parent, clock.nowSeconds()), candidates);
    return {
      ...built,
      db,
      parentStateRoot,
      hashForMergedMining: baseHashForMergedMining(built.header),
      size: blockRlpLength(built.header, built.transactions),
      totalDifficulty: parent.totalDifficulty + built.header.difficulty,
    };
  }
}
