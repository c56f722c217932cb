/**
 * The log index's postings (log-index.ts) kept in memory per key prefix (an address, a topic at a
 * position, the "has logs" mark), for the block range a query read: the same eth_getLogs again
 * reads nothing from LevelDB, and one reaching past it reads only the blocks added since. On disk
 * the postings scan was the main cost the persistent path had over --in-memory (issue 25).
 *
 * Blocks at or below a range read never gain postings unless the chain is rewound
 * (`truncateAbove`) or replaced (`clear`): the store calls those, and a scan that was reading
 * while either ran keeps its answer to itself.
 */
import { concatBytes } from '@ethereumjs/util';
import { type Kv, decodeNumber, encodeNumber } from './keys.js';

/**
 * Block numbers held over all prefixes, 8 bytes each: about 1.6 MB. Room for an address and a
 * topic posted in every one of 100,000 blocks (the default eth_getLogs range is 2,000 blocks).
 */
export const POSTINGS_CACHED = 200_000;

/** A prefix's postings in [from, to], ascending (numbers: a block number is far below 2^53). */
interface Postings {
  from: bigint;
  to: bigint;
  blocks: number[];
}

export class LogPostings {
  /** By prefix (hex); Map order is use order, oldest first. */
  private readonly entries = new Map<string, Postings>();
  private held = 0;
  /** Changed by every rewind and clear: a scan started before one must not store what it read. */
  private generation = 0;

  constructor(
    private readonly kv: Kv,
    private readonly maxHeld: number = POSTINGS_CACHED,
  ) {}

  /** Block numbers in [from, to] whose postings under `prefix` exist, ascending. */
  async scan(prefix: Uint8Array, from: bigint, to: bigint): Promise<bigint[]> {
    const key = Buffer.from(prefix).toString('hex');
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.from <= from && to <= entry.to) {
      this.touch(key, entry);
      return within(entry.blocks, from, to);
    }
    const generation = this.generation;
    // Reaching past what was read: only the blocks above it come from disk.
    if (entry !== undefined && entry.from <= from && from <= entry.to + 1n) {
      const base = entry.to;
      const added = await this.read(prefix, base + 1n, to);
      const current = this.entries.get(key);
      if (generation === this.generation && current === entry && entry.to === base) {
        for (const n of added) entry.blocks.push(n);
        entry.to = to;
        this.held += added.length;
        this.touch(key, entry);
        this.evict();
      }
      return [...within(entry.blocks, from, base), ...added.map(BigInt)];
    }
    const blocks = await this.read(prefix, from, to);
    if (generation === this.generation && blocks.length <= this.maxHeld) {
      this.remove(key);
      this.entries.set(key, { from, to, blocks });
      this.held += blocks.length;
      this.evict();
    }
    return blocks.map(BigInt);
  }

  /** Forgets every posting above `number` (the blocks a rewind deletes). */
  truncateAbove(number: bigint): void {
    this.generation++;
    for (const [key, entry] of this.entries) {
      if (entry.to <= number) continue;
      if (entry.from > number) {
        this.remove(key);
        continue;
      }
      const kept = countUpTo(entry.blocks, Number(number));
      this.held -= entry.blocks.length - kept;
      entry.blocks.length = kept;
      entry.to = number;
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.held = 0;
  }

  /** Block numbers held, for tests of the bound. */
  get size(): number {
    return this.held;
  }

  /** The keys come in batches (LevelDB's nextv): stepping one key at a time took about 6 ms of a 2,000-block query. */
  private async read(prefix: Uint8Array, from: bigint, to: bigint): Promise<number[]> {
    const keys = await this.kv.keys({ gte: concatBytes(prefix, encodeNumber(from)), lte: concatBytes(prefix, encodeNumber(to)) }).all();
    return keys.map((k) => Number(decodeNumber(k, prefix.length)));
  }

  private touch(key: string, entry: Postings): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.blocks.length;
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.held <= this.maxHeld) return;
      this.remove(key);
    }
  }
}

/** How many of the ascending `blocks` are at most `n` (binary search). */
function countUpTo(blocks: number[], n: number): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]! <= n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ascending `blocks` within [from, to], as block numbers. */
function within(blocks: number[], from: bigint, to: bigint): bigint[] {
  const start = countUpTo(blocks, Number(from) - 1);
  const end = countUpTo(blocks, Number(to));
  const out = new Array<bigint>(end - start);
  for (let i = start; i < end; i++) out[i - start] = BigInt(blocks[i]!);
  return out;
}
