/**
 * A network's persistent chain: blocks, receipts and their indexes in LevelDB (memory-kv.ts for an
 * in-memory chain), plus the state trie's nodes (state-db.ts). Each block is committed in one atomic batch together with the
 * state nodes it created and the new head pointer, so a crash at any instant leaves the last
 * committed head with its state, receipts and indexes intact. Bulk mining (hardhat_mine) commits a
 * chunk of blocks in one such batch instead (openChunk/closeChunk): a crash loses the chunk's blocks
 * or none, and the head on disk always has its state, receipts and indexes.
 */
import { type RskBlock, decodeStoredBlock, encodeStoredBlock } from '../records/block.js';
import { type ContractCreation, type HistoryPage, type IndexKv, type TxPosition, addressHistory, addressIndexOps, contractCreation, hasHistory, senderNonceTx } from './address-index.js';
import { BlockLogsCache, type LogCriteria, type LogMatch, blockLogs, candidateBlocks } from './log-index.js';
import { LogPostings } from './log-postings.js';
import { Lru } from '../../util/lru.js';
import { MemoryKv } from './memory-kv.js';
import { type BlockReceipts, compactBlockReceipts, decodeBlockReceipts, encodeBlockReceipts } from '../records/receipt.js';
import { RevertedNodes } from './reverted-nodes.js';
import { IN_MEMORY_NODE_CACHE_BYTES, NODE_CACHE_BYTES, StateDb } from './state-db.js';
import {
  type Kv,
  type KvOp,
  blockKey,
  decodeNumber,
  encodeNumber,
  forkCacheKey,
  hashToNumberKey,
  headKey,
  IRREGULAR_STATE_PREFIX,
  irregularStateMeta,
  metaKey,
  receiptsKey,
  txLocationKey,
} from './keys.js';
import { blockRecordDeletes, blockRecordOps } from './block-records.js';
import { appendBtcBlocks, btcBlocks, btcTip, btcTruncationOps } from './btc-records.js';
import { type ChainRecord, type WholeChainTarget, LOAD_BATCH_OPS, metaRecords, rawBlock, replaceChain, restartChain, stateNodes } from './whole-chain.js';

/**
 * Decoded blocks and receipts kept in memory: clients re-read the newest blocks constantly. A
 * one-transaction block takes about 3.6 KB decoded, its receipts 1.2 KB (measured over 1,500 blocks).
 */
const RECENT_BLOCKS = 256;
/**
 * Where the transactions of recently committed blocks are, kept in memory: a client asks for a
 * receipt right after its send's answer, and a LevelDB read there costs a trip through libuv's
 * thread pool on the send's critical path (issue 25). About 100 bytes an entry.
 */
const RECENT_TX_LOCATIONS = 4096;
/**
 * Logs kept ready for eth_getLogs: a query over blocks within them decodes no receipt. About 2.3 KB
 * each with the JSON the RPC layer keeps beside them (measured over 1,500 one-log blocks), so 11 MB
 * at most; at 20,000 they were most of a soak's live heap.
 */
export const RECENT_LOGS = 5_000;

/**
 * LevelDB's own memory per database, made explicit (classic-level's defaults): its block cache, the
 * write buffer (twice while one is flushed) and table files kept open with their index blocks. Not
 * what grew in the soak (scripts/soak --probe): after 30,000 transactions and full GCs, RSS was
 * 190 MB with 71 MB of V8 heap and 26 MB external, native memory about 35 MB above an idle node's;
 * before heap-growth.ts, garbage V8 had not collected yet made most of the RSS. The block cache is
 * 2 MiB, not classic-level's 8: LevelDB fills it from its worker threads' malloc arenas, which keep
 * the pages, and our own caches sit in front of it (the node cache, recent blocks and receipts, the
 * log postings; the OS page cache holds the files). At the bench's memory sample 8 MiB held about
 * 6.6 MiB more of those arenas, with no change in the node's CPU for the bench's rows (issue 25).
 */
const LEVELDB_OPTIONS = { cacheSize: 2 * 1024 * 1024, writeBufferSize: 4 * 1024 * 1024, maxOpenFiles: 1000 } as const;

