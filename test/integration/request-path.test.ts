/**
 * The per-request path and the write path over HTTP after issue 25's changes: a receipt asked for
 * right after the send's answer is there (now from memory: the store keeps recent transactions'
 * locations), stays right through evm_revert and a restart; the gate's remembered URL key and
 * client context never answer one key's request with another's network.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { http, createPublicClient, createWalletClient, defineChain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createNode } from '../../src/index.js';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, MAINNET_KEY, TESTNET_KEY, call, nodesClosedAfterEach, rpc } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function onDisk() {
  const dataDir = await mkdtemp(join(tmpdir(), 'request-path-'));
  dirs.push(dataDir);
  return { dataDir, node: await start({ inMemory: false, dataDir }) };
}

describe('write path: a receipt right after the send', () => {
  it('ethers: every ERC20 transfer of a sequence has its receipt at once, on a data directory', async () => {
    const { node } = await onDisk();
    const provider = new JsonRpcProvider(node.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const token = (await (await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(0n)).waitForDeployment()) as Contract;
    await (await token.getFunction('mint')(COW.address, 1_000n)).wait();
    for (let i = 1n; i <= 5n; i++) {
      const sent = await token.getFunction('transfer')(COW1.address, i);
      // Asked before any wait: automine answered the send once its block was committed.
      const receipt = await provider.getTransactionReceipt(sent.hash);
      expect(receipt).not.toBeNull();
      expect(receipt!.status).toBe(1);
      expect(receipt!.blockNumber).toBe(Number(await call(node.testnetUrl, 'eth_blockNumber')));
    }
    expect(await token.getFunction('balanceOf')(COW1.address)).toBe(15n);
    provider.destroy();
  });

  it('viem: sendRawTransaction then getTransactionReceipt at once', async () => {
    const { node } = await onDisk();
    const chain = defineChain({ id: 31, name: 'devnode', nativeCurrency: { name: 'RBTC', symbol: 'RBTC', decimals: 18 }, rpcUrls: { default: { http: [node.testnetUrl] } } });
    const account = privateKeyToAccount(COW.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(node.testnetUrl) });
    const walletClient = createWalletClient({ account, chain, transport: http(node.testnetUrl) });
    const hash = await walletClient.sendTransaction({ to: COW1.address, value: 7n, gasPrice: 80_000_000n, type: 'legacy' });
    const receipt = await publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.transactionHash).toBe(hash);
  });

  it('a transaction reverted by evm_revert loses its receipt, though its location was kept in memory; a restart reads the rest from disk', async () => {
    const { dataDir, node } = await onDisk();
    const send = async (nonce: number, value = 1n) => {
      const raw = await new Wallet(COW.privateKey).signTransaction({ type: 0, chainId: 31, nonce, to: COW1.address, value, gasLimit: 21_000, gasPrice: 80_000_000 });
      return call(node.testnetUrl, 'eth_sendRawTransaction', [raw]) as Promise<string>;
    };
    const kept = await send(0);
    const snapshot = await call(node.testnetUrl, 'evm_snapshot');
    const reverted = await send(1);
    expect((await call(node.testnetUrl, 'eth_getTransactionReceipt', [reverted])).transactionHash).toBe(reverted);
    expect(await call(node.testnetUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(await call(node.testnetUrl, 'eth_getTransactionReceipt', [reverted])).toBeNull();
    expect(await call(node.testnetUrl, 'eth_getTransactionByHash', [reverted])).toBeNull();
    const keptReceipt = await call(node.testnetUrl, 'eth_getTransactionReceipt', [kept]);
    expect(keptReceipt.transactionHash).toBe(kept);
    // Another transaction with the same nonce lands in the block the reverted one had: its receipt names it.
    const again = await send(1, 2n);
    expect((await call(node.testnetUrl, 'eth_getTransactionReceipt', [again])).blockNumber).toBe('0x2');
    await node.close();

    const reopened = await createNode({ inMemory: false, dataDir, logLevel: 'silent', apiKeys: [{ key: TESTNET_KEY, network: 'testnet' }] });
    try {
      const server = await reopened.server(0);
      const url = `${server.url}/${TESTNET_KEY}`;
      expect(await call(url, 'eth_getTransactionReceipt', [kept])).toEqual(keptReceipt);
      expect((await call(url, 'eth_getTransactionReceipt', [again])).blockNumber).toBe('0x2');
      expect(await call(url, 'eth_getTransactionReceipt', [reverted])).toBeNull();
    } finally {
      await reopened.close();
    }
  });
});

describe('per-request path: remembered keys and contexts', () => {
  it('requests alternating between keys, paths and networks each get their own network', async () => {
    const node = await start();
    const urls = [node.testnetUrl, node.mainnetUrl, `${node.baseUrl}/v2/${TESTNET_KEY}`, `${node.baseUrl}/v2/${MAINNET_KEY}`, `${node.baseUrl}/${TESTNET_KEY}/`];
    const expected = ['0x1f', '0x1e', '0x1f', '0x1e', '0x1f'];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < urls.length; i++) expect(await call(urls[i]!, 'eth_chainId')).toBe(expected[i]);
    }
    const unknown = await rpc(`${node.baseUrl}/not-a-key`, 'eth_chainId');
    expect(unknown.status).toBe(401);
    expect(await call(node.testnetUrl, 'eth_chainId')).toBe('0x1f');
  });

  it('polled values follow every change: the kept texts of a balance, a nonce and the block number (QuantityMemo) never answer an old value', async () => {
    const node = await start();
    const provider = new JsonRpcProvider(node.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const fresh = Wallet.createRandom().address;
    const balanceOf = (address: string, url = node.testnetUrl) => call(url, 'eth_getBalance', [address, 'latest']);
    for (let i = 1n; i <= 3n; i++) {
      const before = { number: await call(node.testnetUrl, 'eth_blockNumber'), cow: await balanceOf(COW.address), nonce: await call(node.testnetUrl, 'eth_getTransactionCount', [COW.address, 'latest']) };
      // Asked twice in a row: the second answer is the kept text, and must equal the first.
      expect(await balanceOf(COW.address)).toBe(before.cow);
      const receipt = await (await wallet.sendTransaction({ to: fresh, value: i, gasPrice: 80_000_000n })).wait();
      const number = await call(node.testnetUrl, 'eth_blockNumber');
      expect(BigInt(number)).toBe(BigInt(before.number) + 1n);
      expect(number).toBe(`0x${receipt!.blockNumber.toString(16)}`);
      expect(await balanceOf(fresh)).toBe(`0x${((i * (i + 1n)) / 2n).toString(16)}`);
      expect(BigInt(await balanceOf(COW.address))).toBe(BigInt(before.cow) - i - receipt!.gasUsed * receipt!.gasPrice);
      expect(await call(node.testnetUrl, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe(`0x${(BigInt(before.nonce) + 1n).toString(16)}`);
      // The other network's chain did not move: its own number and balances, between this network's polls.
      expect(await call(node.mainnetUrl, 'eth_blockNumber')).toBe('0x0');
      expect(await balanceOf(fresh, node.mainnetUrl)).toBe('0x0');
      expect(await call(node.testnetUrl, 'eth_blockNumber')).toBe(number);
    }
    // An absent address reads 0x0, and a param in capitals reads the same account as its lowercase.
    expect(await balanceOf(Wallet.createRandom().address)).toBe('0x0');
    expect(await balanceOf(`0x${fresh.slice(2).toUpperCase()}`)).toBe('0x6');
    provider.destroy();
  });

  it('answers keep their headers: CORS, JSON and the exact length, for synchronous and asynchronous methods alike', async () => {
    const node = await start();
    for (const [method, params] of [
      ['eth_blockNumber', []],
      ['eth_getBalance', [COW.address, 'latest']],
      ['no_suchMethod', []],
    ] as const) {
      const response = await fetch(node.testnetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      const text = await response.text();
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(JSON.parse(text).id).toBe(1);
    }
  });
});
