/**
 * The pure half of merged-mining submissions (src/chain/merged-mining/submit.ts, with the Bitcoin
 * parsing of src/chain/bitcoin/parse.ts): Bitcoin parsing, the tag search and the three solution forms. Transactions come from @scure/btc-signer; the proofs
 * are checked with the node's validator against the node's own proof builder.
 */
import { describe, expect, it } from 'vitest';
import * as btc from '@scure/btc-signer';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { BitcoinDataError, parseBlock, parseHeader, parseTransaction } from '../../src/chain/bitcoin/parse.js';
import {
  mergedMiningHashIn,
  proofOf,
  solutionFromBlock,
  solutionFromMerkleHashes,
  solutionFromTxHashes,
} from '../../src/chain/merged-mining/submit.js';
import { RSK_TAG, coinbaseMerkleProof, validateMergedMiningProof } from '../../src/chain/merged-mining/proof.js';

const HASH = sha256(new TextEncoder().encode('work'));
const OTHER = sha256(new TextEncoder().encode('other work'));
const OPTIONS = { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true } as const;
const sha256d = (data: Uint8Array) => sha256(sha256(data));

function coinbaseTx(...hashes: Uint8Array[]): btc.Transaction {
  const tx = new btc.Transaction({ version: 1, ...OPTIONS });
  for (const hash of hashes) tx.addOutput({ script: btc.Script.encode(['RETURN', concatBytes(RSK_TAG, hash)]), amount: 0n });
  tx.addInput({ txid: new Uint8Array(32), index: 0xffffffff, finalScriptSig: new Uint8Array(80).fill(1) });
  return tx;
}

function segwitTx(): btc.Transaction {
  const tx = new btc.Transaction(OPTIONS);
  tx.addOutput({ script: btc.OutScript.encode({ type: 'wpkh', hash: new Uint8Array(20).fill(3) }), amount: 1000n });
  tx.addInput({ txid: new Uint8Array(32).fill(9), index: 1, finalScriptWitness: [new Uint8Array(72).fill(4), new Uint8Array(33).fill(2)] });
  return tx;
}

/** A header over `root` whose hash meets the difficulty-1 target (about 1 in 3 nonces do). */
function header(root: Uint8Array): Uint8Array {
  const out = new Uint8Array(80);
  const view = new DataView(out.buffer);
  out.set(root, 36);
  for (let nonce = 0; ; nonce++) {
    view.setUint32(76, nonce, true);
    if (BigInt(`0x${bytesToHex(sha256d(out).reverse())}`) <= (1n << 256n) / 3n) return out;
  }
}

describe('Bitcoin parsing', () => {
  it('keeps the non-witness serialization of a segwit transaction, whose hash is the txid', () => {
    const tx = segwitTx();
    const parsed = parseTransaction(tx.toBytes(true, true), 'tx');
    expect(bytesToHex(parsed.bytes)).toBe(bytesToHex(tx.toBytes(true, false)));
    expect(bytesToHex(Uint8Array.from(parsed.txid).reverse())).toBe(tx.id);
  });

  it('refuses truncated data, trailing bytes and a block without transactions', () => {
    const bytes = coinbaseTx(HASH).toBytes(true, false);
    expect(() => parseTransaction(bytes.subarray(0, bytes.length - 1))).toThrow(BitcoinDataError);
    expect(() => parseTransaction(concatBytes(bytes, Uint8Array.of(0)))).toThrow(/1 bytes follow the transaction/);
    expect(() => parseBlock(concatBytes(new Uint8Array(80), Uint8Array.of(0)))).toThrow(/no transactions/);
    expect(() => parseHeader(new Uint8Array(79))).toThrow(/79 bytes/);
  });

  it('takes the header of a whole block as bitcoinj does', () => {
    const head = new Uint8Array(80).fill(5);
    const block = concatBytes(head, Uint8Array.of(1), coinbaseTx(HASH).toBytes(true, false));
    expect(parseHeader(block)).toEqual(head);
  });
});

describe('mergedMiningHashIn', () => {
  it('reads the 32 bytes after the LAST RSKBLOCK: tag', () => {
    expect(mergedMiningHashIn(coinbaseTx(OTHER, HASH).toBytes(true, false))).toEqual(HASH);
    expect(mergedMiningHashIn(coinbaseTx(HASH, OTHER).toBytes(true, false))).toEqual(OTHER);
    expect(mergedMiningHashIn(coinbaseTx().toBytes(true, false))).toBeUndefined();
    expect(mergedMiningHashIn(concatBytes(new Uint8Array(10), RSK_TAG, new Uint8Array(31)))).toBeUndefined();
  });
});

describe('the three submission forms', () => {
  const coinbase = coinbaseTx(HASH);
  const others = [segwitTx(), coinbaseTx(OTHER), segwitTx()];
  const txids = [coinbase, ...others].map((tx) => hexToBytes(tx.id).reverse());
  const { merkleRoot, merkleProof } = coinbaseMerkleProof(txids);
  const btcHeader = header(merkleRoot);
  const block = concatBytes(btcHeader, Uint8Array.of(4), ...[coinbase, ...others].map((tx) => tx.toBytes(true, true)));

  it('build the same valid proof from a block, from txids and from a merkle branch', () => {
    const fromBlock = solutionFromBlock(block);
    const fromTxids = solutionFromTxHashes(btcHeader, coinbase.toBytes(true, false), txids.map((id) => Uint8Array.from(id).reverse()));
    const branch = [txids[0]!, ...Array.from({ length: merkleProof.length / 32 }, (_, i) => merkleProof.slice(i * 32, i * 32 + 32).reverse())];
    const fromBranch = solutionFromMerkleHashes(btcHeader, coinbase.toBytes(true, false), branch);
    for (const solution of [fromBlock, fromTxids, fromBranch]) {
      expect(solution.merkleProof).toEqual(merkleProof);
      expect(solution.btcHeader).toEqual(btcHeader);
      expect(solution.coinbaseTx).toEqual(coinbase.toBytes(true, false));
      expect(validateMergedMiningProof(proofOf(solution), HASH, 1n)).toEqual({ ok: true });
      expect(validateMergedMiningProof(proofOf(solution), OTHER, 1n).ok).toBe(false);
    }
  });
});
