/**
 * A stored block's merged-mining fields taken apart for people (the explorer's block page): the
 * Bitcoin header's fields, the stored coinbase (byte count, midstate, tail with its RSKBLOCK: tag),
 * the Merkle proof's sibling hashes, and whether rskj's ProofOfWorkRule accepts the proof.
 */
import { bytesToHex } from '@ethereumjs/util';
import { lastIndexOf } from '../base/bytes.js';
import { BTC_HEADER_SIZE, btcHeaderHash, reversed } from '../bitcoin/encoding.js';
import type { RskBlock } from '../records/block.js';
import { RSK_TAG, validateMergedMiningProof } from './proof.js';

/** The stored coinbase starts with an 8-byte byte count and a 32-byte SHA-256 midstate (proof.ts). */
const COUNT_SIZE = 8;
const MIDSTATE_END = 40;
const HASH_SIZE = 32;

export interface BitcoinHeaderView {
  /** Double SHA-256 of the 80 bytes, display order. */
  hash: string;
  version: number;
  previousBlockHash: string;
  merkleRoot: string;
  time: number;
  bits: string;
  nonce: number;
}

export interface CoinbaseView {
  /** Bytes of the full coinbase before the midstate's end (hashed into the midstate, not stored). */
  hashedByteCount: string;
  midstate: string;
  tail: string;
  /** Where `RSKBLOCK:` starts in the tail (-1 when absent), and the 32 bytes after it. */
  tagOffset: number;
  taggedHash?: string;
}

export interface MergedMiningView {
  /** undefined when the header is not 80 bytes (a block without a Bitcoin proof). */
  header?: BitcoinHeaderView;
  coinbase?: CoinbaseView;
  /** Sibling hashes bottom-up, display order (RSKIP92). */
  merkleProof: string[];
  /** rskj's ProofOfWorkRule: the reason when it refuses. */
  valid: boolean;
  reason?: string;
}

export function decodeMergedMining(block: RskBlock): MergedMiningView {
  const h = block.header;
  const btc = h.bitcoinMergedMiningHeader;
  const stored = h.bitcoinMergedMiningCoinbaseTransaction;
  const proof = h.bitcoinMergedMiningMerkleProof;
  const validation = validateMergedMiningProof({ btcHeader: btc, coinbase: stored, merkleProof: proof }, block.hashForMergedMining, h.difficulty);
  const siblings: string[] = [];
  for (let i = 0; i + HASH_SIZE <= proof.length; i += HASH_SIZE) siblings.push(bytesToHex(proof.subarray(i, i + HASH_SIZE)));
  return {
    header: btc.length === BTC_HEADER_SIZE ? headerView(btc) : undefined,
    coinbase: stored.length >= MIDSTATE_END ? coinbaseView(stored) : undefined,
    merkleProof: siblings,
    valid: validation.ok,
    reason: validation.ok ? undefined : validation.reason,
  };
}

function headerView(btc: Uint8Array): BitcoinHeaderView {
  const view = new DataView(btc.buffer, btc.byteOffset, btc.length);
  return {
    hash: bytesToHex(btcHeaderHash(btc)),
    version: view.getUint32(0, true),
    previousBlockHash: bytesToHex(reversed(btc.subarray(4, 36))),
    merkleRoot: bytesToHex(reversed(btc.subarray(36, 68))),
    time: view.getUint32(68, true),
    bits: `0x${view.getUint32(72, true).toString(16).padStart(8, '0')}`,
    nonce: view.getUint32(76, true),
  };
}

function coinbaseView(stored: Uint8Array): CoinbaseView {
  const tail = stored.subarray(MIDSTATE_END);
  const tagOffset = lastIndexOf(tail, RSK_TAG);
  const hashStart = tagOffset + RSK_TAG.length;
  return {
    hashedByteCount: new DataView(stored.buffer, stored.byteOffset, COUNT_SIZE).getBigInt64(0).toString(),
    midstate: bytesToHex(stored.subarray(COUNT_SIZE, MIDSTATE_END)),
    tail: bytesToHex(tail),
    tagOffset,
    taggedHash: tagOffset >= 0 && hashStart + HASH_SIZE <= tail.length ? bytesToHex(tail.subarray(hashStart, hashStart + HASH_SIZE)) : undefined,
  };
}
