/**
 * The log index's postings kept in memory (log-postings.ts): a repeated range reads nothing from
 * the key-value store, a longer one reads only what lies past it, a rewind and a clear forget what
 * they must, a scan overtaken by a rewind keeps its answer to itself, and the bound holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLevel } from 'memory-level';
import { concatBytes } from '@ethereumjs/util';
import { LogPostings } from '../../src/chain/storage/log-postings.js';
import { type Kv, type KvRange, encodeNumber, logAddressPrefix } from '../../src/chain/storage/keys.js';

const ADDRESS = logAddressPrefix(new Uint8Array(20).fill(0x11));
const OTHER = logAddressPrefix(new Uint8Array(20).fill(0x22));

/** A real memory-level store that counts the range reads the postings make. */
async function store(): Promise<Kv & { reads: KvRange[] }> {
  const level = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' });
  await level.open();
  const reads: KvRange[] = [];
  const kv = level as unknown as Kv & { reads: KvRange[] };
  const keys = level.keys.bind(level);
  kv.reads = reads;
  kv.keys = ((range: KvRange) => {
    reads.push(range);
    return keys(range);
  }) as unknown as Kv['keys'];
  return kv;
}

const post = (kv: Kv, prefix: Uint8Array, ...numbers: number[]) => Promise.all(numbers.map((n) => kv.put(concatBytes(prefix, encodeNumber(BigInt(n))), new Uint8Array(0))));
const unpost = (kv: Kv, prefix: Uint8Array, ...numbers: number[]) => kv.batch(numbers.map((n) => ({ type: 'del' as const, key: concatBytes(prefix, encodeNumber(BigInt(n))) })));

describe('LogPostings', () => {
  let kv: (Kv & { reads: KvRange[] }) | undefined;
  afterEach(async () => {
    await kv?.close();
    kv = undefined;
  });

  it('answers a range it read, and any range inside it, without reading the store again', async () => {
    kv = await store();
    await post(kv, ADDRESS, 1, 5, 9, 20);
    const postings = new LogPostings(kv);
    expect(await postings.scan(ADDRESS, 0n, 20n)).toEqual([1n, 5n, 9n, 20n]);
    expect(await postings.scan(ADDRESS, 0n, 20n)).toEqual([1n, 5n, 9n, 20n]);
    expect(await postings.scan(ADDRESS, 5n, 9n)).toEqual([5n, 9n]);
    expect(await postings.scan(ADDRESS, 6n, 8n)).toEqual([]);
    expect(kv.reads).toHaveLength(1);
    expect(postings.size).toBe(4);
  });

  it('reads only the blocks above the range it holds when a query reaches past it (new blocks)', async () => {
    kv = await store();
    await post(kv, ADDRESS, 1, 5);
    const postings = new LogPostings(kv);
    expect(await postings.scan(ADDRESS, 0n, 5n)).toEqual([1n, 5n]);
    await post(kv, ADDRESS, 6, 8);
    expect(await postings.scan(ADDRESS, 2n, 8n)).toEqual([5n, 6n, 8n]);
    expect(kv.reads[1]).toEqual({ gte: concatBytes(ADDRESS, encodeNumber(6n)), lte: concatBytes(ADDRESS, encodeNumber(8n)) });
    expect(await postings.scan(ADDRESS, 0n, 8n)).toEqual([1n, 5n, 6n, 8n]);
    expect(kv.reads).toHaveLength(2);
  });

  it('forgets the postings above a rewound block: blocks mined again at those heights are read afresh', async () => {
    kv = await store();
    await post(kv, ADDRESS, 1, 5, 9);
    const postings = new LogPostings(kv);
    expect(await postings.scan(ADDRESS, 0n, 9n)).toEqual([1n, 5n, 9n]);
    // evm_revert to block 4: the store deletes 5 and 9; block 7 is mined afterwards with a log.
    await unpost(kv, ADDRESS, 5, 9);
    postings.truncateAbove(4n);
    await post(kv, ADDRESS, 7);
    expect(await postings.scan(ADDRESS, 0n, 9n)).toEqual([1n, 7n]);
    expect(postings.size).toBe(2);
  });

  it('drops a prefix whose range lies wholly above the rewind, and everything on clear', async () => {
    kv = await store();
    await post(kv, ADDRESS, 10, 12);
    await post(kv, OTHER, 2);
    const postings = new LogPostings(kv);
    await postings.scan(ADDRESS, 10n, 12n);
    await postings.scan(OTHER, 0n, 12n);
    await unpost(kv, ADDRESS, 10, 12);
    postings.truncateAbove(5n);
    expect(postings.size).toBe(1);
    expect(await postings.scan(ADDRESS, 10n, 12n)).toEqual([]);
    postings.clear();
    expect(postings.size).toBe(0);
    await unpost(kv, OTHER, 2);
    expect(await postings.scan(OTHER, 0n, 12n)).toEqual([]);
  });

  it('does not keep what a scan read while a rewind ran', async () => {
    kv = await store();
    await post(kv, ADDRESS, 1, 5);
    const postings = new LogPostings(kv);
    const scanning = postings.scan(ADDRESS, 0n, 5n);
    postings.truncateAbove(2n);
    expect(await scanning).toEqual([1n, 5n]);
    expect(postings.size).toBe(0);
  });

  it('holds at most its bound, evicting the prefix used longest ago', async () => {
    kv = await store();
    await post(kv, ADDRESS, 1, 2, 3);
    await post(kv, OTHER, 1, 2);
    const postings = new LogPostings(kv, 4);
    await postings.scan(ADDRESS, 0n, 3n);
    await postings.scan(OTHER, 0n, 3n);
    expect(postings.size).toBe(2);
    expect(await postings.scan(OTHER, 0n, 3n)).toEqual([1n, 2n]);
    expect(kv.reads).toHaveLength(2);
    // A range too big for the bound is answered and not kept.
    await post(kv, ADDRESS, 4, 5);
    expect(await postings.scan(ADDRESS, 0n, 5n)).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(postings.size).toBe(2);
  });
});
