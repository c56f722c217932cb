/**
 * Stack words from bytes without hex strings. @ethereumjs/util's `bytesToBigInt` goes through
 * `bytesToHex`, which on Node 20 (no `Uint8Array.prototype.toHex`) builds its string one byte at a
 * time: 32 concatenated strings and a flattening per word. Profiled on eth_call (ERC20 balanceOf),
 * the words made that way (CALLDATALOAD, KECCAK256, MLOAD) were about a tenth of what a call
 * allocated. Here a word is four 64-bit reads and their shifts, and the other way (MSTORE, SLOAD's
 * key) four 64-bit writes: the stock `setLengthLeft(bigIntToBytes(word), 32)` builds a hex string,
 * an array and, for a word with leading zero bytes, two array spreads through iterators.
 */
const WORD_BYTES = 32;
const BITS_64 = 64n;
const BITS_128 = 128n;
const BITS_192 = 192n;
const MAX_64 = 2n ** 64n - 1n;

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

/** Writes `word` (0 ≤ word < 2^256) big-endian into `bytes` at `at`..`at + 32` (which must be in range). */
export function writeWord(bytes: Uint8Array, at: number, word: bigint): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, WORD_BYTES);
  if (word <= MAX_64) {
    view.setBigUint64(0, 0n);
    view.setBigUint64(8, 0n);
    view.setBigUint64(16, 0n);
    view.setBigUint64(24, word);
    return;
  }
  const high = word >> BITS_192;
  if (high > MAX_64) throw new Error('a stack word wider than 256 bits');
  view.setBigUint64(0, high);
  view.setBigUint64(8, BigInt.asUintN(64, word >> BITS_128));
  view.setBigUint64(16, BigInt.asUintN(64, word >> BITS_64));
  view.setBigUint64(24, BigInt.asUintN(64, word));
}

/** `word` (0 ≤ word < 2^256) as 32 big-endian bytes, as `setLengthLeft(bigIntToBytes(word), 32)`. */
export function wordBytes(word: bigint): Uint8Array {
  const bytes = new Uint8Array(WORD_BYTES);
  writeWord(bytes, 0, word);
  return bytes;
}

/** Up to 32 big-endian bytes (a storage value in its shortest form) as a word, as `bytesToBigInt`. */
export function bytesWord(bytes: Uint8Array): bigint {
  if (bytes.length === WORD_BYTES) return readWord(bytes, 0);
  if (bytes.length === 0) return 0n;
  if (bytes.length > WORD_BYTES) throw new Error('more than 32 bytes for a word');
  const padded = new Uint8Array(WORD_BYTES);
  padded.set(bytes, WORD_BYTES - bytes.length);
  return readWord(padded, 0);
}
