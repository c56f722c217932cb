/**
 * Reads at `latest` of accounts and slots the flat view has not seen walk decoded trie nodes
 * (chain/state/trie-walk.ts), on a LevelDB data directory as `npm start` keeps one. Never-read
 * addresses and token holders must read as absent, funded ones as funded, and each kind of state
 * change (a block, evm_revert, hardhat_reset) must show at once: the walk starts from the new
 * head's root, and the decoded nodes are dropped with the view.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The i-th address no test has used: distinct, never funded. */
const fresh = (i: number) => `0x${(0xbe1c0000 + i).toString(16).padStart(40, '0')}`;
const toBeHex = (n: bigint) => `0x${n.toString(16)}`;

describe('reads at latest of never-seen accounts and slots (walking decoded trie nodes)', () => {
  it('answers absent, funded, reverted and reset accounts and token holders on a data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'head-trie-walk-'));
    dirs.push(dataDir);
    const t = await start({ inMemory: false, dataDir });
    const url = t.testnetUrl;
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, new Wallet(COW.privateKey, provider));
    const deployed = await factory.deploy(10n ** 24n, { type: 0 });
    await deployed.waitForDeployment();
    const tokenAddress = await deployed.getAddress();
    // Raw calls, not the provider's getBalance: ethers answers a repeated request within 250 ms from its own cache.
    const balance = async (address: string) => BigInt(await call(url, 'eth_getBalance', [address, 'latest']));
    const balanceOf = async (holder: string) => BigInt(await call(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [holder]) }, 'latest']));

    // Never-seen accounts and holders: absent (a zero balance, no code, nonce 0).
    for (let i = 0; i < 20; i++) {
      expect(await balance(fresh(i))).toBe(0n);
      expect(await balanceOf(fresh(100 + i))).toBe(0n);
    }
    expect(await provider.getTransactionCount(fresh(0))).toBe(0);
    expect(await provider.getCode(fresh(0))).toBe('0x');
    // Known ones: the cow account's funds and the deployer's tokens.
    expect(await balance(COW.address)).toBeGreaterThan(0n);
    expect(await balanceOf(COW.address)).toBe(10n ** 24n);

    const snapshot = await call(url, 'evm_snapshot', []);
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: fresh(200), value: toBeHex(12345n) }]);
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data: token.encodeFunctionData('transfer', [fresh(300), 77n]), gas: toBeHex(100_000n) }]);
    // Read for the first time after the blocks that funded them.
    expect(await balance(fresh(200))).toBe(12345n);
    expect(await balanceOf(fresh(300))).toBe(77n);
    expect(await balance(fresh(201))).toBe(0n);
    expect(await balanceOf(fresh(301))).toBe(0n);

    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    expect(await balance(fresh(200))).toBe(0n);
    expect(await balanceOf(fresh(300))).toBe(0n);
    expect(await balanceOf(COW.address)).toBe(10n ** 24n);

    // Funded again after the revert, read for the first time at the new head.
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: fresh(202), value: toBeHex(5n) }]);
    expect(await balance(fresh(202))).toBe(5n);

    await call(url, 'hardhat_reset', []);
    expect(await balance(fresh(202))).toBe(0n);
    expect(await call(url, 'eth_getCode', [tokenAddress, 'latest'])).toBe('0x');
    expect(await balance(COW.address)).toBeGreaterThan(0n);
  });

  it('answers eth_getBalance and eth_getTransactionCount at latest from the head view, and other blocks from their state', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const balance = async (address: string, block = 'latest') => BigInt(await call(url, 'eth_getBalance', [address, block]));
    const nonce = async (address: string, block = 'latest') => Number(await call(url, 'eth_getTransactionCount', [address, block]));
    // Read twice at latest: the second answer comes from the view without a read.
    expect(await balance(fresh(400))).toBe(0n);
    expect(await balance(fresh(400))).toBe(0n);
    const cowNonce = await nonce(COW.address);
    expect(await nonce(COW.address)).toBe(cowNonce);
    const before = await call(url, 'eth_blockNumber', []);
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: fresh(400), value: toBeHex(9n) }]);
    expect(await balance(fresh(400))).toBe(9n);
    expect(await balance(fresh(400), before)).toBe(0n);
    expect(await nonce(COW.address)).toBe(cowNonce + 1);
    expect(await nonce(COW.address, before)).toBe(cowNonce);
    // The default block is latest.
    expect(BigInt(await call(url, 'eth_getBalance', [fresh(400)]))).toBe(9n);
    await call(url, 'hardhat_setBalance', [fresh(400), toBeHex(10n ** 18n)]);
    expect(await balance(fresh(400))).toBe(10n ** 18n);
  });
});
