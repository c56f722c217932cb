/**
 * Forking a live node (issue 21): a second rsk-devnode is the remote, a real JSON-RPC endpoint
 * over HTTP, behind a counting proxy (node:http on 127.0.0.1) that can also answer 429s and
 * -32005s. The fork must read what the remote had at the fork block, keep its own writes, cache
 * every remote answer, and say clearly when the remote fails it.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import type { NodeOptions } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';

const ALICE = '0x00000000000000000000000000000000000a11ce';
const BOB = '0x0000000000000000000000000000000000000b0b';
const CAROL = '0x00000000000000000000000000000000000ca201';
const SUPPLY = 1_000_000n * 10n ** 18n;

/** A JSON-RPC proxy in front of the remote: counts HTTP requests, keeps their bodies, injects failures. */
interface Proxy {
  url: string;
  requests: number;
  bodies: unknown[];
  /** Answers for the next requests instead of forwarding them. */
  failures: Array<'429' | '-32005'>;
  /** Answer every request with this failure. */
  failAll: '429' | '-32005' | undefined;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const proxy: Proxy = { url: '', requests: 0, bodies: [], failures: [], failAll: undefined, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    proxy.requests++;
    const body = JSON.parse(text) as { id?: unknown } | Array<{ id?: unknown }>;
    proxy.bodies.push(body);
    const failure = proxy.failAll ?? proxy.failures.shift();
    if (failure === '429') {
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' }).end('Too Many Requests');
      return;
    }
    if (failure === '-32005') {
      const error = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32005, message: 'limit exceeded' } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map((b) => error(b.id)) : error(body.id)));
      return;
    }
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${address.port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

let remote: TestNode;
let proxy: Proxy;
let forkBlock: bigint;
let tokenAddress: string;
let deployTxHash: string;
const forks: TestNode[] = [];
const dirs: string[] = [];

async function startFork(fork: NodeOptions['fork'], more: NodeOptions = {}): Promise<TestNode> {
  const node = await startTestNode({ fork: { retryBackoffMs: 1, ...fork }, ...more });
  forks.push(node);
  return node;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-fork-'));
  dirs.push(dir);
  return dir;
}

function provider(url: string): JsonRpcProvider {
  return new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
}

beforeAll(async () => {
  remote = await startTestNode();
  const p = provider(remote.testnetUrl);
  const cow = new Wallet(COW.privateKey, p);
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, cow);
  const token = await factory.deploy(SUPPLY, { type: 0 });
  deployTxHash = token.deploymentTransaction()!.hash;
  await token.waitForDeployment();
  tokenAddress = await token.getAddress();
  await (await (token.getFunction('transfer')(ALICE, 5n * 10n ** 18n, { type: 0 }) as Promise<any>)).wait();
  await (await cow.sendTransaction({ to: ALICE, value: 123_456_789n, type: 0 })).wait();
  forkBlock = BigInt(await call(remote.testnetUrl, 'eth_blockNumber'));
  p.destroy();
  proxy = await startProxy(remote.testnetUrl);
});

afterEach(async () => {
  await Promise.all(forks.splice(0).map((f) => f.close()));
  proxy.failures = [];
  proxy.failAll = undefined;
});

