/**
 * Regressions (issue 19): a trace showed bytes the transaction overwrote after the fact. A nested
 * CALL's input and a CREATE's init code are views into the caller's memory (the EVM hands them
 * out without a copy), so callTracer showed `set(5)`'s call data as whatever the caller wrote there
 * later. Each test makes the caller overwrite the bytes right after using them. Contracts are
 * hand-assembled; ethers deploys them and asks for the traces.
 */
import { describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet } from 'ethers';
import { ethersNodeForTests } from '../helpers/ethers.js';

const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
const byteHex = (n: number) => n.toString(16).padStart(2, '0');
/** Init code that copies `runtime` (after these 11 bytes) into memory and returns it. */
const initCode = (runtime: string) => `0x60${byteHex(runtime.length / 2)}80600b6000396000f3${runtime}`;

const SET_SELECTOR = '60fe47b1';
/** set(uint256 x): stores x at slot 0, logs it (LOG0 of the word), returns true. */
const TARGET_RUNTIME = '600435806000556000526020 6000a0 6001600052602060 00f3'.replace(/ /g, '');
/**
 * Relay: writes set(5)'s call data at memory 0, CALLs the target with its answer written over
 * that call data (out = 0..32), then returns memory 0..32 (the target's `true`).
 */
const relayRuntime = (target: string) =>
  `7f${SET_SELECTOR.padEnd(64, '0')}600052` + // MSTORE selector at 0
  '6005600452' + // MSTORE 5 at 4: call data is memory 0..36
  `6020600060246000600073${target.slice(2)}5af150` + // CALL(gas, target, 0, 0, 36, 0, 32), POP
  '60206000f3';
/**
 * Factory: copies `child` init code to memory 0, CREATEs from it, then MSTOREs 0xff..ff over it
 * and stops. The init code follows these 52 code bytes.
 */
const factoryRuntime = (child: string) => {
  const len = byteHex(child.length / 2);
  return `60${len}6034600039` + `60${len}60006000f050` + `7f${'ff'.repeat(32)}600052` + '00' + child;
};

let provider: JsonRpcProvider;
let wallet: Wallet;

async function send(tx: { to?: string; data?: string }) {
  const response = await wallet.sendTransaction({ type: 0, gasLimit: 500_000, ...tx });
  const receipt = (await provider.getTransactionReceipt(response.hash))!;
  expect(receipt.status).toBe(1);
  return receipt;
}

async function deploy(runtime: string): Promise<string> {
  return (await send({ data: initCode(runtime) })).contractAddress!.toLowerCase();
}

ethersNodeForTests((node) => ({ provider, wallet } = node));

describe('traces copy what they keep', () => {
  it('callTracer shows a nested CALL\'s input as sent, though the caller wrote the answer over it', async () => {
    const target = await deploy(TARGET_RUNTIME);
    const relay = await deploy(relayRuntime(target));
    const { hash } = await send({ to: relay });
    const callData = `0x${SET_SELECTOR}${word(5)}`;
    const top = await provider.send('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(top.output).toBe(`0x${word(1)}`);
    expect(top.calls).toHaveLength(1);
    expect(top.calls[0]).toMatchObject({ type: 'CALL', from: relay, to: target, input: callData, output: `0x${word(1)}` });
    expect(top.calls[0].logs).toEqual([{ index: 0, address: target, topics: [], data: `0x${word(5)}`, position: '0x0' }]);
    expect(await provider.getStorage(target, 0)).toBe(`0x${word(5)}`);
  });

  it('callTracer and trace_transaction show a CREATE\'s init code as run, though the creator overwrote it', async () => {
    const child = initCode(TARGET_RUNTIME).slice(2);
    const factory = await deploy(factoryRuntime(child));
    const { hash } = await send({ to: factory });
    const top = await provider.send('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(top.calls).toHaveLength(1);
    expect(top.calls[0]).toMatchObject({ type: 'CREATE', from: factory, input: `0x${child}`, output: `0x${TARGET_RUNTIME}` });
    const traces = await provider.send('trace_transaction', [hash]);
    expect(traces[1].action.init).toBe(`0x${child}`);
    expect(traces[1].result.code).toBe(`0x${TARGET_RUNTIME}`);
  });

  it('struct logs show each step\'s memory as it was then', async () => {
    const target = await deploy(TARGET_RUNTIME);
    const relay = await deploy(relayRuntime(target));
    const { hash } = await send({ to: relay });
    const trace = await provider.send('debug_traceTransaction', [hash, { disableStack: true, disableStorage: true }]);
    const call = trace.structLogs.find((log: { op: string }) => log.op === 'CALL');
    expect(call.memory).toEqual([`${SET_SELECTOR}${'0'.repeat(56)}`, `00000005${'0'.repeat(56)}`]);
    const last = trace.structLogs[trace.structLogs.length - 1];
    expect(last.op).toBe('RETURN');
    expect(last.memory).toEqual([word(1), `00000005${'0'.repeat(56)}`]);
  });
});
