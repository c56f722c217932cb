/**
 * debug_traceCall (issue 19): geth's `[callObject, blockTag, {tracer, tracerConfig, stateOverrides,
 * blockOverrides, ...struct-log options}]`, for each tracer debug_traceTransaction has (rskTracer,
 * callTracer). A traced call gives the trace the same transaction gives once mined; overrides
 * change what that one call sees and nothing else. Through ethers, as users call it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet } from 'ethers';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';

const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
const byteHex = (n: number) => n.toString(16).padStart(2, '0');
/** Init code that copies `runtime` (after these 11 bytes) into memory and returns it. */
const initCode = (runtime: string) => `0x60${byteHex(runtime.length / 2)}80600b6000396000f3${runtime}`;

/** SSTORE 0x2a at slot 0, SLOAD it, add 1, return it as one word. */
const STORE_RUNTIME = '602a600055600160005401600052602060' + '00f3';
/** Returns six words: slot 0, slot 1, SELFBALANCE, NUMBER, TIMESTAMP, COINBASE. */
const READER_RUNTIME = '600054600052' + '600154602052' + '47604052' + '43606052' + '42608052' + '4160a052' + '60c06000f3';
/** Stores 0x2a at slot 0 and 7 at slot 1, then returns READER_RUNTIME (after these 21 bytes). */
const READER_INIT = `0x602a6000556007600155` + `60${byteHex(READER_RUNTIME.length / 2)}8060156000396000f3` + READER_RUNTIME;
/** Error("no") as the revert payload, copied from after its 12 code bytes. */
const REVERT_DATA = '08c379a0' + word(0x20) + word(2) + '6e6f'.padEnd(64, '0');
const REVERTER_RUNTIME = '6064600c60003960646000fd' + REVERT_DATA;
/** An address without code or balance, where overrides put some. */
const EMPTY_ACCOUNT = '0x00000000000000000000000000000000000d0d0d';

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let store: string;
let reader: string;
let reverter: string;

async function deploy(init: string): Promise<string> {
  const sent = await wallet.sendTransaction({ type: 0, data: init, gasLimit: 300_000 });
  const receipt = (await sent.wait())!;
  expect(receipt.status).toBe(1);
  return receipt.contractAddress!.toLowerCase();
}

/** READER_RUNTIME's six words. */
const readerWords = (output: string) => Array.from({ length: 6 }, (_, i) => BigInt(`0x${output.slice(2 + 64 * i, 2 + 64 * (i + 1))}`));

const traceCall = (call: Record<string, unknown>, block: unknown = 'latest', options?: Record<string, unknown>) =>
  provider.send('debug_traceCall', options === undefined ? [call, block] : [call, block, options]);

/** The JSON-RPC error of a refused request; ethers reports those answered with HTTP 400 by their body. */
async function rpcErrorOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { error?: { code: number; message: string }; info?: { responseBody?: string } } | undefined;
  const error = err?.error ?? (err?.info?.responseBody === undefined ? undefined : JSON.parse(err.info.responseBody).error);
  expect(error, 'the call should have failed').toBeDefined();
  return error;
}

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
  store = await deploy(initCode(STORE_RUNTIME));
  reader = await deploy(READER_INIT);
  reverter = await deploy(initCode(REVERTER_RUNTIME));
});

afterAll(async () => {
  await t?.close();
});