afterAll(async () => {
  await proxy?.close();
  await remote?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const at = (n: bigint) => `0x${n.toString(16)}`;

describe('fork: reads', () => {
  it('reads balances, nonces, code, storage, token balances and blocks as the remote had them at the fork block', async () => {
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock });
    const tag = at(forkBlock);
    for (const [method, params] of [
      ['eth_getBalance', [ALICE]],
      ['eth_getBalance', [tokenAddress]],
      ['eth_getTransactionCount', [COW.address]],
      ['eth_getCode', [tokenAddress]],
      ['eth_getStorageAt', [tokenAddress, '0x2']],
      ['eth_getStorageAt', [tokenAddress, '0x0']],
    ] as const) {
      const local = await call(fork.testnetUrl, method, [...params, 'latest']);
      expect(local, `${method} ${params.join(' ')}`).toBe(await call(remote.testnetUrl, method, [...params, tag]));
    }
    expect(await call(fork.testnetUrl, 'eth_getCode', [tokenAddress, 'latest'])).toBe(contracts.Token.deployedBytecode);
    // The dev accounts are funded on the fork as in the genesis file, their remote nonce kept.
    expect(BigInt(await call(fork.testnetUrl, 'eth_getBalance', [COW.address, 'latest']))).toBe(10n ** 30n);
    // An ERC20 balance through eth_call: the EVM reads the remote's storage.
    const token = new Contract(tokenAddress, contracts.Token.abi, provider(fork.testnetUrl));
    expect(await token.getFunction('balanceOf')(ALICE)).toBe(5n * 10n ** 18n);
    expect(await token.getFunction('totalSupply')()).toBe(SUPPLY);
    expect(await token.getFunction('name')()).toBe('Test Token');
    // Blocks up to the fork block are the remote's, hashes included.
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(tag);
    for (const n of [forkBlock, 1n, 0n]) {
      expect(await call(fork.testnetUrl, 'eth_getBlockByNumber', [at(n), false])).toEqual(await call(remote.testnetUrl, 'eth_getBlockByNumber', [at(n), false]));
    }
    for (const [method, params] of [
      ['eth_getBlockTransactionCountByNumber', ['0x1']],
      ['eth_getBlockTransactionCountByNumber', [tag]],
      ['eth_getUncleCountByBlockNumber', ['0x1']],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0']],
      ['eth_getTransactionByBlockNumberAndIndex', [tag, '0x0']],
      ['eth_getTransactionByBlockNumberAndIndex', [tag, '0x9']],
    ] as const) {
      expect(await call(fork.testnetUrl, method, [...params]), `${method} ${params.join(' ')}`).toEqual(await call(remote.testnetUrl, method, [...params]));
    }
    const remoteBlock = await call(remote.testnetUrl, 'eth_getBlockByNumber', [tag, true]);
    expect(await call(fork.testnetUrl, 'eth_getBlockTransactionCountByHash', [remoteBlock.hash])).toBe(await call(remote.testnetUrl, 'eth_getBlockTransactionCountByHash', [remoteBlock.hash]));
    expect(await call(fork.testnetUrl, 'eth_getTransactionByBlockHashAndIndex', [remoteBlock.hash, '0x0'])).toEqual(remoteBlock.transactions[0]);
    expect(await call(fork.testnetUrl, 'eth_getBlockByHash', [remoteBlock.hash, true])).toEqual(remoteBlock);
    // State at blocks below the fork block is the remote's there, by number, earliest or hash.
    for (let n = 0n; n < forkBlock; n++) {
      for (const [method, params] of [
        ['eth_getBalance', [COW.address]],
        ['eth_getTransactionCount', [COW.address]],
        ['eth_getCode', [tokenAddress]],
        ['eth_getStorageAt', [tokenAddress, '0x2']],
      ] as const) {
        expect(await call(fork.testnetUrl, method, [...params, at(n)]), `${method} at ${n}`).toBe(await call(remote.testnetUrl, method, [...params, at(n)]));
      }
    }
    expect(await call(fork.testnetUrl, 'eth_getBalance', [COW.address, 'earliest'])).toBe(await call(remote.testnetUrl, 'eth_getBalance', [COW.address, '0x0']));
    const block1 = (await call(remote.testnetUrl, 'eth_getBlockByNumber', ['0x1', false])).hash;
    expect(await call(fork.testnetUrl, 'eth_getTransactionCount', [COW.address, { blockHash: block1 }])).toBe('0x1');
    // eth_call and eth_estimateGas at a block below the fork block run on the remote's state there.
    const balanceOfAlice = new Contract(tokenAddress, contracts.Token.abi).interface.encodeFunctionData('balanceOf', [ALICE]);
    for (let n = 0n; n < forkBlock; n++) {
      const request = { to: tokenAddress, data: balanceOfAlice };
      expect(await call(fork.testnetUrl, 'eth_call', [request, at(n)]), `eth_call at ${n}`).toBe(await call(remote.testnetUrl, 'eth_call', [request, at(n)]));
    }
    const transferCall = { from: ALICE, to: tokenAddress, data: new Contract(tokenAddress, contracts.Token.abi).interface.encodeFunctionData('transfer', [BOB, 1n]) };
    expect(await call(fork.testnetUrl, 'eth_estimateGas', [transferCall, at(forkBlock - 1n)])).toBe(await call(remote.testnetUrl, 'eth_estimateGas', [transferCall, at(forkBlock - 1n)]));
    // Logs up to the fork block are the remote's, by range and by block hash.
    const range = { fromBlock: '0x0', toBlock: tag, address: tokenAddress };
    const remoteLogs = await call(remote.testnetUrl, 'eth_getLogs', [range]);
    expect(remoteLogs).toHaveLength(2);
    expect(await call(fork.testnetUrl, 'eth_getLogs', [range])).toEqual(remoteLogs);
    const filterId = await call(fork.testnetUrl, 'eth_newFilter', [range]);
    expect(await call(fork.testnetUrl, 'eth_getFilterLogs', [filterId])).toEqual(remoteLogs);
    const byHash = { blockHash: remoteLogs[1].blockHash };
    expect(await call(fork.testnetUrl, 'eth_getLogs', [byHash])).toEqual(await call(remote.testnetUrl, 'eth_getLogs', [byHash]));
    // BLOCKHASH of a block before the fork is the remote's hash (init code: BLOCKHASH(1) stored at
    // memory offset 1, bytes 0..33 returned). The zero byte in front: a call that creates answers the
    // code it deploys, and a hash starting with 0xEF (1 in 256) would be refused as code (EIP-3541).
    const blockHashOf1 = await call(fork.testnetUrl, 'eth_call', [{ data: '0x60014060015260216000f3' }, 'latest']);
    expect(blockHashOf1).toBe(`0x00${(await call(remote.testnetUrl, 'eth_getBlockByNumber', ['0x1', false])).hash.slice(2)}`);
    expect(await call(fork.testnetUrl, 'eth_getTransactionByHash', [deployTxHash])).toEqual(await call(remote.testnetUrl, 'eth_getTransactionByHash', [deployTxHash]));
    expect(await call(fork.testnetUrl, 'eth_getTransactionReceipt', [deployTxHash])).toEqual(await call(remote.testnetUrl, 'eth_getTransactionReceipt', [deployTxHash]));
  });

  it('refuses eth_getProof rather than prove a remote account absent', async () => {
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock });
    const error = await rpcError(fork.testnetUrl, 'eth_getProof', [ALICE, [], 'latest']);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/eth_getProof is not available on a fork/);
  });

  it('pins every remote read to the fork block by number and reads an account in one batch', async () => {
    proxy.bodies = [];
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock });
    const addresses = Array.from({ length: 20 }, (_, i) => `0x${(0xbeef00 + i).toString(16).padStart(40, '0')}`);
    await Promise.all(addresses.map((a) => call(fork.testnetUrl, 'eth_getBalance', [a, 'latest'])));
    const calls = proxy.bodies.flatMap((b) => (Array.isArray(b) ? b : [b])) as Array<{ method: string; params: unknown[] }>;
    for (const c of calls.filter((c) => ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt'].includes(c.method))) {
      expect(c.params.at(-1)).toBe(at(forkBlock));
    }
    const batches = proxy.bodies.filter((b): b is unknown[] => Array.isArray(b));
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(50);
    // Each account's balance, nonce and code went out together, in one batch.
    for (const address of addresses) {
      const holding = batches.filter((b) => (b as Array<{ params: unknown[] }>).some((c) => c.params[0] === address)) as Array<Array<{ method: string }>>;
      expect(holding).toHaveLength(1);
      expect(holding[0]!.map((c) => c.method).sort()).toEqual(expect.arrayContaining(['eth_getBalance', 'eth_getCode', 'eth_getTransactionCount']));
    }
  });
});