/**
 * Meta record marking the address index complete: absent in a data directory made before the
 * index existed, whose blocks ensureAddressIndex then indexes once.
 */
const ADDRESS_INDEX_META = 'address-index';

/** What a state load writes (whole-chain.ts). */
export type { ChainRecord } from './whole-chain.js';

/**
 * What the store has been asked to read since it opened: blocks and receipts (each request, from
 * its cache or decoded) and address-index entries visited. A seam for tests that show a page reads
 * what it shows, never the chain (test/integration/explorer-long-chain.test.ts); an increment each.
 */
export interface StoreReads {
  blocks: number;
  receipts: number;
  indexEntries: number;
}

export interface TxLocation {
  blockNumber: bigint;
  index: number;
}

/**
 * Blocks committed by bulk mining whose batch is not written yet. Point reads (a block, its
 * receipts, a hash or transaction lookup) find them here; range reads (indexes, logs, dumps) wait
 * for `written`.
 */
interface Chunk {
  ops: KvOp[];
  committed: Array<() => void>;
  head: bigint | undefined;
  blocks: Map<bigint, { block: RskBlock; receipts: BlockReceipts }>;
  numbers: Map<string, bigint>;
  txs: Map<string, TxLocation>;
  written: Promise<void>;
  done: () => void;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

export class ChainStore {
  readonly stateDb: StateDb;
  /** Nodes the blocks above the oldest live snapshot were first to add; the chain turns it on. */
  readonly revertedNodes = new RevertedNodes();
  private readonly blocks = new Lru<bigint, RskBlock>(RECENT_BLOCKS);
  private readonly receipts = new Lru<bigint, BlockReceipts>(RECENT_BLOCKS);
  private readonly logs = new BlockLogsCache(RECENT_LOGS);
  /** The log index's postings that queries read (log-postings.ts). */
  private readonly postings: LogPostings;
  /** Recent transactions' locations by hash (hex), as commitBlock stored them. */
  private readonly txLocations = new Lru<string, TxLocation>(RECENT_TX_LOCATIONS);
  /** Set while a state load replaces the contents: reads wait for it instead of seeing them half written. */
  private loading: Promise<void> | undefined;
  /** Bulk mining's open chunk (openChunk), until its batch is written. */
  private chunk: Chunk | undefined;
  readonly reads: StoreReads = { blocks: 0, receipts: 0, indexEntries: 0 };
  /** The store as the address index reads it, counting each entry it visits. */
  private readonly indexKv: IndexKv;

  private constructor(
    private readonly kv: Kv,
    nodeCacheBytes: number,
  ) {
    this.stateDb = new StateDb(kv, nodeCacheBytes);
    this.postings = new LogPostings(kv);
    const reads = this.reads;
    this.indexKv = {
      get: (key) => (reads.indexEntries++, kv.get(key)),
      async *iterator(range) {
        for await (const entry of kv.iterator(range)) {
          reads.indexEntries++;
          yield entry;
        }
      },
    };
  }

  /** `location` undefined keeps everything in memory (`--in-memory`). */
  static async open(location: string | undefined): Promise<ChainStore> {
    // LevelDB's binding loads only for a data directory: an in-memory start does without it.
    const kv: Kv =
      location === undefined ? new MemoryKv() : new (await import('level')).Level<Uint8Array, Uint8Array>(location, { ...LEVELDB_OPTIONS, keyEncoding: 'view', valueEncoding: 'view' });
    await kv.open();
    return new ChainStore(kv, location === undefined ? IN_MEMORY_NODE_CACHE_BYTES : NODE_CACHE_BYTES);
  }

  async close(): Promise<void> {
    await this.kv.close();
  }

  async headNumber(): Promise<bigint | undefined> {
    await this.chunkWritten();
    const head = await this.kv.get(headKey());
    return head === undefined ? undefined : decodeNumber(head);
  }

