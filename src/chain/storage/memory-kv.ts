/**
 * The store of an in-memory chain (`--in-memory`), compact: memory-level keeps every record as a
 * red-black-tree node with a Buffer wrapper and an ArrayBuffer of its own for key and value (about
 * 450 bytes on top of the data; 2,800 blocks of the bench held 87,000 of them). Here the records
 * that are only ever looked up by key (blocks, receipts, indexes, trie nodes: nearly all of them)
 * live in a Map from a one-byte-per-byte string key to a place in large shared value slabs; only
 * the prefixes that are scanned in key order (keys.ts ORDERED_PREFIXES: meta records and the
 * log index) stay in a memory-level tree. Dead slab bytes (overwritten or deleted records: reverted
 * blocks) are reclaimed by copying the live values into fresh slabs once they outweigh the live ones.
 */
import { MemoryLevel } from 'memory-level';
import { type KeyScan, type Kv, type KvOp, type KvRange, ORDERED_PREFIXES } from './keys.js';

/** Size of one value slab. */
export const SLAB_BYTES = 1024 * 1024;
/** Values at least this big get an array of their own instead of a place in a slab. */
export const LARGE_VALUE_BYTES = 64 * 1024;
/** Dead slab bytes tolerated before a compaction, whatever the live size. */
export const COMPACT_MIN_DEAD_BYTES = 4 * 1024 * 1024;

// A slab value's place packed into one number: slab index, offset in it and length (20 bits each:
// SLAB_BYTES and LARGE_VALUE_BYTES are below 2^20, and 2^13 slabs stay below 2^53).
const FIELD = 2 ** 20;
/** Slabs a place can name (8 GiB of values): beyond, the packed number would lose bits. */
const MAX_SLABS = 2 ** 13;
const pack = (slab: number, offset: number, length: number) => (slab * FIELD + offset) * FIELD + length;

/** Values by key string, in slabs; see the module comment. */
class SlabMap {
  private readonly places = new Map<string, number | Uint8Array>();
  private slabs: Uint8Array[] = [];
  private used = SLAB_BYTES;
  private liveBytes = 0;
  private deadBytes = 0;

  /**
   * A copy: a view would let a caller's write reach the store, and a cached view would keep a whole
   * slab alive after a compaction retired it.
   */
  get(key: string): Uint8Array | undefined {
    return this.view(key)?.slice();
  }

  private view(key: string): Uint8Array | undefined {
    const place = this.places.get(key);
    if (place === undefined || typeof place !== 'number') return place;
    const length = place % FIELD;
    const rest = (place - length) / FIELD;
    const offset = rest % FIELD;
    const slab = (rest - offset) / FIELD;
    return this.slabs[slab]!.subarray(offset, offset + length);
  }

  set(key: string, value: Uint8Array): void {
    // Trie nodes are stored by content hash: a block often writes one that is there already.
    if (this.places.has(key) && Buffer.compare(this.view(key)!, value) === 0) return;
    this.forget(key);
    this.places.set(key, this.place(value));
    if (value.length < LARGE_VALUE_BYTES) this.liveBytes += value.length;
    this.compactIfWasteful();
  }

  delete(key: string): void {
    this.forget(key);
    this.places.delete(key);
    this.compactIfWasteful();
  }

  keys(): IterableIterator<string> {
    return this.places.keys();
  }

  private place(value: Uint8Array): number | Uint8Array {
    // Empty values get no slab place: at offset SLAB_BYTES (a full slab) the packed offset would
    // spill into the slab field.
    if (value.length === 0 || value.length >= LARGE_VALUE_BYTES) return value.slice();
    if (this.used + value.length > SLAB_BYTES) {
      if (this.slabs.length >= MAX_SLABS) throw new Error(`the in-memory chain holds ${MAX_SLABS} MiB of records, its limit: use a data directory for a chain this size`);
      this.slabs.push(new Uint8Array(SLAB_BYTES));
      this.used = 0;
    }
    const slab = this.slabs.length - 1;
    this.slabs[slab]!.set(value, this.used);
    this.used += value.length;
    return pack(slab, this.used - value.length, value.length);
  }

  private forget(key: string): void {
    const old = this.places.get(key);
    if (typeof old !== 'number') return;
    const length = old % FIELD;
    this.liveBytes -= length;
    this.deadBytes += length;
  }

  /**
   * Once dead bytes outweigh live ones, copies every live value into fresh slabs (fewer than now,
   * so placing them cannot hit MAX_SLABS).
   */
  private compactIfWasteful(): void {
    if (this.deadBytes <= Math.max(COMPACT_MIN_DEAD_BYTES, this.liveBytes)) return;
    const live = [...this.places].filter(([, place]) => typeof place === 'number').map(([key]) => [key, this.view(key)!] as const);
    this.slabs = [];
    this.used = SLAB_BYTES;
    this.deadBytes = 0;
    for (const [key, value] of live) this.places.set(key, this.place(value));
  }
}

