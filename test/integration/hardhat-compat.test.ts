/**
 * Coming from Hardhat or anvil (issue 19): the time travel, genesis date, revert-on-send, keyless
 * network and log behaviour those users expect, each test named after what broke.
 */
import { describe, expect, it } from 'vitest';
import { call, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();

/** Enough blocks to run the chain well ahead of the wall clock however slow the machine. */
const QUICK_BLOCKS = 60;

describe('time travel', () => {
  it('evm_increaseTime after many quick blocks moves the next block at least n seconds past the latest', async () => {
    const { testnetUrl: url } = await start();
    for (let i = 0; i < QUICK_BLOCKS; i++) await call(url, 'evm_mine');
    const before = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    await call(url, 'evm_increaseTime', [3600]);
    await call(url, 'evm_mine');
    const after = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(Number(after.timestamp) - Number(before.timestamp)).toBeGreaterThanOrEqual(3600);
  });
});
