/**
 * Regression (issue 19): while a tracer listened, every step copied the whole memory and stack
 * (@ethereumjs/evm's step hook), whatever the tracer captured: a debug_traceTransaction with all
 * capture off over 8 KiB of memory took 59 s and 500 MB. LeanEVM's step hook (evm/trace-step.ts)
 * reads them only on demand; these tests count the copies a traced run makes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NobleBN254 } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { LeanEVM } from '../../src/chain/evm/lean-evm.js';
import type { TraceStep } from '../../src/chain/evm/trace-step.js';
import { type StructLogOptions, TxRecorder } from '../../src/chain/tracing/recorder.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const TARGET = createAddressFromString('0x00000000000000000000000000000000000000aa');
/** MSTORE 0x2a at 0xffe0 (64 KiB of memory), then a loop of 200 rounds, then STOP. */
const BIG_MEMORY_LOOP = '0x602a61ffe05260c85b600190038060085700';
const MEMORY_BYTES = 64 * 1024;
const LOOP_ROUNDS = 200;

async function evmWithCode(): Promise<LeanEVM> {
  const common = createRskCommon(33, 'unit');
  const stateManager = new MerkleStateManager({ common });
  const evm = new LeanEVM({ common, stateManager, bn254: new NobleBN254() });
  await stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
  await stateManager.putAccount(TARGET, new Account(1n, 0n));
  await stateManager.putCode(TARGET, hexToBytes(BIG_MEMORY_LOOP));
  return evm;
}

const run = (evm: LeanEVM) => evm.runCall({ caller: CALLER, origin: CALLER, to: TARGET, gasLimit: 1_000_000n, skipBalance: true });

/** Counts the Uint8Array copies of at least `bytes` made while `body` runs. */
async function countCopies(bytes: number, body: () => Promise<void>): Promise<number> {
  const slice = Uint8Array.prototype.slice;
  let copies = 0;
  Uint8Array.prototype.slice = function (this: Uint8Array, ...args: [number?, number?]) {
    const out = slice.apply(this, args);
    if (out.length >= bytes) copies++;
    return out as never;
  };
  try {
    await body();
  } finally {
    Uint8Array.prototype.slice = slice;
  }
  return copies;
}

async function traced(options: StructLogOptions | undefined) {
  const evm = await evmWithCode();
  // The Stack class is not exported: its prototype comes from an untraced run.
  const stackProto = Object.getPrototypeOf((await run(evm)).execResult.runState!.stack);
  const getStack = vi.spyOn(stackProto, 'getStack');
  const recorder = new TxRecorder(evm, options);
  recorder.attach();
  let result;
  const copies = await countCopies(MEMORY_BYTES, async () => {
    result = await run(evm);
  });
  recorder.detach();
  return { recorder, copies, stackCopies: getStack.mock.calls.length, result: result! };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tracing copies only what the tracer captures', () => {
  it('struct logs with memory, stack and storage off copy neither memory nor stack per step', async () => {
    const { recorder, copies, stackCopies, result } = await traced({ memory: false, stack: false, storage: false });
    expect(result.execResult.exceptionError).toBeUndefined();
    expect(recorder.structLogs!.length).toBeGreaterThan(LOOP_ROUNDS * 7);
    expect(recorder.structLogs![0]).toEqual({ op: 'PUSH1', depth: 0, pc: 0, gas: 1_000_000, gasCost: 3 });
    expect(copies).toBe(0);
    expect(stackCopies).toBe(0);
  });

  it('the call tree alone (callTracer, trace_*) copies neither memory nor stack per step', async () => {
    const { recorder, copies, stackCopies } = await traced(undefined);
    expect(recorder.root!.steps).toBeGreaterThan(LOOP_ROUNDS * 7);
    expect(copies).toBe(0);
    expect(stackCopies).toBe(0);
  });

  it('struct logs with memory copy it only when it changed, and show it as it was before each opcode', async () => {
    const { recorder, copies } = await traced({ memory: true, stack: true, storage: false });
    const logs = recorder.structLogs!;
    expect(logs[2]!.op).toBe('MSTORE');
    expect(logs[2]!.memory).toEqual([]);
    const after = logs[3]!.memory!;
    expect(after).toHaveLength(MEMORY_BYTES / 32);
    expect(after[after.length - 1]).toBe('2a'.padStart(64, '0'));
    // Every later step shares the words made once.
    expect(logs[logs.length - 1]!.memory).toBe(after);
    expect(copies).toBe(1);
    expect(logs[4]!.stack).toEqual(['c8'.padStart(64, '0')]);
  });

  it('without per-step storage the storage view is kept in place, and its size follows writes and clears', async () => {
    // SSTORE 1 at slot 0, 2 at slot 1, 0 at slot 0, STOP.
    const code = hexToBytes('0x60016000556002600155600060005500');
    for (const storage of [false, true]) {
      const evm = await evmWithCode();
      await evm.stateManager.putCode(TARGET, code);
      const recorder = new TxRecorder(evm, { memory: false, stack: false, storage });
      recorder.attach();
      await run(evm);
      recorder.detach();
      const word = (n: number) => n.toString(16).padStart(64, '0');
      expect(recorder.topStorage!.current).toEqual({ [word(1)]: word(2) });
      expect(recorder.topStorage!.size).toBe(1);
      expect(recorder.structLogs!.map((log) => log.storage === undefined)).toEqual(new Array(10).fill(!storage));
    }
  });

  it('a step reads single stack items and memory ranges without copying the rest', async () => {
    const evm = await evmWithCode();
    const seen: Array<{ op: string; top: bigint | undefined; length: number; tail: Uint8Array }> = [];
    evm.events.on('step', (step) => {
      const s = step as TraceStep;
      if (s.opcode.name === 'JUMPI' && seen.length === 0) seen.push({ op: s.opcode.name, top: s.stackItem(0), length: s.stackLength, tail: s.readMemory(MEMORY_BYTES - 2, 4) });
    });
    await run(evm);
    expect(seen).toEqual([{ op: 'JUMPI', top: 8n, length: 3, tail: Uint8Array.from([0, 0x2a, 0, 0]) }]);
  });
});
