/**
 * In-process use (issue 4): createNode() without HTTP, its EIP-1193 providers for both networks,
 * ethers' BrowserProvider and viem's custom transport over them, errors with code/message/data,
 * the snapshot-per-test pattern of docs/library.md#in-a-test-suite, HTTP added later with
 * node.server(), and node.close().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserProvider, Contract, isError } from 'ethers';
import {
  BaseError,
  createPublicClient,
  createWalletClient,
  custom,
  decodeErrorResult,
  defineChain,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  getAddress,
  parseAbi,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createNode, ProviderRpcError, type DevNode } from '../../src/index.js';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, rejection, rpc } from '../helpers/node.js';

const ETHER = 10n ** 18n;
const GENESIS_BALANCE = 10n ** 30n;
const INITIAL_SUPPLY = 1_000_000n * ETHER;
const tokenAbi = contracts.Token.abi as Abi;
const reverterAbi = contracts.Reverter.abi as Abi;

const testnet = defineChain({
  id: 31,
  name: 'Rootstock devnode (testnet)',
  nativeCurrency: { name: 'Rootstock Bitcoin', symbol: 'RBTC', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

let node: DevNode;

beforeAll(async () => {
  node = await createNode();
});
afterAll(() => node?.close());

/** Waits for one event, or fails after `ms`. */
function nextEvent(emitter: { once(event: string, listener: (value: unknown) => void): unknown }, event: string, ms = 2_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' event within ${ms} ms`)), ms);
    emitter.once(event, (value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

describe('createNode() and its EIP-1193 providers', () => {
  it('createNode() with no options is in memory and serves both chains without HTTP', async () => {
    expect(await node.provider.request({ method: 'eth_chainId' })).toBe('0x1f');
    expect(await node.providerFor('testnet').request({ method: 'eth_chainId' })).toBe('0x1f');
    expect(await node.providerFor('mainnet').request({ method: 'eth_chainId', params: [] })).toBe('0x1e');
    expect(await node.provider.request({ method: 'net_version' })).toBe('31');
    expect(await node.provider.request({ method: 'eth_blockNumber' })).toBe('0x0');
    expect(await node.provider.request({ method: 'eth_getBalance', params: [COW.address, 'latest'] })).toBe(`0x${GENESIS_BALANCE.toString(16)}`);
    expect(node.providerFor('testnet')).toBe(node.provider);
    expect(node.chains.testnet.head.header.number).toBe(0n);
    expect(node.chains.mainnet.chainId).toBe(30n);
  });

  it("emits 'connect' with { chainId } to a listener attached after createNode resolves", async () => {
    const fresh = await createNode();
    try {
      const [testnetConnect, mainnetConnect] = await Promise.all([
        nextEvent(fresh.provider, 'connect'),
        nextEvent(fresh.providerFor('mainnet'), 'connect'),
      ]);
      expect(testnetConnect).toEqual({ chainId: '0x1f' });
      expect(mainnetConnect).toEqual({ chainId: '0x1e' });
    } finally {
      await fresh.close();
    }
  });

  it('throws errors carrying code, message and data (revert: -32015 with the revert payload)', async () => {
    const wallet = createWalletClient({ account: privateKeyToAccount(COW.privateKey), chain: testnet, transport: custom(node.provider) });
    // retryCount 0: viem wraps an error of a code it does not know (rskj's -32015) in
    // UnknownRpcError (code -1) and would retry it three times, about 2 s per revert.
    const publicClient = createPublicClient({ chain: testnet, transport: custom(node.provider, { retryCount: 0 }) });
    const deployHash = await wallet.deployContract({ abi: reverterAbi, bytecode: contracts.Reverter.bytecode, type: 'legacy' });
    const reverter = (await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })).contractAddress!;

    const reason = await rejection(() =>
      node.provider.request({
        method: 'eth_call',
        params: [{ to: reverter, data: encodeFunctionData({ abi: reverterAbi, functionName: 'revertWithReason' }) }, 'latest'],
      }),
    );
    expect(reason).toBeInstanceOf(ProviderRpcError);
    expect(reason).toBeInstanceOf(Error);
    expect(reason.code).toBe(-32015);
    expect(reason.message).toBe('VM Exception while processing transaction: revert nope: reason string');
    expect(reason.data).toBe(encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['nope: reason string'] }));

    const custom7 = await rejection(() =>
      node.provider.request({
        method: 'eth_call',
        params: [{ to: reverter, data: encodeFunctionData({ abi: reverterAbi, functionName: 'revertWithCustomError', args: [7n] }) }, 'latest'],
      }),
    );
    expect(custom7.code).toBe(-32015);
    expect(custom7.message).toBe('VM Exception while processing transaction: transaction reverted');
    expect(custom7.data).toBe(encodeErrorResult({ abi: reverterAbi, errorName: 'Bad', args: [7n] }));

    const unknown = await rejection(() => node.provider.request({ method: 'eth_nope' }));
    expect(unknown).toBeInstanceOf(ProviderRpcError);
    expect(unknown.code).toBe(-32601);
    expect(typeof unknown.message).toBe('string');
    const invalid = await rejection(() => node.provider.request({ method: 'eth_getBalance', params: ['0x1234', 'latest'] }));
    expect(invalid.code).toBe(-32602);

    // The clients surface the same payload. viem only turns codes 3 and -32603 into
    // ContractFunctionRevertedError, so with rskj's -32015 the node's error is the cause, data intact.
    const viemError = await rejection(() => publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'revertWithReason' }));
    expect(viemError).toBeInstanceOf(BaseError);
    const cause = (viemError as BaseError).walk((e) => (e as { code?: unknown }).code === -32015) as { code: number; message: string; data: Hex } | null;
    expect(cause).toBeInstanceOf(ProviderRpcError);
    expect(decodeErrorResult({ abi: reverterAbi, data: cause!.data })).toEqual({ abiItem: expect.anything(), errorName: 'Error', args: ['nope: reason string'] });
    const viemCustom = await rejection(() =>
      publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'revertWithCustomError', args: [9n] }),
    );
    const customCause = (viemCustom as BaseError).walk((e) => (e as { code?: unknown }).code === -32015) as { data: Hex } | null;
    expect(decodeErrorResult({ abi: reverterAbi, data: customCause!.data })).toMatchObject({ errorName: 'Bad', args: [9n] });

    const ethersProvider = new BrowserProvider(node.provider);
    const contract = new Contract(reverter, contracts.Reverter.abi, ethersProvider);
    const ethersError = await rejection(() => contract.getFunction('revertWithReason').staticCall());
    expect(isError(ethersError, 'CALL_EXCEPTION')).toBe(true);
    expect(ethersError.reason).toBe('nope: reason string');
    ethersProvider.destroy();
  });
});