  async getBlock(number: bigint): Promise<RskBlock | undefined> {
    if (this.loading !== undefined) await this.loading;
    this.reads.blocks++;
    const cached = this.blocks.get(number) ?? this.chunk?.blocks.get(number)?.block;
    if (cached !== undefined) return cached;
    const bytes = await this.kv.get(blockKey(number));
    if (bytes === undefined) return undefined;
    const block = decodeStoredBlock(bytes);
    this.blocks.set(number, block);
    return block;
  }

  async getBlockNumber(hash: Uint8Array): Promise<bigint | undefined> {
    if (this.loading !== undefined) await this.loading;
    const staged = this.chunk?.numbers.get(hex(hash));
    if (staged !== undefined) return staged;
    const bytes = await this.kv.get(hashToNumberKey(hash));
    return bytes === undefined ? undefined : decodeNumber(bytes);
  }

  async getReceipts(number: bigint): Promise<BlockReceipts | undefined> {
    if (this.loading !== undefined) await this.loading;
    this.reads.receipts++;
    const cached = this.receipts.get(number) ?? this.chunk?.blocks.get(number)?.receipts;
    if (cached !== undefined) return cached;
    const bytes = await this.kv.get(receiptsKey(number));
    if (bytes === undefined) return undefined;
    const receipts = decodeBlockReceipts(bytes);
    this.receipts.set(number, receipts);
    return receipts;
  }

  async getTxLocation(hash: Uint8Array): Promise<TxLocation | undefined> {
    if (this.loading !== undefined) await this.loading;
    const key = hex(hash);
    const recent = this.txLocations.get(key) ?? this.chunk?.txs.get(key);
    if (recent !== undefined) return recent;
    const bytes = await this.kv.get(txLocationKey(hash));
    if (bytes === undefined) return undefined;
    return { blockNumber: decodeNumber(bytes), index: new DataView(bytes.buffer, bytes.byteOffset).getUint32(8) };
  }

  async getMeta(name: string): Promise<Uint8Array | undefined> {
    return this.kv.get(metaKey(name));
  }

  async putMeta(name: string, value: Uint8Array): Promise<void> {
    await this.kv.put(metaKey(name), value);
  }

  /** The fork cache's records in this database (fork/cache.ts), under a key prefix of their own. */
  forkCacheStore(): { get(key: Uint8Array): Promise<Uint8Array | undefined>; put(key: Uint8Array, value: Uint8Array): Promise<void> } {
    return {
      get: (key) => this.kv.get(forkCacheKey(key)),
      put: (key, value) => this.kv.put(forkCacheKey(key), value),
    };
  }

  /**
   * Stores a block as the new head, with its receipts, indexes, buffered state and an optional meta
   * record (the parent's irregular state root), atomically.
   */
  async commitBlock(block: RskBlock, receipts: BlockReceipts, meta?: { name: string; value: Uint8Array }): Promise<void> {
    const number = block.header.number;
    const chunk = this.chunk;
    // While a snapshot is live, the nodes this block is first to add (reverted-nodes.ts), looked up
    // before they are staged: the chunk's earlier blocks' nodes count as stored.
    const firstAdded = chunk !== undefined && this.revertedNodes.isTracking ? this.stateDb.absent(this.stateDb.pendingKeys()) : undefined;
    const state = this.stateDb.takePending(chunk !== undefined);
    const ops: KvOp[] = chunk?.ops ?? [];
    for (const { key, value } of state.ops) ops.push({ type: 'put', key, value });
    ops.push(...blockRecordOps(block, receipts, encodeStoredBlock(block), encodeBlockReceipts(receipts)));
    if (meta !== undefined) ops.push({ type: 'put', key: metaKey(meta.name), value: meta.value });
    if (chunk !== undefined) {
      chunk.committed.push(state.committed);
      chunk.head = number;
      chunk.blocks.set(number, { block, receipts });
      chunk.numbers.set(hex(block.hash), number);
      block.transactions.forEach((tx, index) => chunk.txs.set(hex(tx.hash), { blockNumber: number, index }));
      this.cacheBlock(block, receipts);
      if (firstAdded !== undefined) this.revertedNodes.record(number, firstAdded);
      return;
    }
    ops.push({ type: 'put', key: headKey(), value: encodeNumber(number) });
    const added = await this.writeWithNewNodes(ops, state.keys);
    state.committed();
    this.revertedNodes.record(number, added);
    this.cacheBlock(block, receipts);
  }

