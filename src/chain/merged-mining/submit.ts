/**
 * A merged miner's solution, from the Bitcoin data of rskj's three mnr_submit* forms (reference
 * 6.5) to an imported block: parse the Bitcoin header and coinbase, take the hash after the LAST
 * `RSKBLOCK:` tag, find the work it names, build the RSK proof (compressed coinbase, RSKIP92
 * merkle proof) and let the chain validate and import it.
 *
 * The Bitcoin parsing (bitcoin/parse.ts) is written by hand rather than taken from
 * @scure/btc-signer because the tests use that library as an independent oracle: they build their
 * blocks and transactions with it (a dev dependency), which checks this code only if it does not
 * share that library's parser.
 */
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import { lastIndexOf } from '../base/bytes.js';
import { BitcoinDataError, parseBlock, parseHeader, parseTransaction } from '../bitcoin/parse.js';
import { withProof } from './seal.js';
import { type MergedMiningProof, RSK_TAG, coinbaseMerkleProof, compressCoinbase } from './proof.js';
import type { MergedMiningImport, MiningWork, WorkBook } from './work.js';

const HASH_SIZE = 32;

/** What a merged miner hands in: the 80-byte header, the coinbase (serialized without witness) and the RSKIP92 proof. */
export interface BitcoinSolution {
  btcHeader: Uint8Array;
  coinbaseTx: Uint8Array;
  merkleProof: Uint8Array;
}

/** rskj's SubmitBlockResult: OK with SubmittedBlockInfo, or ERROR with a message (-33000 on the wire). */
export type SubmitResult =
  | { ok: true; importResult: 'IMPORTED_BEST' | 'EXIST'; blockHash: Uint8Array; height: bigint }
  | { ok: false; message: string };

// ---- the three submission forms (reference 6.5) -------------------------------------------------

/** mnr_submitBitcoinBlock: the proof is built from every txid of the block. */
export function solutionFromBlock(blockBytes: Uint8Array): BitcoinSolution {
  const { header, transactions } = parseBlock(blockBytes);
  const { merkleProof } = coinbaseMerkleProof(transactions.map((tx) => tx.txid));
  return { btcHeader: header, coinbaseTx: transactions[0]!.bytes, merkleProof };
}

/**
 * mnr_submitBitcoinBlockTransactions: txids in display order, coinbase first. As in rskj, the
 * first one only holds the coinbase's place: the proof starts at the coinbase's real txid.
 */
export function solutionFromTxHashes(headerBytes: Uint8Array, coinbaseBytes: Uint8Array, txHashes: Uint8Array[]): BitcoinSolution {
  const btcHeader = parseHeader(headerBytes);
  const coinbase = parseTransaction(coinbaseBytes);
  if (txHashes.length === 0) throw new BitcoinDataError('the list of transaction hashes is empty: it starts with the coinbase');
  const internal = txHashes.map((hash) => Uint8Array.from(hash).reverse());
  return { btcHeader, coinbaseTx: coinbase.bytes, merkleProof: coinbaseMerkleProof(internal).merkleProof };
}

/**
 * mnr_submitBitcoinBlockPartialMerkle: the coinbase txid, then its siblings bottom-up, internal
 * byte order. rskj's RSKIP92 builder stores the siblings reversed and does not use the count.
 */
export function solutionFromMerkleHashes(headerBytes: Uint8Array, coinbaseBytes: Uint8Array, merkleHashes: Uint8Array[]): BitcoinSolution {
  const btcHeader = parseHeader(headerBytes);
  const coinbase = parseTransaction(coinbaseBytes);
  const siblings = merkleHashes.slice(1).map((hash) => Uint8Array.from(hash).reverse());
  return { btcHeader, coinbaseTx: coinbase.bytes, merkleProof: concatBytes(...siblings) };
}

// ---- from a solution to a block -------------------------------------------------------------------

/** The 32 bytes after the last `RSKBLOCK:` tag of the coinbase (rskj's MnrModuleImpl), if there is one. */
export function mergedMiningHashIn(coinbaseTx: Uint8Array): Uint8Array | undefined {
  const tag = lastIndexOf(coinbaseTx, RSK_TAG);
  if (tag < 0 || tag + RSK_TAG.length + HASH_SIZE > coinbaseTx.length) return undefined;
  return coinbaseTx.slice(tag + RSK_TAG.length, tag + RSK_TAG.length + HASH_SIZE);
}

/** The RSK header fields of a solution: header, compressed coinbase (reference 6.3), merkle proof. */
export function proofOf(solution: BitcoinSolution): MergedMiningProof {
  return { btcHeader: solution.btcHeader, coinbase: compressCoinbase(solution.coinbaseTx), merkleProof: solution.merkleProof };
}

/** The work's block sealed with `proof`: the same fields as the node's own sealing (seal.ts). */
export function sealWithProof(work: MiningWork, proof: MergedMiningProof): RskBlock {
  return withProof(work.view, work.hashForMergedMining, proof, work.view.totalDifficulty);
}

/** What submitSolution needs of the chain's merged mining (Chain.merged, chain/merged.ts). */
export interface SolutionImporter {
  readonly works: WorkBook;
  import(work: MiningWork, proof: MergedMiningProof): Promise<MergedMiningImport>;
}

/**
 * rskj's processSolution: find the work named in the coinbase, seal it with the solution, and
 * import it if the proof passes the RSK rules. Errors carry rskj's messages where rskj has one.
 */
export async function submitSolution(merged: SolutionImporter, solution: BitcoinSolution): Promise<SubmitResult> {
  const hash = mergedMiningHashIn(solution.coinbaseTx);
  if (hash === undefined) {
    return { ok: false, message: 'Cannot publish block, the coinbase transaction has no RSKBLOCK: tag followed by a 32-byte hash' };
  }
  const work = merged.works.find(hash);
  if (work === undefined) return { ok: false, message: `Cannot publish block, could not find hash ${bytesToHex(hash)} in the cache` };
  const outcome = await merged.import(work, proofOf(solution));
  const { block } = outcome;
  const printable = `${bytesToHex(block.hash).slice(2)} ${bytesToHex(block.hashForMergedMining).slice(2)} at height ${block.header.number}`;
  switch (outcome.status) {
    case 'imported':
      return { ok: true, importResult: 'IMPORTED_BEST', blockHash: block.hash, height: block.header.number };
    case 'exist':
      return { ok: true, importResult: 'EXIST', blockHash: block.hash, height: block.header.number };
    case 'invalid':
      // rskj's message, then why (rskj only logs the reason).
      return { ok: false, message: `Invalid block supplied by miner: ${printable}: ${outcome.reason}` };
    case 'stale':
      return {
        ok: false,
        message:
          `Cannot publish block ${printable}: its parent ${bytesToHex(block.header.parentHash)} is no longer the best block ` +
          '(or its state was changed since); this node keeps no side chains, so get new work with mnr_getWork',
      };
  }
}