describe('ethers BrowserProvider over node.provider', () => {
  let provider: BrowserProvider;

  beforeAll(() => {
    // cacheTimeout -1: ethers otherwise answers a repeated read within 250 ms from its own cache.
    provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1, pollingInterval: 20 });
  });
  afterAll(() => provider?.destroy());

  it('reads the chain and sends a legacy transaction through a node-held signer', async () => {
    expect((await provider.getNetwork()).chainId).toBe(31n);
    const start = await provider.getBlockNumber();
    const before = await provider.getBalance(COW1.address);
    const signer = await provider.getSigner(COW.address);
    expect((await signer.getAddress()).toLowerCase()).toBe(COW.address);

    const tx = await signer.sendTransaction({ type: 0, to: COW1.address, value: 3n * ETHER, gasLimit: 21_000n });
    const receipt = (await tx.wait())!;
    expect(receipt.status).toBe(1);
    expect(receipt.blockNumber).toBe(start + 1);
    expect(receipt.from.toLowerCase()).toBe(COW.address);
    expect(await provider.getBlockNumber()).toBe(start + 1);
    expect(await provider.getBalance(COW1.address)).toBe(before + 3n * ETHER);
    const mined = await provider.getTransaction(tx.hash);
    expect(mined?.type).toBe(0);
    expect(mined?.value).toBe(3n * ETHER);
    // Every RSK block closes with the REMASC transaction.
    expect((await provider.getBlock(receipt.blockNumber))!.transactions.length).toBe(2);
  });
});

