/**
 * The `step` event without the copies. @ethereumjs/evm's own hook (`Interpreter._runStepHook`)
 * builds every step's payload with a copy of the whole memory (`memory._store.slice`) and of the
 * whole stack (`stack.getStack()`), and reads a REVERT's data out of memory, whether or not a
 * listener wants them: with 8 KiB of memory, a debug_traceTransaction with all capture off took
 * 59 s and 500 MB. LeanEVM installs this hook instead on every frame that has `step` listeners;
 * its payload reads memory, stack, REVERT data and immediates only when a listener asks, and offers
 * cheap reads (one stack item, a memory range, a view of memory) for listeners that need only those.
 *
 * What a listener reads describes the step only while the event runs: the getters read the live
 * frame, which the opcode changes right after. A listener that keeps something copies it (the
 * getters `memory`, `stack`, `error`, `immediate` and `readMemory` return copies).
 *
 * With steps observed, the EVM's DEBUG opcode log (DEBUG=ethjs) is not written: it belongs to the
 * stock hook, which this one replaces.
 */
import type { ExecResult, InterpreterStep } from '@ethereumjs/evm';

type RunState = NonNullable<ExecResult['runState']>;
type Interpreter = RunState['interpreter'];
type OpcodeInfo = ReturnType<Interpreter['lookupOpInfo']>['opcodeInfo'];

const WORD_BYTES = 32;
const OP_REVERT = 0xfd;
const OP_PUSH1 = 0x60;
const OP_PUSH32 = 0x7f;

/** A step as LeanEVM emits it: the stock fields, some read on demand, and cheap partial reads. */
export interface TraceStep extends InterpreterStep {
  readonly stackLength: number;
  /** The stack item `fromTop` places below the top (0: the top); undefined past the bottom. */
  stackItem(fromTop: number): bigint | undefined;
  /** A copy of memory [offset, offset + size) as it is before the opcode, zero past its end. */
  readMemory(offset: number, size: number): Uint8Array;
  /** The memory before the opcode, without a copy: valid only during the event. */
  memoryView(): Uint8Array;
}

class LazyStep implements TraceStep {
  readonly pc: number;
  readonly gasRefund: bigint;
  readonly depth: number;
  readonly address: InterpreterStep['address'];
  readonly account: InterpreterStep['account'];
  readonly codeAddress: InterpreterStep['codeAddress'];
  readonly stateManager: InterpreterStep['stateManager'];
  readonly opcode: InterpreterStep['opcode'];

  constructor(
    private readonly runState: RunState,
    info: OpcodeInfo,
    dynamicFee: bigint,
    readonly gasLeft: bigint,
    readonly memoryWordCount: bigint,
  ) {
    const env = runState.env;
    this.pc = runState.programCounter;
    this.gasRefund = runState.gasRefund;
    this.depth = env.depth;
    this.address = env.address;
    this.account = env.contract;
    this.codeAddress = env.codeAddress;
    this.stateManager = runState.stateManager;
    this.opcode = { name: info.fullName, fee: info.fee, dynamicFee, isAsync: info.isAsync, code: info.code };
  }

  get stackLength(): number {
    return this.runState.stack.length;
  }

  stackItem(fromTop: number): bigint | undefined {
    const stack = this.runState.stack as unknown as { _store: bigint[]; _len: number };
    const at = stack._len - 1 - fromTop;
    return at >= 0 ? stack._store[at] : undefined;
  }

  get stack(): bigint[] {
    return this.runState.stack.getStack();
  }

  memoryView(): Uint8Array {
    return this.runState.memory._store.subarray(0, Number(this.memoryWordCount) * WORD_BYTES);
  }

  get memory(): Uint8Array {
    return this.memoryView().slice();
  }

  readMemory(offset: number, size: number): Uint8Array {
    const memory = this.memoryView();
    const out = new Uint8Array(size);
    if (offset < memory.length) out.set(memory.subarray(offset, Math.min(memory.length, offset + size)));
    return out;
  }

  /** REVERT's data, as the stock hook gives it (without growing memory, which it did). */
  get error(): Uint8Array | undefined {
    if (this.opcode.code !== OP_REVERT) return undefined;
    const offset = this.stackItem(0) ?? 0n;
    const size = this.stackItem(1) ?? 0n;
    return size === 0n ? new Uint8Array(0) : this.readMemory(Number(offset), Number(size));
  }

  /** A PUSH's argument bytes (the only opcodes with immediates without EOF). */
  get immediate(): Uint8Array | undefined {
    const code = this.opcode.code;
    if (code < OP_PUSH1 || code > OP_PUSH32) return undefined;
    return this.runState.code.slice(this.pc + 1, this.pc + 2 + code - OP_PUSH1);
  }
}

/**
 * Interpreter._runStepHook's replacement (same signature; `this` is the interpreter): emits a
 * LazyStep. The stock hook's arguments: the opcode's gas, the gas left before it, and the memory
 * size in words before the opcode's expansion.
 */
export async function lazyStepHook(this: Interpreter, dynamicFee: bigint, gasLeft: bigint, memoryWordCount: bigint): Promise<void> {
  const runState = (this as unknown as { _runState: RunState })._runState;
  const info = this.lookupOpInfo(runState.opCode).opcodeInfo;
  const emit = (this._evm as unknown as { _emit(topic: string, data: unknown): Promise<void> })._emit;
  await emit('step', new LazyStep(runState, info, dynamicFee, gasLeft, memoryWordCount));
}
