/**
 * Regression tests for what real clients tripped over (issue 8): each is named after what broke and
 * goes through the client that tripped (viem, ethers) as well as raw JSON-RPC where it matters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClient, http } from 'viem';
import { call, COW, COW1, nodesClosedAfterEach, rpcError } from '../helpers/node.js';
import { devnodeChain } from '../helpers/viem-chain.js';
import { uncachedProvider } from '../helpers/ethers.js';
import type { ChainStore } from '../../src/chain/storage/store.js';

const TWO_POW_64 = 2n ** 64n;
const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;
/** Init code that returns the block's TIMESTAMP as the contract's code (it reads TIMESTAMP at creation). */
const READS_TIMESTAMP = '0x4260005260206000f3';
/** Runtime code: BLOCKHASH(0), returned as one word. */
const READS_BLOCKHASH_0 = '0x60004060005260206000f3';
const OTHER = '0x00000000000000000000000000000000000000cc';

const start = nodesClosedAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

function testClient(url: string, mode: 'anvil' | 'hardhat') {
  const chain = devnodeChain(url);
  return createTestClient({ mode, chain, transport: http(url, { retryCount: 0 }) });
}

async function latestBlock(url: string): Promise<{ number: bigint; timestamp: bigint }> {
  const block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  return { number: BigInt(block.number), timestamp: BigInt(block.timestamp) };
}

describe('three valid calls wiped a chain (timestamps past 2^64)', () => {
  it('clock values past 2^64-1 are refused with -32602 where they enter, and the chain keeps its state', async () => {
    const { testnetUrl: url } = await start();
    const balance = BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest']));
    const huge = '0x' + 'f'.repeat(64);
    for (const [method, params] of [
      ['evm_increaseTime', [huge]],
      ['evm_increaseTime', [hexOf(TWO_POW_64)]],
      ['evm_mine', [hexOf(TWO_POW_64)]],
      ['evm_setNextBlockTimestamp', [hexOf(TWO_POW_64)]],
      ['hardhat_mine', ['0x2', hexOf(TWO_POW_64)]],
      ['anvil_mine', ['0x2', huge]],
    ] as const) {
      const error = await rpcError(url, method, [...params]);
      expect(error.code, method).toBe(-32602);
      expect(error.message, method).toContain('2^64-1');
    }
    // Accumulated offsets that each fit but together pass 2^64-1 are refused too.
    await call(url, 'evm_increaseTime', [hexOf(TWO_POW_64 / 2n)]);
    const sum = await rpcError(url, 'evm_increaseTime', [hexOf(TWO_POW_64 / 2n)]);
    expect(sum.code).toBe(-32602);
    expect(sum.message).toContain('past 2^64-1 seconds');
    // 2^16 blocks 2^50 seconds apart would pass it as well.
    expect((await rpcError(url, 'hardhat_mine', [hexOf(2n ** 16n), hexOf(2n ** 50n)])).code).toBe(-32602);

    // The reproduction from the issue: a contract reading TIMESTAMP, then a transfer.
    const created = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: READS_TIMESTAMP }]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [created]);
    expect(receipt.status).toBe('0x1');
    const code = await call(url, 'eth_getCode', [receipt.contractAddress, 'latest']);
    const block = await call(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(BigInt(code)).toBe(BigInt(block.timestamp));
    expect(BigInt(block.timestamp)).toBeLessThan(TWO_POW_64);
    const transfer = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, value: '0x7' }]);
    expect((await call(url, 'eth_getTransactionReceipt', [transfer])).status).toBe('0x1');
    expect(BigInt(await call(url, 'eth_getBalance', [OTHER, 'latest']))).toBe(7n);
    expect(BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest']))).toBeLessThan(balance);
    expect(BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest']))).toBeGreaterThan(balance - 10n ** 18n);
  });

  it('through viem: setNextBlockTimestamp past 2^64-1 is an InvalidParams error', async () => {
    const { testnetUrl: url } = await start();
    const client = testClient(url, 'hardhat');
    const err = (await client.setNextBlockTimestamp({ timestamp: TWO_POW_64 }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { name: string; code: number };
    expect(err.name).toBe('InvalidParamsRpcError');
    expect(err.code).toBe(-32602);
    await client.mine({ blocks: 1 });
    expect((await latestBlock(url)).timestamp).toBeLessThan(BigInt(Math.floor(Date.now() / 1000)) + 60n);
  });

  it('nonces: hardhat_setNonce refuses 2^64-1 (EIP-2681), and an account at 2^64-2 sends once and then gets -32602', async () => {
    const { testnetUrl: url } = await start();
    const refused = await rpcError(url, 'hardhat_setNonce', [COW1.address, hexOf(TWO_POW_64 - 1n)]);
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('EIP-2681');
    expect((await rpcError(url, 'anvil_setNonce', [COW1.address, hexOf(TWO_POW_64)])).code).toBe(-32602);

    await call(url, 'hardhat_setNonce', [COW1.address, hexOf(TWO_POW_64 - 2n)]);
    const sent = await call(url, 'eth_sendTransaction', [{ from: COW1.address, to: OTHER, value: '0x1' }]);
    expect((await call(url, 'eth_getTransactionByHash', [sent])).nonce).toBe(hexOf(TWO_POW_64 - 2n));
    expect(await call(url, 'eth_getTransactionCount', [COW1.address, 'latest'])).toBe(hexOf(TWO_POW_64 - 1n));
    const exhausted = await rpcError(url, 'eth_sendTransaction', [{ from: COW1.address, to: OTHER, value: '0x1' }]);
    expect(exhausted.code).toBe(-32602);
    expect(exhausted.message).toBe(`nonce ${TWO_POW_64 - 1n} is out of range: a transaction nonce must be below 2^64-1 (EIP-2681)`);
  });

  it('eth_sendTransaction fields a transaction cannot hold are input errors, not -32603', async () => {
    const { testnetUrl: url } = await start();
    const block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const gas = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, gas: hexOf(TWO_POW_64) }]);
    expect(gas).toEqual({ code: -32010, message: `transaction's gas limit of ${TWO_POW_64} is higher than the block's gas limit of ${BigInt(block.gasLimit)}` });
    const nonce = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, nonce: hexOf(TWO_POW_64 - 1n) }]);
    expect(nonce.code).toBe(-32602);
    const price = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, gasPrice: '0x' + 'f'.repeat(64) }]);
    expect(price).toEqual({ code: -32010, message: 'insufficient funds' });
    const initCode = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, gas: '0x5b8d80', data: '0x' + '00'.repeat(49_153) }]);
    expect(initCode).toEqual({ code: -32010, message: "transaction's init code size is invalid" });
    expect(await call(url, 'eth_blockNumber')).toBe('0x0');
  });
});

