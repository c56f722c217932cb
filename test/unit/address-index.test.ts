/**
 * The address index's queries over both stores the chain runs on (LevelDB on disk, MemoryKv in
 * memory): pages in both directions, whole blocks, the bounds Otterscan's firstPage/lastPage need,
 * sender+nonce and creators, and deletion by the same keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level } from 'level';
import type { RskBlock } from '../../src/chain/records/block.js';
import type { BlockReceipts } from '../../src/chain/records/receipt.js';
import { addressHistory, addressIndexOps, contractCreation, hasHistory, senderNonceTx } from '../../src/chain/storage/address-index.js';
import type { Kv } from '../../src/chain/storage/keys.js';
import { MemoryKv } from '../../src/chain/storage/memory-kv.js';

const addr = (n: number) => new Uint8Array(20).fill(n);
const hash = (n: number) => new Uint8Array(32).fill(n);
const A = addr(0xa);
const B = addr(0xb);
const CREATED = addr(0xc);

interface FakeTx {
  from: Uint8Array;
  to: Uint8Array | undefined;
  nonce: bigint;
}

/** Just the fields the index reads. */
function block(number: bigint, txs: FakeTx[], created?: Uint8Array): { block: RskBlock; receipts: BlockReceipts } {
  const transactions = txs.map((tx, i) => ({ ...tx, hash: hash(Number(number) * 10 + i) }));
  const receipts = txs.map((tx) => ({ success: true, contractAddress: tx.to === undefined ? created : undefined }));
  return {
    block: { header: { number }, transactions } as unknown as RskBlock,
    receipts: { receipts } as unknown as BlockReceipts,
  };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function memory(): Promise<Kv> {
  const kv = new MemoryKv();
  await kv.open();
  close = () => kv.close();
  return kv;
}

async function leveldb(): Promise<Kv> {
  const dir = mkdtempSync(join(tmpdir(), 'address-index-'));
  const kv = new Level<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
  await kv.open();
  close = async () => {
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return kv as unknown as Kv;
}

/** Blocks 1..6: A sends to B in 1, 2 (twice), 4, 6; A creates CREATED in 5; B sends to itself in 3. */
async function filled(kv: Kv): Promise<void> {
  const blocks = [
    block(1n, [{ from: A, to: B, nonce: 0n }]),
    block(2n, [{ from: A, to: B, nonce: 1n }, { from: A, to: B, nonce: 2n }]),
    block(3n, [{ from: B, to: B, nonce: 0n }]),
    block(4n, [{ from: A, to: B, nonce: 3n }]),
    block(5n, [{ from: A, to: undefined, nonce: 4n }], CREATED),
    block(6n, [{ from: A, to: B, nonce: 5n }]),
  ];
  for (const { block: b, receipts } of blocks) await kv.batch(addressIndexOps(b, receipts));
}

const positions = (page: { positions: Array<{ blockNumber: bigint; index: number }> }) => page.positions.map((p) => `${p.blockNumber}:${p.index}`);

for (const [name, open] of [['MemoryKv', memory], ['LevelDB', leveldb]] as const) {
  describe(`the address index on ${name}`, () => {
    it('pages backwards newest first and never splits a block', async () => {
      const kv = await open();
      await filled(kv);
      expect(positions(await addressHistory(kv, B, { before: 7n }, 10))).toEqual(['6:0', '4:0', '3:0', '2:1', '2:0', '1:0']);
      // Two asked: 6 and 4 fill the page; it stops at block 3's boundary.
      expect(await addressHistory(kv, B, { before: 7n }, 2)).toEqual({ positions: [{ blockNumber: 6n, index: 0 }, { blockNumber: 4n, index: 0 }], more: true });
      // Three asked from below block 3: block 2's two entries stay together.
      const page = await addressHistory(kv, B, { before: 3n }, 1);
      expect(positions(page)).toEqual(['2:1', '2:0']);
      expect(page.more).toBe(true);
      expect((await addressHistory(kv, B, { before: 2n }, 5)).more).toBe(false);
    });

    it('pages forwards oldest first from after a block', async () => {
      const kv = await open();
      await filled(kv);
      expect(positions(await addressHistory(kv, B, { after: 0n }, 2))).toEqual(['1:0', '2:0', '2:1']);
      const rest = await addressHistory(kv, B, { after: 2n }, 10);
      expect(positions(rest)).toEqual(['3:0', '4:0', '6:0']);
      expect(rest.more).toBe(false);
    });

    it('lists a created contract and its creator, and answers the bounds and sender+nonce', async () => {
      const kv = await open();
      await filled(kv);
      expect(positions(await addressHistory(kv, CREATED, { before: 100n }, 10))).toEqual(['5:0']);
      const creation = (await contractCreation(kv, CREATED))!;
      expect([Buffer.from(creation.txHash).toString('hex'), Buffer.from(creation.creator).toString('hex')]).toEqual([Buffer.from(hash(50)).toString('hex'), Buffer.from(A).toString('hex')]);
      expect(await contractCreation(kv, B)).toBeUndefined();
      expect(await hasHistory(kv, CREATED, { atOrAbove: 5n })).toBe(true);
      expect(await hasHistory(kv, CREATED, { atOrAbove: 6n })).toBe(false);
      expect(await hasHistory(kv, CREATED, { atOrBelow: 4n })).toBe(false);
      expect(await hasHistory(kv, CREATED, { atOrBelow: 5n })).toBe(true);
      expect(await senderNonceTx(kv, A, 2n)).toEqual({ blockNumber: 2n, index: 1 });
      expect(await senderNonceTx(kv, A, 6n)).toBeUndefined();
      expect(await senderNonceTx(kv, B, 0n)).toEqual({ blockNumber: 3n, index: 0 });
    });

    it('is gone once the same keys are deleted', async () => {
      const kv = await open();
      const { block: b, receipts } = block(5n, [{ from: A, to: undefined, nonce: 4n }], CREATED);
      const ops = addressIndexOps(b, receipts);
      await kv.batch(ops);
      await kv.batch(ops.map(({ key }) => ({ type: 'del' as const, key })));
      expect((await addressHistory(kv, A, { before: 100n }, 10)).positions).toEqual([]);
      expect(await contractCreation(kv, CREATED)).toBeUndefined();
      expect(await senderNonceTx(kv, A, 4n)).toBeUndefined();
    });
  });
}

describe('addressIndexOps keys', () => {
  it('end with the position: block number in 8 bytes and index in 4, big-endian (numbers above 32 bits too)', () => {
    const number = (1n << 40n) + 0x01020304n;
    const txs = Array.from({ length: 300 }, (_, i) => ({ from: A, to: B, nonce: BigInt(i) }));
    const ops = addressIndexOps(block(number, txs).block, block(number, txs).receipts);
    const last = ops.at(-1)!.key;
    expect(Buffer.from(last.subarray(last.length - 12)).toString('hex')).toBe('00000100010203040000012b');
  });
});
