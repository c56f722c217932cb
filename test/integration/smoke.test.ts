import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, parseEther } from 'ethers';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(() => t.close());

describe('smoke', () => {
  it('answers chain ids per key', async () => {
    expect((await rpc(t.testnetUrl, 'eth_chainId')).body.result).toBe('0x1f');
    expect((await rpc(t.mainnetUrl, 'eth_chainId')).body.result).toBe('0x1e');
  });

  it('sends value with ethers', async () => {
    const provider = uncachedProvider(t.testnetUrl, undefined, { staticNetwork: true });
    const wallet = new Wallet(COW.privateKey, provider);
    const tx = await wallet.sendTransaction({ to: COW1.address, value: parseEther('1'), type: 0 });
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.blockNumber).toBe(1);
    expect(await provider.getBalance(COW1.address)).toBe(10n ** 30n + 10n ** 18n);
  });
});
