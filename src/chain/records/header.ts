/**
 * The RSK block header (reference sections 6 and 9): its fields, its RLP in the three forms rskj
 * uses, and the two hashes derived from it. We follow the "v0" header layout (256-byte bloom in
 * the header), which is what RSK mainnet uses; see docs/decisions.md#block-header-and-hashes.
 *
 * - hash form: every field plus the Bitcoin merged-mining header (after RSKIP92 the proof and
 *   coinbase are not hashed). keccak256 of it is the block hash; rsk_getRawBlockHeaderBy* return it.
 * - merged-mining form: the hash form without any merged-mining field; keccak256 of it is the
 *   hashForMergedMining (before fork detection data, see merged-mining/proof.ts).
 * - full form: the hash form plus the merkle proof and the compressed coinbase (stored, and
 *   counted in the block `size`).
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/bytes.js';
import { keccak256 } from '../base/hash.js';

export interface RskHeader {
  parentHash: Uint8Array;
  unclesHash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  txTrieRoot: Uint8Array;
  receiptTrieRoot: Uint8Array;
  logsBloom: Uint8Array;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  timestamp: bigint;
  extraData: Uint8Array;
  paidFees: bigint;
  minimumGasPrice: bigint;
  uncleCount: number;
  /** Present but empty on RSK since RSKIP110 (no UMM root is ever set by a miner here). */
  ummRoot: Uint8Array;
  bitcoinMergedMiningHeader: Uint8Array;
  bitcoinMergedMiningMerkleProof: Uint8Array;
  bitcoinMergedMiningCoinbaseTransaction: Uint8Array;
}

const FIELD_COUNT_WITHOUT_MM = 17;

function baseFields(h: RskHeader): Uint8Array[] {
  return [
    h.parentHash,
    h.unclesHash,
    h.coinbase,
    h.stateRoot,
    h.txTrieRoot,
    h.receiptTrieRoot,
    h.logsBloom,
    unpaddedBytes(h.difficulty),
    unpaddedBytes(h.number),
    unpaddedBytes(h.gasLimit),
    unpaddedBytes(h.gasUsed),
    unpaddedBytes(h.timestamp),
    h.extraData,
    unpaddedBytes(h.paidFees),
    unpaddedBytes(h.minimumGasPrice),
    unpaddedBytes(BigInt(h.uncleCount)),
    h.ummRoot,
  ];
}

/** rskj only encodes merged-mining fields for a header that has them (genesis has none). */
export function hasMergedMiningFields(h: RskHeader): boolean {
  return h.bitcoinMergedMiningHeader.length > 0;
}

export function encodeHeaderForHash(h: RskHeader): Uint8Array {
  const fields = baseFields(h);
  if (hasMergedMiningFields(h)) fields.push(h.bitcoinMergedMiningHeader);
  return RLP.encode(fields);
}

export function encodeHeaderForMergedMining(h: RskHeader): Uint8Array {
  return RLP.encode(baseFields(h));
}

export function encodeHeaderFull(h: RskHeader): Uint8Array {
  return RLP.encode(headerFullFields(h));
}

/** The full header as an RLP list value, for embedding in the block RLP without re-encoding. */
export function headerFullFields(h: RskHeader): Uint8Array[] {
  const fields = baseFields(h);
  if (hasMergedMiningFields(h)) {
    fields.push(h.bitcoinMergedMiningHeader, h.bitcoinMergedMiningMerkleProof, h.bitcoinMergedMiningCoinbaseTransaction);
  }
  return fields;
}

export function decodeHeaderFields(fields: Uint8Array[]): RskHeader {
  if (fields.length !== FIELD_COUNT_WITHOUT_MM && fields.length !== FIELD_COUNT_WITHOUT_MM + 3) {
    throw new Error(`RSK header has ${fields.length} fields`);
  }
  const empty = new Uint8Array(0);
  return {
    parentHash: fields[0]!,
    unclesHash: fields[1]!,
    coinbase: fields[2]!,
    stateRoot: fields[3]!,
    txTrieRoot: fields[4]!,
    receiptTrieRoot: fields[5]!,
    logsBloom: fields[6]!,
    difficulty: bytesToBigInt(fields[7]!),
    number: bytesToBigInt(fields[8]!),
    gasLimit: bytesToBigInt(fields[9]!),
    gasUsed: bytesToBigInt(fields[10]!),
    timestamp: bytesToBigInt(fields[11]!),
    extraData: fields[12]!,
    paidFees: bytesToBigInt(fields[13]!),
    minimumGasPrice: bytesToBigInt(fields[14]!),
    uncleCount: Number(bytesToBigInt(fields[15]!)),
    ummRoot: fields[16]!,
    bitcoinMergedMiningHeader: fields[17] ?? empty,
    bitcoinMergedMiningMerkleProof: fields[18] ?? empty,
    bitcoinMergedMiningCoinbaseTransaction: fields[19] ?? empty,
  };
}

export function blockHash(h: RskHeader): Uint8Array {
  return keccak256(encodeHeaderForHash(h));
}

/** keccak256 of the merged-mining form: hashForMergedMining before fork detection data. */
export function baseHashForMergedMining(h: RskHeader): Uint8Array {
  return keccak256(encodeHeaderForMergedMining(h));
}
