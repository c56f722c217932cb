/**
 * A chain with some history (a token deployed, transfers with logs, a test-control balance change)
 * and what a node answers about it, to compare a loaded node with the one that was dumped.
 */
import { expect } from 'vitest';
import { call } from './node.js';
import { contracts } from '../fixtures/contracts.js';
import { Interface, Wallet } from 'ethers';
import { COW } from './node.js';

export const RECEIVER = '0x00000000000000000000000000000000000000aa';
const token = new Interface(contracts.Token.abi);

/** Sends a signed legacy transaction with ethers' Wallet and returns its hash once mined. */
async function send(url: string, chainId: number, fields: { to?: string; data: string }): Promise<string> {
  const wallet = new Wallet(COW.privateKey);
  const nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']));
  const raw = await wallet.signTransaction({ type: 0, chainId, nonce, gasPrice: 70_000_000n, gasLimit: 3_000_000n, to: fields.to ?? null, data: fields.data, value: 0n });
  return call(url, 'eth_sendRawTransaction', [raw]);
}

/** Deploys the token, makes `transfers` transfers (a Transfer log each) and sets a balance; returns the token address. */
export async function makeHistory(url: string, chainId: number, transfers = 3): Promise<string> {
  const deployData = contracts.Token.bytecode + token.encodeDeploy([1_000_000n]).slice(2);
  const deployHash = await send(url, chainId, { data: deployData });
  const tokenAddress: string = (await call(url, 'eth_getTransactionReceipt', [deployHash])).contractAddress;
  for (let i = 1; i <= transfers; i++) {
    await send(url, chainId, { to: tokenAddress, data: token.encodeFunctionData('transfer', [RECEIVER, BigInt(i)]) });
  }
  await call(url, 'hardhat_setBalance', [RECEIVER, '0x1234']);
  return tokenAddress;
}

/** Every block (with full transactions), every receipt and all logs, as the node answers them. */
export async function chainAnswers(url: string, tokenAddress: string) {
  const head = Number(await call(url, 'eth_blockNumber'));
  const blocks = [];
  const receipts = [];
  for (let n = 0; n <= head; n++) {
    const block = await call(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
    blocks.push(block);
    for (const tx of block.transactions) receipts.push(await call(url, 'eth_getTransactionReceipt', [tx.hash]));
  }
  const logs = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: tokenAddress }]);
  const balanceOf = token.encodeFunctionData('balanceOf', [RECEIVER]);
  return {
    head,
    blocks,
    receipts,
    logs,
    latestBalance: await call(url, 'eth_getBalance', [RECEIVER, 'latest']),
    // An older block's state: history is readable, not only the head's.
    tokenBalanceAtBlock2: await call(url, 'eth_call', [{ to: tokenAddress, data: balanceOf }, '0x2']),
    tokenBalance: await call(url, 'eth_call', [{ to: tokenAddress, data: balanceOf }, 'latest']),
  };
}

/** Mines a transfer on top and checks it extends the loaded head. */
export async function minesOnTop(url: string, chainId: number, tokenAddress: string, head: { number: string; hash: string }): Promise<void> {
  const hash = await send(url, chainId, { to: tokenAddress, data: token.encodeFunctionData('transfer', [RECEIVER, 100n]) });
  const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  expect(BigInt(receipt.blockNumber)).toBe(BigInt(head.number) + 1n);
  const block = await call(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
  expect(block.parentHash).toBe(head.hash);
  expect(receipt.logs).toHaveLength(1);
}
