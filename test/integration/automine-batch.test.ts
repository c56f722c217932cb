/**
 * Automine batches transactions that arrive together (anvil's behaviour) and still gives one block
 * to each transaction sent on its own (Hardhat's and rskj's).
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { COW, COW1, call, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const RECIPIENT = '0x00000000000000000000000000000000000000aa';

describe('automine', () => {
  it('mines a transaction sent alone in its own block', async () => {
    const t = await start();
    const wallet = new Wallet(COW.privateKey, new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 }));
    for (let i = 1; i <= 3; i++) {
      const receipt = await (await wallet.sendTransaction({ to: RECIPIENT, value: 1n, type: 0 })).wait();
      expect(receipt!.blockNumber).toBe(i);
    }
  });

  it('puts transactions in flight together into shared blocks, every one mined and answered', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, batchMaxCount: 1 });
    const senders = [new Wallet(COW.privateKey, provider), new Wallet(COW1.privateKey, provider)];
    const gasPrice = BigInt(await call(t.testnetUrl, 'eth_gasPrice'));
    const raws: string[] = [];
    for (const wallet of senders) {
      for (let nonce = 0; nonce < 10; nonce++) {
        raws.push(await wallet.signTransaction({ type: 0, chainId: 31, nonce, to: RECIPIENT, value: 1n, gasLimit: 21_000, gasPrice }));
      }
    }
    // All twenty at once (the in-process provider starts them in one tick); each answer comes back
    // only once its transaction is mined.
    const hashes = (await Promise.all(raws.map((raw) => t.node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })))) as string[];
    const receipts = await Promise.all(hashes.map((hash) => call(t.testnetUrl, 'eth_getTransactionReceipt', [hash])));
    expect(receipts.every((receipt) => receipt !== null && receipt.status === '0x1')).toBe(true);
    const blocks = new Set(receipts.map((receipt) => receipt.blockNumber));
    const head = Number(await call(t.testnetUrl, 'eth_blockNumber'));
    expect(blocks.size).toBe(head);
    expect(head).toBeLessThan(20);
    expect(BigInt(await call(t.testnetUrl, 'eth_getBalance', [RECIPIENT, 'latest']))).toBe(20n);
    // Nonces stay in order within each block and across blocks.
    for (const wallet of senders) expect(await provider.getTransactionCount(wallet.address)).toBe(10);
    expect(await call(t.testnetUrl, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
  });

  it('gives every transaction its own block under the Hardhat profile, even in flight together', async () => {
    const t = await start({ profile: 'hardhat' });
    const gasPrice = BigInt(await call(t.testnetUrl, 'eth_gasPrice'));
    const wallet = new Wallet(COW.privateKey);
    const raws = await Promise.all(
      [0, 1, 2, 3].map((nonce) => wallet.signTransaction({ type: 0, chainId: 31, nonce, to: RECIPIENT, value: 1n, gasLimit: 21_000, gasPrice })),
    );
    const hashes = (await Promise.all(raws.map((raw) => t.node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })))) as string[];
    const receipts = await Promise.all(hashes.map((hash) => call(t.testnetUrl, 'eth_getTransactionReceipt', [hash])));
    expect(receipts.map((receipt) => Number(receipt.blockNumber)).sort()).toEqual([1, 2, 3, 4]);
  });
});
