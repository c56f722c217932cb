/**
 * The time limit of read-only executions (eth_call, eth_estimateGas, every tracer, trace_filter's
 * block loop), as rskj's rpc.timeout (ExecTimeoutContext, checked by VM.steps on every opcode).
 *
 * One Deadline per JSON-RPC request (a batch is one request: its calls share it, so a batch cannot
 * multiply the limit); its clock starts when the request's first execution starts, so waiting for
 * a busy call runner is not counted. ethereumjs's EVM cannot be interrupted from outside, so the
 * opcode loops count steps (lean-run.ts for plain executions, LeanEVM's stepping wrapper for traced
 * ones) and call `stepCheck` every STEPS_PER_CHECK steps: whatever the code looks like (long
 * straight-line code, few jumps), the clock is read often. Past the deadline the execution throws
 * a ChainError('timeout'), which is no EVM error, so the EVM lets it through and the caller answers
 * -32011. The same check yields to the event loop every YIELD_AFTER_MS, so one long execution does
 * not stall every other request until it ends (also with no limit: --execution-timeout 0).
 *
 * The deadline belongs to the EVM that runs the execution (withDeadline); block building runs
 * without one and is never cut short nor paused. Not AsyncLocalStorage: once used, its promise hooks
 * slowed every EVM loop in the process about 2-3 times (measured). Not `step` events: listening
 * to them slows every opcode.
 */
import type { EVM } from '@ethereumjs/evm';
import { ChainError } from '../base/errors.js';

/**
 * Steps between two looks at the clock: a plain step takes 0.05-1 µs, so about a millisecond
 * at most between checks; a countdown per step is all the hot loop pays (measured: no change in
 * CPU time on a PUSH/POP/JUMP loop).
 */
export const STEPS_PER_CHECK = 1024;
/**
 * What one traced step counts for: a traced step builds a step event and runs the tracer's
 * listener (memory and stack are copied only when the tracer asks, evm/trace-step.ts), far dearer
 * than a plain step, so the clock is read every STEPS_PER_CHECK / 64 = 16 traced steps.
 */
export const TRACED_STEP_WEIGHT = 64;
/** The longest an execution runs before letting other requests in. */
export const YIELD_AFTER_MS = 20;
/** rskj's JsonRpcTimeoutError text; the node's limit and flag follow it. */
export const TIMEOUT_MESSAGE = 'Execution has got timeout out.';
/** How the operator raises the limit, in the timeout message. */
export const RAISE_LIMIT = "the node's operator sets it with --execution-timeout, and for the operator's own keys with --operator-execution-timeout (seconds; 0: no limit)";

/** The time one request's executions may take together; `timeoutMs` 0 or less: no limit. */
export class Deadline {
  private at = Number.POSITIVE_INFINITY;
  private lastYield = 0;
  private started = false;

  constructor(readonly timeoutMs: number) {}

  /** Starts the clock at the request's first execution (later calls keep it). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const now = performance.now();
    if (this.timeoutMs > 0) this.at = now + this.timeoutMs;
    this.lastYield = now;
  }

  /** Throws past the deadline; a promise when it is time to let other requests in. */
  check(): Promise<void> | undefined {
    const now = performance.now();
    if (now > this.at) throw this.error();
    if (now - this.lastYield < YIELD_AFTER_MS) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.lastYield = performance.now();
    });
  }

  /** For loops outside the EVM (trace_filter's blocks): starts the clock, throws past it, yields. */
  async checkpoint(): Promise<void> {
    this.start();
    await this.check();
  }

  /** The timeout error; `advice` follows the limit and the flag that raises it. */
  error(advice?: string): ChainError {
    const text = `${TIMEOUT_MESSAGE} The request's executions ran longer than its limit of ${this.timeoutMs} ms: ${RAISE_LIMIT}`;
    return new ChainError('timeout', advice === undefined ? text : `${text}. ${advice}`);
  }
}

export function isTimeout(error: unknown): error is ChainError {
  return error instanceof ChainError && error.kind === 'timeout';
}

const deadlines = new WeakMap<EVM, Deadline>();
/**
 * Steps left before the next check, over all EVMs: the opcode loops count it down themselves (a
 * field decrement is all the hot loop pays) and call `stepCheck` at zero.
 */
export const stepsToCheck = { left: STEPS_PER_CHECK };

/** Runs `execute` on `evm` under `deadline` (undefined: no limit, no yields); the EVM's runs must not overlap. */
export async function withDeadline<T>(evm: EVM, deadline: Deadline | undefined, execute: () => Promise<T>): Promise<T> {
  if (deadline === undefined) return execute();
  deadline.start();
  // A batch's later calls find the request's time spent (awaited only when due: no extra tick per call).
  const due = deadline.check();
  if (due !== undefined) await due;
  deadlines.set(evm, deadline);
  try {
    return await execute();
  } finally {
    deadlines.delete(evm);
  }
}

/**
 * Called by an opcode loop once `stepsToCheck.left` reaches zero or less: resets the count, reads
 * the clock and rarely yields (a promise the loop awaits).
 */
export function stepCheck(evm: EVM): Promise<void> | undefined {
  stepsToCheck.left = STEPS_PER_CHECK;
  return deadlines.get(evm)?.check();
}
