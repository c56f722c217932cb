/**
 * A revert's return data in words for the log: Solidity's `Error(string)` and `Panic(uint256)`,
 * the standard custom errors (known-errors.ts) by name, else a custom error's selector and its
 * argument data apart, so it can be looked up (`cast 4byte`, the contract's ABI).
 */
import { bytesToHex } from '@ethereumjs/util';
import { errorString, panicCode } from '../chain/index.js';
import { decodeKnownError } from './known-errors.js';

/** Longest argument data shown raw: a selector and two words, without flooding the terminal. */
const MAX_ARGS_BYTES = 64;
const SELECTOR_BYTES = 4;

/** Solidity's panic codes (docs: "Panic via assert and Error via require"). */
const PANIC_CODES: Record<number, string> = {
  0x00: 'generic compiler panic',
  0x01: 'assert failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'badly encoded storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated',
  0x51: 'call to a zero-initialized function',
};

export function describeRevert(data: Uint8Array | undefined): string {
  if (data === undefined || data.length === 0) return 'reverted without a reason';
  const reason = errorString(data);
  // JSON quoting escapes control characters: a contract must not drive the terminal.
  if (reason !== undefined) return `reverted: ${JSON.stringify(reason)}`;
  const code = panicCode(data);
  if (code !== undefined) {
    const meaning = PANIC_CODES[code];
    return `reverted: panic 0x${code.toString(16).padStart(2, '0')}${meaning === undefined ? '' : ` (${meaning})`}`;
  }
  const known = decodeKnownError(data);
  if (known !== undefined) return `reverted: ${known}`;
  if (data.length < SELECTOR_BYTES) return `reverted with data ${bytesToHex(data)}`;
  const args = data.subarray(SELECTOR_BYTES);
  const shown = args.length === 0 ? 'no args' : `args ${bytesToHex(args.subarray(0, MAX_ARGS_BYTES))}${args.length > MAX_ARGS_BYTES ? '...' : ''}`;
  return `reverted with error ${bytesToHex(data.subarray(0, SELECTOR_BYTES))} (${shown})`;
}
