/**
 * The whole chain in and out of a ChainStore: a state file's dump reads every block, meta record and
 * state node as stored (rawBlock, metaRecords, stateNodes); a state load replaces the chain with a
 * file's records (replaceChain); a fork's move to another remote block starts it over (restartChain).
 * Kept apart from store.ts, which commits and reads one block at a time: these walk or rewrite the
 * whole database. ChainStore keeps the methods and hands them its internals as a WholeChainTarget.
 */
import { type RskBlock, decodeStoredBlock } from '../records/block.js';
import { type BlockReceipts, decodeBlockReceipts } from '../records/receipt.js';
import { MemoryKv } from './memory-kv.js';
import type { RevertedNodes } from './reverted-nodes.js';
import type { StateDb } from './state-db.js';
import { type Kv, type KvOp, blockKey, encodeNumber, headKey, isBtcKey, isForkCacheKey, isStateNodeKey, metaKey, receiptsKey, stateNodeKey, stateNodeKeyOfHex } from './keys.js';

/** Records written per batch by a state load (and store.ts's address-index backfill): bounded memory however long the chain. */
export const LOAD_BATCH_OPS = 10_000;

/** What a state load writes: a block with its receipts (stored RLP), a state node, a meta record. */
export type ChainRecord =
  | { block: Uint8Array; receipts: Uint8Array }
  | { node: string; value: Uint8Array }
  | { meta: string; value: Uint8Array };

/** What the whole-chain work needs of a ChainStore: its database, and the gates and caches around it. */
export interface WholeChainTarget {
  readonly kv: Kv;
  readonly stateDb: StateDb;
  readonly revertedNodes: RevertedNodes;
  /** Waits until bulk mining's open chunk, if any, is written. */
  chunkWritten(): Promise<void>;
  /** Makes reads of blocks, receipts and indexes wait on `held` until `release` is called. */
  holdReads(): { held: Promise<void>; release: () => void };
  /** Drops the decoded blocks, receipts, logs, log postings and transaction locations kept in memory. */
  clearRecent(): void;
  /** A block's records (block, receipts, indexes) as commitBlock writes them. */
  blockRecordOps(block: RskBlock, receipts: BlockReceipts, blockBytes: Uint8Array, receiptBytes: Uint8Array): KvOp[];
}

/** A block's and its receipts' records as stored (a state dump copies them as they are). */
export async function rawBlock(target: WholeChainTarget, number: bigint): Promise<{ block: Uint8Array; receipts: Uint8Array } | undefined> {
  await target.chunkWritten();
  const [block, receipts] = await target.kv.getMany([blockKey(number), receiptsKey(number)]);
  return block === undefined || receipts === undefined ? undefined : { block, receipts };
}

/** Every meta record (name, value), in name order. */
export async function* metaRecords(target: WholeChainTarget): AsyncGenerator<[string, Uint8Array]> {
  await target.chunkWritten();
  const prefix = metaKey('');
  const end = Uint8Array.of(prefix[0]! + 1);
  for await (const [key, value] of target.kv.iterator({ gte: prefix, lt: end })) yield [new TextDecoder().decode(key.subarray(1)), value];
}

/**
 * Every state trie node (its key as the trie names it, in hex, and its bytes), one at a time:
 * in key order from LevelDB, in no particular order from memory.
 */
export async function* stateNodes(target: WholeChainTarget): AsyncGenerator<[string, Uint8Array]> {
  await target.chunkWritten();
  const prefix = stateNodeKey(new Uint8Array(0));
  const { kv } = target;
  const nodes = kv instanceof MemoryKv ? kv.unordered(prefix[0]!) : kv.iterator({ gte: prefix, lt: Uint8Array.of(prefix[0]! + 1) });
  for await (const [key, value] of nodes) yield [Buffer.from(key.buffer, key.byteOffset + 1, key.length - 1).toString('hex'), value];
}

