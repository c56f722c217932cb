/**
 * The flat view of the latest state (chain/state/flat-view.ts) and the head's eth_call runner serve
 * reads at `latest` from memory. Each test warms them with a read, changes the state in one of the
 * ways a user can (a new block, evm_revert, hardhat_reset, hardhat_set*), and checks that the
 * next read sees the change; pending reads and eth_call must never leak into latest. A mined block
 * carries the view on to its state (less what the block wrote): it must read as the trie does.
 */
import { describe, expect, it } from 'vitest';
import { ContractFactory, Interface, JsonRpcProvider, Wallet, keccak256, zeroPadValue } from 'ethers';
import { MemoryLevel } from 'memory-level';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, nodesClosedAfterEach, type TestNode } from '../helpers/node.js';
import { NODE_CACHE_BYTES, StateDb } from '../../src/chain/storage/state-db.js';
import { MINER_ACCOUNT } from '../../src/chain/keys/accounts.js';
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Kv } from '../../src/chain/storage/keys.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const HOLDER = '0x00000000000000000000000000000000000c0ffe';
const OTHER = '0x000000000000000000000000000000000000beef';

async function deployToken(t: TestNode): Promise<string> {
  const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, new Wallet(COW.privateKey, provider));
  const deployed = await factory.deploy(10n ** 24n, { type: 0 });
  await deployed.waitForDeployment();
  return deployed.getAddress();
}

/** A JSON-RPC QUANTITY (no leading zero digits). */
const toBeHex = (n: bigint | number) => `0x${n.toString(16)}`;

const balance = async (url: string, address: string, block = 'latest') => BigInt(await call(url, 'eth_getBalance', [address, block]));

async function tokenBalance(url: string, tokenAddress: string, holder: string, block = 'latest'): Promise<bigint> {
  const data = token.encodeFunctionData('balanceOf', [holder]);
  return BigInt(await call(url, 'eth_call', [{ to: tokenAddress, data }, block]));
}

/** Token.transfer from COW, mined (automine) or pooled (automine off). */
async function transferTokens(url: string, tokenAddress: string, to: string, amount: bigint): Promise<void> {
  const data = token.encodeFunctionData('transfer', [to, amount]);
  await call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data, gas: toBeHex(100_000) }]);
}

async function sendValue(url: string, to: string, value: bigint): Promise<void> {
  await call(url, 'eth_sendTransaction', [{ from: COW.address, to, value: toBeHex(value) }]);
}

describe('reads at latest from the head view', () => {
  it('a new block: eth_getBalance, eth_getTransactionCount and eth_call see it', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const tokenAddress = await deployToken(t);
    expect(await balance(url, HOLDER)).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);
    const nonce = BigInt(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']));

    await sendValue(url, HOLDER, 1234n);
    await transferTokens(url, tokenAddress, HOLDER, 77n);

    expect(await balance(url, HOLDER)).toBe(1234n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(77n);
    expect(BigInt(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']))).toBe(nonce + 2n);
    // Older blocks still read their own state through the trie.
    const head = BigInt(await call(url, 'eth_blockNumber'));
    expect(await balance(url, HOLDER, toBeHex(head - 2n))).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, HOLDER, toBeHex(head - 1n))).toBe(0n);
  });

  it('evm_revert and hardhat_reset: reads go back to the restored state', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const tokenAddress = await deployToken(t);
    const snapshot = await call(url, 'evm_snapshot');
    await sendValue(url, HOLDER, 500n);
    await transferTokens(url, tokenAddress, HOLDER, 9n);
    expect(await balance(url, HOLDER)).toBe(500n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(9n);

    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    expect(await balance(url, HOLDER)).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);

    await call(url, 'hardhat_reset', []);
    expect(await call(url, 'eth_getCode', [tokenAddress, 'latest'])).toBe('0x');
    const data = token.encodeFunctionData('balanceOf', [COW.address]);
    expect(await call(url, 'eth_call', [{ to: tokenAddress, data }, 'latest'])).toBe('0x');
  });

  it('hardhat_setBalance, setNonce, setCode and setStorageAt show at latest at once', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const tokenAddress = await deployToken(t);
    // Warm every kind of entry first.
    expect(await balance(url, OTHER)).toBe(0n);
    expect(await call(url, 'eth_getTransactionCount', [OTHER, 'latest'])).toBe('0x0');
    expect(await call(url, 'eth_getCode', [OTHER, 'latest'])).toBe('0x');
    const slot = keccak256(zeroPadValue(HOLDER, 32) + zeroPadValue('0x03', 32).slice(2));
    expect(await call(url, 'eth_getStorageAt', [tokenAddress, slot, 'latest'])).toBe(zeroPadValue('0x', 32));
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);

    await call(url, 'hardhat_setBalance', [OTHER, '0x2a']);
    await call(url, 'hardhat_setNonce', [OTHER, '0x7']);
    await call(url, 'hardhat_setCode', [OTHER, contracts.Token.deployedBytecode]);
    await call(url, 'hardhat_setStorageAt', [tokenAddress, slot, zeroPadValue('0x0400', 32)]);

    expect(await balance(url, OTHER)).toBe(42n);
    expect(await call(url, 'eth_getTransactionCount', [OTHER, 'latest'])).toBe('0x7');
    expect(await call(url, 'eth_getCode', [OTHER, 'latest'])).toBe(contracts.Token.deployedBytecode);
    expect(await call(url, 'eth_getStorageAt', [tokenAddress, slot, 'latest'])).toBe(zeroPadValue('0x0400', 32));
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(1024n);
    // The code set on OTHER runs in eth_call (its storage is empty).
    expect(await tokenBalance(url, OTHER, HOLDER)).toBe(0n);
  });

  it('a pending transaction shows at pending only, and latest reads do not see it', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const tokenAddress = await deployToken(t);
    expect(await balance(url, HOLDER)).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);
    await call(url, 'evm_setAutomine', [false]);
    await sendValue(url, HOLDER, 321n);
    await transferTokens(url, tokenAddress, HOLDER, 5n);

    expect(await balance(url, HOLDER, 'pending')).toBe(321n);
    expect(await tokenBalance(url, tokenAddress, HOLDER, 'pending')).toBe(5n);
    expect(await balance(url, HOLDER)).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);

    await call(url, 'evm_mine');
    expect(await balance(url, HOLDER)).toBe(321n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(5n);
  });

  it('eth_call never changes state: a transfer run as a call leaves balances as they were', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const tokenAddress = await deployToken(t);
    const before = await tokenBalance(url, tokenAddress, COW.address);
    const data = token.encodeFunctionData('transfer', [HOLDER, 1000n]);
    for (let i = 0; i < 3; i++) {
      const result = await call(url, 'eth_call', [{ from: COW.address, to: tokenAddress, data }, 'latest']);
      expect(token.decodeFunctionResult('transfer', result)[0]).toBe(true);
    }
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(0n);
    expect(await tokenBalance(url, tokenAddress, COW.address)).toBe(before);
    // A call that creates a contract leaves no code behind either.
    const created = await call(url, 'eth_call', [{ from: COW.address, data: contracts.Token.bytecode + '0'.repeat(64) }, 'latest']);
    expect(created).toBe(contracts.Token.deployedBytecode);
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']));
  });
});