  private cacheBlock(block: RskBlock, receipts: BlockReceipts): void {
    const number = block.header.number;
    compactBlockReceipts(receipts);
    this.blocks.set(number, block);
    this.receipts.set(number, receipts);
    this.logs.set(number, blockLogs(receipts));
    block.transactions.forEach((tx, index) => this.txLocations.set(hex(tx.hash), { blockNumber: number, index }));
  }

  /**
   * Starts a chunk: the blocks commitBlock stores from now on are written by closeChunk, in one
   * batch with the head pointer moved to the last of them.
   */
  openChunk(): void {
    if (this.chunk !== undefined) return;
    let done!: () => void;
    const written = new Promise<void>((resolve) => (done = resolve));
    this.chunk = { ops: [], committed: [], head: undefined, blocks: new Map(), numbers: new Map(), txs: new Map(), written, done };
  }

  /** Writes the open chunk's blocks and moves the head to the last, atomically; a no-op without one. */
  async closeChunk(): Promise<void> {
    const chunk = this.chunk;
    if (chunk === undefined) return;
    try {
      if (chunk.head !== undefined) {
        chunk.ops.push({ type: 'put', key: headKey(), value: encodeNumber(chunk.head) });
        await this.kv.batch(chunk.ops);
        for (const committed of chunk.committed) committed();
      }
    } finally {
      this.chunk = undefined;
      chunk.done();
    }
  }

  /** Waits until the open chunk, if any, is written: for reads that go past its point lookups. */
  private async chunkWritten(): Promise<void> {
    if (this.chunk !== undefined) await this.chunk.written;
  }

  /**
   * Writes a commit's batch and, while a snapshot is live, returns which of its state nodes the
   * store did not hold before (reverted-nodes.ts), looked up synchronously before the batch is
   * issued, so the batch's own writes never show in it.
   */
  private async writeWithNewNodes(ops: KvOp[], stateKeys: string[]): Promise<string[]> {
    const added = this.revertedNodes.isTracking ? this.stateDb.absent(stateKeys) : [];
    await this.kv.batch(ops);
    return added;
  }

  /** A block's and its receipts' records as stored (a state dump copies them as they are). */
  async rawBlock(number: bigint): Promise<{ block: Uint8Array; receipts: Uint8Array } | undefined> {
    return rawBlock(this.wholeChain(), number);
  }

  /** Every meta record (name, value), in name order. */
  metaRecords(): AsyncGenerator<[string, Uint8Array]> {
    return metaRecords(this.wholeChain());
  }

  /** Every state trie node (hex key, bytes): in key order from LevelDB, in no order from memory. */
  stateNodes(): AsyncGenerator<[string, Uint8Array]> {
    return stateNodes(this.wholeChain());
  }

  /** Replaces the whole chain with a state load's `records` (whole-chain.ts); reads wait for it and `settle`. */
  async replaceChain(records: AsyncIterable<ChainRecord>, stateMeta: (name: string) => boolean, settle: (head: RskBlock) => Promise<void>): Promise<void> {
    await replaceChain(this.wholeChain(), records, stateMeta, settle);
  }

  /** Starts the chain over from the block `build` commits, state nodes kept (whole-chain.ts); reads wait for it and `settle`. */
  async restartChain(stateMeta: (name: string) => boolean, build: () => Promise<RskBlock>, settle: (head: RskBlock) => Promise<void>): Promise<void> {
    await restartChain(this.wholeChain(), stateMeta, build, settle);
  }

  /** This store as whole-chain.ts works on it: its database, its read gate and its caches. */
  private wholeChain(): WholeChainTarget {
    return {
      kv: this.kv,
      stateDb: this.stateDb,
      revertedNodes: this.revertedNodes,
      chunkWritten: () => this.chunkWritten(),
      holdReads: () => {
        let done!: () => void;
        const held = new Promise<void>((resolve) => (done = resolve));
        this.loading = held;
        return {
          held,
          release: () => {
            this.loading = undefined;
            done();
          },
        };
      },
      clearRecent: () => {
        this.blocks.clear();
        this.receipts.clear();
        this.logs.clear();
        this.postings.clear();
        this.txLocations.clear();
      },
      blockRecordOps,
    };
  }