describe('debug_traceCall gives the trace of the transaction it describes', () => {
  it('rskTracer (default) and callTracer equal debug_traceTransaction of the same transaction mined next', async () => {
    const call = { from: COW.address, to: store, gas: '0x30d40', gasPrice: '0x0' };
    const structTrace = await traceCall(call);
    const callTrace = await traceCall(call, 'latest', { tracer: 'callTracer' });
    expect(structTrace.structLogs.map((log: { op: string }) => log.op).slice(0, 4)).toEqual(['PUSH1', 'PUSH1', 'SSTORE', 'PUSH1']);
    expect(structTrace.result).toBe(word(0x2b));
    expect(callTrace).toMatchObject({ type: 'CALL', from: COW.address, to: store, value: '0x0', gas: '0x30d40', input: '0x', output: `0x${word(0x2b)}` });

    const sent = await wallet.sendTransaction({ type: 0, to: store, gasLimit: 200_000 });
    const receipt = (await sent.wait())!;
    expect(callTrace.gasUsed).toBe(`0x${receipt.gasUsed.toString(16)}`);
    const mined = await provider.send('debug_traceTransaction', [sent.hash]);
    expect(structTrace).toEqual(mined);
    expect(callTrace).toEqual(await provider.send('debug_traceTransaction', [sent.hash, { tracer: 'callTracer' }]));
  });

  it('takes the struct-log options (disableStack, disableMemory, disableStorage, also in tracerConfig)', async () => {
    const trace = await traceCall({ to: store }, 'latest', { disableStack: true, tracerConfig: { disableMemory: true, disableStorage: true } });
    expect(trace.structLogs.length).toBeGreaterThan(5);
    for (const log of trace.structLogs) expect(Object.keys(log)).toEqual(['op', 'depth', 'pc', 'gas', 'gasCost']);
    expect(trace.currentStorage).toEqual({ [word(0)]: word(0x2a) });
  });

  it('traces at an earlier block: the state before the contract existed runs no code', async () => {
    const deployedAt = (await provider.getTransactionReceipt((await provider.getBlock(2))!.transactions[0]!))!;
    expect(deployedAt.contractAddress!.toLowerCase()).toBe(reader);
    const before = await traceCall({ to: reader }, '0x1');
    expect(before.structLogs).toBeUndefined();
    expect(before.transferInvoke).toBeDefined();
    const after = await traceCall({ to: reader }, '0x2', { tracer: 'callTracer' });
    expect(readerWords(after.output).slice(0, 2)).toEqual([0x2an, 7n]);
  });

  it('a reverting call: callTracer has geth\'s error and revertReason, rskTracer reverted true', async () => {
    const call = await traceCall({ to: reverter }, 'latest', { tracer: 'callTracer' });
    expect(call).toMatchObject({ error: 'execution reverted', revertReason: 'no', output: `0x${REVERT_DATA}` });
    const struct = await traceCall({ to: reverter });
    expect(struct).toMatchObject({ reverted: true, error: '', result: REVERT_DATA });
  });

  it('a creation (no "to") traces the init code and shows the runtime code as output', async () => {
    const call = await traceCall({ from: COW1.address, data: initCode(STORE_RUNTIME) }, 'latest', { tracer: 'callTracer' });
    expect(call.type).toBe('CREATE');
    expect(call.output).toBe(`0x${STORE_RUNTIME}`);
    expect(call.to).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await provider.getCode(call.to)).toBe('0x');
  });
});

describe('state and block overrides', () => {
  it('code, balance and storage of an account without any, for this call only', async () => {
    const options = {
      tracer: 'callTracer',
      stateOverrides: { [EMPTY_ACCOUNT]: { code: `0x${READER_RUNTIME}`, balance: '0x1234', stateDiff: { '0x1': `0x${word(9)}` } } },
    };
    const call = await traceCall({ to: EMPTY_ACCOUNT }, 'latest', options);
    const [slot0, slot1, balance] = readerWords(call.output);
    expect([slot0, slot1, balance]).toEqual([0n, 9n, 0x1234n]);
    expect(await provider.getCode(EMPTY_ACCOUNT)).toBe('0x');
    expect(await provider.getBalance(EMPTY_ACCOUNT)).toBe(0n);
    // The next call, without overrides, sees the account as it is.
    const plain = await traceCall({ to: EMPTY_ACCOUNT }, 'latest', { tracer: 'callTracer' });
    expect(plain.output).toBeUndefined();
  });

  it('stateDiff changes the slots named; state replaces the whole storage', async () => {
    const base = readerWords((await traceCall({ to: reader }, 'latest', { tracer: 'callTracer' })).output);
    expect(base.slice(0, 2)).toEqual([0x2an, 7n]);
    const diff = await traceCall({ to: reader }, 'latest', { tracer: 'callTracer', stateOverrides: { [reader]: { stateDiff: { [`0x${word(1)}`]: '0x09' } } } });
    expect(readerWords(diff.output).slice(0, 2)).toEqual([0x2an, 9n]);
    const state = await traceCall({ to: reader }, 'latest', { tracer: 'callTracer', stateOverrides: { [reader]: { state: { '0x1': '0x09' } } } });
    expect(readerWords(state.output).slice(0, 2)).toEqual([0n, 9n]);
    expect(await provider.getStorage(reader, 0)).toBe(`0x${word(0x2a)}`);
  });

  it('the rskTracer sees the overridden storage in its struct logs too', async () => {
    const trace = await traceCall({ to: reader }, 'latest', { stateOverrides: { [reader]: { state: { '0x0': '0x05' } } } });
    const sload = trace.structLogs.findIndex((log: { op: string }) => log.op === 'SLOAD');
    expect(trace.structLogs[sload + 1].stack).toEqual([word(5)]);
  });

  it('blockOverrides set NUMBER, TIMESTAMP and COINBASE (geth\'s old and new names)', async () => {
    const miner = '0x00000000000000000000000000000000000000aa';
    const call = await traceCall({ to: reader }, 'latest', { tracer: 'callTracer', blockOverrides: { number: '0x99', time: '0x12345678', feeRecipient: miner } });
    const [, , , number, timestamp, coinbase] = readerWords(call.output);
    expect([number, timestamp, coinbase]).toEqual([0x99n, 0x12345678n, 0xaan]);
    const old = await traceCall({ to: reader }, 'latest', { tracer: 'callTracer', blockOverrides: { coinbase: miner } });
    expect(readerWords(old.output)[5]).toBe(0xaan);
  });
});

