/**
 * A bounded map that keeps what was used recently, in two generations rather than a list ordered
 * by use. A read looks in the young generation, then in the old one; an entry found in the old one
 * moves to the young one. Once the young generation holds half the capacity it becomes the old one
 * and a new young one starts, so an entry unused for a whole generation is dropped. A hit costs one
 * or two Map lookups; a strict LRU on a Map deletes and re-inserts the entry on every read, which
 * showed in the profile of eth_call under load (the head view reads several entries per call).
 * At most `capacity` entries are held.
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly youngLimit: number;

  constructor(private readonly capacity: number) {
    this.youngLimit = Math.max(1, Math.ceil(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.old.delete(key);
    this.keep(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.young.has(key)) {
      this.young.set(key, value);
      return;
    }
    this.old.delete(key);
    this.keep(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  private keep(key: K, value: V): void {
    if (this.young.size >= this.youngLimit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
    if (this.young.size + this.old.size > this.capacity) this.old.delete(this.old.keys().next().value as K);
  }
}
