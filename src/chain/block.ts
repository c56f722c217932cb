/** A sealed RSK block as the chain keeps it, and its stored RLP form. */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { type RskHeader, decodeHeaderFields, headerFullFields } from './header.js';
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

/** RLP of [full header, [tx RLP...], uncles]: the network encoding whose length is `size`. */
export function blockRlpLength(header: RskHeader, transactions: TxRecord[]): number {
  return RLP.encode([headerFullFields(header), transactions.map((tx) => RLP.decode(tx.raw)) as never, []]).length;
}

export function encodeStoredBlock(block: RskBlock): Uint8Array {
  return RLP.encode([
    headerFullFields(block.header),
    block.transactions.map((tx) => [tx.raw, tx.from, tx.hash]),
    bigIntToUnpaddedBytes(block.totalDifficulty),
    block.hash,
    block.hashForMergedMining,
    bigIntToUnpaddedBytes(BigInt(block.size)),
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
