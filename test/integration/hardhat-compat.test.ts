/**
 * Coming from Hardhat or anvil (issue 19): the time travel, genesis date, revert-on-send, keyless
 * network and log behaviour those users expect, each test named after what broke.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNode } from '../../src/index.js';
import { call, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const tempDirs: string[] = [];

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fixed wall clock (ms) for the genesis date: 2026-01-01T00:00:00Z. */
const START_MS = Date.UTC(2026, 0, 1);

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

describe('genesis date', () => {
  it('under the Hardhat profile the genesis is dated at start-up, not 1970', async () => {
    const { testnetUrl, mainnetUrl } = await start({ profile: 'hardhat', now: () => START_MS });
    for (const url of [testnetUrl, mainnetUrl]) {
      const genesis = await call(url, 'eth_getBlockByNumber', ['latest', false]);
      expect(genesis.number).toBe('0x0');
      expect(BigInt(genesis.timestamp)).toBe(BigInt(START_MS / 1000));
    }
  });

  it('without the profile the genesis keeps rskj regtest date 0', async () => {
    const { testnetUrl } = await start({ now: () => START_MS });
    expect((await call(testnetUrl, 'eth_getBlockByNumber', ['0x0', false])).timestamp).toBe('0x0');
  });

  it('a persisted chain keeps the genesis it was made with when the Hardhat profile restarts it later', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-hardhat-genesis-'));
    tempDirs.push(dataDir);
    const open = async (nowMs: number) => {
      const node = await createNode({ inMemory: false, dataDir, profile: 'hardhat', logLevel: 'silent', now: () => nowMs });
      const genesis = await node.provider.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] });
      await node.close();
      return genesis as { hash: string; timestamp: string };
    };
    const first = await open(START_MS);
    const again = await open(START_MS + 86_400_000);
    expect(BigInt(first.timestamp)).toBe(BigInt(START_MS / 1000));
    expect(again).toEqual(first);
  });
});