describe('fork: local changes', () => {
  it('does not see a remote transfer after the fork, and mines local transfers on top of the fork block', async () => {
    const fork = await startFork({ testnetUrl: proxy.url });
    const before = BigInt(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest']));
    // The remote moves on.
    const rp = provider(remote.testnetUrl);
    await (await new Wallet(COW.privateKey, rp).sendTransaction({ to: ALICE, value: 1_000n, type: 0 })).wait();
    rp.destroy();
    expect(BigInt(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest']))).toBe(before);
    // A local transfer on the fork.
    const fp = provider(fork.testnetUrl);
    const cow = new Wallet(COW.privateKey, fp);
    const receipt = (await (await cow.sendTransaction({ to: ALICE, value: 7n, type: 0 })).wait())!;
    expect(receipt.status).toBe(1);
    expect(BigInt(receipt.blockNumber)).toBe(forkBlock + 1n);
    const forkHash = (await call(remote.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock), false])).hash;
    const mined = await call(fork.testnetUrl, 'eth_getBlockByNumber', [at(forkBlock + 1n), false]);
    expect(mined.parentHash).toBe(forkHash);
    expect(mined.minimumGasPrice).toBeDefined();
    expect(BigInt(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest']))).toBe(before + 7n);
    // A token transfer on the fork changes the fork only.
    const token = new Contract(tokenAddress, contracts.Token.abi, cow);
    await (await (token.getFunction('transfer')(BOB, 3n, { type: 0 }) as Promise<any>)).wait();
    expect(await token.getFunction('balanceOf')(BOB)).toBe(3n);
    const remoteToken = new Contract(tokenAddress, contracts.Token.abi, provider(remote.testnetUrl));
    expect(await remoteToken.getFunction('balanceOf')(BOB)).toBe(0n);
    // The token's logs on the fork: the remote's up to the fork block, then the local transfer.
    const logs = await call(fork.testnetUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: tokenAddress }]);
    expect(logs.map((l: { blockNumber: string }) => BigInt(l.blockNumber))).toEqual([...(await call(remote.testnetUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: at(forkBlock), address: tokenAddress }])).map((l: { blockNumber: string }) => BigInt(l.blockNumber)), forkBlock + 2n]);
    fp.destroy();
  });

  it('a slot cleared locally reads zero, not the remote value (anvil foundry#1894)', async () => {
    const fork = await startFork({ testnetUrl: proxy.url });
    const fp = provider(fork.testnetUrl);
    // ALICE holds 5 tokens on the remote; on the fork she gives them all away: her slot becomes zero.
    await call(fork.testnetUrl, 'hardhat_impersonateAccount', [ALICE]);
    await call(fork.testnetUrl, 'hardhat_setBalance', [ALICE, '0xde0b6b3a7640000']);
    const data = new Contract(tokenAddress, contracts.Token.abi).interface.encodeFunctionData('transfer', [CAROL, 5n * 10n ** 18n]);
    const hash = await call(fork.testnetUrl, 'eth_sendTransaction', [{ from: ALICE, to: tokenAddress, data, gas: '0x30000' }]);
    expect((await call(fork.testnetUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    const token = new Contract(tokenAddress, contracts.Token.abi, fp);
    expect(await token.getFunction('balanceOf')(ALICE)).toBe(0n);
    expect(await token.getFunction('balanceOf')(CAROL)).toBe(5n * 10n ** 18n);
    // Also after the next block, once the state was written out and read back from the trie.
    await call(fork.testnetUrl, 'evm_mine');
    expect(await token.getFunction('balanceOf')(ALICE)).toBe(0n);
    fp.destroy();
  });
});

describe('fork: an account deleted locally', () => {
  it('stays deleted: a self-destructed remote contract does not come back from the remote', async () => {
    // On the remote: a contract holding 1,000 wei whose code is CALLER SELFDESTRUCT (0x33ff).
    const rp = provider(remote.testnetUrl);
    const deployed = await (await new Wallet(COW.privateKey, rp).sendTransaction({ data: '0x6133ff6000526002601ef3', value: 1_000n, type: 0 })).wait();
    rp.destroy();
    const victim = deployed!.contractAddress!;
    const block = BigInt(deployed!.blockNumber);
    const fork = await startFork({ testnetUrl: proxy.url, block });
    expect(await call(fork.testnetUrl, 'eth_getCode', [victim, 'latest'])).toBe('0x33ff');
    expect(await call(fork.testnetUrl, 'eth_getBalance', [victim, 'latest'])).toBe('0x3e8');
    const fp = provider(fork.testnetUrl);
    const receipt = await (await new Wallet(COW.privateKey, fp).sendTransaction({ to: victim, gasLimit: 100_000n, type: 0 })).wait();
    expect(receipt!.status).toBe(1);
    fp.destroy();
    expect(await call(fork.testnetUrl, 'eth_getCode', [victim, 'latest'])).toBe('0x');
    expect(await call(fork.testnetUrl, 'eth_getBalance', [victim, 'latest'])).toBe('0x0');
    expect(await call(fork.testnetUrl, 'eth_getTransactionCount', [victim, 'latest'])).toBe('0x0');
    // Still deleted in a later block, read back from the trie rather than the caches.
    await call(fork.testnetUrl, 'evm_mine');
    expect(await call(fork.testnetUrl, 'eth_getCode', [victim, 'latest'])).toBe('0x');
    expect(await call(fork.testnetUrl, 'eth_getCode', [victim, at(block)])).toBe('0x33ff');
  });
});

describe('fork: test control', () => {
  it('evm_revert and hardhat_reset go back to the fork block, with the remote state under it', async () => {
    const lines: string[] = [];
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock }, { logLevel: 'info', logDestination: { write: (line: string) => lines.push(line) } });
    const remoteBalance = await call(remote.testnetUrl, 'eth_getBalance', [ALICE, at(forkBlock)]);
    const snapshot = await call(fork.testnetUrl, 'evm_snapshot');
    await call(fork.testnetUrl, 'hardhat_setBalance', [ALICE, '0x1']);
    await call(fork.testnetUrl, 'evm_mine');
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe('0x1');
    // The block line counts the requests the remote had.
    const requests = fork.node.chains.testnet.fork!.remoteRequests;
    expect(requests).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes(`testnet block ${forkBlock + 1n}: 0 transactions`) && line.includes(`, ${requests} fork remote requests so far`))).toBe(true);
    expect(await call(fork.testnetUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(remoteBalance);
    await call(fork.testnetUrl, 'evm_mine');
    await call(fork.testnetUrl, 'evm_mine');
    await call(fork.testnetUrl, 'hardhat_reset');
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock));
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(remoteBalance);
    // A reset naming this fork (viem's testClient.reset({ jsonRpcUrl, blockNumber })) is the same reset.
    await call(fork.testnetUrl, 'evm_mine');
    expect(await call(fork.testnetUrl, 'anvil_reset', [{ forking: { jsonRpcUrl: proxy.url, blockNumber: Number(forkBlock) } }])).toBe(true);
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe(at(forkBlock));
    // Another block re-forks in place (fork-reset.test.ts has the rest).
    expect(await call(fork.testnetUrl, 'hardhat_reset', [{ forking: { jsonRpcUrl: proxy.url, blockNumber: 1 } }])).toBe(true);
    expect(await call(fork.testnetUrl, 'eth_blockNumber')).toBe('0x1');
    expect(fork.node.chains.testnet.fork!.blockNumber).toBe(1n);
  });
});