  /** Blocks in the criteria's range whose log index says they may match. */
  async logCandidates(criteria: LogCriteria): Promise<bigint[]> {
    if (this.loading !== undefined) await this.loading;
    await this.chunkWritten();
    return candidateBlocks(this.postings, criteria);
  }

  /** The logs of each block (none for a block not stored), reading receipts only for blocks not in memory. */
  async getBlockLogsMany(numbers: bigint[]): Promise<LogMatch[][]> {
    if (this.loading !== undefined) await this.loading;
    const found = numbers.map((n) => this.logs.get(n));
    const missing = numbers.filter((_, i) => found[i] === undefined);
    if (missing.length === 0) return found as LogMatch[][];
    const read = new Map<bigint, LogMatch[]>();
    for (const receipts of await this.getReceiptsMany(missing)) {
      const logs = blockLogs(receipts);
      this.logs.set(receipts.blockNumber, logs);
      read.set(receipts.blockNumber, logs);
    }
    return found.map((logs, i) => logs ?? read.get(numbers[i]!) ?? []);
  }

  /** Receipts of many blocks, reading the ones not in memory in one round trip. */
  async getReceiptsMany(numbers: bigint[]): Promise<BlockReceipts[]> {
    if (this.loading !== undefined) await this.loading;
    const found = numbers.map((n) => this.receipts.get(n) ?? this.chunk?.blocks.get(n)?.receipts);
    const missing = numbers.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const values = await this.kv.getMany(missing.map(receiptsKey));
      let next = 0;
      found.forEach((value, i) => {
        if (value !== undefined) return;
        const bytes = values[next++];
        if (bytes !== undefined) found[i] = decodeBlockReceipts(bytes);
      });
    }
    return found.filter((r): r is BlockReceipts => r !== undefined);
  }

  /**
   * Indexes every stored block once when the address index is not marked complete (a data
   * directory made before it); a no-op afterwards. Safe to repeat after a crash: the puts are the
   * same and the mark is written last. Returns the blocks indexed.
   */
  async ensureAddressIndex(base = 0n): Promise<number> {
    if ((await this.kv.get(metaKey(ADDRESS_INDEX_META))) !== undefined) return 0;
    const head = (await this.headNumber()) ?? -1n;
    let ops: KvOp[] = [];
    // From the chain's first stored block: a fork's blocks below its fork block are the remote's.
    for (let n = base; n <= head; n++) {
      const [block, receipts] = [await this.getBlock(n), await this.getReceipts(n)];
      if (block !== undefined && receipts !== undefined) ops.push(...addressIndexOps(block, receipts));
      if (ops.length >= LOAD_BATCH_OPS) {
        await this.kv.batch(ops);
        ops = [];
      }
    }
    ops.push({ type: 'put', key: metaKey(ADDRESS_INDEX_META), value: Uint8Array.of(1) });
    await this.kv.batch(ops);
    return Number(head + 1n);
  }

  /** A page of the address's transactions (address-index.ts). */
  async addressHistory(address: Uint8Array, direction: { before: bigint } | { after: bigint }, pageSize: number): Promise<HistoryPage> {
    if (this.loading !== undefined) await this.loading;
    await this.chunkWritten();
    return addressHistory(this.indexKv, address, direction, pageSize);
  }

  async hasAddressHistory(address: Uint8Array, bound: { atOrAbove: bigint } | { atOrBelow: bigint }): Promise<boolean> {
    if (this.loading !== undefined) await this.loading;
    await this.chunkWritten();
    return hasHistory(this.indexKv, address, bound);
  }

  async senderNonceTx(sender: Uint8Array, nonce: bigint): Promise<TxPosition | undefined> {
    if (this.loading !== undefined) await this.loading;
    await this.chunkWritten();
    return senderNonceTx(this.indexKv, sender, nonce);
  }

