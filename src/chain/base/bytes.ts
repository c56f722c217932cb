/**
 * The byte and number helpers several folders of the chain share, so each exists once. Byte
 * equality is @ethereumjs/util's `equalsBytes`; its `compareBytes` compares as numbers, which is
 * not the lexicographic order rskj and bitcoinj sort keys and trie paths by, hence ours.
 */
import nodeCrypto, { createHash } from 'node:crypto';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';

/** Where `needle` last starts inside `haystack`, or -1 (Java's Collections.lastIndexOfSubList). */
export function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = haystack.length - needle.length; i >= 0; i--) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Lexicographic order of unsigned bytes, a prefix first (Guava UnsignedBytes.lexicographicalComparator). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Node's one-shot crypto.hash (Node 20.12 on): for a Bitcoin header it takes about half the time
 * of a createHash object, and mining a block hashes several. Older Node 20 releases lack it.
 */
const oneShotHash = nodeCrypto.hash as typeof nodeCrypto.hash | undefined;

/** SHA-256 (node's native implementation). */
export function sha256(data: Uint8Array): Uint8Array {
  return oneShotHash !== undefined ? oneShotHash('sha256', data, 'buffer') : createHash('sha256').update(data).digest();
}

/** Bitcoin's double SHA-256 (block hashes, txids, merkle nodes). */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/** Java's `BigInteger.intValue()`: the low 32 bits, signed (rskj reads ABI offsets, lengths and indexes this way). */
export function javaInt(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}

/** The largest integer a double holds exactly. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * @ethereumjs/util's bigIntToUnpaddedBytes (big-endian, no leading zero bytes, 0 as no bytes)
 * without its hex string: a block's numbers (number, gas, timestamp, prices) fit a double, and
 * each block encodes them several times (header forms, receipts, the stored block). Larger and
 * negative values go to the library.
 */
export function unpaddedBytes(value: bigint): Uint8Array {
  if (value < 0n || value > MAX_SAFE) return bigIntToUnpaddedBytes(value);
  let rest = Number(value);
  let length = 0;
  for (let n = rest; n > 0; n = Math.floor(n / 256)) length++;
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}