describe('fork: cache', () => {
  const reads = async (url: string) => {
    const token = new Contract(tokenAddress, contracts.Token.abi, provider(url));
    return {
      balance: await call(url, 'eth_getBalance', [ALICE, 'latest']),
      nonce: await call(url, 'eth_getTransactionCount', [COW.address, 'latest']),
      code: await call(url, 'eth_getCode', [tokenAddress, 'latest']),
      slot: await call(url, 'eth_getStorageAt', [tokenAddress, '0x2', 'latest']),
      tokens: (await token.getFunction('balanceOf')(ALICE)) as bigint,
      block: (await call(url, 'eth_getBlockByNumber', [at(forkBlock - 1n), false])).hash,
    };
  };

  it('a second run on the same data directory makes no remote request', async () => {
    const dataDir = await tempDir();
    const first = await startFork({ testnetUrl: proxy.url, block: forkBlock }, { inMemory: false, dataDir });
    const answers = await reads(first.testnetUrl);
    await first.close();
    forks.length = 0;
    const before = proxy.requests;
    const second = await startFork({ testnetUrl: proxy.url, block: forkBlock }, { inMemory: false, dataDir });
    expect(await reads(second.testnetUrl)).toEqual(answers);
    expect(proxy.requests).toBe(before);
    const status = (await (await fetch(second.baseUrl)).json()) as { networks: Array<{ network: string; fork?: { remoteRequests: number; block: number } }> };
    expect(status.networks.find((n) => n.network === 'testnet')!.fork).toMatchObject({ remoteRequests: 0, block: Number(forkBlock), url: proxy.url });
    // A remote URL's path (where a gateway keeps its API key) is not shown on the status page.
    const keyed = await startFork({ testnetUrl: `${proxy.url}/secret-api-key`, block: forkBlock });
    const keyedStatus = await (await fetch(keyed.baseUrl)).text();
    expect(keyedStatus).not.toContain('secret-api-key');
    expect(keyedStatus).toContain(`"url":"${proxy.url}/…"`);
    // Nor in the error a failed read answers.
    proxy.failAll = '429';
    const error = await rpcError(keyed.testnetUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000dead4', 'latest']);
    expect(error.message).toContain(`to ${proxy.url}/… failed after 5 retries`);
    expect(error.message).not.toContain('secret-api-key');
  });

  it('an offline fork answers from the cache and fails an uncached read clearly', async () => {
    const cacheDir = await tempDir();
    const online = await startFork({ testnetUrl: proxy.url, block: forkBlock, cacheDir });
    const answers = await reads(online.testnetUrl);
    await online.close();
    forks.length = 0;
    // In memory again with the same cache directory: only the chain id and the fork block are asked.
    let before = proxy.requests;
    const again = await startFork({ testnetUrl: proxy.url, block: forkBlock, cacheDir });
    expect(await reads(again.testnetUrl)).toEqual(answers);
    expect(proxy.requests - before).toBe(2);
    await again.close();
    forks.length = 0;
    before = proxy.requests;
    const offline = await startFork({ testnetUrl: proxy.url, block: forkBlock, cacheDir, offline: true });
    expect(await reads(offline.testnetUrl)).toEqual(answers);
    expect(proxy.requests).toBe(before);
    const error = await rpcError(offline.testnetUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000dead1', 'latest']);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/fork offline: eth_getBalance.*not in the fork cache/);
  });
});

describe('fork: a reorganised fork block', () => {
  it('does not meet the cached answers about the block it replaced', async () => {
    const cacheDir = await tempDir();
    const DAVE = '0x000000000000000000000000000000000000da7e';
    const send = async (value: bigint) => {
      const rp = provider(remote.testnetUrl);
      await (await new Wallet(COW.privateKey, rp).sendTransaction({ to: DAVE, value, type: 0 })).wait();
      rp.destroy();
    };
    const snapshot = await call(remote.testnetUrl, 'evm_snapshot');
    await send(1_000n);
    const block = BigInt(await call(remote.testnetUrl, 'eth_blockNumber'));
    const first = await startFork({ testnetUrl: proxy.url, block, cacheDir });
    expect(await call(first.testnetUrl, 'eth_getBalance', [DAVE, 'latest'])).toBe('0x3e8');
    await first.close();
    forks.length = 0;
    // The remote's chain is reorganised: another block at the same height.
    await call(remote.testnetUrl, 'evm_revert', [snapshot]);
    await send(2_000n);
    expect(BigInt(await call(remote.testnetUrl, 'eth_blockNumber'))).toBe(block);
    const second = await startFork({ testnetUrl: proxy.url, block, cacheDir });
    expect(await call(second.testnetUrl, 'eth_getBalance', [DAVE, 'latest'])).toBe('0x7d0');
  });
});

describe('fork: remote failures', () => {
  it('retries 429 and -32005 answers, then reports a read that still fails (never a zero balance)', async () => {
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock, retries: 3 });
    const before = proxy.requests;
    proxy.failures = ['429', '-32005', '429'];
    expect(await call(fork.testnetUrl, 'eth_getBalance', [ALICE, 'latest'])).toBe(await call(remote.testnetUrl, 'eth_getBalance', [ALICE, at(forkBlock)]));
    expect(proxy.requests - before).toBe(4);
    proxy.failAll = '429';
    const error = await rpcError(fork.testnetUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000dead2', 'latest']);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/failed after 3 retries: HTTP 429/);
    proxy.failAll = '-32005';
    const callError = await rpcError(fork.testnetUrl, 'eth_call', [{ to: '0x00000000000000000000000000000000000dead3', data: '0x' }, 'latest']);
    expect(callError.message).toMatch(/failed after 3 retries: -32005 limit exceeded/);
  });

  it('fails start-up with a message that says why: unreachable, another chain id, no such block', async () => {
    const closed = await startProxy(remote.testnetUrl);
    await closed.close();
    await expect(startFork({ testnetUrl: closed.url })).rejects.toThrow(/unreachable/);
    await expect(startFork({ mainnetUrl: proxy.url })).rejects.toThrow(/answers chain id 31, not 30/);
    await expect(startFork({ testnetUrl: proxy.url, block: forkBlock + 1000n })).rejects.toThrow(new RegExp(`has no block ${forkBlock + 1000n} \\(its latest is \\d+\\)`));
    // A rate limit at start-up is waited out, not reported as unreachable.
    proxy.failures = ['429', '-32005'];
    const fork = await startFork({ testnetUrl: proxy.url, block: forkBlock });
    expect(fork.node.chains.testnet.fork?.blockNumber).toBe(forkBlock);
  });

  it('the CLI forks with --fork-url-testnet and --fork-block, says so in its banner, and refuses fork flags without a fork', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--fork-url-testnet', proxy.url, '--fork-block', String(forkBlock), '--fork-retries', '2']);
    try {
      await cli.started;
      expect(cli.stdout()).toContain(`(fork of ${proxy.url} at block ${forkBlock})`);
    } finally {
      await cli.stop();
    }
    const bad = runCli(['--in-memory', '--port', '0', '--fork-block', '5']);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain('--fork-block without a fork: give --fork-url, --fork-url-testnet or --fork-url-mainnet');
  });

  it('--fork-url forks the network whose chain id the remote reports', async () => {
    const fork = await startFork({ url: proxy.url });
    expect(fork.node.chains.testnet.fork?.blockNumber).toBeGreaterThanOrEqual(forkBlock);
    expect(fork.node.chains.mainnet.fork).toBeUndefined();
  });
});
