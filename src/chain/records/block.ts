/** A sealed RSK block as the chain keeps it, and its stored RLP form. */
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/bytes.js';
import { type RskHeader, decodeHeaderFields, encodeHeaderFull, headerFullFields } from './header.js';
import { rlpListLength } from '../base/rlp.js';
import { type TxRecord, txRecordFromStored } from './transaction.js';

export interface RskBlock {
  header: RskHeader;
  hash: Uint8Array;
  hashForMergedMining: Uint8Array;
  /** User transactions in block order, then the REMASC transaction (none in genesis). */
  transactions: TxRecord[];
  /** Length of the block's full RLP [header, transactions, uncles], as rskj reports `size`. */
  size: number;
  /** Sum of every block's cumulative difficulty up to this one (reference section 5). */
  totalDifficulty: bigint;
}

/**
 * The length of the RLP of [full header, [tx RLP...], uncles], the network encoding whose length is
 * `size`. A transaction's raw bytes are its canonical RLP (intake decodes them strictly), so the
 * lengths add up without decoding and encoding every transaction again.
 */
export function blockRlpLength(header: RskHeader, transactions: TxRecord[]): number {
  let transactionsPayload = 0;
  for (const tx of transactions) transactionsPayload += tx.raw.length;
  const noUncles = rlpListLength(0);
  return rlpListLength(encodeHeaderFull(header).length + rlpListLength(transactionsPayload) + noUncles);
}

export function encodeStoredBlock(block: RskBlock): Uint8Array {
  return RLP.encode([
    headerFullFields(block.header),
    block.transactions.map((tx) => [tx.raw, tx.from, tx.hash]),
    unpaddedBytes(block.totalDifficulty),
    block.hash,
    block.hashForMergedMining,
    unpaddedBytes(BigInt(block.size)),
  ] as never);
}

export function decodeStoredBlock(bytes: Uint8Array): RskBlock {
  const [header, txs, totalDifficulty, hash, hashForMergedMining, size] = RLP.decode(bytes) as unknown as [
    Uint8Array[],
    Uint8Array[][],
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  return {
    header: decodeHeaderFields(header),
    hash,
    hashForMergedMining,
    transactions: txs.map(([raw, from, hash]) => txRecordFromStored(raw!, from!, hash!)),
    size: Number(bytesToBigInt(size)),
    totalDifficulty: bytesToBigInt(totalDifficulty),
  };
}
