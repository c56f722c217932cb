/**
 * A revert's return data in words for the log: Solidity's `Error(string)` and `Panic(uint256)`,
 * the standard custom errors (known-errors.ts) by name, else a custom error's selector and its
 * argument data apart, so it can be looked up (`cast 4byte`, the contract's ABI).
 */
import { bytesToHex } from '@ethereumjs/util';
import { PANIC_MEANINGS, errorString, panicCode } from '../chain/index.js';
import { decodeKnownError } from './known-errors.js';

/** Longest argument data shown raw: a selector and two words, without flooding the terminal. */
const MAX_ARGS_BYTES = 64;
const SELECTOR_BYTES = 4;

export function describeRevert(data: Uint8Array | undefined): string {
  if (data === undefined || data.length === 0) return 'reverted without a reason';
  const reason = errorString(data);
  // JSON quoting escapes control characters: a contract must not drive the terminal.
  if (reason !== undefined) return `reverted: ${JSON.stringify(reason)}`;
  const code = panicCode(data);
  if (code !== undefined) {
    const meaning = PANIC_MEANINGS[code];
    return `reverted: panic 0x${code.toString(16).padStart(2, '0')}${meaning === undefined ? '' : ` (${meaning})`}`;
  }
  const known = decodeKnownError(data);
  if (known !== undefined) return `reverted: ${known}`;
  if (data.length < SELECTOR_BYTES) return `reverted with data ${bytesToHex(data)}`;
  const args = data.subarray(SELECTOR_BYTES);
  const shown = args.length === 0 ? 'no args' : `args ${bytesToHex(args.subarray(0, MAX_ARGS_BYTES))}${args.length > MAX_ARGS_BYTES ? '...' : ''}`;
  return `reverted with error ${bytesToHex(data.subarray(0, SELECTOR_BYTES))} (${shown})`;
}
