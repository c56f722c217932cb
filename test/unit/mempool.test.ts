import { describe, expect, it } from 'vitest';
import { type LegacyTx, createLegacyTx } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { RSK_TX_PARAMS, createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { Mempool, type PoolTx, orderForBlock } from '../../src/chain/pool/mempool.js';
import { txRecordFromLegacyTx } from '../../src/chain/records/transaction.js';
import { COW, COW1 } from '../helpers/node.js';

const common = createRskCommon(31, 'rsk-testnet');
const KEYS = {
  a: { address: COW.address, key: hexToBytes(COW.privateKey) },
  b: { address: COW1.address, key: hexToBytes(COW1.privateKey) },
  // keccak256('cow2'): rskj's third dev account.
  c: { address: '0x0a3aa774752ec2042c46548456c094a76c7f3a79', key: hexToBytes('0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d') },
} as const;
type Who = keyof typeof KEYS;

function signed(who: Who, nonce: bigint, gasPrice: bigint, value = 0n): LegacyTx {
  return createLegacyTx(
    { nonce, gasPrice, gasLimit: 21_000n, to: `0x${'11'.repeat(20)}`, value },
    { common, params: RSK_TX_PARAMS },
  ).sign(KEYS[who].key);
}

function add(pool: Mempool, who: Who, nonce: bigint, gasPrice = 60_000_000n, value = 0n): PoolTx {
  const tx = signed(who, nonce, gasPrice, value);
  return pool.add(tx, txRecordFromLegacyTx(tx));
}

/** "sender:nonce" labels, e.g. "a:0". */
function labels(entries: Iterable<PoolTx>): string[] {
  const names = new Map<string, string>(Object.entries(KEYS).map(([name, k]) => [k.address, name]));
  return [...entries].map((e) => `${names.get(e.sender) ?? e.sender}:${e.record.nonce}`);
}

const nonceMap = (nonces: Partial<Record<Who, bigint>>) => (sender: string) => {
  const who = (Object.keys(KEYS) as Who[]).find((w) => KEYS[w].address === sender);
  return (who && nonces[who]) ?? 0n;
};

describe('Mempool bookkeeping', () => {
  it('keys each entry by the recovered sender', () => {
    // The third key above must really be cow2's: the pool keys by recovered sender.
    expect(signed('c', 0n, 1n).getSenderAddress().toString()).toBe(KEYS.c.address);
  });

  it('adds, finds by hash and by sender/nonce, replaces, and removes', () => {
    const pool = new Mempool();
    const a0 = add(pool, 'a', 0n);
    const a1 = add(pool, 'a', 1n);
    const b0 = add(pool, 'b', 0n);
    expect(pool.size).toBe(3);
    expect(a0.sender).toBe(COW.address);
    expect(pool.get(a1.record.hash)).toBe(a1);
    expect(pool.sameNonce(COW.address, 0n)).toBe(a0);
    expect(pool.sameNonce(COW.address, 2n)).toBeUndefined();
    expect([a0.sequence, a1.sequence, b0.sequence]).toEqual([0, 1, 2]);

    const a0bis = add(pool, 'a', 0n, 90_000_000n);
    expect(pool.size).toBe(3);
    expect(pool.get(a0.record.hash)).toBeUndefined();
    expect(pool.get(a0bis.record.hash)).toBe(a0bis);
    expect(pool.sameNonce(COW.address, 0n)).toBe(a0bis);

    pool.remove(a0bis);
    pool.remove(a1);
    expect(pool.size).toBe(1);
    expect([...pool.senderKeys()]).toEqual([COW1.address]);
    expect(labels(pool.forSender(COW.address))).toEqual([]);
    pool.clear();
    expect(pool.size).toBe(0);
    expect(pool.get(b0.record.hash)).toBeUndefined();
  });

  it('lists each sender in nonce order whatever the arrival order', () => {
    const pool = new Mempool();
    add(pool, 'a', 2n);
    add(pool, 'a', 0n);
    add(pool, 'b', 5n);
    add(pool, 'a', 1n);
    expect([...pool.senders()].map(([sender, txs]) => [sender, labels(txs)])).toEqual([
      [COW.address, ['a:0', 'a:1', 'a:2']],
      [COW1.address, ['b:5']],
    ]);
  });
});

describe('pendingBySender', () => {
  it('takes the unbroken nonce run from the state nonce; a gap holds later nonces back', () => {
    const pool = new Mempool();
    for (const n of [0n, 1n, 3n, 4n]) add(pool, 'a', n);
    add(pool, 'b', 6n);
    add(pool, 'b', 5n);
    add(pool, 'c', 2n);
    const pending = pool.pendingBySender(nonceMap({ a: 0n, b: 5n, c: 0n }));
    expect([...pending.keys()]).toEqual([COW.address, COW1.address]);
    expect(labels(pending.get(COW.address)!)).toEqual(['a:0', 'a:1']);
    expect(labels(pending.get(COW1.address)!)).toEqual(['b:5', 'b:6']);
    // c's only transaction waits for nonces 0 and 1: not pending at all.
    expect(pending.has(KEYS.c.address)).toBe(false);

    // Filling the gap releases the rest.
    add(pool, 'a', 2n);
    expect(labels(pool.pendingBySender(nonceMap({ a: 0n, b: 5n })).get(COW.address)!)).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'a:4']);
  });

  it('skips nonces already below the state nonce', () => {
    const pool = new Mempool();
    for (const n of [0n, 1n, 2n, 4n]) add(pool, 'a', n);
    expect(labels(pool.pendingBySender(nonceMap({ a: 1n })).get(COW.address)!)).toEqual(['a:1', 'a:2']);
    expect(labels(pool.pendingBySender(nonceMap({ a: 4n })).get(COW.address)!)).toEqual(['a:4']);
    expect(pool.pendingBySender(nonceMap({ a: 3n })).has(COW.address)).toBe(false);
    expect(pool.pendingBySender(nonceMap({ a: 5n })).size).toBe(0);
  });
});