describe('the view carried from block to block', () => {
  it('reads at latest equal a fresh trie reader after every kind of block', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const chain = t.node.chains.testnet;
    const tokenAddress = await deployToken(t);
    const reverter = await new ContractFactory(contracts.Reverter.abi, contracts.Reverter.bytecode, new Wallet(COW.privateKey, new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 }))).deploy({ type: 0 });
    await reverter.waitForDeployment();
    const addresses = [COW.address, HOLDER, OTHER, tokenAddress, await reverter.getAddress(), MINER_ACCOUNT.address, '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000001000008'];
    const balanceSlot = (holder: string) => keccak256(zeroPadValue(holder, 32) + zeroPadValue('0x03', 32).slice(2));
    const slots = [COW.address, HOLDER, OTHER].map(balanceSlot);

    /** Every read through the head's view, then the same through a new trie reader at its root. */
    const checkAgainstTrie = async (step: string) => {
      const root = chain.stateRootOf(chain.head);
      const view = chain.stateReader(root);
      const trie = chain.stateAt(root);
      for (const hex of addresses) {
        const address = new Address(hexToBytes(hex as `0x${string}`));
        const [viewed, read] = [await view.getAccount(address), await trie.getAccount(address)];
        expect(viewed?.serialize(), `${step}: account ${hex}`).toEqual(read?.serialize());
        expect(bytesToHex(await view.getCode(address)), `${step}: code ${hex}`).toBe(bytesToHex(await trie.getCode(address)));
      }
      const token = new Address(hexToBytes(tokenAddress as `0x${string}`));
      for (const slot of slots) {
        const key = hexToBytes(slot as `0x${string}`);
        expect(bytesToHex(await view.getStorage(token, key)), `${step}: slot ${slot}`).toBe(bytesToHex(await trie.getStorage(token, key)));
      }
    };

    await checkAgainstTrie('after the deployments');
    await sendValue(url, HOLDER, 1234n);
    await checkAgainstTrie('a value transfer');
    await transferTokens(url, tokenAddress, HOLDER, 77n);
    await checkAgainstTrie('a token transfer');
    // Fails inside the EVM: its storage writes are undone, its gas paid.
    await transferTokens(url, tokenAddress, OTHER, 10n ** 30n);
    await checkAgainstTrie('a reverted transfer');
    await call(url, 'evm_setAutomine', [false]);
    await sendValue(url, OTHER, 5n);
    await transferTokens(url, tokenAddress, OTHER, 3n);
    await transferTokens(url, tokenAddress, HOLDER, 4n);
    await call(url, 'evm_mine');
    await call(url, 'evm_setAutomine', [true]);
    await checkAgainstTrie('three transactions in one block');
    await call(url, 'hardhat_mine', ['0x10']);
    await checkAgainstTrie('empty blocks');
    await call(url, 'hardhat_setBalance', [HOLDER, '0x99']);
    await checkAgainstTrie('a balance set on the head');
    await transferTokens(url, tokenAddress, HOLDER, 1n);
    await checkAgainstTrie('a block on the changed head');
    expect(await balance(url, HOLDER)).toBe(0x99n);
    expect(await tokenBalance(url, tokenAddress, HOLDER)).toBe(82n);
    expect(await tokenBalance(url, tokenAddress, OTHER)).toBe(3n);
  });
});

describe('the trie node cache', () => {
  it('stays within NODE_CACHE_BYTES however many nodes blocks commit', async () => {
    const kv = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as Kv;
    const db = new StateDb(kv);
    const node = new Uint8Array(532);
    for (let i = 0; i < 60_000; i++) {
      new DataView(node.buffer).setUint32(0, i);
      await db.put(i.toString(16).padStart(64, '0'), node.slice());
      if (i % 1000 === 999) db.takePending().committed();
    }
    const { entries, bytes } = db.cacheSize;
    expect(bytes).toBeLessThanOrEqual(NODE_CACHE_BYTES);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(60_000);
    // The newest nodes are still there; the oldest went first (nothing reached the store here).
    expect(await db.get((59_999).toString(16).padStart(64, '0'))).toBeDefined();
    expect(await db.get((0).toString(16).padStart(64, '0'))).toBeUndefined();
  });
});
