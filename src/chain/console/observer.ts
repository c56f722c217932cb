/**
 * console.log calls, seen as the EVM runs: a synchronous 'beforeMessage' listener keeps the call
 * data of every message whose code address is the console address. It is an observer, not a
 * precompile: the call runs as any call to an empty account does, under RSK's gas rules
 * (evm/call-gas.ts), so gasUsed is what rskj charges, and no state or gas changes here. Calls are
 * kept even when their frame later reverts (Hardhat prints those too). Decoding (decode.ts) waits
 * until someone prints or reads them.
 *
 * For an ordinary message the listener compares one byte, as the native-frame listener
 * (native/registry.ts) does.
 */
import type { EVM } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { CONSOLE_ADDRESS_HEX, consoleLine } from './decode.js';

const CONSOLE_ADDRESS = Uint8Array.from(Buffer.from(CONSOLE_ADDRESS_HEX.slice(2), 'hex'));
/** The last byte, 'g': checked first. */
const LAST = CONSOLE_ADDRESS[19]!;

/**
 * Most console calls one execution keeps: a loop that logs cannot grow the node's memory without
 * bound (each call's data is at most its frame's memory). Later calls are counted, not kept.
 */
export const MAX_CONSOLE_CALLS = 10_000;

interface Message {
  to?: Address;
  _codeAddress?: Address;
  data: Uint8Array;
}

/** What one EVM has seen since the last take. */
interface Seen {
  calls: Uint8Array[];
  dropped: number;
}

const seen = new WeakMap<object, Seen>();

/** Whether `b` is the console address (a 20-byte address). */
export function isConsoleAddress(b: Uint8Array): boolean {
  if (b[19] !== LAST) return false;
  for (let i = 0; i < 19; i++) if (b[i] !== CONSOLE_ADDRESS[i]) return false;
  return true;
}

/** Starts recording `evm`'s console calls; once per EVM. */
export function observeConsoleCalls(evm: EVM): void {
  const state: Seen = { calls: [], dropped: 0 };
  seen.set(evm, state);
  evm.events.on('beforeMessage', (message: Message) => {
    // A creation has neither `to` nor a code address (its getter throws then).
    const code = message._codeAddress ?? message.to;
    if (code === undefined || !isConsoleAddress(code.bytes)) return;
    if (state.calls.length < MAX_CONSOLE_CALLS) state.calls.push(message.data.slice());
    else state.dropped++;
  });
}

/** The console calls `evm` made since the last take (in order), and forgets them. */
export function takeConsoleCalls(evm: object): ConsoleCalls {
  const state = seen.get(evm);
  if (state === undefined || (state.calls.length === 0 && state.dropped === 0)) return NO_CALLS;
  const taken = { calls: state.calls, dropped: state.dropped };
  state.calls = [];
  state.dropped = 0;
  return taken;
}

/** Console calls of one execution: their call data, and how many were past MAX_CONSOLE_CALLS. */
export interface ConsoleCalls {
  readonly calls: readonly Uint8Array[];
  readonly dropped: number;
}

export const NO_CALLS: ConsoleCalls = Object.freeze({ calls: Object.freeze([]) as readonly Uint8Array[], dropped: 0 });

/** The printed lines of `calls`: one per call, then a note of the calls past MAX_CONSOLE_CALLS. */
export function consoleLines(calls: ConsoleCalls): string[] {
  const lines = calls.calls.map(consoleLine);
  if (calls.dropped > 0) lines.push(`(${calls.dropped} more console.log calls not kept: one execution keeps ${MAX_CONSOLE_CALLS})`);
  return lines;
}

/**
 * One execution's console.log lines, as the chain emits them ('consoleLog', ChainEvents):
 * a mined transaction's (with its hash), an eth_call's, or a failed eth_estimateGas's.
 */
export interface ConsoleLogEntry {
  kind: 'transaction' | 'call' | 'estimateGas';
  /** The mined transaction's hash (kind 'transaction'). */
  txHash?: Uint8Array;
  lines: string[];
}