describe('orderForBlock', () => {
  const order = (pool: Mempool, nonces: Partial<Record<Who, bigint>> = {}) => labels(orderForBlock(pool.pendingBySender(nonceMap(nonces))));

  it('takes the highest gas price first', () => {
    const pool = new Mempool();
    add(pool, 'a', 0n, 10n);
    add(pool, 'b', 0n, 30n);
    add(pool, 'c', 0n, 20n);
    expect(order(pool)).toEqual(['b:0', 'c:0', 'a:0']);
  });

  it("keeps each sender's nonce order even when a later nonce pays more", () => {
    const pool = new Mempool();
    add(pool, 'a', 0n, 10n);
    add(pool, 'a', 1n, 100n);
    add(pool, 'a', 2n, 5n);
    add(pool, 'b', 0n, 50n);
    add(pool, 'b', 1n, 1n);
    // a:1 (100) only becomes eligible once a:0 (10) is in; b:0 (50) beats a:0.
    expect(order(pool)).toEqual(['b:0', 'a:0', 'a:1', 'a:2', 'b:1']);
  });

  it('breaks gas price ties first-come first-served', () => {
    const pool = new Mempool();
    add(pool, 'c', 0n, 20n);
    add(pool, 'a', 0n, 20n);
    add(pool, 'b', 0n, 20n);
    add(pool, 'a', 1n, 20n);
    expect(order(pool)).toEqual(['c:0', 'a:0', 'b:0', 'a:1']);
  });

  it('uses arrival order, not nonce order, for ties across senders', () => {
    const pool = new Mempool();
    add(pool, 'b', 1n, 20n); // arrives first but is b's second
    add(pool, 'a', 0n, 20n);
    add(pool, 'b', 0n, 20n);
    // b:0 arrived last, so a:0 goes first; then b:0, then b:1.
    expect(order(pool)).toEqual(['a:0', 'b:0', 'b:1']);
  });

  it('leaves out what a gap holds back, and is empty for an empty pool', () => {
    const pool = new Mempool();
    expect(order(pool)).toEqual([]);
    add(pool, 'a', 1n, 99n);
    add(pool, 'b', 0n, 1n);
    expect(order(pool)).toEqual(['b:0']);
  });
});
