/**
 * The execution time limit (issue 19, "a trace can freeze the node"): it holds whatever the code
 * looks like (long straight-line code between jumps), for every kind of execution, with the
 * node answering other clients meanwhile; one limit per request (a batch shares it); trace_filter
 * is bounded by it. Concurrency is checked by order (a request answered while another runs), never
 * by duration: the heavy executions here cannot end before their limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { equalsBytes, hexToBytes } from '@ethereumjs/util';
import { LeanEVM } from '../../src/chain/evm/lean-evm.js';
import { call, COW, nodesClosedAfterEach, rpc, rpcRaw, waitFor } from '../helpers/node.js';

const start = nodesClosedAfterEach();

/** Init code that never stops: JUMPDEST; PUSH1 0; JUMP. */
const LOOP = '0x5b600056';
/** Init code that returns GAS (the gas left) as a word. */
const GAS_LEFT = '0x5a60005260206000f3';
/** PUSH1 0 POP: 2 steps, 5 gas, no jump. */
const STRAIGHT_LINE = '600050'.repeat(8_000);
/** The probe's loop: JUMPDEST, 24 KB of PUSH1 0 POP, back to the JUMPDEST (16,000 steps per jump). */
const STRAIGHT_LOOP = `0x5b${STRAIGHT_LINE}600056`;
/** The same loop after an MSTORE at 0x3ffe0, so every step runs with 256 KiB of memory. */
const STRAIGHT_LOOP_256K = `0x600162${'03ffe0'}525b${STRAIGHT_LINE}600756`;

const originalRunInterpreter = (LeanEVM.prototype as any).runInterpreter;
afterEach(() => {
  (LeanEVM.prototype as any).runInterpreter = originalRunInterpreter;
});

/** Resolves when an EVM frame starts running `code` (init code hex): the execution is under way. */
function frameStarts(code: string): Promise<void> {
  const bytes = hexToBytes(code as `0x${string}`);
  return new Promise((resolve) => {
    (LeanEVM.prototype as any).runInterpreter = function (this: LeanEVM, message: { code?: unknown }, opts: unknown) {
      if (message.code instanceof Uint8Array && equalsBytes(message.code, bytes)) resolve();
      return originalRunInterpreter.call(this, message, opts);
    };
  });
}

/** Sends `method` and, once `code` runs, a concurrent eth_blockNumber: that must be answered first. */
async function answersOthersMeanwhile(url: string, code: string, method: string, params: unknown[]) {
  let heavyDone = false;
  const started = frameStarts(code);
  const heavy = rpc(url, method, params).finally(() => (heavyDone = true));
  await started;
  expect(await call(url, 'eth_blockNumber')).toMatch(/^0x/);
  expect(heavyDone).toBe(false);
  return (await heavy).body;
}

/** Mines `data` as a contract creation from COW with `gas`; the receipt. */
async function mine(url: string, data: string, gas: number) {
  const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data, gas: `0x${gas.toString(16)}` }]);
  return { hash, receipt: await call(url, 'eth_getTransactionReceipt', [hash]) };
}

