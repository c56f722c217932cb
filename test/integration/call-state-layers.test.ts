/**
 * eth_call's writes live in CallState's checkpoint layers (chain/exec/call-runner.ts), whose maps
 * are made at a layer's first write: a call that creates a contract, writes storage, commits and
 * reverts inner frames answers what the same transaction then does, and leaves state as it was.
 */
import { describe, expect, it } from 'vitest';
import { ContractFactory, Interface, JsonRpcProvider, Wallet, getCreateAddress } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, nodesClosedAfterEach, rpcError } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const factory = new Interface(contracts.Factory.abi);
const token = new Interface(contracts.Token.abi);

describe('eth_call writes in layers over the head state', () => {
  it('a call that creates a contract answers the address and value the transaction then gets, and changes nothing', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const deployed = await new ContractFactory(contracts.Factory.abi, contracts.Factory.bytecode, wallet).deploy({ type: 0 });
    await deployed.waitForDeployment();
    const at = await deployed.getAddress();
    const request = { from: COW.address, to: at, data: factory.encodeFunctionData('create', [7n]) };

    const answered = factory.decodeFunctionResult('create', await call(t.testnetUrl, 'eth_call', [request, 'latest']))[0] as string;
    // A contract's first CREATE uses its nonce 1 (EIP-161).
    expect(answered).toBe(getCreateAddress({ from: at, nonce: 1 }));
    // The call's CREATE, storage writes and log are gone after it.
    expect(BigInt(await call(t.testnetUrl, 'eth_call', [{ to: at, data: factory.encodeFunctionData('childrenCount') }, 'latest']))).toBe(0n);
    expect(await call(t.testnetUrl, 'eth_getCode', [answered, 'latest'])).toBe('0x');

    const tx = await wallet.sendTransaction({ ...request, type: 0 });
    await tx.wait();
    const child = factory.decodeFunctionResult('children', await call(t.testnetUrl, 'eth_call', [{ to: at, data: factory.encodeFunctionData('children', [0n]) }, 'latest']))[0];
    expect(child).toBe(answered);
    const value = new Interface(contracts.Child.abi);
    expect(BigInt(await call(t.testnetUrl, 'eth_call', [{ to: child, data: value.encodeFunctionData('value') }, 'latest']))).toBe(7n);
  });

  it('a transfer called twice from the same state answers the same; one past the balance reverts with its data', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const deployed = await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(1000n, { type: 0 });
    await deployed.waitForDeployment();
    const at = await deployed.getAddress();
    const transfer = (amount: bigint) => ({ from: COW.address, to: at, data: token.encodeFunctionData('transfer', [COW1.address, amount]) });

    for (let i = 0; i < 2; i++) expect(token.decodeFunctionResult('transfer', await call(t.testnetUrl, 'eth_call', [transfer(1000n), 'latest']))[0]).toBe(true);
    const refused = await rpcError(t.testnetUrl, 'eth_call', [transfer(1001n), 'latest']);
    expect(refused.code).toBe(-32015);
    expect(refused.data).toMatch(/^0x[0-9a-f]{8,}/);
    const balance = async (who: string) => BigInt(await call(t.testnetUrl, 'eth_call', [{ to: at, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest']));
    expect([await balance(COW.address), await balance(COW1.address)]).toEqual([1000n, 0n]);
  });
});
