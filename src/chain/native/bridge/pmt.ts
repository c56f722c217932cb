/**
 * Reading a partial merkle tree as the Bridge reads it (bitcoinj PartialMerkleTree, as rskj's
 * Bridge uses it in registerBtcTransaction and registerBtcCoinbaseTransaction). The writer is
 * btc-chain/merkle.ts; this is the reader, with bitcoinj's checks, because a bad tree is one of
 * the inputs rskj answers by failing the call (not by ignoring it).
 *
 * Serialization: transaction count (uint32 LE), CompactSize hash count, hashes (internal order),
 * CompactSize flag byte count, flag bytes (bits least significant first).
 */
import { equalsBytes } from '@ethereumjs/util';
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256d } from '../../base/bytes.js';

/** A tree that bitcoinj cannot read: rskj turns it into a thrown exception (the call fails). */
export class PmtError extends Error {}

const TX_COUNT_LENGTH = 4;
const HASH_LENGTH = 32;

interface VarInt {
  value: number;
  size: number;
}

/** bitcoinj VarInt(buf, offset); undefined past the end (Java's ArrayIndexOutOfBounds). */
function readVarInt(bytes: Uint8Array, offset: number): VarInt | undefined {
  const first = bytes[offset];
  if (first === undefined) return undefined;
  const width = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (offset + 1 + width > bytes.length) return undefined;
  let value = width === 0 ? first : 0;
  for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[offset + 1 + i]!;
  return { value, size: 1 + width };
}

/**
 * rskj PartialMerkleTreeFormatUtils.hasExpectedSize: the byte length equals what the declared
 * hash and flag counts imply. False also for a tree too short to hold its counts.
 */
export function pmtHasExpectedSize(pmt: Uint8Array): boolean {
  const hashes = readVarInt(pmt, TX_COUNT_LENGTH);
  if (hashes === undefined) return false;
  const flagsAt = TX_COUNT_LENGTH + hashes.size + hashes.value * HASH_LENGTH;
  if (!Number.isSafeInteger(flagsAt)) return false;
  const flags = readVarInt(pmt, flagsAt);
  if (flags === undefined) return false;
  return pmt.length === flagsAt + flags.size + flags.value;
}

export interface PmtContents {
  /** The merkle root the tree hashes to, internal order. */
  root: Uint8Array;
  /** The matched leaves (transaction hashes), internal order. */
  matched: Uint8Array[];
}


function treeWidth(count: number, height: number): number {
  return Math.floor((count + 2 ** height - 1) / 2 ** height);
}

/**
 * bitcoinj PartialMerkleTree(params, bytes, 0) then getTxnHashAndMerkleRoot: the root and the
 * matched hashes; PmtError where bitcoinj throws a VerificationException. Call it on a tree that
 * passed pmtHasExpectedSize.
 */
export function readPartialMerkleTree(pmt: Uint8Array): PmtContents {
  const view = new DataView(pmt.buffer, pmt.byteOffset, pmt.byteLength);
  const transactionCount = view.getUint32(0, true);
  const hashCount = readVarInt(pmt, TX_COUNT_LENGTH)!;
  let offset = TX_COUNT_LENGTH + hashCount.size;
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < hashCount.value; i++, offset += HASH_LENGTH) hashes.push(pmt.slice(offset, offset + HASH_LENGTH));
  const flagCount = readVarInt(pmt, offset)!;
  const flags = pmt.subarray(offset + flagCount.size, offset + flagCount.size + flagCount.value);

  if (transactionCount === 0) throw new PmtError('Got a CPartialMerkleTree with 0 transactions');
  // bitcoinj: "There can never be more hashes provided than one for every txid".
  if (hashes.length > transactionCount) throw new PmtError('Got a CPartialMerkleTree with more hashes than transactions');
  if (flags.length * 8 < hashes.length) throw new PmtError('Got a CPartialMerkleTree with fewer matched bits than hashes');
  let height = 0;
  while (treeWidth(transactionCount, height) > 1) height++;

  let bitsUsed = 0;
  let hashesUsed = 0;
  const matched: Uint8Array[] = [];
  const extract = (h: number, pos: number): Uint8Array => {
    if (bitsUsed >= flags.length * 8) throw new PmtError('PartialMerkleTree overflowed its bits array');
    const parentOfMatch = ((flags[bitsUsed >> 3]! >> (bitsUsed & 7)) & 1) === 1;
    bitsUsed++;
    if (h === 0 || !parentOfMatch) {
      if (hashesUsed >= hashes.length) throw new PmtError('PartialMerkleTree overflowed its hash array');
      const hash = hashes[hashesUsed++]!;
      if (h === 0 && parentOfMatch) matched.push(hash);
      return hash;
    }
    const left = extract(h - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < treeWidth(transactionCount, h - 1)) {
      right = extract(h - 1, pos * 2 + 1);
      // CVE-2012-2459: a tree whose two branches are equal could prove a duplicated transaction.
      if (equalsBytes(left, right)) throw new PmtError('Invalid merkle tree with duplicated left/right branches');
    }
    return sha256d(concatBytes(left, right));
  };
  const root = extract(height, 0);
  if (Math.floor((bitsUsed + 7) / 8) !== flags.length) throw new PmtError('Got a CPartialMerkleTree that didn\'t need all the data it provided');
  if (hashesUsed !== hashes.length) throw new PmtError('Got a CPartialMerkleTree that didn\'t need all the data it provided');
  return { root, matched };
}

/** Whether `hash` (internal order) is one of the tree's matched leaves. */
export function pmtContains(contents: PmtContents, hash: Uint8Array): boolean {
  return contents.matched.some((m) => equalsBytes(m, hash));
}
