/**
 * prestateTracer (issue 22): geth's shape for debug_traceTransaction, debug_traceBlockByNumber/Hash
 * and debug_traceCall, plain and with diffMode, checked against the balances, nonces, code and
 * storage the node itself reports before and after each block. Through ethers, as users call it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet, toBeHex } from 'ethers';
import { COW, startTestNode, type TestNode } from '../helpers/node.js';

const byteHex = (n: number) => n.toString(16).padStart(2, '0');
const initCode = (runtime: string) => `0x60${byteHex(runtime.length / 2)}80600b6000396000f3${runtime}`;
/** Adds 0x2a to slot 0 (SLOAD, ADD, SSTORE) and stops. */
const ADDER_RUNTIME = '602a600054016000' + '5500';
/** SELFDESTRUCT to the caller. */
const DESTRUCT_RUNTIME = '33ff';
const SLOT0 = `0x${'0'.repeat(64)}`;
const REMASC = '0x0000000000000000000000000000000001000008';
const RECIPIENT = '0x00000000000000000000000000000000000b0b0b';

let t: TestNode;
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

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
});

afterAll(async () => {
  await t?.close();
});

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
});
