/**
 * The opcode loop of one frame without the per-opcode awaits of @ethereumjs/evm's
 * `Interpreter.run`, which awaits an async `runStep` for every opcode: a promise, a suspended frame
 * and a trip through the microtask queue each, even for PUSH or ADD. Here an opcode is awaited
 * only when its gas or logic function is async (SLOAD, CALL, the custom opcodes, ...).
 *
 * The same steps as `run` and `runStep` of @ethereumjs/evm 10.1 (interpreter.ts) for legacy code
 * under our rules, in the same order (an opcode's gas or logic function is awaited only when it
 * returns a promise): jump analysis at the first JUMP/JUMPI, base then dynamic gas,
 * invalid opcode, gas use, program counter, logic, then the time-limit check (evm/deadline.ts, not
 * in the stock loop); an EVM error ends the frame (STOP is none). RETURN
 * ends it without one: the stock `finish` stores the return data and then throws STOP, and an
 * exception per call was a measurable share of an eth_call; here `finish` stores it and raises a
 * flag the loop checks (RETURN's logic calls `finish` last, which the unit test checks). Only
 * for frames nothing observes: `leanRunAllowed` sends frames with `step` listeners (tracing), the
 * EVM's DEBUG mode or its profiler to the stock loop, which emits the step events. A Common that
 * activates what this loop leaves out (EOF, Verkle/binary-tree code chunks, EIP-7928, EIP-8037) uses
 * the stock loop too; test/unit/lean-evm.test.ts checks the stock source against these copies.
 *
 * Static gas is counted in a number, not in `runState.gasLeft`: `gasLeft -= fee` made a new BigInt
 * per opcode, the largest allocation of a call's loop (profiled on eth_call, ERC20 balanceOf). While
 * the count is deferred, `runState.gasLeft` is stale; it is written back before anything can read
 * it: an opcode with a dynamic gas function (they read and charge gas: CALL, CREATE, SLOAD, memory
 * growth, ...), one whose logic reads gas (READS_GAS), the end of the frame and any exception. An
 * opcode that would run out of gas writes it back and fails in `useGas` as the stock loop does.
 * Frames with more gas than a double holds exactly keep the BigInt count.
 *
 * PUSH1..PUSH32 after the jump analysis push the analysis' value in the loop itself: the stock
 * handler does only that on this path, after asking the Common twice whether EIP-6800 or 7864 (left
 * out here) is active, a search of its EIP list per PUSH, about 2% of an eth_call's CPU (profiled on
 * ERC20 balanceOf). Only while the opcode's handler is the stock PUSH (a custom opcode keeps its own).
 */
import type { EVM, ExecResult } from '@ethereumjs/evm';
import { EVMError, getOpcodesForHF } from '@ethereumjs/evm';
import { stepCheck, stepsToCheck } from './deadline.js';

type RunState = NonNullable<ExecResult['runState']>;
type Interpreter = RunState['interpreter'];
type InterpreterOpts = NonNullable<Parameters<Interpreter['run']>[1]>;
type InterpreterResult = Awaited<ReturnType<Interpreter['run']>>;
type OpcodeEntry = ReturnType<Interpreter['lookupOpInfo']>;

/** EIPs whose steps this loop does not have: EOF (3540), code chunks (6800, 7864), 7928, 8037. */
const UNSUPPORTED_EIPS = [3540, 6800, 7864, 7928, 8037];
const JUMP = 0x56;
const JUMPI = 0x57;
const JUMPSUB = 0x5e;
/** PUSH1: PUSHn is PUSH1 + n - 1, and pushes n bytes. */
const PUSH1 = 0x60;
/**
 * Opcodes without a dynamic gas function whose logic reads or charges gas (`getGasLeft`, `useGas`,
 * `addStipend`): only GAS under the rules this loop runs (BLOCKHASH and PUSH charge gas only with
 * EIP-6800, left out above). test/unit/lean-evm.test.ts checks the stock handlers against this.
 */
export const READS_GAS = new Set([0x5a]);
/** The most gas a frame may have for its count to be kept in a double (exact up to 2^53). */
const NUMBER_GAS_LIMIT = BigInt(Number.MAX_SAFE_INTEGER);

const supportedCommons = new WeakMap<object, boolean>();

/** The stock PUSH1..PUSH32 handler (one function for all 32), taken from the first EVM run here. */
let stockPush: OpcodeEntry['opHandler'] | undefined;

/** Whether `evm`'s frames may run in `leanRun` now (see the file comment). */
export function leanRunAllowed(evm: EVM, profiling: boolean): boolean {
  if (profiling || evm.DEBUG || evm.events.listenerCount('step') > 0) return false;
  let supported = supportedCommons.get(evm.common);
  if (supported === undefined) {
    supported = UNSUPPORTED_EIPS.every((eip) => !evm.common.isActivatedEIP(eip));
    supportedCommons.set(evm.common, supported);
  }
  return supported;
}