/** Bytes ↔ a string of one char code per byte, which sorts as the bytes do. */
const keyString = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
const keyBytes = (key: string) => new Uint8Array(Buffer.from(key, 'latin1'));

const ordered = (key: Uint8Array) => ORDERED_PREFIXES.has(key[0]!);

/**
 * A key the tree can keep: keys are built in Node's Buffer pool (keys.ts recordBytes), and the tree
 * keeps what it is given, so a kept view would hold the pool's whole 8 KiB block.
 */
const ownKey = (key: Uint8Array) => (Buffer.isBuffer(key) ? new Uint8Array(key) : key);

function rangeTest(range: KvRange): (key: string) => boolean {
  const bound = (b: Uint8Array | undefined) => (b === undefined ? undefined : keyString(b));
  const [gte, gt, lte, lt] = [bound(range.gte), bound(range.gt), bound(range.lte), bound(range.lt)];
  return (key) => (gte === undefined || key >= gte) && (gt === undefined || key > gt) && (lte === undefined || key <= lte) && (lt === undefined || key < lt);
}

/** The first byte a range can start and end at (0 and 255 when unbounded). */
function prefixSpan(range: KvRange): [number, number] {
  const low = range.gte ?? range.gt;
  const high = range.lte ?? range.lt;
  return [low === undefined || low.length === 0 ? 0 : low[0]!, high === undefined || high.length === 0 ? 255 : high[0]!];
}

/** Whether a range stays within one ordered prefix: then the tree alone holds its records. */
function withinOneOrderedPrefix(range: KvRange): boolean {
  const [from, to] = prefixSpan(range);
  return from === to && ORDERED_PREFIXES.has(from);
}

export class MemoryKv implements Kv {
  private readonly slabs = new SlabMap();
  private readonly tree = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view', storeEncoding: 'view' });

  open(): Promise<void> {
    return this.tree.open();
  }

  close(): Promise<void> {
    return this.tree.close();
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return ordered(key) ? this.tree.get(key) : this.slabs.get(keyString(key));
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    return ordered(key) ? this.tree.getSync(key) : this.slabs.get(keyString(key));
  }

  async getMany(keys: Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    return Promise.all(keys.map((key) => this.get(key)));
  }

  put(key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.batch([{ type: 'put', key, value }]);
  }

  /** Atomic for every other reader: both parts change before this returns its promise. */
  batch(ops: KvOp[]): Promise<void> {
    const treeOps: KvOp[] = [];
    for (const op of ops) {
      if (ordered(op.key)) treeOps.push(op.type === 'put' ? { ...op, key: ownKey(op.key) } : op);
      else if (op.type === 'put') this.slabs.set(keyString(op.key), op.value);
      else this.slabs.delete(keyString(op.key));
    }
    // memory-level applies an array batch before its first await.
    return treeOps.length === 0 ? Promise.resolve() : this.tree.batch(treeOps);
  }

  async *iterator(range: KvRange = {}): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (withinOneOrderedPrefix(range)) {
      yield* this.tree.iterator(range);
      return;
    }
    // A scan over looked-up-only records (tests, tools): collected and sorted, not fast.
    const found = new Map<string, Uint8Array>();
    for await (const [key, value] of this.tree.iterator(range)) found.set(keyString(key), value);
    const inRange = rangeTest(range);
    for (const key of this.slabs.keys()) if (inRange(key)) found.set(key, this.slabs.get(key)!);
    const keys = [...found.keys()].sort();
    if (range.reverse === true) keys.reverse();
    for (const key of keys) yield [keyBytes(key), found.get(key)!];
  }

  /**
   * The records of one looked-up-only prefix in no particular order, one at a time (a state
   * dump's trie nodes): `iterator` would collect and sort them all first.
   */
  *unordered(prefix: number): Generator<[Uint8Array, Uint8Array]> {
    const first = String.fromCharCode(prefix);
    for (const key of this.slabs.keys()) if (key[0] === first) yield [keyBytes(key), this.slabs.get(key)!];
  }

  keys(range: KvRange = {}): KeyScan {
    const all = async (): Promise<Uint8Array[]> => {
      // The log index's scans: all keys at once, not one abstract-level step each.
      if (withinOneOrderedPrefix(range)) return this.tree.keys(range).all();
      const keys: Uint8Array[] = [];
      for await (const [key] of this.iterator(range)) keys.push(key);
      return keys;
    };
    return {
      all,
      async *[Symbol.asyncIterator]() {
        yield* await all();
      },
    };
  }
}
