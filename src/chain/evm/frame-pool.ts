/**
 * Interpreters reused from frame to frame, one per call depth, for the frames the lean loop runs
 * (evm/lean-run.ts). @ethereumjs/evm builds an Interpreter per frame, whose constructor allocates
 * an 8 KB zeroed `Memory` store, a Stack and the run state: profiled on eth_call (ERC20
 * balanceOf) that was about a tenth of a call, and the 8 KB stores (outside V8's heap) kept its
 * collectors busy. Here a frame at depth d takes depth d's interpreter and gets a fresh run state,
 * result and environment on it (the constructor's, field for field), an empty stack and memory.
 *
 * A memory store is reused only when no frame took a view of it: CALL input and CREATE init code
 * are `memory.read(…, avoidCopy)` views, which may outlive the frame (a child message's data that
 * a `beforeMessage` listener keeps). The pooled memory notes such a read and its store is replaced
 * then; MLOAD and MCOPY (evm/mstore.ts, evm/opcodes.ts) read the store directly, their views never
 * leave the opcode. LOG data, return and revert data are copies (`read` without avoidCopy).
 */
import type { EVM, ExecResult } from '@ethereumjs/evm';

type RunState = NonNullable<ExecResult['runState']>;
type Interpreter = RunState['interpreter'];
type Env = Interpreter['_env'];
type Memory = RunState['memory'];

/** @ethereumjs/evm's `Memory` CONTAINER_SIZE: a frame's memory starts this size (and grows by it). */
export const MEMORY_CONTAINER_BYTES = 8192;

const EMPTY = new Uint8Array(0);

/** The fields of Interpreter this file sets (protected or private in its declaration). */
interface InterpreterFields {
  _runState: RunState;
  _env: Env;
  _result: Interpreter['_result'];
  _stateManager: EVM['stateManager'];
  journal: EVM['journal'];
}

interface Slot {
  interpreter: Interpreter;
  memory: Memory;
  /** A frame running on it now (frames of one EVM nest, but two executions could interleave). */
  busy: boolean;
  /** A view of the memory store was handed out during the frame. */
  viewed: boolean;
}

export class FramePool {
  private readonly slots: (Slot | undefined)[] = [];

  /**
   * The interpreter of a frame at `depth` running `env` with `gasLeft`, set up as a new one would
   * be; `create` makes one when the depth has none (its set-up, done once, is the caller's), and
   * when depth's is busy the frame gets an unpooled one (`pooled` false). `release` after the frame.
   */
  take(evm: EVM, depth: number, env: Env, gasLeft: bigint, create: () => Interpreter): { interpreter: Interpreter; pooled: boolean } {
    let slot = this.slots[depth];
    if (slot?.busy === true) return { interpreter: create(), pooled: false };
    if (slot === undefined) {
      const interpreter = create();
      slot = { interpreter, memory: (interpreter as unknown as InterpreterFields)._runState.memory, busy: false, viewed: false };
      watchViews(slot);
      this.slots[depth] = slot;
    }
    slot.busy = true;
    reset(slot, evm, env, gasLeft);
    return { interpreter: slot.interpreter, pooled: true };
  }

  /** Ends depth's frame: its memory is cleared for the next (or replaced, if a view of it may live on). */
  release(depth: number): void {
    const slot = this.slots[depth]!;
    const memory = slot.memory;
    if (slot.viewed || memory._store.length !== MEMORY_CONTAINER_BYTES) memory._store = new Uint8Array(MEMORY_CONTAINER_BYTES);
    else memory._store.fill(0);
    slot.viewed = false;
    slot.busy = false;
  }
}

function watchViews(slot: Slot): void {
  const memory = slot.memory;
  const read = memory.read;
  memory.read = (offset: number, size: number, avoidCopy?: boolean) => {
    if (avoidCopy === true) slot.viewed = true;
    return read.call(memory, offset, size, avoidCopy);
  };
}

/** What the Interpreter constructor sets up per frame (interpreter.ts of @ethereumjs/evm 10.1). */
function reset(slot: Slot, evm: EVM, env: Env, gasLeft: bigint): void {
  const interpreter = slot.interpreter as unknown as InterpreterFields;
  const stack = interpreter._runState.stack as unknown as { _len: number };
  stack._len = 0;
  interpreter._runState = {
    programCounter: 0,
    opCode: 0xfe,
    memory: slot.memory,
    memoryWordCount: 0n,
    highestMemCost: 0n,
    stack: interpreter._runState.stack,
    code: EMPTY,
    validJumps: new Uint8Array(0),
    cachedPushes: {},
    stateManager: evm.stateManager,
    blockchain: evm.blockchain,
    env,
    shouldDoJumpAnalysis: true,
    interpreter: slot.interpreter,
    gasRefund: env.gasRefund,
    gasLeft,
    stateGasSpilled: 0n,
    returnBytes: EMPTY,
  } as unknown as RunState;
  interpreter._stateManager = evm.stateManager;
  interpreter.journal = evm.journal;
  interpreter._env = env;
  interpreter._result = { logs: env.initialLogs ? [...env.initialLogs] : [], returnValue: undefined, selfdestruct: new Map() };
}
