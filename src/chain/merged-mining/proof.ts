/**
 * Bitcoin merged mining as RSK does it (reference sections 5 and 6): building a deterministic
 * BTC coinbase/header/merkle proof for a block (the regtest miner's job) and checking such a
 * proof (rskj's ProofOfWorkRule). Bitcoin's byte formats are in ../bitcoin/ (byte orders:
 * bitcoin/encoding.ts).
 */
import { createHash } from 'node:crypto';
import { bytesToBigInt, equalsBytes } from '@ethereumjs/util';
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { lastIndexOf, sha256, sha256d } from '../base/bytes.js';
import { coinbaseTransaction } from '../bitcoin/coinbase.js';
import { BTC_HEADER_SIZE, btcHeaderHash, reversed } from '../bitcoin/encoding.js';
import { sha256Midstate, sha256Resume } from '../bitcoin/midstate.js';

export const RSK_TAG: Uint8Array = utf8ToBytes('RSKBLOCK:');

export interface MergedMiningProof {
  /** 80-byte serialized BTC block header. */
  btcHeader: Uint8Array;
  /** RSK stored ("compressed") coinbase: 8-byte BE byte count ‖ 32-byte SHA-256 midstate ‖ tail (reference 6.3). */
  coinbase: Uint8Array;
  /** RSKIP92 proof: sibling hashes bottom-up, 32 bytes each, display order; empty for a one-tx block. */
  merkleProof: Uint8Array;
}

const MAX_MERKLE_PROOF_LENGTH = 960;
const MAX_BYTES_AFTER_MERGED_MINING_HASH = 128;
/** Byte count (8) plus SHA-256 state (32) at the start of the stored coinbase. */
const MIDSTATE_SIZE = 40;
/**
 * rskj's miner passes bitcoinj-thin's `ProtocolVersion.CURRENT` (70001) as the BTC block version
 * (MinerUtils.getBitcoinMergedMiningBlock), so we do too.
 */
const BTC_BLOCK_VERSION = 70001;
/** Compact form of the BTC regtest max target (0x7fffff << 232). */
const BTC_REGTEST_BITS = 0x207fffff;
const COINBASE_REWARD_SATOSHIS = 50n * 100_000_000n;
const MAX_SATOSHIS = 21_000_000n * 100_000_000n;

type Validation = { ok: true } | { ok: false; reason: string };

/** PoW target: floor(2^256 / d), with d raised to 3 when d <= 2 (rskj DifficultyUtils). */
export function powTarget(difficulty: bigint): bigint {
  return (1n << 256n) / (difficulty <= 2n ? 3n : difficulty);
}

/**
 * Mines a BTC block committing to `hashForMergedMining`: a single-input coinbase shaped like
 * rskj's regtest miner builds it (reference 6.6) plus `extraTxids` (internal byte order) as the
 * other transactions. Deterministic: the miner's random script prefix and key come from the hash.
 */
export function mineMergedMiningProof(
  hashForMergedMining: Uint8Array,
  difficulty: bigint,
  timestampSeconds: number,
  extraTxids: Uint8Array[] = [],
): MergedMiningProof {
  if (hashForMergedMining.length !== 32) throw new Error('hashForMergedMining must be 32 bytes');
  if (!Number.isInteger(timestampSeconds) || timestampSeconds < 0 || timestampSeconds > 0xffffffff) {
    throw new Error(`timestamp ${timestampSeconds} does not fit a BTC header`);
  }
  const coinbaseTx = buildCoinbaseTx(hashForMergedMining);
  const { merkleRoot, merkleProof } = coinbaseMerkleProof([sha256d(coinbaseTx), ...extraTxids]);

  const btcHeader = new Uint8Array(BTC_HEADER_SIZE);
  const view = new DataView(btcHeader.buffer);
  view.setUint32(0, BTC_BLOCK_VERSION, true);
  // bytes 4..36: previous block hash, zero
  btcHeader.set(merkleRoot, 36);
  view.setUint32(68, timestampSeconds, true);
  view.setUint32(72, BTC_REGTEST_BITS, true);
  const target = bigIntToBytes32(powTarget(difficulty));
  for (let nonce = 0; nonce <= 0xffffffff; nonce++) {
    view.setUint32(76, nonce, true);
    if (atMostTarget(sha256d(btcHeader), target)) {
      return { btcHeader, coinbase: compressCoinbase(coinbaseTx), merkleProof };
    }
  }
  throw new Error(`no BTC nonce meets the target for difficulty ${difficulty}`);
}

/**
 * RSK's stored coinbase (reference 6.3): with p the index of the last RSKBLOCK: tag and
 * n = floor(p/64)*64, returns n (8 bytes BE) ‖ SHA-256 midstate over tx[0..n) ‖ tx[n..).
 */