describe('the time limit holds whatever the code (straight-line loops)', () => {
  it('eth_call of a loop with 24 KB between jumps answers -32011, and eth_blockNumber is answered while it runs', async () => {
    const t = await start({ limits: { executionTimeoutMs: 1_000, callGasCap: 10n ** 12n } });
    const body = await answersOthersMeanwhile(t.testnetUrl, STRAIGHT_LOOP, 'eth_call', [{ data: STRAIGHT_LOOP }, 'latest']);
    expect(body.error?.code).toBe(-32011);
    expect(body.error?.message).toMatch(/^Execution has got timeout out\. .*1000 ms.*--execution-timeout/);
  });

  it('eth_call within the default gas cap: 250 jumps are enough to pass a 20 ms limit', async () => {
    // Before: the check ran every 1,024 jumps, so this call used all its 10,000,000 gas untimed.
    const t = await start({ limits: { executionTimeoutMs: 20 } });
    const { body } = await rpc(t.testnetUrl, 'eth_call', [{ data: STRAIGHT_LOOP }, 'latest']);
    expect(body.error?.code).toBe(-32011);
  });

  it('eth_estimateGas of the straight-line loop answers -32011', async () => {
    const t = await start({ limits: { executionTimeoutMs: 20 } });
    const { body } = await rpc(t.testnetUrl, 'eth_estimateGas', [{ data: STRAIGHT_LOOP }]);
    expect(body.error?.code).toBe(-32011);
  });

  it('every tracer of a mined straight-line loop with 256 KiB of memory answers -32011 while others are answered', async () => {
    // 200 ms: well under what any tracer takes for this transaction, however fast tracing gets.
    const t = await start({ limits: { executionTimeoutMs: 200 } });
    // Mining is never timed: the creation runs until its gas is used up.
    const { hash, receipt } = await mine(t.testnetUrl, STRAIGHT_LOOP_256K, 3_000_000);
    expect([receipt.status, receipt.gasUsed]).toEqual(['0x0', '0x2dc6c0']);
    const traces: [string, unknown[]][] = [
      ['debug_traceTransaction', [hash]],
      ['debug_traceTransaction', [hash, { tracer: 'callTracer' }]],
      ['debug_traceTransaction', [hash, { disableMemory: true, disableStack: true, disableStorage: true }]],
      ['debug_traceBlockByNumber', [receipt.blockNumber]],
      ['trace_transaction', [hash]],
      ['trace_block', [receipt.blockNumber]],
    ];
    for (const [method, params] of traces) {
      const body = await answersOthersMeanwhile(t.testnetUrl, STRAIGHT_LOOP_256K, method, params);
      expect(body.error?.code, method).toBe(-32011);
    }
  });

  it('with no limit (--execution-timeout 0) a long call still lets others in', async () => {
    const t = await start({ limits: { executionTimeoutMs: 0, callGasCap: 100_000_000n } });
    const body = await answersOthersMeanwhile(t.testnetUrl, STRAIGHT_LOOP, 'eth_call', [{ data: STRAIGHT_LOOP }, 'latest']);
    // Out of gas: rskj answers an empty result.
    expect(body.result).toBe('0x');
  });
});

describe('one limit per request', () => {
  it('a batch shares one limit: a call after a loop that spent it answers -32011', async () => {
    const t = await start({ limits: { executionTimeoutMs: 300, callGasCap: 10n ** 12n } });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: LOOP }, 'latest'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ data: GAS_LEFT, gas: '0x186a0' }, 'latest'] },
      { jsonrpc: '2.0', id: 3, method: 'eth_estimateGas', params: [{ data: GAS_LEFT }] },
      { jsonrpc: '2.0', id: 4, method: 'eth_blockNumber', params: [] },
    ];
    const { body } = await rpcRaw(t.testnetUrl, JSON.stringify(batch));
    expect(body.map((r: any) => r.error?.code ?? 'ok')).toEqual([-32011, -32011, -32011, 'ok']);
    // The next request has a limit of its own.
    expect(BigInt(await call(t.testnetUrl, 'eth_call', [{ data: GAS_LEFT, gas: '0x186a0' }, 'latest']))).toBeGreaterThan(90_000n);
  });

  it('over WebSocket: a batch message shares one limit, the next message has its own', async () => {
    const t = await start({ limits: { executionTimeoutMs: 300, callGasCap: 10n ** 12n } });
    const socket = new WebSocket(t.testnetUrl.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(data.toString())));
    const exchange = async (message: unknown) => {
      const count = replies.length;
      socket.send(JSON.stringify(message));
      await waitFor('a reply', () => replies.length > count);
      return replies[count] as any;
    };
    const light = { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ data: GAS_LEFT, gas: '0x186a0' }, 'latest'] };
    const batch = await exchange([{ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: LOOP }, 'latest'] }, light]);
    expect(batch.map((r: any) => r.error?.code)).toEqual([-32011, -32011]);
    expect(BigInt((await exchange(light)).result)).toBeGreaterThan(90_000n);
    socket.close();
  });

  it('a batch of traces shares it too', async () => {
    // 20 ms: far less than tracing 2,000,000 gas of the loop takes (traces got fast enough to pass 300 ms).
    const t = await start({ limits: { executionTimeoutMs: 20 } });
    const { hash } = await mine(t.testnetUrl, LOOP, 2_000_000);
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'trace_transaction', params: [hash] },
      { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ data: GAS_LEFT, gas: '0x186a0' }, 'latest'] },
    ];
    const { body } = await rpcRaw(t.testnetUrl, JSON.stringify(batch));
    expect(body.map((r: any) => r.error?.code)).toEqual([-32011, -32011]);
  });
});

