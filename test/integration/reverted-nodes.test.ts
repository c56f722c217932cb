/**
 * evm_revert deletes the trie nodes that the dropped blocks were first to add, and only those:
 * snapshot / transaction / revert cycles no longer grow the store, and every kept state stays
 * whole (issue 12's memory finding).
 */
import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/chain/chain.js';
import type { Kv } from '../../src/chain/storage/keys.js';
import { COW, COW1, call, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const X = '0x00000000000000000000000000000000000000e1';
const hexOf = (n: number | bigint) => `0x${n.toString(16)}`;

/** Trie nodes in the chain's store (key prefix 0x06, src/chain/storage/keys.ts). */
async function storedNodes(chain: Chain): Promise<number> {
  // The store is private to the chain; the test counts its keys directly.
  const kv = (chain as unknown as { store: { kv: Kv } }).store.kv;
  let count = 0;
  for await (const _ of kv.keys({ gte: Uint8Array.of(0x06), lt: Uint8Array.of(0x07) })) count++;
  return count;
}

describe('evm_revert and state nodes', () => {
  it('leaves the store as it was after each snapshot / transaction / revert cycle', async () => {
    const t = await start();
    const url = t.testnetUrl;
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: X, value: '0x5' }]);
    const snapshot = await call(url, 'evm_snapshot');
    const before = await storedNodes(t.node.chains.testnet);
    for (let cycle = 0; cycle < 10; cycle++) {
      await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: hexOf(cycle + 1) }]);
      await call(url, 'hardhat_setBalance', [X, hexOf(1000 + cycle)]);
      await call(url, 'evm_mine');
      expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
      expect(await storedNodes(t.node.chains.testnet), `cycle ${cycle}`).toBe(before);
    }
    expect(await call(url, 'eth_getBalance', [X, 'latest'])).toBe('0x5');
  });

  it('keeps a node a dropped block wrote again when an older state has it', async () => {
    const t = await start();
    const url = t.testnetUrl;
    await call(url, 'hardhat_setBalance', [X, '0x5']);
    await call(url, 'evm_mine'); // block 1: X = 5
    const snapshot = await call(url, 'evm_snapshot');
    await call(url, 'hardhat_setBalance', [X, '0x7']);
    await call(url, 'evm_mine'); // block 2: X = 7
    await call(url, 'hardhat_setBalance', [X, '0x5']);
    await call(url, 'evm_mine'); // block 3: X = 5 again, the same account leaf as block 1's
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    // Block 1's state is whole: its leaf for X was written again, not first, by block 3.
    expect(await call(url, 'eth_getBalance', [X, '0x1'])).toBe('0x5');
    expect(await call(url, 'eth_getBalance', [COW.address, '0x1'])).not.toBe('0x0');
    // The chain goes on from there, and every state on it reads.
    for (let i = 0; i < 3; i++) await call(url, 'eth_sendTransaction', [{ from: COW.address, to: X, value: '0x1' }]);
    for (let n = 0; n <= 4; n++) {
      for (const address of [X, COW.address, COW1.address]) await call(url, 'eth_getBalance', [address, hexOf(n)]);
    }
    expect(await call(url, 'eth_getBalance', [X, 'latest'])).toBe('0x8');
  });

  it('hardhat_reset deletes what the blocks since the first snapshot added', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const genesisNodes = await storedNodes(t.node.chains.testnet);
    await call(url, 'evm_snapshot');
    for (let i = 0; i < 3; i++) await call(url, 'eth_sendTransaction', [{ from: COW.address, to: X, value: '0x1' }]);
    await call(url, 'hardhat_reset');
    expect(await storedNodes(t.node.chains.testnet)).toBe(genesisNodes);
    expect(await call(url, 'eth_getBalance', [X, 'latest'])).toBe('0x0');
  });
});
