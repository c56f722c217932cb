/**
 * Coming from Hardhat or anvil (issue 19): the time travel, genesis date, revert-on-send, keyless
 * network and log behaviour those users expect, each test named after what broke.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, nodesClosedAfterEach, rpc } from '../helpers/node.js';
import { runCli } from '../helpers/cli.js';
import { wsCall } from '../helpers/ws.js';
import { uncachedProvider } from '../helpers/ethers.js';

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

  it('a genesis file with a date of its own keeps it under the Hardhat profile', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-hardhat-genesis-file-'));
    tempDirs.push(dataDir);
    const packaged = JSON.parse(await readFile(resolve('chain-data/testnet.genesis.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(dataDir, 'testnet.genesis.json'), JSON.stringify({ ...packaged, timestamp: '0x5f5e1000' }));
    const node = await createNode({ inMemory: false, dataDir, profile: 'hardhat', logLevel: 'silent', now: () => START_MS });
    try {
      const genesis = (await node.provider.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { timestamp: string };
      expect(genesis.timestamp).toBe('0x5f5e1000');
    } finally {
      await node.close();
    }
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
    const provider = uncachedProvider(url, undefined, { staticNetwork: true });
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

const CAST = resolve('node_modules/.bin/cast');
const run = promisify(execFile);

describe('keyless network', () => {
  it('under the Hardhat profile testnet answers at / without a key (ethers, cast), the keyed URLs still work', async () => {
    const t = await start({ profile: 'hardhat' });
    const provider = uncachedProvider(`${t.baseUrl}/`, undefined, { staticNetwork: true });
    try {
      expect((await provider.getNetwork()).chainId).toBe(31n);
      expect(await provider.getBalance(COW.address)).toBeGreaterThan(0n);
    } finally {
      provider.destroy();
    }
    const { stdout } = await run(CAST, ['chain-id', '--rpc-url', t.baseUrl], { timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(stdout.trim()).toBe('31');
    expect(await wsCall(`${t.baseUrl.replace('http:', 'ws:')}/`, 'eth_chainId')).toMatchObject({ result: '0x1f' });
    expect(await call(t.mainnetUrl, 'eth_chainId')).toBe('0x1e');
  });

  it('without the profile / answers 401 naming the key-bearing URL and --keyless-network', async () => {
    const t = await start();
    const { status, body } = await rpc(`${t.baseUrl}/`, 'eth_chainId');
    expect(status).toBe(401);
    expect(body.error!.code).toBe(-32001);
    expect(body.error!.message).toContain('--keyless-network testnet');
  });

  it('--keyless-network mainnet serves chain 30 at /; none turns the profile default off', async () => {
    const mainnet = await start({ keylessNetwork: 'mainnet' });
    expect(await call(`${mainnet.baseUrl}/`, 'eth_chainId')).toBe('0x1e');
    const off = await start({ profile: 'hardhat', keylessNetwork: 'none' });
    expect((await rpc(`${off.baseUrl}/`, 'eth_chainId')).status).toBe(401);
  });

  it('--hosted refuses --keyless-network and turns the profile default off', async () => {
    await expect(createNode({ hosted: true, keylessNetwork: 'testnet', logLevel: 'silent' })).rejects.toThrow('--keyless-network and --hosted');
    const hosted = await start({ hosted: true, profile: 'hardhat' });
    expect((await rpc(`${hosted.baseUrl}/`, 'eth_chainId')).status).toBe(401);
  });
});

describe('CLI', () => {
  it('an unknown flag points to --help', async () => {
    const cli = runCli(['--in-memory', '--no-such-flag']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain("Unknown option '--no-such-flag'");
    expect(cli.stderr()).toContain('rsk-devnode --help');
  });

  it('the banner names the profile and the keyless URL; a non-loopback host refuses an explicit keyless network', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--profile', 'hardhat'], 3);
    try {
      await cli.started;
      expect(cli.stdout()).toContain('(in memory, profile hardhat)');
      expect(cli.stdout()).toMatch(/testnet {2}chain 31 {2}http:\/\/127\.0\.0\.1:\d+\/ {2}\(no key/);
      expect(await call(`${cli.baseUrl()}/`, 'eth_chainId')).toBe('0x1f');
    } finally {
      await cli.stop();
    }
    const wide = runCli(['--in-memory', '--host', '0.0.0.0', '--keyless-network', 'testnet']);
    expect(await wide.exited).toBe(1);
    expect(wide.stderr()).toContain('--keyless-beyond-loopback');
  });

  it('--in-memory keeps the keys given by --api-key across restarts', async () => {
    for (let start = 0; start < 2; start++) {
      const cli = runCli(['--in-memory', '--port', '0', '--api-key', 'stable-key-1', '--api-key', 'stable-key-2:mainnet']);
      try {
        await cli.started;
        expect(cli.stdout()).not.toContain('new keys on every in-memory start');
        expect(await call(`${cli.baseUrl()}/stable-key-1`, 'eth_chainId')).toBe('0x1f');
        expect(await call(`${cli.baseUrl()}/stable-key-2`, 'eth_chainId')).toBe('0x1e');
      } finally {
        await cli.stop();
      }
    }
  });
});
