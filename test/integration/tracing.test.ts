/**
 * Tracing (issue 9): debug_trace* with rskj's struct-log tracer and geth's callTracer, trace_*
 * in rskj's Parity style, over HTTP. Contracts are hand-assembled so every opcode, gas figure and
 * stack word can be checked exactly; ethers deploys them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet } from 'ethers';
import { COW, COW1, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';

const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
/** Init code that copies `runtime` (after these 11 bytes) into memory and returns it. */
const initCode = (runtime: string) => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;

/** SSTORE 0x2a at slot 0, SLOAD it, add 1, return it as one word. */
const STORE_RUNTIME = '602a600055600160005401600052602060' + '00f3';
/** B: MSTORE 7, LOG0 of that word, RETURN it. */
const B_RUNTIME = '600760005260206000a060206000f3';
/** Error("no") as the revert payload. */
const REVERT_DATA = '08c379a0' + word(0x20) + word(2) + '6e6f'.padEnd(64, '0');
/** C: copies REVERT_DATA (after its 12 code bytes) to memory and reverts with it. */
const C_RUNTIME = '6064600c60003960646000fd' + REVERT_DATA;
/** D: LOG0 of nothing, then the undefined opcode 0xfe. */
const D_RUNTIME = '60006000a0fe';
/** F: CREATE of B's init code, embedded after its 16 code bytes. */
const F_RUNTIME = (() => {
  const child = initCode(B_RUNTIME).slice(2);
  const len = (child.length / 2).toString(16).padStart(2, '0');
  return `60${len}601060003960${len}60006000f05000${child}`;
})();
/** CALL(gas, addr, 0, 0, 0, 0, retSize) then POP. */
const callTo = (addr: string, gas: number, retSize: number) =>
  `60${retSize.toString(16).padStart(2, '0')}6000600060006000` + `73${addr.slice(2)}` + `61${gas.toString(16).padStart(4, '0')}f150`;
const TOPIC = 'ab'.repeat(32);

let t: TestNode;
let url: string;
let wallet: Wallet;

async function send(tx: { to?: string; data?: string; value?: bigint; gasLimit?: number }) {
  const response = await wallet.sendTransaction({ type: 0, gasLimit: 300_000, ...tx });
  const receipt = await provider().getTransactionReceipt(response.hash);
  return { hash: response.hash, receipt: receipt! };
}
let providerInstance: JsonRpcProvider;
const provider = () => providerInstance;

async function deploy(runtime: string): Promise<string> {
  const { receipt } = await send({ data: initCode(runtime) });
  expect(receipt.status).toBe(1);
  return receipt.contractAddress!.toLowerCase();
}

const traceTx = (hash: string, options?: unknown) => call(url, 'debug_traceTransaction', options === undefined ? [hash] : [hash, options]);

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  providerInstance = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, providerInstance);
});

afterAll(async () => {
  await t?.close();
});

