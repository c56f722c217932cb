/**
 * A revert's return data in words for the log: Solidity's `Error(string)` and `Panic(uint256)`,
 * else the raw data (a custom error's selector first).
 */
import { bytesToHex } from '@ethereumjs/util';
import { errorString, panicCode } from '../chain/index.js';

/** Longest revert data shown raw: enough to recognise a custom error without flooding the terminal. */
const MAX_RAW_BYTES = 68;

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
  const shown = data.subarray(0, MAX_RAW_BYTES);
  return `reverted with data ${bytesToHex(shown)}${data.length > MAX_RAW_BYTES ? '...' : ''}`;
}
