/**
 * The key-value store under the state trie (@ethereumjs/mpt's `DB` interface). Writes made while a
 * block is built stay in memory until the chain store commits them in the same atomic batch as
 * the block, so a crash never leaves a head whose state is missing. Nodes are never pruned: the
 * state of every block stays readable; only nodes first added by blocks that evm_revert drops are
 * deleted with them (reverted-nodes.ts).
 */
import type { BatchDBOp, DB } from '@ethereumjs/util';
import { Lru } from '../../util/lru.js';
import { type Kv, stateNodeKeyOfHex } from './keys.js';

/**
 * Bytes of trie nodes kept in memory after a disk read or a commit; the head's hot paths touch
 * the same few thousand. Bounded by bytes, not entries: every block adds new nodes, and a count
 * bound let 5,000 snapshot/transaction/revert cycles grow the heap by 30 MB (issue 12). 8 MiB, not
 * 16: after the bench's write workloads a 16 MiB cache was full, mostly of superseded nodes of past
 * blocks, and held about 7 MiB more heap and array buffers than 8 (issue 25).
 */
export const NODE_CACHE_BYTES = 8 * 1024 * 1024;
/**
 * The same for an in-memory chain (`--in-memory`), whose store already holds every node in
 * memory: the cache only saves a store lookup there, so it stays small instead of doubling nodes.
 */
export const IN_MEMORY_NODE_CACHE_BYTES = 2 * 1024 * 1024;
/** What an entry costs besides its value: the 64-character key string and the map's slot. */
const NODE_ENTRY_OVERHEAD = 200;

/**
 * Committed nodes enter the cache copied into shared buffers ("slabs") of at most this size, one
 * or two per block, instead of each in a buffer of its own: V8 spends about 190 bytes beside each
 * buffer (its ArrayBuffer and backing store), more than a typical node holds, and after 2,000
 * blocks the cache held 25,000 committed nodes, most of them superseded and never read again
 * (issue 25). A slab's nodes enter the cache's young generation together (lru.ts); one read again
 * after that generation has aged is copied into a buffer of its own as it moves back (ownBuffer),
 * so a slab lives no longer than its generation and the bound stays what the weights say. The
 * next block reads most of the last one's nodes while they are young: copying at every first read
 * would copy nearly all of them. Nodes of half a slab or more keep their own buffer.
 */
const NODE_SLAB_BYTES = 4096;
/**
 * Slab views start past this many unused bytes, so a view is told from a buffer of its own by its
 * nonzero offset without touching `.buffer` (which makes V8 allocate one for a small on-heap array).
 */
const SLAB_PAD = 1;

/** A node in a slab (or a pooled disk read) as a copy in a buffer of its own; others as they are. */
const ownBuffer = (value: Uint8Array) => (value.byteOffset === 0 ? value : value.slice());

/** What a cached node weighs against the budget. */
const nodeWeight = (value: Uint8Array) => value.length + NODE_ENTRY_OVERHEAD;

