/**
 * Solidity's standard revert payloads, `Error(string)` and `Panic(uint256)`, read with the native
 * contracts' word reader (native/abi.ts), and the one table of panic codes. Callers word them their
 * own way: the JSON-RPC error (rskj's "revert <reason>"), the log line (src/log/revert-reason.ts),
 * geth's callTracer `revertReason` (tracing/call-tracer.ts).
 */
import { bytesToHex, bytesToUtf8 } from '@ethereumjs/util';
import { readWord } from '../native/abi.js';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';
const WORD = 32;

/**
 * Solidity's panic codes (docs: "Panic via assert and Error via require") in two wordings, on
 * purpose: `geth` is geth's abi.UnpackRevert text, which callTracer's `revertReason` must match;
 * `log` is the node log's plainer text.
 */
const PANIC_CODES: Record<number, { geth: string; log: string }> = {
  0x00: { geth: 'generic panic', log: 'generic compiler panic' },
  0x01: { geth: 'assert(false)', log: 'assert failed' },
  0x11: { geth: 'arithmetic underflow or overflow', log: 'arithmetic overflow or underflow' },
  0x12: { geth: 'division or modulo by zero', log: 'division or modulo by zero' },
  0x21: { geth: 'enum overflow', log: 'invalid enum value' },
  0x22: { geth: 'invalid encoded storage byte array accessed', log: 'badly encoded storage byte array' },
  0x31: { geth: 'out-of-bounds array access; popping on an empty array', log: 'pop on an empty array' },
  0x32: { geth: 'out-of-bounds access of an array or bytesN', log: 'array index out of bounds' },
  0x41: { geth: 'out of memory', log: 'too much memory allocated' },
  0x51: { geth: 'uninitialized function', log: 'call to a zero-initialized function' },
};

function wording(kind: 'geth' | 'log'): Record<number, string> {
  return Object.fromEntries(Object.entries(PANIC_CODES).map(([code, text]) => [code, text[kind]]));
}

/** geth's abi.UnpackRevert wording of Panic(uint256) codes. */
export const PANIC_REASONS: Readonly<Record<number, string>> = wording('geth');
/** The node log's wording of Panic(uint256) codes. */
export const PANIC_MEANINGS: Readonly<Record<number, string>> = wording('log');

/** The reason of an `Error(string)` payload; undefined for any other or a malformed one. */
export function errorString(data: Uint8Array): string | undefined {
  if (data.length < 4 + 2 * WORD || bytesToHex(data.subarray(0, 4)) !== ERROR_SELECTOR) return undefined;
  const args = data.subarray(4);
  const offset = wordAt(args, 0);
  if (offset === undefined || offset + WORD > args.length) return undefined;
  const length = wordAt(args, offset);
  const start = offset + WORD;
  if (length === undefined || start + length > args.length) return undefined;
  return bytesToUtf8(args.subarray(start, start + length));
}

/** The code of a `Panic(uint256)` payload; undefined for any other. */
export function panicCode(data: Uint8Array): number | undefined {
  if (data.length !== 4 + WORD || bytesToHex(data.subarray(0, 4)) !== PANIC_SELECTOR) return undefined;
  return wordAt(data.subarray(4), 0) ?? Number.MAX_SAFE_INTEGER;
}

/** A word (inside `bytes`: callers check) as a number when it fits a safe integer. */
function wordAt(bytes: Uint8Array, offset: number): number | undefined {
  const value = readWord(bytes, offset);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}
