/**
 * Seals a built block the way RSK's merged mining does: hashForMergedMining from the header
 * without merged-mining fields (plus RSKIP110 fork detection data once the chain is long enough),
 * a Bitcoin block whose coinbase commits to it and whose header meets the block's difficulty,
 * then the block hash over the header with the Bitcoin header.
 */
import { equalsBytes } from '@ethereumjs/util';
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

/**
 * The BTC header hashes of a height's seven fork detection ancestors, kept for the last start
 * height read: the same seven serve 64 heights in a row, and three of them lie beyond the store's
 * recent-block cache, so reading them for every block decoded three old blocks per block mined.
 * They are kept with the hash of the block at the start height and read again when that differs
 * (a chain reverted and mined again), so they are always the current chain's.
 */
export class ForkDetectionAncestors {
  private last: { start: bigint; anchor: Uint8Array; hashes: Array<Uint8Array | undefined> } | undefined;

  constructor(private readonly blockByNumber: BlockByNumber) {}

  async btcHeaderHashes(heightOfBlockBeingMined: bigint): Promise<Array<Uint8Array | undefined>> {
    const heights = forkDetectionAncestorHeights(heightOfBlockBeingMined);
    const start = heights[0]!;
    const anchor = await this.blockByNumber(start);
    const last = this.last;
    if (anchor !== undefined && last !== undefined && last.start === start && equalsBytes(last.anchor, anchor.hash)) return last.hashes;
    const hashes = await Promise.all(heights.map(async (height) => btcHashOf(height === start ? anchor : await this.blockByNumber(height))));
    this.last = anchor === undefined ? undefined : { start, anchor: anchor.hash, hashes };
    return hashes;
  }
}

function btcHashOf(block: RskBlock | undefined): Uint8Array | undefined {
  return block === undefined || block.header.bitcoinMergedMiningHeader.length === 0 ? undefined : btcHeaderHash(block.header.bitcoinMergedMiningHeader);
}

export async function hashForMergedMining(header: RskHeader, ancestors: ForkDetectionAncestors): Promise<Uint8Array> {
  const hash = baseHashForMergedMining(header);
  if (header.number < FORK_DETECTION_MIN_HEIGHT) return hash;
  hash.set(forkDetectionData(await ancestors.btcHeaderHashes(header.number), 0, header.number), FORK_DETECTION_OFFSET);
  return hash;
}

export async function sealBlock(built: BuiltBlock, parent: RskBlock, ancestors: ForkDetectionAncestors): Promise<RskBlock> {
  const forMergedMining = await hashForMergedMining(built.header, ancestors);
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
