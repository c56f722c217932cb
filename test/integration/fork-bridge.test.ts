/**
 * The Bridge on a fork (issue 21): its storage cannot be read slot by slot over RPC, so its read
 * methods answer as the remote's Bridge did at the fork block, asked with eth_call there and kept
 * in the fork cache. The remote is a second rsk-devnode behind a proxy that counts its calls and,
 * to stand for a Bridge that has lived (a mainnet one has seen BTC blocks and fee votes), rewrites
 * two getters' answers: the fork must answer those, not its own regtest values.
 */
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';

const require = createRequire(import.meta.url);
const bridge = new Interface(require('@rsksmart/rsk-precompiled-abis').bridge.abi);
const BRIDGE = '0x0000000000000000000000000000000001000006';
const abi = AbiCoder.defaultAbiCoder();

/** What the proxy makes the remote's Bridge answer (a BTC chain 850,000 blocks high, a fee vote of 24,000 sat/kB). */
const REMOTE_BEST_HEIGHT = 850_000n;
const REMOTE_FEE_PER_KB = 24_000n;

/** The getters compared one to one with the remote. */
const GETTERS = [
  'getFederationAddress',
  'getFederationSize',
  'getFederationThreshold',
  'getFederationCreationTime',
  'getBtcBlockchainBestChainHeight',
  'getMinimumLockTxValue',
  'getFeePerKb',
  'getLockingCap',
  'getActivePowpegRedeemScript',
] as const;

let remote: TestNode;
let proxy: RpcProxy;
let forkBlock: bigint;
const forks: TestNode[] = [];
const at = (n: bigint) => `0x${n.toString(16)}`;

function rewriteBridge(request: { method?: string; params?: unknown[] }): unknown {
  if (request.method !== 'eth_call') return undefined;
  const tx = request.params?.[0] as { to?: string; data?: string };
  if (tx?.to?.toLowerCase() !== BRIDGE) return undefined;
  if (tx.data === bridge.encodeFunctionData('getBtcBlockchainBestChainHeight')) return abi.encode(['int256'], [REMOTE_BEST_HEIGHT]);
  if (tx.data === bridge.encodeFunctionData('getFeePerKb')) return abi.encode(['int256'], [REMOTE_FEE_PER_KB]);
  return undefined;
}

/** The remote's eth_calls to the Bridge that the proxy forwarded: [call data, block]. */
const bridgeCalls = () =>
  proxy.calls
    .filter((c) => c.method === 'eth_call' && (c.params?.[0] as { to?: string }).to?.toLowerCase() === BRIDGE)
    .map((c) => [(c.params![0] as { data: string }).data, c.params![1]]);

async function startFork(): Promise<TestNode> {
  const fork = await startTestNode({ fork: { testnetUrl: proxy.url, block: forkBlock, retryBackoffMs: 1 } });
  forks.push(fork);
  return fork;
}

const bridgeCall = (url: string, data: string, block = 'latest') => call(url, 'eth_call', [{ to: BRIDGE, data }, block]);

