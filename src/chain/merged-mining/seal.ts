/**
 * Seals a built block the way RSK's merged mining does: hashForMergedMining from the header
 * without merged-mining fields (plus RSKIP110 fork detection data once the chain is long enough),
 * a Bitcoin block whose coinbase commits to it and whose header meets the block's difficulty,
 * then the block hash over the header with the Bitcoin header.
 */
import type { RskBlock } from '../records/block.js';
import { blockRlpLength } from '../records/block.js';
import type { BuiltBlock } from '../exec/block-builder.js';
import { type RskHeader, baseHashForMergedMining, blockHash } from '../records/header.js';
import { btcHeaderHash } from '../bitcoin/encoding.js';
import { type MergedMiningProof, forkDetectionAncestorHeights, forkDetectionData, mineMergedMiningProof } from './proof.js';

/** rskj computes fork detection data only from this height on (a chain of 449 blocks). */
const FORK_DETECTION_MIN_HEIGHT = 449n;
const FORK_DETECTION_OFFSET = 20;

export type BlockByNumber = (number: bigint) => Promise<RskBlock | undefined>;

export async function hashForMergedMining(header: RskHeader, blockByNumber: BlockByNumber): Promise<Uint8Array> {
  const hash = baseHashForMergedMining(header);
  if (header.number < FORK_DETECTION_MIN_HEIGHT) return hash;
  const ancestors = await Promise.all(
    forkDetectionAncestorHeights(header.number).map(async (height) => {
      const block = await blockByNumber(height);
      return block === undefined || block.header.bitcoinMergedMiningHeader.length === 0
        ? undefined
        : btcHeaderHash(block.header.bitcoinMergedMiningHeader);
    }),
  );
  hash.set(forkDetectionData(ancestors, 0, header.number), FORK_DETECTION_OFFSET);
  return hash;
}

export async function sealBlock(built: BuiltBlock, parent: RskBlock, blockByNumber: BlockByNumber): Promise<RskBlock> {
  const forMergedMining = await hashForMergedMining(built.header, blockByNumber);
  // A Bitcoin header's time is 32 bits; RSK does not tie it to the RSK timestamp, so wrap it.
  const btcTime = Number(built.header.timestamp % 2n ** 32n);
  const proof = mineMergedMiningProof(forMergedMining, built.header.difficulty, btcTime);
  // No uncles on a single-node chain: cumulative difficulty is the block's own.
  return withProof(built, forMergedMining, proof, parent.totalDifficulty + built.header.difficulty);
}

/** The block `built` sealed with a merged-mining `proof` of `forMergedMining` (ours, or a merged miner's). */
export function withProof(built: Pick<BuiltBlock, 'header' | 'transactions'>, forMergedMining: Uint8Array, proof: MergedMiningProof, totalDifficulty: bigint): RskBlock {
  const header: RskHeader = {
    ...built.header,
    bitcoinMergedMiningHeader: proof.btcHeader,
    bitcoinMergedMiningMerkleProof: proof.merkleProof,
    bitcoinMergedMiningCoinbaseTransaction: proof.coinbase,
  };
  return {
    header,
    hash: blockHash(header),
    hashForMergedMining: forMergedMining,
    transactions: built.transactions,
    size: blockRlpLength(header, built.transactions),
    totalDifficulty,
  };
}