  async contractCreation(contract: Uint8Array): Promise<ContractCreation | undefined> {
    if (this.loading !== undefined) await this.loading;
    await this.chunkWritten();
    return contractCreation(this.indexKv, contract);
  }

  /** Block hash (hex) → state root, for every block with an irregular state record. */
  async irregularStates(): Promise<Map<string, Uint8Array>> {
    await this.chunkWritten();
    const found = new Map<string, Uint8Array>();
    const prefix = metaKey(IRREGULAR_STATE_PREFIX);
    // Block hashes are 0x + hex digits, all below '~' in UTF-8.
    for await (const [key, value] of this.kv.iterator({ gte: prefix, lt: metaKey(`${IRREGULAR_STATE_PREFIX}~`) })) {
      found.set(new TextDecoder().decode(key.subarray(prefix.length)), value);
    }
    return found;
  }

  /** Persists the buffered state nodes with a meta record in one batch (state overrides). */
  async commitState(metaName: string, metaValue: Uint8Array, headNumber: bigint): Promise<void> {
    const state = this.stateDb.takePending();
    const ops: KvOp[] = state.ops.map(({ key, value }) => ({ type: 'put', key, value }));
    ops.push({ type: 'put', key: metaKey(metaName), value: metaValue });
    const added = await this.writeWithNewNodes(ops, state.keys);
    state.committed();
    this.revertedNodes.record(headNumber, added);
  }

  /**
   * Makes `number` the head and deletes every block above it with its receipts, indexes and
   * irregular state records, in one batch (with an optional meta record, and the Bitcoin chain's
   * blocks above `btc.height`, so a revert rewinds both chains or neither). State nodes are shared
   * by content hash and stay, except those the dropped blocks were first to add (reverted-nodes.ts).
   */
  async truncateAbove(
    number: bigint,
    currentHead: bigint,
    meta?: { name: string; value: Uint8Array | undefined },
    btc?: { height: number; tip: number },
  ): Promise<Array<{ block: RskBlock; receipts: BlockReceipts }>> {
    const removed: Array<{ block: RskBlock; receipts: BlockReceipts }> = [];
    const ops: KvOp[] = [{ type: 'put', key: headKey(), value: encodeNumber(number) }];
    if (btc !== undefined) ops.push(...btcTruncationOps(btc.height, btc.tip));
    // The new head's state is the caller's (its override meta); no irregular record applies to it.
    const head = await this.getBlock(number);
    if (head !== undefined) ops.push({ type: 'del', key: metaKey(irregularStateMeta(head.hash)) });
    if (meta !== undefined) {
      ops.push(meta.value === undefined ? { type: 'del', key: metaKey(meta.name) } : { type: 'put', key: metaKey(meta.name), value: meta.value });
    }
    for (let n = currentHead; n > number; n--) {
      const block = await this.getBlock(n);
      if (block === undefined) continue;
      const receipts = (await this.getReceipts(n))!;
      removed.push({ block, receipts });
      ops.push(...blockRecordDeletes(block, receipts));
    }
    this.stateDb.discardPending();
    ops.push(...this.stateDb.deletions(this.revertedNodes.takeAbove(number)));
    await this.kv.batch(ops);
    this.postings.truncateAbove(number);
    for (const { block } of removed) {
      this.blocks.delete(block.header.number);
      this.receipts.delete(block.header.number);
      this.logs.delete(block.header.number);
      for (const tx of block.transactions) this.txLocations.delete(hex(tx.hash));
    }
    return removed;
  }

  // ---- the Bitcoin regtest chain (btc-chain/): its records are btc-records.ts's ----

  btcTip(): Promise<number | undefined> {
    return btcTip(this.kv);
  }

  /** The stored Bitcoin blocks at heights from..tip. */
  btcBlocks(from: number, tip: number): Promise<Uint8Array[]> {
    return btcBlocks(this.kv, from, tip);
  }

  /** Writes Bitcoin blocks from height `from` on and moves the tip to the last, atomically. */
  appendBtcBlocks(from: number, blocks: readonly Uint8Array[]): Promise<void> {
    return appendBtcBlocks(this.kv, from, blocks);
  }
}
