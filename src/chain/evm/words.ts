/**
 * Stack words from bytes without hex strings. @ethereumjs/util's `bytesToBigInt` goes through
 * `bytesToHex`, which on Node 20 (no `Uint8Array.prototype.toHex`) builds its string one byte at a
 * time: 32 concatenated strings and a flattening per word. Profiled on eth_call (ERC20 balanceOf),
 * the words made that way (CALLDATALOAD, KECCAK256, MLOAD) were about a tenth of what a call
 * allocated. Here a word is four 64-bit reads and their shifts.
 */
const WORD_BYTES = 32;
const BITS_64 = 64n;
const BITS_128 = 128n;
const BITS_192 = 192n;

/** The 32 bytes of `bytes` at `at`..`at + 32` (which must be in range) as a big-endian word. */
export function readWord(bytes: Uint8Array, at: number): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, WORD_BYTES);
  return (view.getBigUint64(0) << BITS_192) | (view.getBigUint64(8) << BITS_128) | (view.getBigUint64(16) << BITS_64) | view.getBigUint64(24);
}

/**
 * The word at `at` of `bytes` with the bytes past its end read as zeros (CALLDATALOAD's rule).
 * `at` at or past the end reads 0.
 */
export function readWordPadded(bytes: Uint8Array, at: number): bigint {
  if (at + WORD_BYTES <= bytes.length) return readWord(bytes, at);
  if (at >= bytes.length) return 0n;
  const padded = new Uint8Array(WORD_BYTES);
  padded.set(bytes.subarray(at));
  return readWord(padded, 0);
}