describe('viem over custom(node.provider)', () => {
  it('deploys Token with a wallet client and reads it with a public client', async () => {
    const account = privateKeyToAccount(COW.privateKey);
    const publicClient = createPublicClient({ chain: testnet, transport: custom(node.provider), pollingInterval: 20 });
    const walletClient = createWalletClient({ account, chain: testnet, transport: custom(node.provider), pollingInterval: 20 });
    expect(await publicClient.getChainId()).toBe(31);

    const hash = await walletClient.deployContract({ abi: tokenAbi, bytecode: contracts.Token.bytecode, args: [INITIAL_SUPPLY], type: 'legacy' });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const token = receipt.contractAddress! as Address;
    expect(await publicClient.getCode({ address: token })).toBe(contracts.Token.deployedBytecode);

    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'name' })).toBe('Test Token');
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'totalSupply' })).toBe(INITIAL_SUPPLY);
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] })).toBe(INITIAL_SUPPLY);

    const transfer = await walletClient.writeContract({
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [getAddress(COW1.address), 250n],
      type: 'legacy',
    });
    const transferReceipt = await publicClient.waitForTransactionReceipt({ hash: transfer });
    expect(transferReceipt.status).toBe('success');
    expect(transferReceipt.logs[0]!.data).toBe(encodeAbiParameters([{ type: 'uint256' }], [250n]));
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [getAddress(COW1.address)] })).toBe(250n);
  });
});

// docs/library.md#in-a-test-suite's pattern: one snapshot before each test, a revert after it, so tests never see
// each other's state.
describe('snapshot in beforeEach, revert in afterEach (README pattern)', () => {
  const provider = () => node.provider;
  const account = privateKeyToAccount(COW.privateKey);
  const publicClient = () => createPublicClient({ chain: testnet, transport: custom(provider()), pollingInterval: 20 });
  const walletClient = () => createWalletClient({ account, chain: testnet, transport: custom(provider()), pollingInterval: 20 });
  const recipient = getAddress('0x00000000000000000000000000000000000beef1');
  let snapshotId: string;
  let token: Address;
  let baseBlock: bigint;
  let baseNonce: number;

  beforeAll(async () => {
    const hash = await walletClient().deployContract({ abi: tokenAbi, bytecode: contracts.Token.bytecode, args: [1_000n], type: 'legacy' });
    token = (await publicClient().waitForTransactionReceipt({ hash })).contractAddress! as Address;
    baseBlock = await publicClient().getBlockNumber();
    baseNonce = await publicClient().getTransactionCount({ address: account.address });
  });

  beforeEach(async () => {
    snapshotId = (await provider().request({ method: 'evm_snapshot' })) as string;
    expect(snapshotId).toMatch(/^0x[0-9a-f]+$/);
  });
  afterEach(async () => {
    expect(await provider().request({ method: 'evm_revert', params: [snapshotId] })).toBe(true);
  });

  it('first test: changes balances, token state and the head', async () => {
    expect(await publicClient().getBlockNumber()).toBe(baseBlock);
    expect(await publicClient().getTransactionCount({ address: account.address })).toBe(baseNonce);
    const pay = await walletClient().sendTransaction({ to: recipient, value: 5n, type: 'legacy' });
    await publicClient().waitForTransactionReceipt({ hash: pay });
    const mint = await walletClient().writeContract({ address: token, abi: tokenAbi, functionName: 'mint', args: [recipient, 77n], type: 'legacy' });
    await publicClient().waitForTransactionReceipt({ hash: mint });
    await provider().request({ method: 'hardhat_mine', params: ['0x10'] });
    expect(await publicClient().getBalance({ address: recipient })).toBe(5n);
    expect(await publicClient().readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [recipient] })).toBe(77n);
    expect(await publicClient().getBlockNumber()).toBe(baseBlock + 18n);
    expect(await publicClient().getTransactionCount({ address: account.address })).toBe(baseNonce + 2);
  });

  it('second test: sees none of it', async () => {
    expect(await publicClient().getBlockNumber()).toBe(baseBlock);
    expect(await publicClient().getBalance({ address: recipient })).toBe(0n);
    expect(await publicClient().readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [recipient] })).toBe(0n);
    expect(await publicClient().readContract({ address: token, abi: tokenAbi, functionName: 'totalSupply' })).toBe(1_000n);
    expect(await publicClient().getTransactionCount({ address: account.address })).toBe(baseNonce);
  });
});

