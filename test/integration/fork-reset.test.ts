/**
 * Re-forking in place (issue 21): hardhat_/anvil_reset with `forking` (viem's
 * testClient.reset({ jsonRpcUrl, blockNumber })) moves a fork to another block of its remote, or
 * to another remote of the same network, without restarting the node; a remote of another
 * network is refused and leaves the fork as it was; a reset without `forking` goes back to the
 * fork block of the moment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, defineChain, http } from 'viem';
import { JsonRpcProvider, Wallet } from 'ethers';
import { COW, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';

const ALICE = '0x00000000000000000000000000000000000a11ce';
const BOB = '0x0000000000000000000000000000000000000b0b';
const at = (n: bigint) => `0x${n.toString(16)}`;

let a: TestNode;
let b: TestNode;
const forks: TestNode[] = [];

function testClient(url: string, mode: 'anvil' | 'hardhat') {
  const chain = defineChain({ id: 31, name: 'rsk testnet fork', nativeCurrency: { name: 'tRBTC', symbol: 'tRBTC', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  return createTestClient({ mode, chain, transport: http(url, { retryCount: 0 }) });
}

async function pay(url: string, to: string, value: bigint): Promise<string> {
  const p = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  const tx = await new Wallet(COW.privateKey, p).sendTransaction({ to, value, type: 0 });
  await tx.wait();
  p.destroy();
  return tx.hash;
}

const block = (url: string, n: bigint | string) => call(url, 'eth_getBlockByNumber', [typeof n === 'bigint' ? at(n) : n, false]);

beforeAll(async () => {
  // Remote a: ALICE paid in blocks 1 and 2. Remote b (the same network, another node): BOB paid in block 1.
  a = await startTestNode();
  await pay(a.testnetUrl, ALICE, 1_000n);
  await pay(a.testnetUrl, ALICE, 2_000n);
  b = await startTestNode();
  await pay(b.testnetUrl, BOB, 5_000n);
});

afterEach(async () => {
  await Promise.all(forks.splice(0).map((f) => f.close()));
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function startFork(): Promise<TestNode> {
  const fork = await startTestNode({ fork: { testnetUrl: a.testnetUrl, block: 2n, retryBackoffMs: 1 } });
  forks.push(fork);
  return fork;
}

describe('fork: hardhat_/anvil_reset with forking re-forks in place', () => {
  it('moves to another block of the same remote: its state and blocks there, local blocks gone', async () => {
    const fork = await startFork();
    const local = await pay(fork.testnetUrl, BOB, 7n);
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(3n));
    // Ten reads of accounts the remote has not seen: ten requests the count must keep.
    for (let i = 1; i <= 10; i++) await call(fork.testnetUrl, 'eth_getBalance', [`0x${i.toString(16).padStart(40, '7')}`, 'latest']);
    const requests = fork.node.chains.testnet.fork!.remoteRequests;
    expect(requests).toBeGreaterThanOrEqual(10);
    await testClient(fork.testnetUrl, 'anvil').reset({ jsonRpcUrl: a.testnetUrl, blockNumber: 1n });
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(1n));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(at(1_000n));
    // The request count (GET /, the block lines) goes on over re-forks: the gateway's daily budget is one.
    // The new fork asked at least the chain id and its fork block, on top of what was counted.
    expect(fork.node.chains.testnet.fork!.remoteRequests).toBeGreaterThanOrEqual(requests + 2);
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe('0x0');
    expect((await block(fork.testnetUrl, 1n)).hash).toBe((await block(a.testnetUrl, 1n)).hash);
    expect(await call(fork.testnetUrl, 'eth_getTransactionReceipt', [local])).toBeNull();
    expect(fork.node.chains.testnet.fork!.blockNumber).toBe(1n);
    // Mines on top of the new fork block, a block of its own.
    await pay(fork.testnetUrl, BOB, 9n);
    const mined = await block(fork.testnetUrl, 2n);
    expect(mined.parentHash).toBe((await block(a.testnetUrl, 1n)).hash);
    expect(mined.hash).not.toBe((await block(a.testnetUrl, 2n)).hash);
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe(at(9n));
    // A reset without forking goes back to the fork block of the moment.
    await testClient(fork.testnetUrl, 'anvil').reset();
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(1n));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe('0x0');
  });

  it('moves to another remote of the same network, at its latest block when no block is given', async () => {
    const fork = await startFork();
    await pay(fork.testnetUrl, ALICE, 1n); // the miner has run on remote a
    const before = Buffer.from(fork.node.chains.testnet.control.instanceId).toString('hex');
    await testClient(fork.testnetUrl, 'hardhat').reset({ jsonRpcUrl: b.testnetUrl });
    // Tools tell a reset node by its instance id.
    expect(Buffer.from(fork.node.chains.testnet.control.instanceId).toString('hex')).not.toBe(before);
    const latest = await block(b.testnetUrl, 'latest');
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(latest.number);
    expect((await block(fork.testnetUrl, 'latest')).hash).toBe(latest.hash);
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe(at(5_000n));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe('0x0');
    expect(fork.node.chains.testnet.fork!.url).toBe(b.testnetUrl);
    // Mined transactions read the new remote too (the miner's state used to stay on the old one).
    await pay(fork.testnetUrl, BOB, 1n);
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe(at(5_001n));
    // And back to the first remote: its answers again.
    await testClient(fork.testnetUrl, 'hardhat').reset({ jsonRpcUrl: a.testnetUrl, blockNumber: 2n });
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(at(3_000n));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe('0x0');
  });

  it('refuses a remote of another network or a block the remote lacks, and leaves the fork as it was', async () => {
    const fork = await startFork();
    await pay(fork.testnetUrl, BOB, 7n);
    const other = await rpcError(fork.testnetUrl, 'anvil_reset', [{ forking: { jsonRpcUrl: a.mainnetUrl, blockNumber: 0 } }]);
    expect(other.code).toBe(-32602);
    expect(other.message).toContain('answers chain id 30, not 31');
    expect(other.message).toContain('the fork is unchanged');
    const missing = await rpcError(fork.testnetUrl, 'hardhat_reset', [{ forking: { jsonRpcUrl: a.testnetUrl, blockNumber: 99 } }]);
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain('has no block 99');
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(3n));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe(at(7n));
    expect(fork.node.chains.testnet.fork!.blockNumber).toBe(2n);
  });

  it('keeps using a fork cache of its own (--fork-cache-dir) and a data directory, which resumes the new fork', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-refork-'));
    try {
      const options = { inMemory: false, dataDir: join(dir, 'data'), fork: { testnetUrl: a.testnetUrl, block: 2n, cacheDir: join(dir, 'cache'), retryBackoffMs: 1 } };
      const fork = await startTestNode(options);
      await testClient(fork.testnetUrl, 'anvil').reset({ jsonRpcUrl: a.testnetUrl, blockNumber: 1n });
      expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(at(1_000n));
      await fork.close();
      // The data directory now holds the fork at block 1: it resumes there.
      const again = await startTestNode({ ...options, fork: { ...options.fork, block: 1n } });
      expect(await call(again.testnetUrl, 'eth_blockNumber')).toBe(at(1n));
      expect(await call(again.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(at(1_000n));
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