/** Signs up, logs in and creates a dashboard key; its key-bearing URL. */
async function dashboardKeyUrl(baseUrl: string): Promise<string> {
  const headers = { 'content-type': 'application/json' };
  const credentials = JSON.stringify({ email: 'tenant@example.com', password: 'hosted-password-1' });
  expect((await fetch(`${baseUrl}/api/signup`, { method: 'POST', headers, body: credentials })).status).toBe(201);
  const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers, body: credentials });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const created = await fetch(`${baseUrl}/api/keys`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ name: 'app', network: 'testnet' }) });
  return ((await created.json()) as { url: string }).url;
}

describe('the operator raises the limit', () => {
  it("--operator-execution-timeout holds for the operator's keys, --execution-timeout for dashboard keys", async () => {
    const t = await start({ hosted: true, limits: { executionTimeoutMs: 20, operatorExecutionTimeoutMs: 0 } });
    const userUrl = await dashboardKeyUrl(t.baseUrl);
    // The operator's key: no limit, the loop runs out of its 10,000,000 gas (rskj: empty result).
    expect(await call(t.testnetUrl, 'eth_call', [{ data: STRAIGHT_LOOP }, 'latest'])).toBe('0x');
    expect(await t.node.provider.request({ method: 'eth_call', params: [{ data: STRAIGHT_LOOP }, 'latest'] })).toBe('0x');
    const { body } = await rpc(userUrl, 'eth_call', [{ data: STRAIGHT_LOOP }, 'latest']);
    expect(body.error?.code).toBe(-32011);
    // The message says how the operator raises the limit.
    expect(body.error?.message).toMatch(/limit of 20 ms: .*--execution-timeout.*--operator-execution-timeout/);
  });
});

describe('trace_filter is bounded by the limit', () => {
  it('from block 0 over a block that cannot be traced in time: -32011 naming where it stopped', async () => {
    const t = await start({ limits: { executionTimeoutMs: 20 } });
    await mine(t.testnetUrl, LOOP, 2_000_000);
    for (let i = 0; i < 3; i++) await call(t.testnetUrl, 'evm_mine');
    const { body } = await rpc(t.testnetUrl, 'trace_filter', [{ fromBlock: '0x0' }]);
    expect(body.error?.code).toBe(-32011);
    expect(body.error?.message).toMatch(/20 ms.*--execution-timeout.*trace_filter stopped at block 1 of 0 to 4: ask for a narrower fromBlock\/toBlock range/);
  });

  it('over many blocks: the whole range shares one limit', async () => {
    const t = await start({ limits: { executionTimeoutMs: 20 } });
    // Each block replays its REMASC transaction: 300 of them take longer than 20 ms.
    for (let i = 0; i < 6; i++) {
      const batch = Array.from({ length: 50 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'evm_mine', params: [] }));
      await rpcRaw(t.testnetUrl, JSON.stringify(batch));
    }
    expect(await call(t.testnetUrl, 'eth_blockNumber')).toBe('0x12c');
    const { body } = await rpc(t.testnetUrl, 'trace_filter', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(body.error?.code).toBe(-32011);
    expect(body.error?.message).toMatch(/trace_filter stopped at block \d+ of 0 to 300/);
  });
});