describe('debug_traceTransaction, rskTracer (default)', () => {
  let store: string;
  let hash: string;

  beforeAll(async () => {
    store = await deploy(STORE_RUNTIME);
    ({ hash } = await send({ to: store, gasLimit: 100_000 }));
  });

  it('lists every opcode with rskj pc, op, depth, gas, gasCost and stack', async () => {
    const trace = await traceTx(hash);
    // 100,000 gas minus the 21,000 intrinsic cost.
    const g = 79_000;
    const expected = [
      { pc: 0, op: 'PUSH1', gas: g, gasCost: 3, stack: [] },
      { pc: 2, op: 'PUSH1', gas: g - 3, gasCost: 3, stack: [word(0x2a)] },
      { pc: 4, op: 'SSTORE', gas: g - 6, gasCost: 20_000, stack: [word(0x2a), word(0)] },
      { pc: 5, op: 'PUSH1', gas: g - 20_006, gasCost: 3, stack: [] },
      { pc: 7, op: 'PUSH1', gas: g - 20_009, gasCost: 3, stack: [word(1)] },
      { pc: 9, op: 'SLOAD', gas: g - 20_012, gasCost: 200, stack: [word(1), word(0)] },
      { pc: 10, op: 'ADD', gas: g - 20_212, gasCost: 3, stack: [word(1), word(0x2a)] },
      { pc: 11, op: 'PUSH1', gas: g - 20_215, gasCost: 3, stack: [word(0x2b)] },
      { pc: 13, op: 'MSTORE', gas: g - 20_218, gasCost: 6, stack: [word(0x2b), word(0)] },
      { pc: 14, op: 'PUSH1', gas: g - 20_224, gasCost: 3, stack: [] },
      { pc: 16, op: 'PUSH1', gas: g - 20_227, gasCost: 3, stack: [word(0x20)] },
      { pc: 18, op: 'RETURN', gas: g - 20_230, gasCost: 0, stack: [word(0x20), word(0)] },
    ];
    expect(trace.structLogs.map((l: any) => ({ pc: l.pc, op: l.op, gas: l.gas, gasCost: l.gasCost, stack: l.stack }))).toEqual(expected);
    expect(trace.structLogs.every((l: any) => l.depth === 0)).toBe(true);
    expect(Object.keys(trace.structLogs[0])).toEqual(['op', 'depth', 'pc', 'gas', 'gasCost', 'memory', 'stack', 'storage']);
  });

  it('shows memory in 32-byte words and storage as rskj does (the slot appears after SSTORE/SLOAD)', async () => {
    const logs = (await traceTx(hash)).structLogs;
    expect(logs[8].memory).toEqual([]);
    expect(logs[9].memory).toEqual([word(0x2b)]);
    expect(logs[2].storage).toEqual({});
    expect(logs[3].storage).toEqual({ [word(0)]: word(0x2a) });
    expect(logs[11].storage).toEqual({ [word(0)]: word(0x2a) });
  });

  it('carries the top-level fields: contractAddress, result, error, reverted, storage', async () => {
    const trace = await traceTx(hash);
    expect(Object.keys(trace)).toEqual(['contractAddress', 'initStorage', 'structLogs', 'result', 'error', 'reverted', 'storageSize', 'currentStorage']);
    expect(trace.contractAddress).toBe(store.slice(2));
    expect(trace.initStorage).toEqual({});
    expect(trace.result).toBe(word(0x2b));
    expect(trace.error).toBe('');
    expect(trace.reverted).toBe(false);
    expect(trace.storageSize).toBe(1);
    expect(trace.currentStorage).toEqual({ [word(0)]: word(0x2a) });
  });

  it('drops stack, memory and storage on request, also inside tracerConfig', async () => {
    const plain = await traceTx(hash);
    const none = await traceTx(hash, { disableStack: true, disableMemory: true, disableStorage: true });
    expect(none.structLogs).toHaveLength(plain.structLogs.length);
    for (const log of none.structLogs) expect(Object.keys(log)).toEqual(['op', 'depth', 'pc', 'gas', 'gasCost']);
    const nested = await traceTx(hash, { tracerConfig: { disableStack: true } });
    expect(Object.keys(nested.structLogs[0])).toEqual(['op', 'depth', 'pc', 'gas', 'gasCost', 'memory', 'storage']);
    // rskj reads option values as text: "true" counts, false does not; option names ignore case.
    const text = await traceTx(hash, { DISABLEMEMORY: 'true', disableStack: false });
    expect(Object.keys(text.structLogs[0])).toEqual(['op', 'depth', 'pc', 'gas', 'gasCost', 'stack', 'storage']);
  });

  it('refuses an unknown tracer with -32602', async () => {
    const error = await rpcError(url, 'debug_traceTransaction', [hash, { tracer: '4byteTracer' }]);
    expect(error).toMatchObject({ code: -32602, message: 'Invalid tracer type: 4byteTracer' });
  });

  it('traces a contract creation (the init code runs, result is the runtime code)', async () => {
    const { hash: deployHash } = await send({ data: initCode(STORE_RUNTIME) });
    const trace = await traceTx(deployHash);
    expect(trace.structLogs.map((l: any) => l.op)).toEqual(['PUSH1', 'DUP1', 'PUSH1', 'PUSH1', 'CODECOPY', 'PUSH1', 'RETURN']);
    // CODECOPY: 3 + 3 per word copied + 3 for the new memory word.
    expect(trace.structLogs[4].gasCost).toBe(9);
    expect(trace.result).toBe(STORE_RUNTIME);
  });

  it('a plain transfer runs no code: rskj\'s summarized shape, no structLogs', async () => {
    const { hash: transfer } = await send({ to: COW1.address, value: 5n, gasLimit: 21_000 });
    const trace = await traceTx(transfer);
    expect(trace).toEqual({
      programInvoke: null,
      transferInvoke: { ownerAddress: word(BigInt(COW1.address)), callerAddress: word(BigInt(COW.address)), gas: 0, callValue: word(5), msgData: '' },
      subtraces: [],
      result: null,
      error: null,
      reverted: false,
    });
  });
});