function isEvmError(error: unknown): error is EVMError {
  return typeof error === 'object' && error !== null && (error as { errorType?: unknown }).errorType === 'EVMError';
}

export async function leanRun(evm: EVM, interpreter: Interpreter, code: Uint8Array, opts: InterpreterOpts): Promise<InterpreterResult> {
  const runState = (interpreter as unknown as { _runState: RunState })._runState;
  const common = evm.common;
  runState.code = code;
  runState.programCounter = opts.pc ?? runState.programCounter;
  const start = runState.programCounter;
  if (start !== 0 && (start < 0 || start >= code.length)) throw new Error('Internal error: program counter not in range');

  let analysed: OpcodeEntry[] | undefined;
  let exceptionError: EVMError | undefined;
  let finished = false;
  interpreter.finish = (returnData: Uint8Array) => {
    interpreter._result.returnValue = returnData;
    finished = true;
  };
  // The shared step countdown of evm/deadline.ts, in a local between awaits (cheaper per step).
  let left = stepsToCheck.left;
  // The deferred static gas count (file comment): `gasLeft` is runState.gasLeft's value while `deferred`.
  let gasLeft = 0;
  let deferred = false;
  stockPush ??= getOpcodesForHF(common).handlers.get(PUSH1) as OpcodeEntry['opHandler'];
  while (runState.programCounter < code.length) {
    const pc = runState.programCounter;
    let entry: OpcodeEntry;
    if (analysed === undefined) {
      const opcode = code[pc]!;
      // As the stock loop: analyse jump destinations once the code reaches a jump.
      if (opcode === JUMP || opcode === JUMPI || opcode === JUMPSUB) {
        const { jumps, pushes, opcodesCached } = interpreter._getValidJumpDestinations(code);
        runState.validJumps = jumps;
        runState.cachedPushes = pushes;
        runState.shouldDoJumpAnalysis = false;
        analysed = opcodesCached as OpcodeEntry[];
      }
      runState.opCode = opcode;
      entry = interpreter.lookupOpInfo(opcode);
    } else {
      entry = analysed[pc]!;
      runState.opCode = entry.opcodeInfo.code;
    }
    try {
      const info = entry.opcodeInfo;
      let counted = false;
      if (!info.dynamicGas && !info.isInvalid && !READS_GAS.has(info.code)) {
        if (!deferred && runState.gasLeft <= NUMBER_GAS_LIMIT) {
          gasLeft = Number(runState.gasLeft);
          deferred = true;
        }
        if (deferred && info.fee <= gasLeft) {
          gasLeft -= info.fee;
          counted = true;
        }
      }
      if (!counted) {
        if (deferred) {
          runState.gasLeft = BigInt(gasLeft);
          deferred = false;
        }
        let gas = info.feeBigInt;
        if (info.dynamicGas) {
          const dynamic = entry.gasHandler!(runState, gas, common);
          if (typeof dynamic === 'bigint') gas = dynamic;
          else {
            stepsToCheck.left = left;
            gas = await dynamic;
            left = stepsToCheck.left;
          }
        }
        if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
        interpreter.useGas(gas, info);
      }
      runState.programCounter++;
      if (entry.opHandler === stockPush && !runState.shouldDoJumpAnalysis) {
        // The stock PUSH after the analysis (file comment): the value pushed, the bytes skipped.
        runState.stack.push(runState.cachedPushes[runState.programCounter]!);
        runState.programCounter += runState.opCode - PUSH1 + 1;
      } else {
        // Awaited only when it returned a promise: custom opcodes count as async but mostly return at once.
        const done = entry.opHandler(runState, common) as Promise<void> | undefined;
        if (done !== undefined) {
          // Inner frames (CALL, CREATE) count on from here.
          stepsToCheck.left = left;
          await done;
          left = stepsToCheck.left;
        }
      }
      // The time limit and the yields to other requests (evm/deadline.ts): mostly a countdown.
      if (--left <= 0) {
        const due = stepCheck(evm);
        left = stepsToCheck.left;
        if (due !== undefined) await due;
      }
      if (finished) {
        // What the stock loop does when finish throws STOP.
        runState.env.accessWitness?.revert();
        break;
      }
      runState.env.accessWitness?.commit();
    } catch (error) {
      if (deferred) {
        runState.gasLeft = BigInt(gasLeft);
        deferred = false;
      }
      runState.env.accessWitness?.revert();
      if (!isEvmError(error)) throw error;
      if (error.error !== EVMError.errorMessages.STOP) exceptionError = error;
      break;
    }
  }
  stepsToCheck.left = left;
  if (deferred) runState.gasLeft = BigInt(gasLeft);
  return { runState, exceptionError };
}
