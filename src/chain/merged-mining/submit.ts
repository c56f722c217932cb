/**
 * A merged miner's solution, from the Bitcoin data of rskj's three mnr_submit* forms (reference
 * 6.5) to an imported block: parse the Bitcoin header and coinbase, take the hash after the LAST
 * `RSKBLOCK:` tag, find the work it names, build the RSK proof (compressed coinbase, RSKIP92
 * merkle proof) and let the chain validate and import it.
 *
 * Written by hand: the only Bitcoin structures involved are a transaction and an 80-byte header,
 * and no maintained library parses a BTC transaction without pulling in a wallet (the tests build
 * their blocks with @scure/btc-signer, independently of this file).
 */
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import { lastIndexOf, sha256d } from '../base/bytes.js';
import { withProof } from './seal.js';
import { type MergedMiningProof, RSK_TAG, coinbaseMerkleProof, compressCoinbase } from './proof.js';
import type { MergedMiningImport, MiningWork, WorkBook } from './work.js';

const BTC_HEADER_SIZE = 80;
const HASH_SIZE = 32;

/** Bitcoin data that cannot be parsed; the RPC layer answers invalid params with the reason. */
export class BitcoinDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BitcoinDataError';
  }
}

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

// ---- Bitcoin parsing --------------------------------------------------------------------------

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  take(n: number, what: string): Uint8Array {
    if (n < 0 || this.offset + n > this.bytes.length) {
      throw new BitcoinDataError(`${what}: needs ${n} bytes at offset ${this.offset}, only ${this.bytes.length - this.offset} left`);
    }
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  varInt(what: string): number {
    const first = this.take(1, what)[0]!;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    const bytes = this.take(size, what);
    let n = 0n;
    for (let i = size - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
    // Every count is bounded by the bytes left; a larger one cannot be honest.
    if (n > BigInt(this.bytes.length)) throw new BitcoinDataError(`${what}: count ${n} is larger than the data`);
    return Number(n);
  }
}

/** One transaction: its serialization without witness (what its txid hashes) and the txid, internal order. */
interface BtcTx {
  bytes: Uint8Array;
  txid: Uint8Array;
}

/** Reads a transaction in either serialization (BIP144 segwit or legacy); keeps the non-witness form. */
function readTransaction(r: Reader, what: string): BtcTx {
  const start = r.offset;
  const version = r.take(4, `${what} version`);
  let segwit = false;
  if (r.bytes[r.offset] === 0 && r.bytes[r.offset + 1] === 1) {
    segwit = true;
    r.take(2, `${what} segwit marker`);
  }
  const bodyStart = r.offset;
  const inputs = r.varInt(`${what} input count`);
  if (inputs === 0) throw new BitcoinDataError(`${what}: a transaction needs at least one input`);
  for (let i = 0; i < inputs; i++) {
    r.take(36, `${what} input ${i} outpoint`);
    r.take(r.varInt(`${what} input ${i} script length`), `${what} input ${i} script`);
    r.take(4, `${what} input ${i} sequence`);
  }
  const outputs = r.varInt(`${what} output count`);
  for (let i = 0; i < outputs; i++) {
    r.take(8, `${what} output ${i} value`);
    r.take(r.varInt(`${what} output ${i} script length`), `${what} output ${i} script`);
  }
  const body = r.bytes.subarray(bodyStart, r.offset);
  if (segwit) {
    for (let i = 0; i < inputs; i++) {
      const items = r.varInt(`${what} witness ${i} item count`);
      for (let j = 0; j < items; j++) r.take(r.varInt(`${what} witness ${i} item length`), `${what} witness ${i} item`);
    }
  }
  const lockTime = r.take(4, `${what} lock time`);
  const bytes = segwit ? concatBytes(version, body, lockTime) : r.bytes.subarray(start, r.offset);
  return { bytes, txid: sha256d(bytes) };
}

/** A serialized transaction, nothing before or after it. */
export function parseTransaction(bytes: Uint8Array, what = 'coinbase'): BtcTx {
  const r = new Reader(bytes);
  const tx = readTransaction(r, what);
  if (r.offset !== bytes.length) throw new BitcoinDataError(`${what}: ${bytes.length - r.offset} bytes follow the transaction`);
  return tx;
}

/** A serialized block: the 80-byte header, the transaction count and the transactions. */
export function parseBlock(bytes: Uint8Array): { header: Uint8Array; transactions: BtcTx[] } {
  const r = new Reader(bytes);
  const header = r.take(BTC_HEADER_SIZE, 'block header');
  const count = r.varInt('block transaction count');
  if (count === 0) throw new BitcoinDataError('block: no transactions, a merged-mined block needs its coinbase');
  const transactions: BtcTx[] = [];
  for (let i = 0; i < count; i++) transactions.push(readTransaction(r, i === 0 ? 'coinbase' : `transaction ${i}`));
  if (r.offset !== bytes.length) throw new BitcoinDataError(`block: ${bytes.length - r.offset} bytes follow its transactions`);
  return { header, transactions };
}

/** An 80-byte header, or a whole block whose header is taken (bitcoinj's makeBlock reads either). */
export function parseHeader(bytes: Uint8Array): Uint8Array {
  if (bytes.length === BTC_HEADER_SIZE) return bytes;
  if (bytes.length < BTC_HEADER_SIZE) throw new BitcoinDataError(`block header: ${bytes.length} bytes, a Bitcoin header has ${BTC_HEADER_SIZE}`);
  return parseBlock(bytes).header;
}

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
