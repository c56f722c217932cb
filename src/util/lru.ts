/**
 * A bounded map that keeps what was used recently, in two generations rather than a list ordered
 * by use. A read looks in the young generation, then in the old one; an entry found in the old one
 * moves to the young one. Once the young generation holds half the capacity it becomes the old one
 * and a new young one starts, so an entry unused for a whole generation is dropped. A hit costs one
 * or two Map lookups; a strict LRU on a Map deletes and re-inserts the entry on every read, which
 * showed in the profile of eth_call under load (the head view reads several entries per call).
 *
 * The capacity counts entries, or what `weigh` says each value costs (bytes, for trie nodes); the
 * total never exceeds it: the old generation's oldest entries go first.
 *
 * Against lru-cache 11 (a strict LRU with maxSize/sizeCalculation; here only through other
 * packages, so adopting it needs `npm install lru-cache`), at equal capacity, measured by
 * scripts/bench/lru.ts (10,000 entries or 3.5 MB of 100-600 byte values, 2 busy cores, medians of
 * 5 interleaved rounds, two runs):
 * - a hit costs 54-126 ns here against 151-212 ns (1.5-3x less: two Map lookups, no list update);
 * - a miss followed by an insert into a full cache costs about the same (440-840 ns against
 *   540-800 ns; the runs disagree on which is faster);
 * - the hit rate of a skewed read-through stream over 10x the capacity is lower: 14.5% against
 *   18.4% (mild skew) and 38.0% against 42.9% (hot set), since an entry read once in the old
 *   generation is kept no longer than one unused for as long.
 * So this map wins where hits dominate and a miss is cheap to repair (the flat view, the JSON and
 * trace caches), and loses where a miss costs far more than the 60-150 ns a hit saves, as a
 * LevelDB read behind the state-db node cache may: that cache is the candidate for lru-cache.
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;
  private oldWeight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
    /** What an entry found in the old generation is kept as in the young one (state-db.ts: its own buffer). */
    private readonly promote: (value: V) => V = (value) => value,
  ) {}

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.old.delete(key);
    this.oldWeight -= this.weigh(old);
    const kept = this.promote(old);
    this.keep(key, kept);
    return kept;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.keep(key, value);
  }

  delete(key: K): void {
    const young = this.young.get(key);
    if (young !== undefined) {
      this.young.delete(key);
      this.youngWeight -= this.weigh(young);
    }
    const old = this.old.get(key);
    if (old !== undefined) {
      this.old.delete(key);
      this.oldWeight -= this.weigh(old);
    }
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngWeight = 0;
    this.oldWeight = 0;
  }

  /** Entries held. */
  get size(): number {
    return this.young.size + this.old.size;
  }

  /** What the entries held weigh together (their count, without `weigh`). */
  get weight(): number {
    return this.youngWeight + this.oldWeight;
  }

  private keep(key: K, value: V): void {
    if (this.youngWeight >= this.capacity / 2) {
      this.old = this.young;
      this.oldWeight = this.youngWeight;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += this.weigh(value);
    for (const [oldest, evicted] of this.old) {
      if (this.youngWeight + this.oldWeight <= this.capacity) break;
      this.old.delete(oldest);
      this.oldWeight -= this.weigh(evicted);
    }
  }
}
