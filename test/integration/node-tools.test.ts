/**
 * Test-control methods Hardhat's and anvil's tools call (issue 19): evm_setBlockGasLimit,
 * hardhat_/anvil_setCoinbase, anvil_autoImpersonateAccount, anvil_deal, and the self-descriptions
 * hardhat_metadata / anvil_metadata / anvil_nodeInfo, through viem's test client where it has
 * the action, in the shapes Hardhat and alloy (anvil) read.
 */
import { describe, expect, it } from 'vitest';
import { createTestClient, defineChain, http } from 'viem';
import { COW, COW1, call, nodesClosedAfterEach, rpcError } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const NEW_COINBASE = '0x00000000000000000000000000000000c0ffee00';
const STRANGER = '0x000000000000000000000000000000000000d00d';
const ONE_RBTC = 10n ** 18n;
/** Runtime code returning COINBASE as a word: COINBASE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURNS_COINBASE = '0x4160005260206000f3';
const HASH = /^0x[0-9a-f]{64}$/;

function testClient(url: string, mode: 'anvil' | 'hardhat') {
  const chain = defineChain({ id: 31, name: 'RSK devnode', nativeCurrency: { name: 'RBTC', symbol: 'RBTC', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  return createTestClient({ mode, chain, transport: http(url, { retryCount: 0 }) });
}

async function latest(url: string) {
  return call(url, 'eth_getBlockByNumber', ['latest', false]);
}

describe('evm_setBlockGasLimit', () => {
  it("gives the next blocks that gas limit at once (viem's setBlockGasLimit), and refuses transactions above it", async () => {
    const t = await start();
    const url = t.testnetUrl;
    const client = testClient(url, 'hardhat');
    await client.setBlockGasLimit({ gasLimit: 30_000_000n });
    await client.mine({ blocks: 2 });
    expect(BigInt((await latest(url)).gasLimit)).toBe(30_000_000n);
    expect(BigInt((await call(url, 'eth_getBlockByNumber', ['0x1', false])).gasLimit)).toBe(30_000_000n);
    expect((await call(url, 'anvil_nodeInfo')).environment.gasLimit).toBe('0x1c9c380');

    // Lowered: a transaction the next block cannot hold is refused before it is pooled.
    expect(await call(url, 'evm_setBlockGasLimit', ['0x2dc6c0'])).toBe(true);
    const refused = await rpcError(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gas: '0x2e0000' }]);
    expect(refused.message).toBe("transaction's gas limit of 3014656 is higher than the block's gas limit of 3000000");
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gas: '0x5208' }]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(BigInt((await call(url, 'eth_getBlockByHash', [receipt.blockHash, false])).gasLimit)).toBe(3_000_000n);
  });

  it('refuses a limit below RSK minimum or past a Java long with -32602', async () => {
    const t = await start();
    const url = t.testnetUrl;
    expect(await rpcError(url, 'evm_setBlockGasLimit', ['0x0'])).toMatchObject({ code: -32602, message: expect.stringContaining("below 3000000, RSK's minimum block gas limit") });
    expect(await rpcError(url, 'evm_setBlockGasLimit', ['0x8000000000000000'])).toMatchObject({ code: -32602, message: expect.stringContaining('2^63-1') });
    expect(await rpcError(url, 'evm_setBlockGasLimit', ['lots'])).toMatchObject({ code: -32602 });
  });
});

describe('hardhat_setCoinbase / anvil_setCoinbase', () => {
  it("names the new coinbase in eth_coinbase, mined blocks and the COINBASE opcode (viem's setCoinbase)", async () => {
    const t = await start();
    const url = t.testnetUrl;
    const probe = '0x00000000000000000000000000000000000c0b00';
    await call(url, 'hardhat_setCode', [probe, RETURNS_COINBASE]);
    await testClient(url, 'anvil').setCoinbase({ address: NEW_COINBASE });
    expect(await call(url, 'eth_coinbase')).toBe(NEW_COINBASE);
    await call(url, 'evm_mine');
    expect((await latest(url)).miner).toBe(NEW_COINBASE);
    expect(await call(url, 'eth_call', [{ to: probe }, 'latest'])).toBe(`0x${NEW_COINBASE.slice(2).padStart(64, '0')}`);
    expect(await call(url, 'hardhat_setCoinbase', [COW1.address])).toBe(true);
    await call(url, 'evm_mine');
    expect((await latest(url)).miner).toBe(COW1.address);
    expect(await rpcError(url, 'hardhat_setCoinbase', ['0x1234'])).toMatchObject({ code: -32602 });
  });
});

describe('anvil_autoImpersonateAccount and anvil_deal', () => {
  it('sends as any address while on, and refuses again when off; anvil_deal sets a balance', async () => {
    const t = await start();
    const url = t.testnetUrl;
    expect(await call(url, 'anvil_deal', [STRANGER, `0x${ONE_RBTC.toString(16)}`])).toBe(true);
    expect(BigInt(await call(url, 'eth_getBalance', [STRANGER, 'latest']))).toBe(ONE_RBTC);

    expect(await call(url, 'anvil_autoImpersonateAccount', [true])).toBe(true);
    const hash = await call(url, 'eth_sendTransaction', [{ from: STRANGER, to: COW1.address, value: '0x7' }]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ status: '0x1', from: STRANGER });
    // A key the node holds still signs for real: the transaction recovers to COW.
    const own = await call(url, 'eth_getTransactionByHash', [await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address }])]);
    expect(BigInt(own.r)).not.toBe(BigInt(COW.address) + 1n);

    expect(await call(url, 'anvil_autoImpersonateAccount', [false])).toBe(true);
    const refused = await rpcError(url, 'eth_sendTransaction', [{ from: STRANGER, to: COW1.address, value: '0x7' }]);
    expect(refused.message).toBe(`Could not find account for address: ${STRANGER}`);
    expect(await rpcError(url, 'anvil_autoImpersonateAccount', ['yes'])).toMatchObject({ code: -32602 });
  });
});

describe('hardhat_metadata, anvil_metadata, anvil_nodeInfo', () => {
  it("answer in Hardhat's and anvil's shapes; instanceId changes on reset; anvil_metadata lists snapshots", async () => {
    const t = await start({ profile: 'hardhat' });
    const url = t.testnetUrl;
    await call(url, 'evm_mine');
    const head = await latest(url);
    const hardhat = await call(url, 'hardhat_metadata');
    expect(hardhat).toEqual({
      clientVersion: await call(url, 'web3_clientVersion'),
      chainId: 31,
      instanceId: expect.stringMatching(HASH),
      latestBlockNumber: 1,
      latestBlockHash: head.hash,
    });

    expect(await call(url, 'evm_snapshot')).toBe('0x1');
    await call(url, 'evm_mine');
    expect(await call(url, 'anvil_metadata')).toEqual({ ...hardhat, latestBlockNumber: 2, latestBlockHash: (await latest(url)).hash, forkedNetwork: null, snapshots: { '0x1': [1, head.hash] } });

    const info = await call(url, 'anvil_nodeInfo');
    const now = await latest(url);
    expect(info).toEqual({
      currentBlockNumber: '0x2',
      currentBlockTimestamp: Number(now.timestamp),
      currentBlockHash: now.hash,
      hardFork: 'cancun',
      transactionOrder: 'fees',
      environment: { baseFee: '0x0', chainId: 31, gasLimit: expect.stringMatching(/^0x[0-9a-f]+$/), gasPrice: await call(url, 'eth_gasPrice') },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    });

    await call(url, 'hardhat_reset');
    const after = await call(url, 'hardhat_metadata');
    expect(after.instanceId).toMatch(HASH);
    expect(after.instanceId).not.toBe(hardhat.instanceId);
    expect(after.latestBlockNumber).toBe(0);
    expect((await call(url, 'anvil_metadata')).snapshots).toEqual({});
  });

  it('hardhat_metadata is -32601 without --profile hardhat (hardhat-ethers would give localhost transactions a 16,777,216 gas limit)', async () => {
    const t = await start();
    const refused = await rpcError(t.testnetUrl, 'hardhat_metadata', []);
    expect(refused.code).toBe(-32601);
    expect(refused.message).toContain('hardhat_metadata is answered with --profile hardhat only');
    expect((await call(t.testnetUrl, 'anvil_metadata')).chainId).toBe(31);
  });
});

describe("anvil's aliases", () => {
  it('answer as the methods they name (anvil_snapshot/revert, anvil_setBlockGasLimit, evm_setAccountNonce, ...)', async () => {
    const t = await start();
    const url = t.testnetUrl;
    expect(await call(url, 'anvil_snapshot')).toBe('0x1');
    await call(url, 'evm_mine');
    expect(await call(url, 'anvil_revert', ['0x1'])).toBe(true);
    expect(await call(url, 'eth_blockNumber')).toBe('0x0');
    expect(await call(url, 'anvil_setBlockGasLimit', ['0x1c9c380'])).toBe(true);
    expect(await call(url, 'evm_setAccountNonce', [STRANGER, '0x5'])).toBe(true);
    expect(await call(url, 'eth_getTransactionCount', [STRANGER, 'latest'])).toBe('0x5');
    expect(await call(url, 'hardhat_autoImpersonateAccount', [false])).toBe(true);
    expect(await call(url, 'anvil_setAutomine', [true])).toBe(true);
    expect(await call(url, 'anvil_increaseTime', [60])).toBe('0x3c');
    expect(await rpcError(url, 'anvil_setNextBlockTimestamp', ['soon'])).toMatchObject({ code: -32602 });
  });
});

describe('bad params', () => {
  it('get -32602 from every method added here, never -32603', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const methods = [
      'eth_signTypedData_v4',
      'eth_signTypedData_v3',
      'eth_signTypedData',
      'evm_setBlockGasLimit',
      'anvil_setBlockGasLimit',
      'hardhat_setCoinbase',
      'anvil_setCoinbase',
      'anvil_autoImpersonateAccount',
      'hardhat_autoImpersonateAccount',
      'anvil_deal',
      'evm_setAccountNonce',
    ];
    // Bad for every one of them.
    const garbage: unknown[][] = [[], [null], [{}], ['0x'], [123, 'x'], [[]], ['0xzz', {}]];
    for (const name of methods) {
      for (const params of garbage) {
        const error = await rpcError(url, name, params);
        expect(error.code, `${name} ${JSON.stringify(params)}: ${error.message}`).toBe(-32602);
      }
    }
    // Bad for the signing methods (a number where typed data goes; types not an object).
    for (const params of [[COW.address, 12], [COW.address, '{"types":[]}']]) {
      expect((await rpcError(url, 'eth_signTypedData_v4', params)).code).toBe(-32602);
    }
  });
});