/**
 * Replaces the whole chain with `records` (a state load, validated beforehand): every block,
 * receipt, index, state node and state meta record goes; other meta records (the miner's
 * targets) stay. Blocks are written with their indexes as commitBlock writes them, in batches
 * of LOAD_BATCH_OPS, and the head pointer last. Reads of blocks, receipts, indexes and state
 * wait until it and `settle` (given the new head block; it may read meta records only) are done.
 */
export async function replaceChain(
  target: WholeChainTarget,
  records: AsyncIterable<ChainRecord>,
  stateMeta: (name: string) => boolean,
  settle: (head: RskBlock) => Promise<void>,
): Promise<void> {
  const { held, release } = target.holdReads();
  target.stateDb.holdReadsUntil(held);
  try {
    const head = await writeChain(target, records, stateMeta);
    target.clearRecent();
    target.stateDb.clearCache();
    await settle(head);
  } catch (error) {
    // A load that failed part-way has deleted records the caches may still hold: never answer from them.
    target.clearRecent();
    target.stateDb.clearCache();
    throw error;
  } finally {
    target.stateDb.holdReadsUntil(undefined);
    release();
  }
}

/**
 * Starts the chain over from a block `build` commits (a fork moved to another remote block,
 * hardhat_reset with `forking`): every block, receipt, index and state meta record goes, the
 * state nodes stay (content-addressed: the new state shares what it can, and reads of the old
 * head stay whole until the new head is settled), the fork cache and other meta records too.
 * Reads of blocks, receipts and indexes wait until `build` and `settle` are done.
 */
export async function restartChain(
  target: WholeChainTarget,
  stateMeta: (name: string) => boolean,
  build: () => Promise<RskBlock>,
  settle: (head: RskBlock) => Promise<void>,
): Promise<void> {
  const { release } = target.holdReads();
  try {
    target.stateDb.discardPending();
    target.revertedNodes.setTracking(false);
    const metaPrefix = metaKey('')[0];
    let ops: KvOp[] = [];
    for await (const key of target.kv.keys()) {
      if (isStateNodeKey(key) || isForkCacheKey(key)) continue;
      if (key[0] === metaPrefix && !stateMeta(new TextDecoder().decode(key.subarray(1)))) continue;
      ops.push({ type: 'del', key });
      if (ops.length >= LOAD_BATCH_OPS) ops = (await target.kv.batch(ops), []);
    }
    if (ops.length > 0) await target.kv.batch(ops);
    target.clearRecent();
    const head = await build();
    await settle(head);
  } finally {
    release();
  }
}

async function writeChain(target: WholeChainTarget, records: AsyncIterable<ChainRecord>, stateMeta: (name: string) => boolean): Promise<RskBlock> {
  const { kv } = target;
  target.stateDb.discardPending();
  target.revertedNodes.setTracking(false);
  const metaPrefix = metaKey('');
  let ops: KvOp[] = [];
  const flush = async (atLeast: number) => {
    if (ops.length < atLeast) return;
    await kv.batch(ops);
    ops = [];
  };
  for await (const key of kv.keys()) {
    const isMeta = key[0] === metaPrefix[0];
    if (isBtcKey(key)) continue;
    if (isMeta && !stateMeta(new TextDecoder().decode(key.subarray(1)))) continue;
    if (isForkCacheKey(key)) continue; // the remote's answers outlive any chain loaded over them
    ops.push({ type: 'del', key });
    await flush(LOAD_BATCH_OPS);
  }
  await flush(1);
  let head: RskBlock | undefined;
  for await (const record of records) {
    if ('block' in record) {
      const block = decodeStoredBlock(record.block);
      ops.push(...target.blockRecordOps(block, decodeBlockReceipts(record.receipts), record.block, record.receipts));
      head = block;
    } else if ('node' in record) {
      ops.push({ type: 'put', key: stateNodeKeyOfHex(record.node), value: record.value });
    } else {
      ops.push({ type: 'put', key: metaKey(record.meta), value: record.value });
    }
    await flush(LOAD_BATCH_OPS);
  }
  if (head === undefined) throw new Error('a state load without blocks');
  ops.push({ type: 'put', key: headKey(), value: encodeNumber(head.header.number) });
  await flush(1);
  return head;
}