describe('reverting and nested calls', () => {
  let b: string;
  let c: string;
  let d: string;
  let a: string;
  let f: string;
  let nestedHash: string;
  let revertHash: string;
  let createHash: string;

  beforeAll(async () => {
    b = await deploy(B_RUNTIME);
    c = await deploy(C_RUNTIME);
    d = await deploy(D_RUNTIME);
    // A calls B (succeeds), C (reverts), D (invalid opcode), then logs and stops: A succeeds.
    a = await deploy(callTo(b, 50_000, 32) + callTo(c, 50_000, 0) + callTo(d, 10_000, 0) + `7f${TOPIC}60206000a100`);
    f = await deploy(F_RUNTIME);
    const nested = await send({ to: a });
    expect(nested.receipt.status).toBe(1);
    nestedHash = nested.hash;
    const reverted = await send({ to: c, gasLimit: 100_000 }).catch(async (err) => ({ hash: err.receipt?.hash ?? err.transactionHash, receipt: err.receipt }));
    revertHash = reverted.hash;
    expect((await call(url, 'eth_getTransactionReceipt', [revertHash])).status).toBe('0x0');
    createHash = (await send({ to: f })).hash;
  });

  it('rskTracer: a reverted transaction has reverted true, no error, the revert data as result', async () => {
    const trace = await traceTx(revertHash);
    expect(trace.reverted).toBe(true);
    expect(trace.error).toBe('');
    expect(trace.result).toBe(REVERT_DATA);
    expect(trace.structLogs.at(-1)).toMatchObject({ op: 'REVERT', pc: 11, gasCost: 0, depth: 0 });
  });

  it('callTracer: a reverted top call has geth\'s error, output and revertReason', async () => {
    const top = await traceTx(revertHash, { tracer: 'callTracer' });
    expect(top).toEqual({
      type: 'CALL',
      from: COW.address,
      to: c,
      value: '0x0',
      gas: '0x186a0',
      gasUsed: (await call(url, 'eth_getTransactionReceipt', [revertHash])).gasUsed,
      input: '0x',
      output: `0x${REVERT_DATA}`,
      error: 'execution reverted',
      revertReason: 'no',
    });
  });

  it('trace_transaction: a reverted top call has error "Reverted" and a null result', async () => {
    const [top] = await call(url, 'trace_transaction', [revertHash]);
    expect(top.error).toBe('Reverted');
    expect(top.result).toBeNull();
    expect(top.type).toBe('call');
  });

  it('callTracer: nested calls, a reverting and a failing one inside a succeeding call', async () => {
    const receipt = await call(url, 'eth_getTransactionReceipt', [nestedHash]);
    const top = await traceTx(nestedHash, { tracer: 'callTracer' });
    expect(top).toEqual({
      type: 'CALL',
      from: COW.address,
      to: a,
      value: '0x0',
      gas: '0x493e0',
      gasUsed: receipt.gasUsed,
      input: '0x',
      calls: [
        // B: PUSH1, PUSH1, MSTORE (6), PUSH1, PUSH1, LOG0 (375 + 8*32 = 631), PUSH1, PUSH1, RETURN.
        { type: 'CALL', from: a, to: b, value: '0x0', gas: '0xc350', gasUsed: `0x${(3 + 3 + 6 + 3 + 3 + 631 + 3 + 3).toString(16)}`, input: '0x', output: `0x${word(7)}` },
        {
          type: 'CALL', from: a, to: c, value: '0x0', gas: '0xc350',
          // PUSH1 x3, CODECOPY (3 + 3*4 words + 4 new memory words * 3 + 0 quadratic) , PUSH1 x2, REVERT.
          gasUsed: `0x${(3 * 3 + (3 + 12 + 12) + 3 * 2).toString(16)}`,
          input: '0x', output: `0x${REVERT_DATA}`, error: 'execution reverted', revertReason: 'no',
        },
        // A failed call uses all the gas it was given.
        { type: 'CALL', from: a, to: d, value: '0x0', gas: '0x2710', gasUsed: '0x2710', input: '0x', error: 'invalid opcode: opcode 0xfe not defined' },
      ],
    });
  });

  it('callTracer withLog: logs of frames that did not fail, numbered as the receipt numbers them', async () => {
    const top = await traceTx(nestedHash, { tracer: 'callTracer', tracerConfig: { withLog: true } });
    const receipt = await call(url, 'eth_getTransactionReceipt', [nestedHash]);
    expect(receipt.logs).toHaveLength(2);
    expect(top.calls[0].logs).toEqual([{ index: 0, address: b, topics: [], data: `0x${word(7)}`, position: '0x0' }]);
    expect(top.calls[2].logs).toBeUndefined();
    expect(top.logs).toEqual([{ index: 1, address: a, topics: [`0x${TOPIC}`], data: `0x${word(7)}`, position: '0x3' }]);
    expect(top.logs[0].address).toBe(receipt.logs[1].address);
  });

  it('callTracer onlyTopCall: no calls', async () => {
    const top = await traceTx(nestedHash, { tracer: 'callTracer', onlyTopCall: true });
    expect(top.calls).toBeUndefined();
    expect(top.to).toBe(a);
  });

  it('rskTracer: nested frames at depth 1, CALL gasCost includes the callee gas, the failing opcode costs 0', async () => {
    const logs = (await traceTx(nestedHash, { disableMemory: true, disableStorage: true })).structLogs;
    const calls = logs.filter((l: any) => l.op === 'CALL');
    expect(calls).toHaveLength(3);
    // CALL 700 + 3 for the return word's memory, plus the 50,000 handed to B.
    expect(calls[0].gasCost).toBe(700 + 3 + 50_000);
    expect(calls[2].gasCost).toBe(700 + 10_000);
    const afterFirstCall = logs[logs.indexOf(calls[0]) + 1];
    expect(afterFirstCall).toMatchObject({ op: 'PUSH1', depth: 1, pc: 0, gas: 50_000 });
    const inD = logs.slice(logs.indexOf(calls[2]) + 1, logs.indexOf(calls[2]) + 5);
    expect(inD.map((l: any) => [l.op, l.depth, l.gasCost])).toEqual([['PUSH1', 1, 3], ['PUSH1', 1, 3], ['LOG0', 1, 375], [null, 1, 0]]);
    expect(logs.at(-1)).toMatchObject({ op: 'STOP', depth: 0 });
  });

  it('trace_transaction: rskj\'s flattened Parity traces with trace addresses and errors', async () => {
    const traces = await call(url, 'trace_transaction', [nestedHash]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [nestedHash]);
    expect(traces).toHaveLength(4);
    const base = { blockHash: receipt.blockHash, blockNumber: Number(receipt.blockNumber), transactionHash: nestedHash, transactionPosition: 0 };
    expect(traces[0]).toEqual({
      action: { callType: 'call', from: COW.address, to: a, gas: '0x493e0', input: '0x', value: '0x0' },
      ...base,
      type: 'call',
      subtraces: 3,
      traceAddress: [],
      // rskj builds the top result from an empty ProgramResult: output is always 0x.
      result: { gasUsed: receipt.gasUsed, output: '0x' },
    });
    expect(traces[1]).toEqual({
      action: { callType: 'call', from: a, to: b, gas: '0xc350', input: '0x', value: '0x0' },
      ...base,
      type: 'call',
      subtraces: 0,
      traceAddress: [0],
      result: { gasUsed: '0x28f', output: `0x${word(7)}` },
    });
    expect(traces[2]).toMatchObject({ traceAddress: [1], result: null, error: 'Reverted' });
    expect(traces[3]).toMatchObject({
      traceAddress: [2],
      result: null,
      error: `org.ethereum.vm.program.Program$IllegalOperationException: Invalid operation code: opcode[fe], tx[${nestedHash}]`,
    });
  });

  it('an inner CREATE: callTracer CREATE frame, trace_* create subtrace with creationMethod', async () => {
    const top = await traceTx(createHash, { tracer: 'callTracer' });
    expect(top.calls).toHaveLength(1);
    const created = top.calls[0];
    expect(created).toMatchObject({ type: 'CREATE', from: f, value: '0x0', input: initCode(B_RUNTIME), output: `0x${B_RUNTIME}` });
    expect(await call(url, 'eth_getCode', [created.to, 'latest'])).toBe(`0x${B_RUNTIME}`);
    const traces = await call(url, 'trace_transaction', [createHash]);
    expect(traces[1].type).toBe('create');
    expect(traces[1].action).toEqual({ from: f, gas: created.gas, init: initCode(B_RUNTIME), value: '0x0', creationMethod: 'create' });
    expect(traces[1].result).toEqual({ gasUsed: created.gasUsed, code: `0x${B_RUNTIME}`, address: created.to });
  });
});

