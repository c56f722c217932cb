/**
 * eth_estimateGas and the caller's `gas` (issue 19). The search used to be bounded by a `gas`
 * hint smaller than the cap, so a too-small hint came back as the estimate and the transaction
 * sent with it ran out of gas. rskj had the same bug and fixed it on master (PRs #3520/#3639):
 * the estimation always runs at the estimation cap, whatever `gas` the caller sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, call, startTestNode, type TestNode } from '../helpers/node.js';

const GAS_PRICE = 66_000_000n;
const INITIAL_SUPPLY = 1_000n;
/** A plain transfer's gas: below what a token transfer needs, and below the cap. */
const TOO_SMALL = 21_000n;

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let token: Contract;

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
  const deployed = await factory.deploy(INITIAL_SUPPLY, { type: 0, gasPrice: GAS_PRICE });
  await deployed.waitForDeployment();
  token = new Contract(await deployed.getAddress(), contracts.Token.abi, wallet);
});
afterAll(async () => {
  provider?.destroy();
  await t?.close();
});

describe('eth_estimateGas with a too-small gas hint', () => {
  it('a gas hint below the need no longer comes back as an estimate that runs out of gas', async () => {
    const unhinted = await token.transfer!.estimateGas(COW1.address, 1n);
    expect(unhinted).toBeGreaterThan(TOO_SMALL);

    // The same estimate with the hint, through ethers and through a raw request.
    expect(await token.transfer!.estimateGas(COW1.address, 1n, { gasLimit: TOO_SMALL })).toBe(unhinted);
    const data = token.interface.encodeFunctionData('transfer', [COW1.address, 1n]);
    const target = await token.getAddress();
    const raw = await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to: target, data, gas: `0x${TOO_SMALL.toString(16)}` }]);
    expect(BigInt(raw)).toBe(unhinted);

    // The hinted estimate is enough: the transaction sent with it succeeds.
    const hinted = await token.transfer!.estimateGas(COW1.address, 1n, { gasLimit: TOO_SMALL });
    const tx = await token.transfer!(COW1.address, 1n, { type: 0, gasPrice: GAS_PRICE, gasLimit: hinted });
    const receipt = await tx.wait();
    expect(receipt!.status).toBe(1);
    expect(await token.balanceOf!(COW1.address)).toBe(1n);
  });

  it('a hint below the intrinsic gas or above the need changes nothing either', async () => {
    const data = token.interface.encodeFunctionData('transfer', [COW1.address, 2n]);
    const request = { from: COW.address, to: await token.getAddress(), data };
    const unhinted = await call(t.testnetUrl, 'eth_estimateGas', [request]);
    expect(await call(t.testnetUrl, 'eth_estimateGas', [{ ...request, gas: '0x1' }])).toBe(unhinted);
    expect(await call(t.testnetUrl, 'eth_estimateGas', [{ ...request, gas: '0x7a1200' }])).toBe(unhinted);
    expect(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to: COW1.address, value: '0x1', gas: '0x1' }])).toBe('0x5208');
  });
});
