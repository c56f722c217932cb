/**
 * State dump and load on a fork (issues 21 and 22): a fork's dump holds its blocks from the fork
 * block up and names the remote block it forks; it loads only into a fork of that same block, and
 * a load never writes over the remote's blocks (a plain chain's file is refused on a fork). The
 * fork cache outlives a load: it holds remote answers, not the chain.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet } from 'ethers';
import { COW, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';

const ALICE = '0x00000000000000000000000000000000000a11ce';
const BOB = '0x0000000000000000000000000000000000000b0b';
const at = (n: bigint) => `0x${n.toString(16)}`;

let remote: TestNode;
let proxy: RpcProxy;
let forkBlock: bigint;
const nodes: TestNode[] = [];

async function start(options: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const node = await startTestNode(options);
  nodes.push(node);
  return node;
}
const startFork = () => start({ fork: { testnetUrl: proxy.url, block: forkBlock, retryBackoffMs: 1 } });

/** The file's testnet section header (its first lines, this node's format). */
function testnetSection(state: string): Record<string, unknown> {
  const json = JSON.parse(gunzipSync(Buffer.from(state.slice(2), 'hex')).toString('utf8')) as { networks: Array<Record<string, unknown>> };
  return json.networks.find((n) => n.network === 'testnet')!;
}

beforeAll(async () => {
  remote = await startTestNode();
  const p = new JsonRpcProvider(remote.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  for (const to of [ALICE, BOB]) await (await new Wallet(COW.privateKey, p).sendTransaction({ to, value: 1_000n, type: 0 })).wait();
  p.destroy();
  forkBlock = BigInt(await call(remote.testnetUrl, 'eth_blockNumber'));
  proxy = await startRpcProxy(remote.testnetUrl);
});

afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
});

afterAll(async () => {
  await proxy?.close();
  await remote?.close();
});

describe('fork: state dump and load', () => {
  it('a dump names the fork and holds the blocks from the fork block up; it loads into a fork of the same block', async () => {
    const fork = await startFork();
    const fp = new JsonRpcProvider(fork.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
    const sent = await new Wallet(COW.privateKey, fp).sendTransaction({ to: ALICE, value: 7n, type: 0 });
    await sent.wait();
    fp.destroy();
    const forkHash = (await call(remote.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock), false])).hash;
    const state = await call(fork.testnetUrl, 'anvil_dumpState');
    const section = testnetSection(state);
    expect(section.fork).toEqual({ chainId: 31, block: at(forkBlock), hash: forkHash });
    expect(section.headNumber).toBe(at(forkBlock + 1n));
    expect((section.blocks as unknown[]).length).toBe(2); // the fork block's local copy and the block above it

    const other = await startFork();
    expect(await call(other.testnetUrl, 'anvil_loadState', [state])).toBe(true);
    expect(await call(other.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock + 1n));
    expect((await call(other.testnetUrl, 'eth_getTransactionReceipt', [sent.hash])).status).toBe('0x1');
    expect(await call(other.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(at(1_007n));
    // The remote's blocks below the fork block are still the remote's.
    const below = await call(other.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock - 1n), false]);
    expect(below.hash).toBe((await call(remote.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock - 1n), false])).hash);
    expect((await call(other.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock), false])).hash).toBe(forkHash);
  });

  it('refuses a plain chain\'s file on a fork (it would write over the remote\'s blocks) and changes nothing', async () => {
    const plain = await start();
    await call(plain.testnetUrl, 'evm_mine');
    const state = await call(plain.testnetUrl, 'anvil_dumpState');
    const fork = await startFork();
    await call(fork.testnetUrl, 'evm_mine');
    const error = await rpcError(fork.testnetUrl, 'anvil_loadState', [state]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`is a chain from its genesis and this node is a fork of chain 31 at block ${forkBlock}`);
    expect(error.message).toContain("loading it would write over the remote's blocks");
    expect(error.message).toContain('nothing was loaded');
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock + 1n));
  });

  it('refuses a fork\'s file on a plain chain and on a fork of another block', async () => {
    const fork = await startFork();
    const state = await call(fork.testnetUrl, 'anvil_dumpState');
    const plain = await start();
    const onPlain = await rpcError(plain.testnetUrl, 'anvil_loadState', [state]);
    expect(onPlain.code).toBe(-32602);
    expect(onPlain.message).toContain(`is a fork of chain 31 at block ${forkBlock}`);
    expect(onPlain.message).toContain(`this node is not a fork; start it with --fork-url <a node of chain 31> --fork-block ${forkBlock} to load it`);
    const elsewhere = await start({ fork: { testnetUrl: proxy.url, block: forkBlock - 1n, retryBackoffMs: 1 } });
    const onOther = await rpcError(elsewhere.testnetUrl, 'anvil_loadState', [state]);
    expect(onOther.code).toBe(-32602);
    expect(onOther.message).toContain(`and this node is a fork of chain 31 at block ${forkBlock - 1n}`);
    expect(await call(elsewhere.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock - 1n));
  });

  it('keeps the fork cache through a load: what was read before is not asked again', async () => {
    const fork = await startFork();
    const state = await call(fork.testnetUrl, 'anvil_dumpState');
    const bob = await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest']);
    expect(bob).toBe(at(1_000n));
    expect(await call(fork.testnetUrl, 'anvil_loadState', [state])).toBe(true);
    const requests = proxy.requests;
    expect(await call(fork.testnetUrl, 'eth_getBalance', [BOB, 'latest'])).toBe(bob);
    expect(proxy.requests).toBe(requests);
  });

  it('refuses a file whose fork field is damaged, naming the fault', async () => {
    const fork = await startFork();
    const state = await call(fork.testnetUrl, 'anvil_dumpState');
    const text = gunzipSync(Buffer.from(state.slice(2), 'hex')).toString('utf8');
    const damaged = text.replace(/"fork":\{"chainId":31,"block":"(0x[0-9a-f]+)","hash":"0x[0-9a-f]{64}"\}/, '"fork":{"chainId":31,"block":"$1","hash":"0x1234"}');
    expect(damaged).not.toBe(text);
    const error = await rpcError(fork.testnetUrl, 'anvil_loadState', [`0x${gzipSync(damaged).toString('hex')}`]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('fork.hash is not 32 bytes');
  });
});