describe('blocks, REMASC, unknowns', () => {
  it('debug_traceBlockByNumber/ByHash trace every transaction, REMASC last', async () => {
    const store = await deploy(STORE_RUNTIME);
    const { hash, receipt } = await send({ to: store, gasLimit: 100_000 });
    const byNumber = await call(url, 'debug_traceBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`]);
    const byHash = await call(url, 'debug_traceBlockByHash', [receipt.blockHash]);
    expect(byHash).toEqual(byNumber);
    expect(byNumber).toHaveLength(2);
    expect(byNumber[0]).toEqual(await traceTx(hash));
    // REMASC runs no EVM code here: the summarized shape, a call from the zero address to REMASC.
    expect(byNumber[1].transferInvoke).toEqual({ ownerAddress: word(0x01000008), callerAddress: word(0), gas: 0, callValue: word(0), msgData: '' });

    const calls = await call(url, 'debug_traceBlockByHash', [receipt.blockHash, { tracer: 'callTracer' }]);
    const block = await call(url, 'eth_getBlockByHash', [receipt.blockHash, false]);
    expect(calls.map((c: any) => c.txHash)).toEqual(block.transactions);
    expect(calls[1].result).toEqual({ type: 'CALL', from: `0x${'0'.repeat(40)}`, to: '0x0000000000000000000000000000000001000008', value: '0x0', gas: '0x0', gasUsed: '0x0', input: '0x' });

    const parity = await call(url, 'trace_block', [receipt.blockHash]);
    expect(parity).toEqual(await call(url, 'trace_block', [`0x${receipt.blockNumber.toString(16)}`]));
    expect(parity[1]).toMatchObject({
      action: { callType: 'call', from: `0x${'0'.repeat(40)}`, to: '0x0000000000000000000000000000000001000008', gas: '0x0', input: '0x', value: '0x0' },
      transactionPosition: 1,
      result: { gasUsed: '0x0', output: '0x' },
    });
  });

  it('unknown transactions and blocks answer null; genesis has no traces', async () => {
    const missing = `0x${'12'.repeat(32)}`;
    expect(await call(url, 'debug_traceTransaction', [missing])).toBeNull();
    expect(await call(url, 'debug_traceTransaction', [missing, { tracer: 'callTracer' }])).toBeNull();
    expect(await call(url, 'debug_traceBlockByHash', [missing])).toBeNull();
    expect(await call(url, 'debug_traceBlockByNumber', ['0xffff'])).toBeNull();
    expect(await call(url, 'trace_transaction', [missing])).toBeNull();
    expect(await call(url, 'trace_block', [missing])).toBeNull();
    expect(await call(url, 'trace_block', ['0xffff'])).toBeNull();
    expect(await call(url, 'trace_block', ['earliest'])).toEqual([]);
    expect(await call(url, 'debug_traceBlockByNumber', ['earliest'])).toEqual([]);
    expect(await call(url, 'debug_wireProtocolQueueSize', [])).toBe('0x0');
  });

  it('trace_get indexes the whole block\'s traces (rskj quirk)', async () => {
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const all = await call(url, 'trace_block', [latest.hash]);
    const remascHash = latest.transactions.at(-1);
    expect(await call(url, 'trace_get', [remascHash, ['0x0']])).toEqual(all[0]);
    expect(await rpcError(url, 'trace_get', [remascHash, ['0x0', '0x1']])).toMatchObject({ code: -32602, message: "'positions' accepts only one index" });
    expect(await rpcError(url, 'trace_get', [remascHash, []])).toMatchObject({ code: -32602, message: "'positions' cannot be null or empty" });
  });
});

describe('trace_filter', () => {
  let first: number;
  let last: number;

  beforeAll(async () => {
    const store = await deploy(STORE_RUNTIME);
    first = Number((await call(url, 'eth_blockNumber', [])));
    await send({ to: store, gasLimit: 100_000 });
    await send({ to: COW1.address, value: 1n, gasLimit: 21_000 });
    await send({ to: store, gasLimit: 100_000 });
    last = Number(await call(url, 'eth_blockNumber', []));
    expect(last).toBe(first + 3);
  });

  const hex = (n: number) => `0x${n.toString(16)}`;
  const filter = (f: Record<string, unknown>) => call(url, 'trace_filter', [{ fromBlock: hex(first + 1), toBlock: hex(last), ...f }]);

  it('selects transactions by sender and receiver, REMASC included when its sender is named', async () => {
    const all = await filter({});
    // Three blocks of one transaction plus REMASC, one trace each.
    expect(all).toHaveLength(6);
    const fromCow = await filter({ fromAddress: [COW.address] });
    expect(fromCow).toHaveLength(3);
    expect(fromCow.every((tr: any) => tr.action.from === COW.address)).toBe(true);
    const toCow1 = await filter({ toAddress: [COW1.address] });
    expect(toCow1).toHaveLength(1);
    expect(toCow1[0].action).toEqual({ callType: 'call', from: COW.address, to: COW1.address, gas: '0x0', input: '0x', value: '0x1' });
    const remasc = await filter({ fromAddress: [`0x${'0'.repeat(40)}`] });
    expect(remasc.map((tr: any) => tr.blockNumber)).toEqual([first + 1, first + 2, first + 3]);
  });

  it('pages with after and count over the whole trace list', async () => {
    const all = await filter({});
    expect(await filter({ after: 2, count: 3 })).toEqual(all.slice(2, 5));
    expect(await filter({ after: 5 })).toEqual(all.slice(5));
    expect(await filter({ count: 0 })).toEqual([]);
  });

  it('answers rskj\'s messages for bad requests', async () => {
    const bad = (f: unknown) => rpcError(url, 'trace_filter', [f]);
    expect(await bad(null)).toMatchObject({ code: -32602, message: 'Invalid trace_filter parameters.' });
    expect(await bad({ count: 10_001 })).toMatchObject({ code: -32602, message: 'Count value too big. Maximum 10000 traces allowed.' });
    expect(await bad({ after: -1 })).toMatchObject({ code: -32602, message: 'After value cannot be negative.' });
    expect(await bad({ after: 10_001 })).toMatchObject({ code: -32602, message: 'After value too big. Maximum 10000 traces allowed.' });
    expect(await bad({ fromBlock: hex(last), toBlock: hex(first) })).toMatchObject({ code: -32602, message: 'fromBlock cannot be greater than toBlock' });
  });
});

describe('tracing changes nothing', () => {
  it('leaves the head, balances, nonces and storage as they were', async () => {
    const store = await deploy(STORE_RUNTIME);
    const { receipt } = await send({ to: store, gasLimit: 100_000 });
    const snapshot = async () => ({
      head: await call(url, 'eth_getBlockByNumber', ['latest', false]),
      cow: await call(url, 'eth_getBalance', [COW.address, 'latest']),
      nonce: await call(url, 'eth_getTransactionCount', [COW.address, 'latest']),
      slot: await call(url, 'eth_getStorageAt', [store, '0x0', 'latest']),
      miner: await call(url, 'eth_getBalance', ['0x0000000000000000000000000000000001000008', 'latest']),
    });
    const before = await snapshot();
    const block = `0x${receipt.blockNumber.toString(16)}`;
    await call(url, 'debug_traceBlockByNumber', [block]);
    await call(url, 'debug_traceBlockByNumber', [block, { tracer: 'callTracer', withLog: true }]);
    await call(url, 'trace_block', [block]);
    await call(url, 'trace_filter', [{}]);
    await call(url, 'debug_traceBlockByNumber', ['pending']);
    expect(await snapshot()).toEqual(before);
    expect(before.slot).toBe(`0x${word(0x2a)}`);
    // The next block still mines on the untouched state.
    const next = await send({ to: store, gasLimit: 100_000 });
    expect(next.receipt.status).toBe(1);
  });
});
