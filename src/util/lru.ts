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
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;
  private oldWeight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.old.delete(key);
    this.oldWeight -= this.weigh(old);
    this.keep(key, old);
    return old;
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