export function compressCoinbase(coinbaseTx: Uint8Array): Uint8Array {
  const p = lastIndexOf(coinbaseTx, RSK_TAG);
  if (p < 0) throw new Error('coinbase transaction has no RSKBLOCK: tag');
  const n = Math.floor(p / 64) * 64;
  const stored = new Uint8Array(MIDSTATE_SIZE + coinbaseTx.length - n);
  new DataView(stored.buffer).setBigUint64(0, BigInt(n));
  stored.set(sha256Midstate(coinbaseTx.subarray(0, n)), 8);
  stored.set(coinbaseTx.subarray(n), MIDSTATE_SIZE);
  return stored;
}

/**
 * Bitcoin merkle tree over `txids` (internal order, coinbase first; odd levels duplicate their
 * last node). Returns the root (internal order) and the coinbase's RSKIP92 proof.
 */
export function coinbaseMerkleProof(txids: Uint8Array[]): { merkleRoot: Uint8Array; merkleProof: Uint8Array } {
  if (txids.length === 0) throw new Error('a BTC block needs at least the coinbase');
  if (txids.some((id) => id.length !== 32)) throw new Error('txids must be 32 bytes');
  let level = txids;
  const siblings: Uint8Array[] = [];
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    siblings.push(reversed(level[1]!));
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(concatBytes(level[i]!, level[i + 1]!)));
    level = next;
  }
  return { merkleRoot: level[0]!, merkleProof: concatBytes(...siblings) };
}

/** rskj's ProofOfWorkRule for a merged-mined header (reference 6.4 steps 1-6). */
export function validateMergedMiningProof(
  proof: MergedMiningProof,
  hashForMergedMining: Uint8Array,
  difficulty: bigint,
): Validation {
  const { btcHeader, coinbase, merkleProof } = proof;
  const fail = (reason: string): Validation => ({ ok: false, reason });

  if (merkleProof.length > MAX_MERKLE_PROOF_LENGTH) {
    return fail(`merkle proof is ${merkleProof.length} bytes, more than ${MAX_MERKLE_PROOF_LENGTH}`);
  }
  if (merkleProof.length % 32 !== 0) {
    return fail(`merkle proof length ${merkleProof.length} is not a multiple of 32`);
  }
  if (btcHeader.length !== BTC_HEADER_SIZE) {
    return fail(`BTC header must be ${BTC_HEADER_SIZE} bytes but was ${btcHeader.length}`);
  }
  const headerHash = bytesToBigInt(btcHeaderHash(btcHeader));
  const target = powTarget(difficulty);
  if (headerHash > target) {
    return fail(`BTC header hash ${hex(headerHash)} is higher than target ${hex(target)}`);
  }
  if (coinbase.length < MIDSTATE_SIZE) {
    return fail(`coinbase is ${coinbase.length} bytes, shorter than its ${MIDSTATE_SIZE}-byte midstate`);
  }

  // A Java long in rskj, hence signed.
  const byteCount = new DataView(coinbase.buffer, coinbase.byteOffset, 8).getBigInt64(0);
  const midstate = coinbase.subarray(8, MIDSTATE_SIZE);
  const tail = coinbase.subarray(MIDSTATE_SIZE);
  const expected = concatBytes(RSK_TAG, hashForMergedMining);
  const tagPosition = lastIndexOf(tail, expected);
  if (tagPosition < 0) return fail('coinbase tail does not contain RSKBLOCK: followed by hashForMergedMining');
  // Otherwise the same coinbase could be stored with a shorter midstate, giving a second encoding.
  if (tagPosition >= 64) return fail(`RSKBLOCK: tag is at tail offset ${tagPosition}, must be below 64`);
  if (lastIndexOf(tail, RSK_TAG) !== tagPosition) return fail('the expected RSKBLOCK: tag is not the last one in the coinbase');
  const bytesAfterHash = tail.length - tagPosition - expected.length;
  if (bytesAfterHash > MAX_BYTES_AFTER_MERGED_MINING_HASH) {
    return fail(`${bytesAfterHash} bytes follow the merged-mining hash, more than ${MAX_BYTES_AFTER_MERGED_MINING_HASH}`);
  }
  const coinbaseLength = byteCount + BigInt(tail.length);
  if (coinbaseLength <= 64n) return fail(`coinbase must be longer than 64 bytes but is ${coinbaseLength}`);

  let node: Uint8Array = sha256(sha256Resume(midstate, byteCount, tail)); // coinbase txid, internal order
  for (let i = 0; i < merkleProof.length; i += 32) {
    const sibling = merkleProof.subarray(i, i + 32);
    if (isValid64ByteTransaction(concatBytes(reversed(node), sibling))) {
      return fail(`merkle proof step ${i / 32}: the node pair forms a valid 64-byte BTC transaction`);
    }
    node = sha256d(concatBytes(node, reversed(sibling)));
  }
  if (!equalsBytes(node, btcHeader.subarray(36, 68))) {
    return fail("merkle proof does not link the coinbase to the BTC header's merkle root");
  }
  return { ok: true };
}

/**
 * The BTC header heights whose hashes feed forkDetectionData for the block at
 * `heightOfBlockBeingMined`: s, s-64, ..., s-384 with s = floor(best/64)*64, best = height-1.
 * rskj only computes the data when the chain has at least 449 blocks (height >= 449).
 */