describe('node.server() and node.close()', () => {
  it('node.server(0) serves the same chains over HTTP: a transaction sent in process is visible there', async () => {
    const server = await node.server(0);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    const testnetKey = node.apiKeys.find((k) => k.network === 'testnet')!.key;
    const mainnetKey = node.apiKeys.find((k) => k.network === 'mainnet')!.key;
    const testnetUrl = `${server.url}/${testnetKey}`;

    const hash = (await node.provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: COW.address, to: COW1.address, value: '0x2a', gas: '0x5208' }],
    })) as Hex;
    const overHttp = await rpc(testnetUrl, 'eth_getTransactionReceipt', [hash]);
    expect(overHttp.status).toBe(200);
    expect(overHttp.body.result.status).toBe('0x1');
    expect(overHttp.body.result.transactionHash).toBe(hash);
    expect((await rpc(testnetUrl, 'eth_blockNumber')).body.result).toBe(await node.provider.request({ method: 'eth_blockNumber' }));
    expect((await rpc(`${server.url}/${mainnetKey}`, 'eth_chainId')).body.result).toBe('0x1e');
    expect((await rpc(`${server.url}/${mainnetKey}`, 'eth_getTransactionReceipt', [hash])).body.result).toBeNull();
    // And the other way round: mined over HTTP, seen in process.
    const httpHash = (await rpc(testnetUrl, 'eth_sendTransaction', [{ from: COW1.address, to: COW.address, value: '0x1', gas: '0x5208' }])).body.result;
    expect(((await node.provider.request({ method: 'eth_getTransactionReceipt', params: [httpHash] })) as any).status).toBe('0x1');

    await server.close();
    await expect(fetch(testnetUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
    // The in-process provider outlives the HTTP server.
    expect(await node.provider.request({ method: 'eth_chainId' })).toBe('0x1f');
  });

  it('node.close() releases everything: servers stop, the data directory can be opened again at once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-provider-'));
    try {
      const first = await createNode({ inMemory: false, dataDir, logLevel: 'silent', blockTime: 1 });
      const server = await first.server(0);
      const url = `${server.url}/${first.apiKeys.find((k) => k.network === 'testnet')!.key}`;
      const hash = (await first.provider.request({
        method: 'eth_sendTransaction',
        params: [{ from: COW.address, to: COW1.address, value: '0x7', gas: '0x5208' }],
      })) as Hex;
      expect((await rpc(url, 'eth_getTransactionByHash', [hash])).body.result.hash).toBe(hash);
      await first.provider.request({ method: 'evm_mine' });
      const head = (await first.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as any;

      await first.close();
      await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();

      // LevelDB's lock is released: the same directory opens again, with the chain as it was.
      const second = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
      try {
        const reopened = (await second.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as any;
        expect(BigInt(reopened.number)).toBeGreaterThanOrEqual(BigInt(head.number));
        expect((await second.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as any).toMatchObject({ status: '0x1' });
        expect(second.apiKeys).toEqual(first.apiKeys);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a revert persists across a restart: the reverted head, its state override, no dropped block or receipt', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-provider-'));
    const holder = '0x00000000000000000000000000000000000beef2';
    const send = (n: DevNode, from: string, to: string) =>
      n.provider.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1', gas: '0x5208' }] }) as Promise<Hex>;
    try {
      const first = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
      const kept = await send(first, COW.address, COW1.address);
      await first.provider.request({ method: 'hardhat_setBalance', params: [holder, '0x5'] });
      const head = (await first.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as any;
      const id = await first.provider.request({ method: 'evm_snapshot' });
      const dropped = await send(first, COW.address, COW1.address);
      await first.provider.request({ method: 'hardhat_setBalance', params: [holder, '0x9'] });
      await first.provider.request({ method: 'hardhat_mine', params: ['0x5'] });
      expect(await first.provider.request({ method: 'eth_blockNumber' })).toBe('0x7');
      expect(await first.provider.request({ method: 'evm_revert', params: [id] })).toBe(true);
      await first.close();

      const second = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
      try {
        const p = second.provider;
        const reopened = (await p.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as any;
        expect(reopened.number).toBe('0x1');
        expect(reopened.hash).toBe(head.hash);
        expect(await p.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe('0x5');
        expect(await p.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })).toBeNull();
        expect(await p.request({ method: 'eth_getTransactionReceipt', params: [dropped] })).toBeNull();
        expect(await p.request({ method: 'eth_getTransactionByHash', params: [dropped] })).toBeNull();
        expect(((await p.request({ method: 'eth_getTransactionReceipt', params: [kept] })) as any).blockNumber).toBe('0x1');
        expect(await p.request({ method: 'eth_getTransactionCount', params: [COW.address, 'latest'] })).toBe('0x1');
        // The chain goes on from there.
        const next = await send(second, COW.address, COW1.address);
        const receipt = (await p.request({ method: 'eth_getTransactionReceipt', params: [next] })) as any;
        expect(receipt.blockNumber).toBe('0x2');
        expect(((await p.request({ method: 'eth_getTransactionByHash', params: [next] })) as any).nonce).toBe('0x1');
        expect(((await p.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })) as any).parentHash).toBe(head.hash);
        expect(await p.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe('0x5');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
