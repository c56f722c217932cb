import { afterEach, describe, expect, it } from 'vitest';
import { COMPACT_MIN_DEAD_BYTES, LARGE_VALUE_BYTES, MemoryKv, SLAB_BYTES } from '../../src/chain/storage/memory-kv.js';
import { encodeNumber, logAddressPrefix, metaKey, stateNodeKey } from '../../src/chain/storage/keys.js';

const of = (...values: number[]) => Uint8Array.from(values);
/** `length` bytes that differ with `seed` (at least 4). */
const filled = (length: number, seed: number) => {
  const bytes = new Uint8Array(length).fill(seed & 0xff);
  new DataView(bytes.buffer).setUint32(0, seed);
  return bytes;
};
const nodeKey = (i: number) => {
  const id = filled(32, 0);
  new DataView(id.buffer).setUint32(0, i);
  return stateNodeKey(id);
};
const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('hex'));

let kv: MemoryKv | undefined;
afterEach(async () => {
  await kv?.close();
  kv = undefined;
});

async function opened(): Promise<MemoryKv> {
  kv = new MemoryKv();
  await kv.open();
  return kv;
}

describe('MemoryKv', () => {
  it('returns what was put, overwritten and deleted, for slab, large and ordered records', async () => {
    const store = await opened();
    const large = filled(LARGE_VALUE_BYTES + 5, 7);
    await store.batch([
      { type: 'put', key: nodeKey(1), value: of(1, 2, 3) },
      { type: 'put', key: nodeKey(2), value: large },
      { type: 'put', key: metaKey('a'), value: of(9) },
      { type: 'put', key: nodeKey(3), value: new Uint8Array(0) },
    ]);
    large[0] = 0xee; // the store keeps its own copy of what is put...
    (await store.get(nodeKey(1)))!.fill(0); // nor does a reader's write reach it
    expect(hex(await store.get(nodeKey(1)))).toBe('010203');
    expect(hex(await store.get(nodeKey(2)))).toBe(hex(filled(LARGE_VALUE_BYTES + 5, 7)));
    expect(hex(await store.get(metaKey('a')))).toBe('09');
    expect(hex(await store.get(nodeKey(3)))).toBe('');
    expect(await store.get(nodeKey(4))).toBeUndefined();

    await store.put(nodeKey(1), of(4, 5));
    await store.batch([{ type: 'del', key: nodeKey(2) }, { type: 'del', key: metaKey('a') }]);
    expect((await store.getMany([nodeKey(1), nodeKey(2), metaKey('a')])).map(hex)).toEqual(['0405', undefined, undefined]);
  });

  // Keys are built in Node's Buffer pool (keys.ts recordBytes); the ordered tree keeps keys as given,
  // so a kept view would see the pool's bytes change under it and hold its whole 8 KiB block.
  it('keeps its own copy of an ordered record key built in the Buffer pool', async () => {
    const store = await opened();
    const key = logAddressPrefix(filled(20, 3));
    expect(Buffer.isBuffer(key)).toBe(true);
    const original = Uint8Array.from(key);
    await store.put(key, of(1));
    key.fill(0xff); // the pool's bytes reused by someone else
    expect(hex(await store.get(original))).toBe('01');
    expect((await store.keys({ gte: logAddressPrefix(new Uint8Array(0)) }).all()).map(hex)).toEqual([hex(original)]);
  });

  // hardhat_setCode(addr, '0x') stores the empty code under its hash: a fresh store threw, and an
  // empty value placed at the end of a full slab read back from a slab that did not exist.
  it('keeps an empty value on a fresh store and after a slab filled exactly', async () => {
    const store = await opened();
    await store.put(nodeKey(0), new Uint8Array(0));
    expect(hex(await store.get(nodeKey(0)))).toBe('');
    const part = LARGE_VALUE_BYTES - 1;
    let i = 1;
    for (let used = 0; used < SLAB_BYTES; i++) {
      const length = Math.min(part, SLAB_BYTES - used);
      await store.put(nodeKey(i), filled(length, i));
      used += length;
    }
    await store.put(nodeKey(i), new Uint8Array(0));
    expect(hex(await store.get(nodeKey(i)))).toBe('');
    await store.put(nodeKey(i + 1), of(1, 2));
    expect(hex(await store.get(nodeKey(i)))).toBe('');
    expect(hex(await store.get(nodeKey(i + 1)))).toBe('0102');
    expect(hex(await store.get(nodeKey(1)))).toBe(hex(filled(part, 1)));
  });

  it('keeps every live value through compactions while records come and go', async () => {
    const store = await opened();
    const value = (i: number, round: number) => filled(3_000 + (i % 50), i + round);
    const live = 400;
    // Each round rewrites half the records with new values and deletes a tenth: dead bytes pile up
    // past COMPACT_MIN_DEAD_BYTES many times over.
    const rounds = Math.ceil((8 * COMPACT_MIN_DEAD_BYTES) / (live * 0.6 * 3_025));
    const expected = new Map<number, Uint8Array | undefined>();
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < live; i++) {
        if (round === 0 || i % 2 === round % 2) {
          await store.put(nodeKey(i), value(i, round));
          expected.set(i, value(i, round));
        } else if (i % 10 === round % 10) {
          await store.batch([{ type: 'del', key: nodeKey(i) }]);
          expected.set(i, undefined);
        }
      }
    }
    for (const [i, v] of expected) expect(hex(await store.get(nodeKey(i))), `record ${i}`).toBe(hex(v));
    // Slabs stay within twice the live bytes (plus the tolerance and one partly used slab).
    const slabs = (store as unknown as { slabs: { slabs: Uint8Array[] } }).slabs.slabs.length;
    const liveBytes = [...expected.values()].reduce((sum, v) => sum + (v?.length ?? 0), 0);
    expect(slabs * SLAB_BYTES).toBeLessThanOrEqual(2 * liveBytes + COMPACT_MIN_DEAD_BYTES + 2 * SLAB_BYTES);
  });

  it('scans ranges in key order, within and across record kinds', async () => {
    const store = await opened();
    const address = filled(20, 1);
    for (const n of [5n, 1n, 3n, 9n]) await store.put(Uint8Array.from([...logAddressPrefix(address), ...encodeNumber(n)]), new Uint8Array(0));
    for (const i of [3, 1, 2]) await store.put(nodeKey(i), of(i));
    await store.put(metaKey('m'), of(7));

    const blocks: bigint[] = [];
    const from = Uint8Array.from([...logAddressPrefix(address), ...encodeNumber(2n)]);
    const to = Uint8Array.from([...logAddressPrefix(address), ...encodeNumber(5n)]);
    for await (const key of store.keys({ gte: from, lte: to })) blocks.push(new DataView(key.buffer, key.byteOffset + 21).getBigUint64(0));
    expect(blocks).toEqual([3n, 5n]);

    const nodes: string[] = [];
    for await (const [key, value] of store.iterator({ gte: Uint8Array.of(0x06), lt: Uint8Array.of(0x07) })) nodes.push(`${hex(key)}=${hex(value)}`);
    expect(nodes).toEqual([1, 2, 3].sort((a, b) => Buffer.compare(nodeKey(a), nodeKey(b))).map((i) => `${hex(nodeKey(i))}=0${i}`));

    const kinds: number[] = [];
    for await (const key of store.keys()) kinds.push(key[0]!);
    expect(kinds).toEqual([6, 6, 6, 7, 8, 8, 8, 8]);

    // Descending, within one ordered kind and across kinds (the sorted path).
    const descending: bigint[] = [];
    for await (const [key] of store.iterator({ gte: from, lte: to, reverse: true })) descending.push(new DataView(key.buffer, key.byteOffset + 21).getBigUint64(0));
    expect(descending).toEqual([5n, 3n]);
    const kindsDescending: number[] = [];
    for await (const [key] of store.iterator({ reverse: true })) kindsDescending.push(key[0]!);
    expect(kindsDescending).toEqual([8, 8, 8, 8, 7, 6, 6, 6]);
  });
});
