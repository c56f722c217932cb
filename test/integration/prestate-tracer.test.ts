/**
 * prestateTracer (issue 22): geth's shape for debug_traceTransaction, debug_traceBlockByNumber/Hash
 * and debug_traceCall, plain and with diffMode, checked against the balances, nonces, code and
 * storage the node itself reports before and after each block. Through ethers, as users call it.
 */
import { describe, expect, it } from 'vitest';
import { AbiCoder, ContractFactory, JsonRpcProvider, Wallet, concat, getCreate2Address, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';

const byteHex = (n: number) => n.toString(16).padStart(2, '0');
const initCode = (runtime: string) => `0x60${byteHex(runtime.length / 2)}80600b6000396000f3${runtime}`;
/** Adds 0x2a to slot 0 (SLOAD, ADD, SSTORE) and stops. */
const ADDER_RUNTIME = '602a600054016000' + '5500';
/** SELFDESTRUCT to the caller. */
const DESTRUCT_RUNTIME = '33ff';
const SLOT0 = `0x${'0'.repeat(64)}`;
const REMASC = '0x0000000000000000000000000000000001000008';
const RECIPIENT = '0x00000000000000000000000000000000000b0b0b';

let provider: JsonRpcProvider;
let wallet: Wallet;

async function send(tx: { to?: string; data?: string; value?: bigint; gasPrice?: bigint }) {
  const sent = await wallet.sendTransaction({ type: 0, gasLimit: 300_000, ...tx });
  const receipt = (await sent.wait())!;
  expect(receipt.status).toBe(1);
  return receipt;
}

const hexBalance = async (address: string, block: number) => `0x${(await provider.getBalance(address, block)).toString(16)}`;
/** geth leaves a zero nonce out. */
const withNonce = (nonce: number) => (nonce === 0 ? {} : { nonce });
const prestate = (hash: string, diffMode = false) => provider.send('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode } }]);

ethersNodeForTests((node) => ({ provider, wallet } = node));

describe('prestateTracer on a value transfer', () => {
  it('pre holds sender, recipient and the fee recipient as they were; diffMode shows what the transfer changed', async () => {
    const receipt = await send({ to: RECIPIENT, value: 1234n, gasPrice: 1_000_000_000n });
    const before = receipt.blockNumber - 1;
    const nonce = await provider.getTransactionCount(COW.address, before);
    const pre = await prestate(receipt.hash);
    expect(pre[COW.address]).toEqual({ balance: await hexBalance(COW.address, before), ...withNonce(nonce) });
    expect(pre[RECIPIENT]).toEqual({ balance: '0x0' });
    expect(pre[REMASC]).toEqual({ balance: await hexBalance(REMASC, before) });

    const diff = await prestate(receipt.hash, true);
    expect(diff.pre[COW.address]).toEqual({ balance: await hexBalance(COW.address, before), ...withNonce(nonce) });
    expect(diff.post[COW.address]).toEqual({ balance: await hexBalance(COW.address, receipt.blockNumber), nonce: nonce + 1 });
    expect(diff.post[RECIPIENT]).toEqual({ balance: '0x4d2' });
    const fees = receipt.gasUsed * 1_000_000_000n;
    expect(BigInt(diff.post[REMASC].balance) - BigInt(diff.pre[REMASC].balance)).toBe(fees);
  });
});

describe('prestateTracer on contracts', () => {
  it('a created contract is not in pre; with diffMode its code and nonce are in post', async () => {
    const receipt = await send({ data: initCode(ADDER_RUNTIME) });
    const created = receipt.contractAddress!.toLowerCase();
    expect(Object.keys(await prestate(receipt.hash))).not.toContain(created);
    const diff = await prestate(receipt.hash, true);
    expect(diff.pre[created]).toBeUndefined();
    expect(diff.post[created]).toEqual({ code: `0x${ADDER_RUNTIME}`, nonce: 1 });
  });

  it('storage: pre has the slot read; diffMode omits the zero it was and shows the value written', async () => {
    const adder = (await send({ data: initCode(ADDER_RUNTIME) })).contractAddress!.toLowerCase();
    const first = await send({ to: adder });
    expect((await prestate(first.hash))[adder]).toEqual({ balance: '0x0', code: `0x${ADDER_RUNTIME}`, nonce: 1, storage: { [SLOT0]: SLOT0 } });
    const firstDiff = await prestate(first.hash, true);
    expect(firstDiff.pre[adder]).toEqual({ balance: '0x0', code: `0x${ADDER_RUNTIME}`, nonce: 1 });
    expect(firstDiff.post[adder]).toEqual({ storage: { [SLOT0]: toBeHex(0x2a, 32) } });

    const second = await send({ to: adder });
    expect(await provider.getStorage(adder, 0)).toBe(toBeHex(0x54, 32));
    const secondDiff = await prestate(second.hash, true);
    expect(secondDiff.pre[adder].storage).toEqual({ [SLOT0]: toBeHex(0x2a, 32) });
    expect(secondDiff.post[adder]).toEqual({ storage: { [SLOT0]: toBeHex(0x54, 32) } });
  });

  it('a destroyed account stays in pre and is left out of post', async () => {
    const doomed = (await send({ data: initCode(DESTRUCT_RUNTIME), value: 77n })).contractAddress!.toLowerCase();
    const receipt = await send({ to: doomed });
    expect(await provider.getCode(doomed)).toBe('0x');
    const diff = await prestate(receipt.hash, true);
    expect(diff.pre[doomed]).toEqual({ balance: '0x4d', code: `0x${DESTRUCT_RUNTIME}`, nonce: 1 });
    expect(diff.post[doomed]).toBeUndefined();
  });

  it('debug_traceBlockByNumber and ByHash give [{txHash, result}] with the REMASC transaction empty', async () => {
    const receipt = await send({ to: RECIPIENT, value: 1n });
    const options = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };
    const byNumber = await provider.send('debug_traceBlockByNumber', [toBeHex(receipt.blockNumber), options]);
    const byHash = await provider.send('debug_traceBlockByHash', [receipt.blockHash, options]);
    expect(byHash).toEqual(byNumber);
    expect(byNumber[0].txHash).toBe(receipt.hash);
    expect(byNumber[0].result).toEqual(await prestate(receipt.hash, true));
    expect(byNumber[byNumber.length - 1].result).toEqual({ post: {}, pre: {} });
  });
});

describe('prestateTracer on contracts a contract creates', () => {
  it('CREATE2 from a factory: a new child is only in post; one funded beforehand is in pre with its balance', async () => {
    const factoryDeploy = await new ContractFactory(contracts.Factory.abi, contracts.Factory.bytecode, wallet).deploy({ type: 0 });
    await factoryDeploy.waitForDeployment();
    const factory = (await factoryDeploy.getAddress()).toLowerCase();
    const childInit = (v: number) => concat([contracts.Child.bytecode, AbiCoder.defaultAbiCoder().encode(['uint256'], [v])]);
    const create2 = (salt: string, v: number) => factoryDeploy.interface.encodeFunctionData('create2', [salt, v]);

    const fresh = await send({ to: factory, data: create2(zeroPadValue('0x01', 32), 9) });
    const child = getCreate2Address(factory, zeroPadValue('0x01', 32), keccak256(childInit(9))).toLowerCase();
    const runtime = await provider.getCode(child);
    expect(runtime.length).toBeGreaterThan(2);
    const plain = await prestate(fresh.hash);
    expect(plain[child]).toBeUndefined();
    // children.length (slot 0) and children[0] (at keccak256(slot 0)), both empty before.
    const firstElement = keccak256(SLOT0);
    expect(plain[factory].storage).toEqual({ [SLOT0]: SLOT0, [firstElement]: SLOT0 });
    const diff = await prestate(fresh.hash, true);
    expect(diff.pre[child]).toBeUndefined();
    expect(diff.post[child]).toEqual({ code: runtime, nonce: 1, storage: { [SLOT0]: toBeHex(9, 32) } });
    expect(diff.post[factory].storage).toEqual({ [SLOT0]: toBeHex(1, 32), [firstElement]: zeroPadValue(child, 32) });

    const salt = zeroPadValue('0x02', 32);
    const funded = getCreate2Address(factory, salt, keccak256(childInit(4))).toLowerCase();
    await send({ to: funded, value: 11n });
    const created = await send({ to: factory, data: create2(salt, 4) });
    // The constructor's SSTORE read the slot: plain mode lists it as it was (zero), as geth does.
    expect((await prestate(created.hash))[funded]).toEqual({ balance: '0xb', storage: { [SLOT0]: SLOT0 } });
    const fundedDiff = await prestate(created.hash, true);
    expect(fundedDiff.pre[funded]).toEqual({ balance: '0xb' });
    expect(fundedDiff.post[funded]).toEqual({ code: runtime, nonce: 1, storage: { [SLOT0]: toBeHex(4, 32) } });
  });
});

describe('prestateTracer in debug_traceCall', () => {
  it('reads the overridden state, and diffMode shows the call’s writes without mining them', async () => {
    const adder = (await send({ data: initCode(ADDER_RUNTIME) })).contractAddress!.toLowerCase();
    const call = { from: COW.address, to: adder, gas: '0x30d40', gasPrice: '0x0' };
    const overrides = { stateOverrides: { [adder]: { balance: '0x64', stateDiff: { [SLOT0]: toBeHex(5, 32) } } } };
    const pre = await provider.send('debug_traceCall', [call, 'latest', { tracer: 'prestateTracer', ...overrides }]);
    expect(pre[adder]).toEqual({ balance: '0x64', code: `0x${ADDER_RUNTIME}`, nonce: 1, storage: { [SLOT0]: toBeHex(5, 32) } });
    const diff = await provider.send('debug_traceCall', [call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(diff.post[adder]).toEqual({ storage: { [SLOT0]: toBeHex(0x2a, 32) } });
    expect(await provider.getStorage(adder, 0)).toBe(SLOT0);
  });

  it('a SELFDESTRUCT undone by a revert destroyed nothing: the account is neither in pre nor post', async () => {
    const doomed = '0x00000000000000000000000000000000000d00d0';
    const outer = '0x00000000000000000000000000000000000d00d1';
    // CALL(gas, doomed, 0, 0, 0, 0, 0); REVERT(0, 0).
    const outerCode = `0x${'6000'.repeat(5)}73${doomed.slice(2)}5af16000` + '6000fd';
    const stateOverrides = { [doomed]: { code: `0x${DESTRUCT_RUNTIME}`, balance: '0x7' }, [outer]: { code: outerCode } };
    const call = { from: COW.address, to: outer, gas: '0x30d40', gasPrice: '0x0' };
    const diff = await provider.send('debug_traceCall', [call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true }, stateOverrides }]);
    expect(diff.pre[doomed]).toBeUndefined();
    expect(diff.post[doomed]).toBeUndefined();
    const plain = await provider.send('debug_traceCall', [call, 'latest', { tracer: 'prestateTracer', stateOverrides }]);
    expect(plain[doomed]).toEqual({ balance: '0x7', code: `0x${DESTRUCT_RUNTIME}` });
  });
});
