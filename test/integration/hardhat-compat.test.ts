/**
 * Coming from Hardhat or anvil (issue 19): the time travel, genesis date, revert-on-send, keyless
 * network and log behaviour those users expect, each test named after what broke.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, nodesClosedAfterEach, rpc } from '../helpers/node.js';

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

const reverter = new Interface(contracts.Reverter.abi);
/** Solidity's Error(string). */
const ERROR_STRING_SELECTOR = '0x08c379a0';
/** A fixed gas limit, as hardhat-ethers sends on the `localhost` network: no estimate to fail first. */
const FIXED_GAS = '0x30d40';

/** Deploys the Reverter fixture from COW (automine) and returns its address. */
async function deployReverter(url: string): Promise<string> {
  const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: contracts.Reverter.bytecode, gas: '0x2dc6c0' }]);
  return (await call(url, 'eth_getTransactionReceipt', [hash])).contractAddress;
}

async function sendFailure(url: string, to: string, data: string) {
  const { body } = await rpc(url, 'eth_sendTransaction', [{ from: COW.address, to, data, gas: FIXED_GAS }]);
  expect(body.error, `expected the send to fail, got ${JSON.stringify(body.result)}`).toBeDefined();
  return body.error as { code: number; message: string; data: { message: string; txHash: string; data: string } };
}

describe('a reverting transaction sent with a fixed gas limit', () => {
  it('under the Hardhat profile eth_sendTransaction answers with the revert (Hardhat shape), the transaction mined with status 0', async () => {
    const { testnetUrl: url } = await start({ profile: 'hardhat' });
    const address = await deployReverter(url);
    const error = await sendFailure(url, address, reverter.encodeFunctionData('revertWithReason'));
    const message = "Error: VM Exception while processing transaction: reverted with reason string 'nope: reason string'";
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(message);
    expect(error.data.message).toBe(message);
    expect(error.data.data.slice(0, 10)).toBe(ERROR_STRING_SELECTOR);
    expect(AbiCoder.defaultAbiCoder().decode(['string'], `0x${error.data.data.slice(10)}`)[0]).toBe('nope: reason string');
    const receipt = await call(url, 'eth_getTransactionReceipt', [error.data.txHash]);
    expect(receipt.status).toBe('0x0');
  });

  it('under the Hardhat profile a custom error, a panic and an empty revert are worded as Hardhat words them', async () => {
    const { testnetUrl: url } = await start({ profile: 'hardhat' });
    const address = await deployReverter(url);
    const custom = await sendFailure(url, address, reverter.encodeFunctionData('revertWithCustomError', [7]));
    expect(custom.message).toBe(`Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: ${custom.data.data})`);
    const decoded = reverter.parseError(custom.data.data)!;
    expect(decoded.name).toBe('Bad');
    expect(decoded.args[0]).toBe(7n);
    const panic = await sendFailure(url, address, reverter.encodeFunctionData('assertFail'));
    expect(panic.message).toBe('Error: VM Exception while processing transaction: reverted with panic code 0x1 (Assertion error)');
    const empty = await sendFailure(url, address, reverter.encodeFunctionData('revertWithoutReason'));
    expect(empty.message).toBe('Error: Transaction reverted without a reason string');
    expect(empty.data.data).toBe('0x');
  });

  it('under the Hardhat profile eth_sendRawTransaction (ethers Wallet) rejects with the revert reason', async () => {
    const { testnetUrl: url } = await start({ profile: 'hardhat' });
    const address = await deployReverter(url);
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    try {
      const wallet = new Wallet(COW1.privateKey, provider);
      const sending = wallet.sendTransaction({ to: address, data: reverter.encodeFunctionData('revertWithReason'), gasLimit: 200_000n });
      await expect(sending).rejects.toThrow(/reverted with reason string 'nope: reason string'/);
      const block = await call(url, 'eth_getBlockByNumber', ['latest', true]);
      expect(block.transactions).toHaveLength(1);
      expect((await call(url, 'eth_getTransactionReceipt', [block.transactions[0].hash])).status).toBe('0x0');
    } finally {
      provider.destroy();
    }
  });

  it('without the profile the send answers the hash of the mined, failed transaction (rskj)', async () => {
    const { testnetUrl: url } = await start();
    const address = await deployReverter(url);
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: address, data: reverter.encodeFunctionData('revertWithReason'), gas: FIXED_GAS }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x0');
  });
});