beforeAll(async () => {
  remote = await startTestNode();
  const p = new JsonRpcProvider(remote.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  // A few blocks, so there is a block below the fork block to call at.
  for (let i = 0; i < 3; i++) await (await new Wallet(COW.privateKey, p).sendTransaction({ to: COW.address, value: 1n, type: 0 })).wait();
  p.destroy();
  forkBlock = BigInt(await call(remote.testnetUrl, 'eth_blockNumber'));
  proxy = await startRpcProxy(remote.testnetUrl);
});

afterEach(async () => {
  await Promise.all(forks.splice(0).map((f) => f.close()));
  proxy.calls = [];
  proxy.rewrite = undefined;
});

afterAll(async () => {
  await proxy?.close();
  await remote?.close();
});

describe('fork: the Bridge answers as the remote did at the fork block', () => {
  it('answers every getter exactly as the remote, asking the remote with eth_call at the fork block', async () => {
    const fork = await startFork();
    for (const name of GETTERS) {
      const data = bridge.encodeFunctionData(name);
      expect(await bridgeCall(fork.testnetUrl, data), name).toBe(await bridgeCall(remote.testnetUrl, data, at(forkBlock)));
    }
    expect(bridgeCalls()).toEqual(GETTERS.map((name) => [bridge.encodeFunctionData(name), at(forkBlock)]));
    // The regtest federation the remote reports, decoded.
    const address = bridge.decodeFunctionResult('getFederationAddress', await bridgeCall(fork.testnetUrl, bridge.encodeFunctionData('getFederationAddress')));
    expect(address[0]).toMatch(/^2/);
    const size = bridge.decodeFunctionResult('getFederationSize', await bridgeCall(fork.testnetUrl, bridge.encodeFunctionData('getFederationSize')));
    expect(size[0]).toBe(3n);
  });

  it('answers the remote Bridge values where they differ from a fresh Bridge (BTC height, fee per kB)', async () => {
    proxy.rewrite = rewriteBridge;
    const plain = await startTestNode();
    forks.push(plain);
    const fork = await startFork();
    const height = bridge.encodeFunctionData('getBtcBlockchainBestChainHeight');
    const fee = bridge.encodeFunctionData('getFeePerKb');
    expect(BigInt(await bridgeCall(fork.testnetUrl, height))).toBe(REMOTE_BEST_HEIGHT);
    expect(BigInt(await bridgeCall(fork.testnetUrl, fee))).toBe(REMOTE_FEE_PER_KB);
    // A node that is not a fork keeps rskj regtest's values; its BTC height is its own Bitcoin chain's (101 premined blocks).
    expect(BigInt(await bridgeCall(plain.testnetUrl, height))).toBe(101n);
    expect(BigInt(await bridgeCall(plain.testnetUrl, fee))).toBe(100_000n);
    // After local blocks, still the remote's: nothing local writes the Bridge.
    await call(fork.testnetUrl, 'evm_mine');
    await call(fork.testnetUrl, 'evm_mine');
    expect(BigInt(await bridgeCall(fork.testnetUrl, height))).toBe(REMOTE_BEST_HEIGHT);
  });

  it('keeps the answers in the fork cache: asking again sends nothing to the remote', async () => {
    const fork = await startFork();
    const data = bridge.encodeFunctionData('getFederationThreshold');
    const first = await bridgeCall(fork.testnetUrl, data);
    const requests = proxy.requests;
    expect(await bridgeCall(fork.testnetUrl, data)).toBe(first);
    await call(fork.testnetUrl, 'evm_mine');
    expect(await bridgeCall(fork.testnetUrl, data, 'latest')).toBe(first);
    expect(proxy.requests).toBe(requests);
  });

  it('fails a getter that fails on the remote, with the Bridge price, and keeps local checks local', async () => {
    const fork = await startFork();
    // Index out of range: rskj throws, the remote answers "0x".
    const missing = bridge.encodeFunctionData('getFederatorPublicKeyOfType', [99, 'btc']);
    expect(await bridgeCall(remote.testnetUrl, missing, at(forkBlock))).toBe('0x');
    expect(await bridgeCall(fork.testnetUrl, missing)).toBe('0x');
    const key = bridge.encodeFunctionData('getFederatorPublicKeyOfType', [0, 'btc']);
    expect(await bridgeCall(fork.testnetUrl, key)).toBe(await bridgeCall(remote.testnetUrl, key, at(forkBlock)));
    // A local-only getter in a mined transaction fails before any remote call (Bridge.validateLocalCall).
    proxy.calls = [];
    const fp = new JsonRpcProvider(fork.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
    const tx = await new Wallet(COW.privateKey, fp).sendTransaction({ to: BRIDGE, data: bridge.encodeFunctionData('getFederationSize'), gasLimit: 100_000n, type: 0 });
    const receipt = await fp.waitForTransaction(tx.hash);
    fp.destroy();
    expect(receipt!.status).toBe(0);
    expect(bridgeCalls()).toEqual([]);
  });

  it('an eth_call at a block below the fork block asks the remote at that block', async () => {
    proxy.rewrite = rewriteBridge;
    const fork = await startFork();
    const data = bridge.encodeFunctionData('getFeePerKb');
    const below = forkBlock - 1n;
    expect(BigInt(await bridgeCall(fork.testnetUrl, data, at(below)))).toBe(REMOTE_FEE_PER_KB);
    expect(bridgeCalls()).toContainEqual([data, at(below)]);
  });

  it('after a re-fork in place, asks the remote at the new fork block', async () => {
    const fork = await startFork();
    const data = bridge.encodeFunctionData('getFederationSize');
    await bridgeCall(fork.testnetUrl, data);
    const newBlock = forkBlock - 1n;
    await call(fork.testnetUrl, 'hardhat_reset', [{ forking: { jsonRpcUrl: proxy.url, blockNumber: Number(newBlock) } }]);
    proxy.calls = [];
    expect(await bridgeCall(fork.testnetUrl, data)).toBe(await bridgeCall(remote.testnetUrl, data, at(newBlock)));
    expect(bridgeCalls()).toEqual([[data, at(newBlock)]]);
  });
});