export function forkDetectionAncestorHeights(heightOfBlockBeingMined: bigint): bigint[] {
  const start = ((heightOfBlockBeingMined - 1n) / 64n) * 64n;
  return Array.from({ length: 7 }, (_, i) => start - BigInt(i) * 64n);
}

/**
 * RSKIP110 fork detection data (reference 6.1 step 4), 12 bytes.
 * `ancestorBtcHeaderHashes`: the 7 BTC header hashes (display order, as from btcHeaderHash) of
 * the blocks at forkDetectionAncestorHeights(height), in that order; a block without a BTC header
 * contributes 0. Byte i = last byte of hash i; byte 7 = low byte of the uncle count of the last 32
 * blocks (rskj truncates, it does not cap); bytes 8..11 = height, 32-bit big-endian.
 */
export function forkDetectionData(
  ancestorBtcHeaderHashes: (Uint8Array | undefined)[],
  uncleCountLast32: number,
  heightOfBlockBeingMined: bigint,
): Uint8Array {
  if (ancestorBtcHeaderHashes.length !== 7) {
    throw new Error(`fork detection needs 7 ancestor BTC header hashes, got ${ancestorBtcHeaderHashes.length}`);
  }
  const out = new Uint8Array(12);
  ancestorBtcHeaderHashes.forEach((hash, i) => {
    out[i] = hash ? hash[hash.length - 1]! : 0;
  });
  out[7] = uncleCountLast32 & 0xff;
  new DataView(out.buffer).setUint32(8, Number(BigInt.asUintN(32, heightOfBlockBeingMined)));
  return out;
}

/**
 * The regtest miner's coinbase (bitcoin/coinbase.ts) committing to the hash: output 1's script is
 * prefix ‖ RSKBLOCK: ‖ hash. rskj's miner uses a random 0-999 byte prefix and a random key; both
 * are derived from the hash here.
 */
function buildCoinbaseTx(hashForMergedMining: Uint8Array): Uint8Array {
  const material = expand(sha256(concatBytes(RSK_TAG, hashForMergedMining)), 2 + 32 + 999);
  const prefixLength = ((material[0]! << 8) | material[1]!) % 1000;
  const publicKey = material.subarray(1, 34);
  publicKey[0] = 0x02; // a compressed key's prefix byte, in place of the material's second byte (read above)
  const dataScript = new Uint8Array(prefixLength + RSK_TAG.length + hashForMergedMining.length);
  dataScript.set(material.subarray(34, 34 + prefixLength));
  dataScript.set(RSK_TAG, prefixLength);
  dataScript.set(hashForMergedMining, prefixLength + RSK_TAG.length);
  return coinbaseTransaction({ rewardSatoshis: COINBASE_REWARD_SATOSHIS, publicKey, dataScript });
}

/**
 * rskj's MerkleTreeUtils guard against the 64-byte-transaction merkle weakness: applied, as in
 * rskj, to the two nodes in display order, it accepts the pair as a transaction exactly when it
 * has the shape version ‖ 1 input (outpoint index <= 1,000,000 or 0xffffffff) ‖ 1 output
 * (value 1 sat..21M BTC) ‖ locktime, with input and output scripts of 4 bytes in total.
 */
function isValid64ByteTransaction(pair: Uint8Array): boolean {
  const view = new DataView(pair.buffer, pair.byteOffset, 64);
  if (pair[4] !== 1) return false;
  const outpointIndex = view.getUint32(37, true);
  if (outpointIndex > 1_000_000 && outpointIndex !== 0xffffffff) return false;
  const inputScriptLength = pair[41]!;
  if (inputScriptLength > 4) return false;
  const outputCountAt = 42 + inputScriptLength + 4;
  if (pair[outputCountAt] !== 1) return false;
  const value = view.getBigInt64(outputCountAt + 1, true);
  if (value < 1n || value > MAX_SATOSHIS) return false;
  return inputScriptLength + pair[outputCountAt + 9]! === 4;
}

/** `length` pseudo-random bytes drawn from `seed` (SHAKE256, one native call). */
function expand(seed: Uint8Array, length: number): Uint8Array {
  return createHash('shake256', { outputLength: length }).update(seed).digest();
}

/** A number below 2^256 as 32 big-endian bytes (a PoW target, compared byte by byte). */
function bigIntToBytes32(n: bigint): Uint8Array {
  return hexToBytes(n.toString(16).padStart(64, '0'));
}

/**
 * Whether a header hash (sha256d's output, internal order: the number's bytes least significant
 * first) is at most `target` (big-endian): the PoW check without a BigInt per nonce.
 */
function atMostTarget(internalHash: Uint8Array, target: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) {
    const byte = internalHash[31 - i]!;
    if (byte !== target[i]) return byte < target[i]!;
  }
  return true;
}

function hex(n: bigint): string {
  return '0x' + n.toString(16).padStart(64, '0');
}
