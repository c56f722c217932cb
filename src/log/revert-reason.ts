/**
 * A revert's return data in words for the log: Solidity's `Error(string)` and `Panic(uint256)`,
 * else the raw data (a custom error's selector first).
 */
import { bytesToHex } from '@ethereumjs/util';
import { PANIC_MEANINGS, errorString, panicCode } from '../chain/index.js';

/** Longest revert data shown raw: enough to recognise a custom error without flooding the terminal. */
const MAX_RAW_BYTES = 68;

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
  const shown = data.subarray(0, MAX_RAW_BYTES);
  return `reverted with data ${bytesToHex(shown)}${data.length > MAX_RAW_BYTES ? '...' : ''}`;
}
