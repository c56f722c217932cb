/**
 * A revert's return data in words for the log: Solidity's `Error(string)` and `Panic(uint256)`,
 * else the custom error's selector. Decoded by hand: the runtime has no ABI library, and these two
 * shapes are fixed.
 */
import { bytesToHex } from '@ethereumjs/util';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';
const WORD = 32;
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
  const selector = data.length >= 4 ? bytesToHex(data.subarray(0, 4)) : undefined;
  if (selector === ERROR_SELECTOR) {
    const reason = decodeErrorString(data.subarray(4));
    // JSON quoting escapes control characters: a contract must not drive the terminal.
    if (reason !== undefined) return `reverted: ${JSON.stringify(reason)}`;
  }
  if (selector === PANIC_SELECTOR && data.length === 4 + WORD) {
    const code = BigInt(bytesToHex(data.subarray(4)));
    const meaning = PANIC_CODES[Number(code)];
    return `reverted: panic 0x${code.toString(16).padStart(2, '0')}${meaning === undefined ? '' : ` (${meaning})`}`;
  }
  const shown = data.subarray(0, MAX_RAW_BYTES);
  return `reverted with data ${bytesToHex(shown)}${data.length > MAX_RAW_BYTES ? '...' : ''}`;
}

/** The string of an ABI-encoded `(string)`: offset word, length word, bytes. */
function decodeErrorString(args: Uint8Array): string | undefined {
  if (args.length < 2 * WORD) return undefined;
  const offset = Number(BigInt(bytesToHex(args.subarray(0, WORD))));
  if (offset + WORD > args.length) return undefined;
  const length = Number(BigInt(bytesToHex(args.subarray(offset, offset + WORD))));
  const start = offset + WORD;
  if (start + length > args.length) return undefined;
  return new TextDecoder().decode(args.subarray(start, start + length));
}