export class StateDb implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();
  /**
   * Nodes of blocks committed into a chunk the chain store has not written yet (bulk mining,
   * ChainStore.openChunk): readable here until the chunk's batch is on disk.
   */
  private readonly staged = new Map<string, Uint8Array>();
  /** A state load in progress (ChainStore.replaceChain): reads wait for it. */
  private loading: Promise<void> | undefined;
  /** Recently used nodes within a byte budget (lru.ts: two generations, weighed in bytes). */
  private readonly cache: Lru<string, Uint8Array>;

  constructor(
    private readonly kv: Kv,
    cacheBytes = NODE_CACHE_BYTES,
  ) {
    this.cache = new Lru(cacheBytes, nodeWeight, ownBuffer);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    if (this.loading !== undefined) await this.loading;
    const value = this.pending.get(key) ?? this.staged.get(key);
    if (value !== undefined) return value;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const stored = await this.kv.get(stateNodeKeyOfHex(key));
    if (stored !== undefined) this.cache.set(key, stored);
    return stored;
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value);
  }

  /** The trie only deletes without pruning when it drops its own uncommitted nodes. */
  async del(key: string): Promise<void> {
    this.pending.delete(key);
  }

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.pending.set(op.key, op.value);
      else this.pending.delete(op.key);
    }
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  /**
   * Hands the buffered nodes to the caller's batch and starts a new buffer. The caller calls
   * `committed` once the batch is on disk; only then do the nodes enter the read cache. `staged`:
   * the batch is written later (a chunk of blocks), so the nodes stay readable until `committed`.
   */
  takePending(staged = false): { keys: string[]; ops: Array<{ key: Uint8Array; value: Uint8Array }>; committed: () => void } {
    const taken = this.pending;
    this.pending = new Map();
    const keys = [...taken.keys()];
    const ops = [...taken].map(([key, value]) => ({ key: stateNodeKeyOfHex(key), value }));
    if (staged) for (const [key, value] of taken) this.staged.set(key, value);
    const committed = () => {
      for (const [key, value] of inSlabs(taken)) this.cache.set(key, value);
      if (staged) for (const key of taken.keys()) this.staged.delete(key);
    };
    return { keys, ops, committed };
  }

  /** The keys of the nodes buffered for the block being built. */
  pendingKeys(): string[] {
    return [...this.pending.keys()];
  }

  /**
   * Of these node keys, the ones neither stored, staged nor cached (to be written for the first
   * time), as the store is now. Read synchronously (LevelDB's getSync on this thread): a dozen
   * lookups of absent keys, answered by LevelDB's memtable and bloom filters, cost about half the
   * CPU of one getMany round trip through libuv's pool, and nothing written later can show in them.
   */
  absent(keys: string[]): string[] {
    const absent: string[] = [];
    for (const key of keys) {
      if (this.cache.has(key) || this.staged.has(key)) continue;
      if (this.kv.getSync(stateNodeKeyOfHex(key)) === undefined) absent.push(key);
    }
    return absent;
  }

  /** Delete operations for these nodes, and their removal from the cache (see reverted-nodes.ts). */
  deletions(keys: string[]): Array<{ type: 'del'; key: Uint8Array }> {
    for (const key of keys) this.cache.delete(key);
    return keys.map((key) => ({ type: 'del', key: stateNodeKeyOfHex(key) }));
  }

  discardPending(): void {
    this.pending = new Map();
  }

  /** Makes reads wait for `done` (a state load), or no longer wait (undefined). */
  holdReadsUntil(done: Promise<void> | undefined): void {
    this.loading = done;
  }

  /** Forgets every cached node (a state load replaced the store's contents). */
  clearCache(): void {
    this.cache.clear();
  }

  /** The node cache's size, for tests of its bound. */
  get cacheSize(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.weight };
  }
}

/** The nodes with their small values copied into shared slabs (NODE_SLAB_BYTES), in the map's order. */
function inSlabs(nodes: Map<string, Uint8Array>): Array<[string, Uint8Array]> {
  let left = 0;
  for (const value of nodes.values()) if (value.length < NODE_SLAB_BYTES / 2) left += value.length;
  const out: Array<[string, Uint8Array]> = [];
  let slab = new Uint8Array(0);
  let offset = 0;
  for (const [key, value] of nodes) {
    if (value.length >= NODE_SLAB_BYTES / 2) {
      out.push([key, value]);
      continue;
    }
    if (offset + value.length > slab.length) {
      slab = new Uint8Array(Math.min(NODE_SLAB_BYTES, SLAB_PAD + left));
      offset = SLAB_PAD;
    }
    slab.set(value, offset);
    out.push([key, slab.subarray(offset, (offset += value.length))]);
    left -= value.length;
  }
  return out;
}

/**
 * A throwaway layer over the state store: reads fall through, writes stay here. Used to build the
 * pending block, whose state must never reach disk.
 */
export class OverlayDb implements DB<string, Uint8Array> {
  private readonly writes = new Map<string, Uint8Array>();

  constructor(private readonly base: DB<string, Uint8Array>) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.writes.get(key) ?? this.base.get(key);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.writes.set(key, value);
  }

  async del(key: string): Promise<void> {
    this.writes.delete(key);
  }

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.writes.set(op.key, op.value);
      else this.writes.delete(op.key);
    }
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  /** The nodes written here: a pending block that gets mined after all (merged mining) commits them. */
  written(): IterableIterator<[string, Uint8Array]> {
    return this.writes.entries();
  }
}
