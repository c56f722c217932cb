/**
 * Committed trie nodes enter StateDb's read cache copied into a few shared buffers (issue 25: one
 * buffer per node cost more than most nodes hold), and a node read again once its generation has
 * aged moves into a buffer of its own, so no slab outlives the generation it entered with.
 */
import { describe, expect, it } from 'vitest';
import { MemoryKv } from '../../src/chain/storage/memory-kv.js';
import { NODE_CACHE_BYTES, StateDb } from '../../src/chain/storage/state-db.js';

const key = (i: number) => i.toString(16).padStart(64, '0');
const node = (i: number, length: number) => new Uint8Array(length).fill(i & 0xff);

/** The cache's values, for counting the buffers behind them (the Lru's generations are private). */
function cachedValues(db: StateDb): Uint8Array[] {
  const cache = (db as unknown as { cache: { young: Map<string, Uint8Array>; old: Map<string, Uint8Array> } }).cache;
  return [...cache.young.values(), ...cache.old.values()];
}

async function committed(sizes: number[]): Promise<StateDb> {
  const kv = new MemoryKv();
  await kv.open();
  const db = new StateDb(kv, NODE_CACHE_BYTES);
  for (const [i, length] of sizes.entries()) await db.put(key(i), node(i, length));
  db.takePending().committed();
  return db;
}

describe('StateDb node cache slabs', () => {
  it('holds a block of small committed nodes in a few shared buffers, its weight unchanged', async () => {
    const sizes = Array.from({ length: 40 }, (_, i) => 70 + i * 5);
    const db = await committed(sizes);
    const values = cachedValues(db);
    expect(values).toHaveLength(40);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(new Set(values.map((v) => v.buffer)).size).toBe(Math.ceil(total / 4000));
    expect(db.cacheSize.bytes).toBe(total + 40 * 200);
  });

  it('answers every node with its bytes; one read again after its generation aged moves into a buffer of its own', async () => {
    const sizes = [32, 100, 532, 17, 300];
    const kv = new MemoryKv();
    await kv.open();
    // Small enough that the fillers below age the first block's generation, large enough to evict nothing.
    const db = new StateDb(kv, 20_000);
    for (const [i, length] of sizes.entries()) await db.put(key(i), node(i, length));
    db.takePending().committed();
    // Read while young (the next block walks the last one's nodes): answered from the slab, not copied.
    const young = (await db.get(key(1)))!;
    expect(young).toEqual(node(1, 100));
    expect(young.buffer.byteLength).toBeGreaterThan(100);
    for (let i = 100; i < 130; i++) await db.put(key(i), node(i, 100));
    db.takePending().committed();
    expect(db.cacheSize.entries).toBe(35);
    for (const [i, length] of sizes.entries()) {
      const value = (await db.get(key(i)))!;
      expect(value).toEqual(node(i, length));
      expect(value.byteOffset).toBe(0);
      expect(value.buffer.byteLength).toBe(length);
      expect(await db.get(key(i))).toBe(value);
    }
    expect(db.cacheSize).toEqual({ entries: 35, bytes: sizes.reduce((a, b) => a + b, 0) + 30 * 100 + 35 * 200 });
    // A copy handed out does not write through to what another read sees.
    (await db.get(key(1)))!.fill(0xee);
    expect(await db.get(key(2))).toEqual(node(2, 532));
  });

  it('keeps a node of half a slab or more in the buffer it was committed in', async () => {
    const big = node(7, 5000);
    const kv = new MemoryKv();
    await kv.open();
    const db = new StateDb(kv, NODE_CACHE_BYTES);
    await db.put(key(1), big);
    await db.put(key(2), node(2, 90));
    db.takePending().committed();
    expect(await db.get(key(1))).toBe(big);
    expect(await db.get(key(2))).toEqual(node(2, 90));
  });
});
