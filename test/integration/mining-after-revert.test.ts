/**
 * Mining after evm_revert starts from the restored state and nothing else. The oracle: a node that
 * took a detour (blocks, then a revert) and a node that never did must mine the same next blocks
 * to the same state roots; anything the miner kept from the dropped blocks (a cached balance, nonce
 * or slot) would change a root.
 */
import { AbiCoder, Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const HOLDER = '0x00000000000000000000000000000000000c0ffe';
const OTHER = '0x000000000000000000000000000000000000beef';
const hex = (n: bigint) => `0x${n.toString(16)}`;

async function deployToken(url: string): Promise<string> {
  const supply = AbiCoder.defaultAbiCoder().encode(['uint256'], [10n ** 24n]).slice(2);
  const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: contracts.Token.bytecode + supply, gas: hex(3_000_000n) }]);
  return (await call(url, 'eth_getTransactionReceipt', [hash])).contractAddress;
}

const transfer = (url: string, tokenAddress: string, to: string, amount: bigint) =>
  call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data: token.encodeFunctionData('transfer', [to, amount]), gas: hex(100_000n) }]);
const send = (url: string, to: string, value: bigint) => call(url, 'eth_sendTransaction', [{ from: COW.address, to, value: hex(value) }]);
const stateRoot = async (url: string) => (await call(url, 'eth_getBlockByNumber', ['latest', false])).stateRoot as string;

/** Two fresh nodes with the same token deployed at the same address on each. */
async function twoNodesWithToken(): Promise<{ first: string; second: string; tokenAddress: string }> {
  const first = (await start()).testnetUrl;
  const second = (await start()).testnetUrl;
  const tokenAddress = await deployToken(first);
  expect(await deployToken(second)).toBe(tokenAddress);
  return { first, second, tokenAddress };
}

/** The blocks both nodes mine last: a token transfer (storage), a value transfer (a new account). */
async function commonTail(url: string, tokenAddress: string): Promise<string[]> {
  await transfer(url, tokenAddress, OTHER, 7n);
  const first = await stateRoot(url);
  await send(url, OTHER, 5n);
  return [first, await stateRoot(url)];
}

describe('the miner after evm_revert', () => {
  it('mines what a node that never took the detour mines', async () => {
    const { first: detour, second: straight, tokenAddress } = await twoNodesWithToken();

    const snapshot = await call(detour, 'evm_snapshot');
    // Three blocks that write the token's slots, COW's nonce and balance, a new account and REMASC.
    await transfer(detour, tokenAddress, HOLDER, 10n);
    await send(detour, HOLDER, 1_000n);
    await transfer(detour, tokenAddress, OTHER, 3n);
    expect(await call(detour, 'evm_revert', [snapshot])).toBe(true);

    const afterDetour = await commonTail(detour, tokenAddress);
    expect(afterDetour).toEqual(await commonTail(straight, tokenAddress));
    const read = async (url: string) => [
      await call(url, 'eth_getBalance', [HOLDER, 'latest']),
      await call(url, 'eth_getTransactionCount', [COW.address, 'latest']),
      await call(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [HOLDER]) }, 'latest']),
    ];
    expect(await read(detour)).toEqual(await read(straight));
  });

  it('does the same when hardhat_setBalance changed the state inside the snapshot', async () => {
    const { first: detour, second: straight, tokenAddress } = await twoNodesWithToken();

    const snapshot = await call(detour, 'evm_snapshot');
    await transfer(detour, tokenAddress, HOLDER, 10n);
    await call(detour, 'hardhat_setBalance', [COW.address, hex(10n ** 30n)]);
    await send(detour, HOLDER, 1_000n);
    expect(await call(detour, 'evm_revert', [snapshot])).toBe(true);

    expect(await commonTail(detour, tokenAddress)).toEqual(await commonTail(straight, tokenAddress));
  });

  it('goes back over several snapshots, one revert at a time', async () => {
    const { first: detour, second: straight, tokenAddress } = await twoNodesWithToken();

    const outer = await call(detour, 'evm_snapshot');
    await transfer(detour, tokenAddress, HOLDER, 10n);
    const inner = await call(detour, 'evm_snapshot');
    await send(detour, HOLDER, 1_000n);
    expect(await call(detour, 'evm_revert', [inner])).toBe(true);
    await transfer(detour, tokenAddress, OTHER, 1n);
    expect(await call(detour, 'evm_revert', [outer])).toBe(true);

    expect(await commonTail(detour, tokenAddress)).toEqual(await commonTail(straight, tokenAddress));
  });
});

describe('a block of several transactions', () => {
  it('charges each the gas and leaves the balances it would in a block of its own', async () => {
    const { first: together, second: apart, tokenAddress } = await twoNodesWithToken();

    // The same slots written twice and a new account, in one block...
    await call(together, 'evm_setAutomine', [false]);
    const batch = [await transfer(together, tokenAddress, HOLDER, 10n), await transfer(together, tokenAddress, HOLDER, 5n), await send(together, OTHER, 1n)];
    await call(together, 'evm_mine');
    // ...and one block each.
    const single = [await transfer(apart, tokenAddress, HOLDER, 10n), await transfer(apart, tokenAddress, HOLDER, 5n), await send(apart, OTHER, 1n)];

    const receiptsTogether = await Promise.all(batch.map((hash) => call(together, 'eth_getTransactionReceipt', [hash])));
    expect(new Set(receiptsTogether.map((receipt) => receipt.blockNumber)).size).toBe(1);
    const receiptsApart = await Promise.all(single.map((hash) => call(apart, 'eth_getTransactionReceipt', [hash])));
    expect(receiptsTogether.map((receipt) => [receipt.status, receipt.gasUsed])).toEqual(receiptsApart.map((receipt) => [receipt.status, receipt.gasUsed]));
    for (const holder of [HOLDER, OTHER, COW.address]) {
      const balanceOf = token.encodeFunctionData('balanceOf', [holder]);
      expect(await call(together, 'eth_call', [{ to: tokenAddress, data: balanceOf }, 'latest'])).toBe(await call(apart, 'eth_call', [{ to: tokenAddress, data: balanceOf }, 'latest']));
      expect(await call(together, 'eth_getBalance', [holder, 'latest'])).toBe(await call(apart, 'eth_getBalance', [holder, 'latest']));
    }
  });
});
