/**
 * `npx tsx scripts/bench/lru.ts [--rounds 5]`: src/util/lru.ts's two-generation map against
 * lru-cache 11 (a strict LRU over a doubly linked list, with maxSize/sizeCalculation) at equal
 * capacity: the cost of a hit, the cost of a miss followed by an insert into a full cache, and the
 * hit rate of a skewed key stream under churn. The figures in lru.ts's header come from here.
 * Rounds are interleaved and the median is reported; the key streams are seeded, so the hit rates
 * are exact and the times vary only with the machine.
 *
 * lru-cache is not a dependency of this package (it is installed through other packages), so it
 * is loaded at run time and typed here by the few members used: typechecking does not depend on
 * what npm happens to hoist.
 */
import { parseArgs } from 'node:util';
import { Lru } from '../../src/util/lru.js';

interface LruCacheOptions {
  max?: number;
  maxSize?: number;
  sizeCalculation?: (value: Uint8Array) => number;
}
type LruCacheClass = new (options: LruCacheOptions) => Cache;
const LRU_CACHE = 'lru-cache';
const { LRUCache } = (await import(LRU_CACHE).catch(() => {
  throw new Error('lru-cache is not installed (it comes with other packages; else npm install --no-save lru-cache)');
})) as { LRUCache: LruCacheClass };

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } }, strict: true });
const ROUNDS = Number(values.rounds);

/** Entries, as the state-db node cache holds at its default size. */
const CAPACITY = 10_000;
const OPS = 300_000;
/** Values of 100-600 bytes, like trie nodes; the weighted capacity holds about CAPACITY of them. */
const BYTES_CAPACITY = CAPACITY * 350;

interface Cache {
  get(key: string): Uint8Array | undefined;
  set(key: string, value: Uint8Array): void;
}

type Make = (weighted: boolean) => Cache;

const IMPLEMENTATIONS: Record<string, Make> = {
  'two-generation Lru': (weighted) => (weighted ? new Lru<string, Uint8Array>(BYTES_CAPACITY, (v) => v.length) : new Lru<string, Uint8Array>(CAPACITY)),
  'lru-cache 11': (weighted) =>
    weighted
      ? new LRUCache({ maxSize: BYTES_CAPACITY, sizeCalculation: (v) => v.length })
      : new LRUCache({ max: CAPACITY }),
};

/** mulberry32: a seeded generator, so every run draws the same keys. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The keys, made once: a string's hash is computed on its first Map lookup, and fresh strings
 * would measure that rather than the cache.
 */
const UNIVERSE = CAPACITY * 10;
const KEYS = Array.from({ length: UNIVERSE + OPS }, (_, i) => i.toString(16).padStart(64, '0'));
const key = (i: number) => KEYS[i]!;
const VALUES = Array.from({ length: 64 }, (_, i) => new Uint8Array(100 + ((i * 97) % 500)));
const valueFor = (i: number) => VALUES[i % VALUES.length]!;

/** A skewed stream over `universe` keys: rank = universe × u^skew, so low ranks are hot. */
function skewedStream(universe: number, skew: number, length: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length }, () => key(Math.floor(universe * next() ** skew)));
}

function nsPerOp(run: () => void, ops: number): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / ops;
}

/** A hit: the keys (half the capacity) are all held, read in random order. */
function hitCost(make: Make, weighted: boolean): number {
  const cache = make(weighted);
  const held = CAPACITY / 2;
  for (let i = 0; i < held; i++) cache.set(key(i), valueFor(i));
  const next = random(1);
  const reads = Array.from({ length: OPS }, () => key(Math.floor(next() * held)));
  return nsPerOp(() => {
    for (const k of reads) if (cache.get(k) === undefined) throw new Error('expected a hit');
  }, OPS);
}

/** A miss then an insert, in a full cache: every key is new, so every insert evicts. */
function missInsertCost(make: Make, weighted: boolean): number {
  const cache = make(weighted);
  for (let i = 0; i < CAPACITY; i++) cache.set(key(i), valueFor(i));
  const keys = Array.from({ length: OPS }, (_, i) => key(CAPACITY + i));
  return nsPerOp(() => {
    keys.forEach((k, i) => {
      if (cache.get(k) === undefined) cache.set(k, valueFor(i));
    });
  }, OPS);
}

/** Read-through under churn: a miss inserts; the stream's universe is 10× the capacity. */
function hitRate(make: Make, weighted: boolean, stream: string[]): number {
  const cache = make(weighted);
  let hits = 0;
  stream.forEach((k, i) => {
    if (cache.get(k) !== undefined) hits++;
    else cache.set(k, valueFor(i));
  });
  return hits / stream.length;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const STREAMS = { 'skew 2 (mild)': 2, 'skew 4 (hot set)': 4 } as const;
const streams = Object.fromEntries(Object.entries(STREAMS).map(([name, skew]) => [name, skewedStream(UNIVERSE, skew, OPS, 7)]));

for (const weighted of [false, true]) {
  console.log(weighted ? `\nweighted by bytes, capacity ${BYTES_CAPACITY} bytes` : `counted, capacity ${CAPACITY} entries`);
  const times: Record<string, { hit: number[]; miss: number[] }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, make] of Object.entries(IMPLEMENTATIONS)) {
      times[name] ??= { hit: [], miss: [] };
      times[name].hit.push(hitCost(make, weighted));
      times[name].miss.push(missInsertCost(make, weighted));
    }
  }
  for (const [name, make] of Object.entries(IMPLEMENTATIONS)) {
    const rates = Object.entries(streams).map(([label, stream]) => `${label} ${(100 * hitRate(make, weighted, stream)).toFixed(1)}%`);
    console.log(
      `  ${name.padEnd(20)} hit ${median(times[name]!.hit).toFixed(0).padStart(4)} ns, miss+insert ${median(times[name]!.miss).toFixed(0).padStart(4)} ns, hit rate: ${rates.join(', ')}`,
    );
  }
}
