/**
 * The time limit of read-only executions (eth_call, eth_estimateGas, tracing), as rskj's
 * rpc.timeout (ExecTimeoutContext, checked by VM.steps on every opcode). ethereumjs's EVM cannot be
 * interrupted from outside, so JUMP and JUMPI (no loop runs without them) are replaced by their own
 * logic plus a check every DEADLINE_CHECK_JUMPS jumps: past the deadline the execution throws a
 * ChainError('timeout'), which is no EVM error, so the EVM lets it through and the caller answers
 * -32011. The same check yields to the event loop every YIELD_AFTER_MS, so one long call does not
 * stall every other request until it ends.
 *
 * The deadline belongs to the EVM that runs the execution (withDeadline); block building runs
 * without one and is never cut short nor paused. Not AsyncLocalStorage: once used, its promise hooks
 * slowed every EVM loop in the process about 2-3 times (measured). Not `step` events: listening
 * to them slows every opcode.
 */
import type { EVM } from '@ethereumjs/evm';
import { getOpcodesForHF } from '@ethereumjs/evm';
import { ChainError } from '../base/errors.js';
import type { AddOpcode, GasCommon, RunState } from './types.js';

/** Jumps between two clock reads (an empty loop jumps about once a microsecond). */
export const DEADLINE_CHECK_JUMPS = 1024;
/** The longest a timed execution runs before letting other requests in. */
export const YIELD_AFTER_MS = 20;
/** rskj's JsonRpcTimeoutError text; the node's limit and flag follow it. */
export const TIMEOUT_MESSAGE = 'Execution has got timeout out.';

export interface Deadline {
  readonly at: number;
  readonly timeoutMs: number;
  lastYield: number;
}

/** A deadline `timeoutMs` from now; undefined for 0 or less (no limit). */
export function startDeadline(timeoutMs: number): Deadline | undefined {
  if (timeoutMs <= 0) return undefined;
  const now = performance.now();
  return { at: now + timeoutMs, timeoutMs, lastYield: now };
}

const deadlines = new WeakMap<EVM, Deadline>();
/** Jumps since the last check, over all EVMs: the lookup happens once per DEADLINE_CHECK_JUMPS. */
let jumps = 0;

/** Runs `execute` on `evm` under `deadline` (undefined: no limit); the EVM's runs must not overlap. */
export async function withDeadline<T>(evm: EVM, deadline: Deadline | undefined, execute: () => Promise<T>): Promise<T> {
  if (deadline === undefined) return execute();
  deadlines.set(evm, deadline);
  try {
    return await execute();
  } finally {
    deadlines.delete(evm);
  }
}

function timeout(deadline: Deadline): ChainError {
  return new ChainError('timeout', `${TIMEOUT_MESSAGE} The execution ran longer than ${deadline.timeoutMs} ms (--execution-timeout)`);
}

/** Called after each jump: a clock read every DEADLINE_CHECK_JUMPS jumps, rarely a yield. */
function check(runState: RunState): Promise<void> | undefined {
  if (++jumps < DEADLINE_CHECK_JUMPS) return undefined;
  jumps = 0;
  const deadline = deadlines.get(runState.interpreter._evm as EVM);
  if (deadline === undefined) return undefined;
  const now = performance.now();
  if (now > deadline.at) throw timeout(deadline);
  if (now - deadline.lastYield < YIELD_AFTER_MS) return undefined;
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    deadline.lastYield = performance.now();
  });
}

/** JUMP and JUMPI with the EVM's own logic followed by the deadline check, for `customOpcodes`. */
export function deadlineOpcodes(common: GasCommon): AddOpcode[] {
  const { handlers, opcodes } = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]);
  return [0x56, 0x57].map((opcode) => {
    const logic = handlers.get(opcode) as AddOpcode['logicFunction'] | undefined;
    const info = opcodes.get(opcode);
    if (logic === undefined || info === undefined) throw new Error(`deadlineOpcodes: the EVM has no opcode 0x${opcode.toString(16)}`);
    return {
      opcode,
      opcodeName: info.name,
      baseFee: info.fee,
      logicFunction: (runState: RunState, c: GasCommon) => {
        logic(runState, c);
        return check(runState);
      },
    };
  });
}