describe('bad requests answer -32602 and change nothing', () => {
  it('refuses both state and stateDiff, unknown fields, a precompile, an unknown tracer, too little gas', async () => {
    const cases: Array<[unknown[], RegExp]> = [
      [[{ to: reader }, 'latest', { stateOverrides: { [reader]: { state: {}, stateDiff: {} } } }], /has both 'state' and 'stateDiff'/],
      [[{ to: reader }, 'latest', { stateOverrides: { [reader]: { balanse: '0x1' } } }], /unknown field "balanse"/],
      [[{ to: reader }, 'latest', { stateOverrides: { '0x1234': {} } }], /account 0x1234/],
      [[{ to: reader }, 'latest', { stateOverrides: { [reader]: { nonce: '0x10000000000000000' } } }], /nonce/],
      [[{ to: reader }, 'latest', { stateOverrides: { [reader]: { stateDiff: { '0x1': 'zz' } } } }], /stateDiff/],
      [[{ to: reader }, 'latest', { stateOverrides: { '0x0000000000000000000000000000000000000001': { code: '0x00' } } }], /Precompiled contracts can not be overridden/],
      [[{ to: reader }, 'latest', { stateOverrides: { [reader]: { movePrecompileToAddress: reader } } }], /not supported/],
      [[{ to: reader }, 'latest', { blockOverrides: { prevRandao: `0x${word(1)}` } }], /unsupported field "prevRandao"/],
      [[{ to: reader }, 'latest', { blockOverrides: { number: 'ten' } }], /number/],
      [[{ to: reader }, 'latest', { tracer: '4byteTracer' }], /Invalid tracer type: 4byteTracer/],
      [[{ to: reader }, 'latest', 'callTracer'], /expected an options object/],
      [[{ to: reader, gas: '0x100' }], /intrinsic gas too low: have 256, want 21000/],
      [['not a call'], /call/],
    ];
    for (const [params, message] of cases) {
      const error = await rpcErrorOf(provider.send('debug_traceCall', params));
      expect(error.code, JSON.stringify(params)).toBe(-32602);
      expect(error.message).toMatch(message);
    }
    expect(await provider.getStorage(reader, 1)).toBe(`0x${word(7)}`);
  });

  it('an unknown block is refused as eth_call refuses it', async () => {
    const traced = await rpcErrorOf(traceCall({ to: reader }, '0x999999'));
    const called = await rpcErrorOf(provider.send('eth_call', [{ to: reader }, '0x999999']));
    expect(traced).toEqual(called);
  });
});

describe('a long traced call', () => {
  /** Init code that jumps back to its start forever. */
  const LOOP = '0x5b600056';

  it('answers -32011 after the time limit, and eth_calls meanwhile are not queued behind it', async () => {
    // No gas cap to speak of: the loop must outlast the time limit however fast tracing gets.
    const slow = await startTestNode({ limits: { executionTimeoutMs: 1500, callGasCap: 10n ** 12n } });
    try {
      let traceSettled = false;
      const trace = rpc(slow.testnetUrl, 'debug_traceCall', [{ data: LOOP }, 'latest', { tracer: 'callTracer' }]).finally(() => {
        traceSettled = true;
      });
      const { body } = await rpc(slow.testnetUrl, 'eth_call', [{ to: COW1.address, data: '0x' }, 'latest']);
      expect(body.result).toBe('0x');
      expect(traceSettled).toBe(false);
      expect((await trace).body.error?.code).toBe(-32011);
    } finally {
      await slow.close();
    }
  });
});
