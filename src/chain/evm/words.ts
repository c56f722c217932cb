/**
 * Stack words from bytes without hex strings. @ethereumjs/util's `bytesToBigInt` goes through
 * `bytesToHex`, which on Node 20 (no `Uint8Array.prototype.toHex`) builds its string one byte at a
 * time: 32 concatenated strings and a flattening per word. Profiled on eth_call (ERC20 balanceOf),
 * the words made that way (CALLDATALOAD, KECCAK256, MLOAD) were about a tenth of what a call
 * allocated. Here a word is four 64-bit reads and their shifts (a small one: a Number), and the
 * other way (MSTORE, SLOAD's key) a Number's bytes or one flat hex string: the stock
 * `setLengthLeft(bigIntToBytes(word), 32)` builds a hex string, an array and, for a word with
 * leading zero bytes, two array spreads through iterators.
 */
const WORD_BYTES = 32;
const BITS_64 = 64n;
const BITS_128 = 128n;
const BITS_192 = 192n;
/** Words up to this go through a Number (exact below 2^53), in its low SAFE_BYTES bytes. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_BYTES = 7;

/**
 * The 32 bytes of `bytes` at `at`..`at + 32` (which must be in range) as a big-endian word. One with
 * at most six significant bytes (offsets, lengths, selectors, small values) is read as a Number:
 * DataView's `getBigUint64` is not inlined by Node 20's compiler.
 */
export function readWord(bytes: Uint8Array, at: number): bigint {
  const end = at + WORD_BYTES;
  let first = at;
  while (first < end && bytes[first] === 0) first++;
  if (end - first < SAFE_BYTES) {
    let n = 0;
    for (let i = first; i < end; i++) n = n * 256 + bytes[i]!;
    return BigInt(n);
  }
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

/** The value of one lower-case hex digit. */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

/**
 * Writes `word` (0 ≤ word < 2^256) big-endian into `bytes` at `at`..`at + 32` (which must be in
 * range). A word below 2^53 (offsets, lengths, small values: most MSTOREs) goes through a Number;
 * a larger one through its hex digits, one flat string. DataView's `setBigUint64` is not inlined by
 * Node 20's compiler and measured slower than either (a call into the runtime per 64 bits).
 */
export function writeWord(bytes: Uint8Array, at: number, word: bigint): void {
  if (word <= MAX_SAFE) {
    let n = Number(word);
    bytes.fill(0, at, at + WORD_BYTES - SAFE_BYTES);
    for (let p = at + WORD_BYTES - 1; p >= at + WORD_BYTES - SAFE_BYTES; p--) {
      bytes[p] = n % 256;
      n = Math.floor(n / 256);
    }
    return;
  }
  const hex = word.toString(16);
  if (hex.length > 2 * WORD_BYTES) throw new Error('a stack word wider than 256 bits');
  let position = at + WORD_BYTES - ((hex.length + 1) >> 1);
  bytes.fill(0, at, position);
  let i = 0;
  if (hex.length % 2 === 1) {
    bytes[position++] = nibble(hex.charCodeAt(0));
    i = 1;
  }
  for (; i < hex.length; i += 2) bytes[position++] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
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