describe('a block whose execution fails is never committed', () => {
  it('an error inside execution aborts the block: head, balances and pool stay as they were', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const chain = t.node.chains.testnet;
    const contract = '0x00000000000000000000000000000000000000b1';
    await call(url, 'hardhat_setCode', [contract, READS_BLOCKHASH_0]);
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, value: '0x1' }]);
    const before = await latestBlock(url);
    const cowBalance = await call(url, 'eth_getBalance', [COW.address, 'latest']);
    const otherBalance = await call(url, 'eth_getBalance', [OTHER, 'latest']);
    const stateRoot = (await call(url, 'eth_getBlockByNumber', ['latest', false])).stateRoot;

    // BLOCKHASH reads the block store from inside the EVM: make that read fail.
    const store = (chain as unknown as { store: ChainStore }).store;
    const getBlock = store.getBlock.bind(store);
    const failing = vi.spyOn(store, 'getBlock').mockImplementation(async (n: bigint) => {
      if (n === 0n) throw new Error('simulated store failure');
      return getBlock(n);
    });
    const aborted = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, to: contract, gas: '0x186a0' }]);
    expect(aborted.code).toBe(-32603);
    expect(aborted.message).toBe(`block ${before.number + 1n} was not mined, the chain is unchanged: execution failed: simulated store failure`);
    expect(await latestBlock(url)).toEqual(before);
    expect(await call(url, 'eth_getBalance', [COW.address, 'latest'])).toBe(cowBalance);
    expect(await call(url, 'eth_getBalance', [OTHER, 'latest'])).toBe(otherBalance);
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).stateRoot).toBe(stateRoot);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });

    // Manual mining: the pooled transaction stays pooled while its block cannot be built.
    await call(url, 'evm_setAutomine', [false]);
    const pooled = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: contract, gas: '0x186a0' }]);
    expect((await rpcError(url, 'evm_mine', [])).code).toBe(-32603);
    expect(await latestBlock(url)).toEqual(before);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 1, queued: 0 });

    // Once the store answers again, the same transaction is mined on the parent's state.
    failing.mockRestore();
    await call(url, 'evm_mine', []);
    const receipt = await call(url, 'eth_getTransactionReceipt', [pooled]);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.blockNumber)).toBe(before.number + 1n);
    expect(await call(url, 'eth_getBalance', [OTHER, 'latest'])).toBe(otherBalance);
    expect(BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest']))).toBeLessThan(BigInt(cowBalance));
  });
});

