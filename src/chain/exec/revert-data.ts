/**
 * Solidity's standard revert payloads, `Error(string)` and `Panic(uint256)`, decoded by hand (the
 * runtime has no ABI library, and both shapes are fixed). Callers word them their own way: the
 * JSON-RPC error (rskj's "revert <reason>"), the log line, geth's callTracer `revertReason`.
 */
import { bytesToHex, bytesToUtf8 } from '@ethereumjs/util';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';
const WORD = 32;

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

/** A word as a number when it fits a safe integer. */
function wordAt(bytes: Uint8Array, offset: number): number | undefined {
  const value = BigInt(bytesToHex(bytes.subarray(offset, offset + WORD)));
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}