describe('time travel composes as in Hardhat and anvil', () => {
  it('viem: setNextBlockTimestamp then increaseTime(3600) moves the next block an hour past the first', async () => {
    const { testnetUrl: url } = await start();
    const client = testClient(url, 'anvil');
    const target = BigInt(Math.floor(Date.now() / 1000)) + 365n * 86_400n;
    await client.setNextBlockTimestamp({ timestamp: target });
    await client.mine({ blocks: 1 });
    expect((await latestBlock(url)).timestamp).toBe(target);
    await client.increaseTime({ seconds: 3600 });
    await client.mine({ blocks: 1 });
    const next = (await latestBlock(url)).timestamp;
    expect(next).toBeGreaterThanOrEqual(target + 3600n);
    expect(next).toBeLessThan(target + 3600n + 60n);
    // Without further travel, the clock keeps running from there (not back to the wall clock).
    await client.mine({ blocks: 1 });
    const after = (await latestBlock(url)).timestamp;
    expect(after).toBeGreaterThan(next);
    expect(after).toBeLessThan(next + 60n);
  });

  it('evm_mine(ts), hardhat_mine with an interval and evm_increaseTime compose; evm_increaseTime answers the pending offset', async () => {
    const { testnetUrl: url } = await start();
    const target = BigInt(Math.floor(Date.now() / 1000)) + 10n * 86_400n;
    await call(url, 'evm_mine', [hexOf(target)]);
    expect(await call(url, 'evm_increaseTime', ['100'])).toBe('0x64');
    expect(await call(url, 'evm_increaseTime', ['0x32'])).toBe('0x96');
    await call(url, 'evm_mine', []);
    const afterOffset = (await latestBlock(url)).timestamp;
    expect(afterOffset).toBeGreaterThanOrEqual(target + 150n);
    expect(afterOffset).toBeLessThan(target + 150n + 60n);

    await call(url, 'hardhat_mine', ['0x3', hexOf(1000)]);
    const afterInterval = (await latestBlock(url)).timestamp;
    expect(afterInterval).toBeGreaterThanOrEqual(afterOffset + 2000n);
    await call(url, 'evm_increaseTime', ['3600']);
    await call(url, 'evm_mine', []);
    const last = (await latestBlock(url)).timestamp;
    expect(last).toBeGreaterThanOrEqual(afterInterval + 3600n);
    expect(last).toBeLessThan(afterInterval + 3600n + 60n);
  });

  it('evm_revert restores the clock with the chain', async () => {
    const { testnetUrl: url } = await start();
    const snapshot = await call(url, 'evm_snapshot');
    const target = BigInt(Math.floor(Date.now() / 1000)) + 30n * 86_400n;
    await call(url, 'evm_mine', [hexOf(target)]);
    await call(url, 'evm_revert', [snapshot]);
    await call(url, 'evm_mine', []);
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect((await latestBlock(url)).timestamp).toBeLessThan(now + 60n);
  });
});

describe("viem's reset sent a forking member without a URL", () => {
  it.each(['anvil', 'hardhat'] as const)('testClient.reset() in %s mode is a plain reset to genesis', async (mode) => {
    const { testnetUrl: url } = await start();
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, value: '0x1' }]);
    expect(await call(url, 'eth_blockNumber')).toBe('0x1');
    await testClient(url, mode).reset();
    expect(await call(url, 'eth_blockNumber')).toBe('0x0');
    expect(await call(url, 'eth_getBalance', [OTHER, 'latest'])).toBe('0x0');
  });

  it('a forking URL is still refused', async () => {
    const { testnetUrl: url } = await start();
    const error = await rpcError(url, 'hardhat_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1/', blockNumber: 5 } }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('forking is not supported');
  });
});

describe('ethers hid the node\'s error for unknown methods behind UNSUPPORTED_OPERATION', () => {
  it('an unknown method reaches ethers as the node\'s "method not found"', async () => {
    const { testnetUrl: url } = await start();
    const provider = uncachedProvider(url, undefined, { staticNetwork: true });
    try {
      const err = await provider.send('eth_nope', []).catch((e: unknown) => e as { code: string; error?: { code: number; message: string } });
      expect(err.code).not.toBe('UNSUPPORTED_OPERATION');
      expect(err.error).toEqual({ code: -32601, message: 'method not found: eth_nope' });
      // Methods the spec lists as unsupported keep the wording ethers reports as unsupported.
      const compile = await provider.send('eth_compileSolidity', ['']).catch((e: unknown) => e as { code: string });
      expect(compile.code).toBe('UNSUPPORTED_OPERATION');
    } finally {
      provider.destroy();
    }
  });
});
