/**
 * Bitcoin regtest blocks as the node mines them: the coinbase (BIP34 height, BIP141 witness
 * commitment when a transaction carries witness data), the merkle roots, the 80-byte header and
 * its proof of work, ground nonce by nonce against the target of its bits. The serialized block is
 * what a bitcoind `getblock <hash> 0` would give: header, CompactSize count, transactions with
 * their witnesses.
 */
import { concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { sha256d } from '../base/bytes.js';
import { BTC_HEADER_SIZE, u32le, u64le, varInt } from '../bitcoin/encoding.js';
import { GENESIS_COINBASE_HEX, GENESIS_NONCE, GENESIS_TIME, GENESIS_VERSION, REGTEST_BITS } from './constants.js';
import { merkleRoot } from './merkle.js';
import { type BtcTransaction, parseTransaction } from './transaction.js';

export interface BtcBlock {
  height: number;
  header: Uint8Array;
  /** Double SHA-256 of the header, internal byte order. */
  hash: Uint8Array;
  /** The coinbase first. */
  transactions: BtcTransaction[];
}

const OP_0 = 0x00;
const OP_RETURN = 0x6a;
/** BIP141: the commitment output's script starts OP_RETURN, push 36, aa21a9ed. */
const WITNESS_COMMITMENT_HEADER = Uint8Array.of(OP_RETURN, 0x24, 0xaa, 0x21, 0xa9, 0xed);
/** BIP141's witness reserved value, the coinbase's only witness item: 32 zero bytes. */
const WITNESS_RESERVED_VALUE = new Uint8Array(32);
const NULL_OUTPOINT = concatBytes(new Uint8Array(32), u32le(0xffffffff));
const SEQUENCE_FINAL = 0xffffffff;
/** The nonce is a uint32: past it the time moves on a second (never needed at regtest's target). */
const NONCE_SPACE = 2 ** 32;

/** The target of compact `bits`: mantissa × 256^(exponent − 3). */
export function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** A hash in internal byte order read as the little-endian number proof of work compares. */
export function hashValue(hash: Uint8Array): bigint {
  let value = 0n;
  for (let i = hash.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(hash[i]!);
  return value;
}

/** BIP34: the height as a minimal script number push (CScript() << nHeight). */
function heightPush(height: number): Uint8Array {
  if (height >= 1 && height <= 16) return Uint8Array.of(0x50 + height);
  const bytes: number[] = [];
  for (let v = height; v > 0; v = Math.floor(v / 256)) bytes.push(v & 0xff);
  if (bytes[bytes.length - 1]! & 0x80) bytes.push(0);
  return Uint8Array.of(bytes.length, ...bytes);
}

/**
 * The coinbase of block `height` (bitcoind's miner: scriptSig = height, OP_0), paying `value` to
 * `script`, with the witness commitment output and the reserved value when `witnessRoot` is given.
 */
function coinbase(height: number, value: bigint, script: Uint8Array, witnessRoot: Uint8Array | undefined): Uint8Array {
  const scriptSig = concatBytes(heightPush(height), Uint8Array.of(OP_0));
  const outputs = [concatBytes(u64le(value), varInt(script.length), script)];
  if (witnessRoot !== undefined) {
    const commitment = concatBytes(WITNESS_COMMITMENT_HEADER, sha256d(concatBytes(witnessRoot, WITNESS_RESERVED_VALUE)));
    outputs.push(concatBytes(u64le(0n), varInt(commitment.length), commitment));
  }
  const body = concatBytes(varInt(1), NULL_OUTPOINT, varInt(scriptSig.length), scriptSig, u32le(SEQUENCE_FINAL), varInt(outputs.length), ...outputs);
  if (witnessRoot === undefined) return concatBytes(u32le(2), body, u32le(0));
  const witness = concatBytes(varInt(1), varInt(WITNESS_RESERVED_VALUE.length), WITNESS_RESERVED_VALUE);
  return concatBytes(u32le(2), Uint8Array.of(0x00, 0x01), body, witness, u32le(0));
}

function header(version: number, parent: Uint8Array, root: Uint8Array, time: number, bits: number, nonce: number): Uint8Array {
  return concatBytes(u32le(version), parent, root, u32le(time), u32le(bits), u32le(nonce));
}

/** The witness merkle root (BIP141) of a block's transactions: over the wtxids, the coinbase's counted as zero. */
export function witnessRoot(transactions: readonly BtcTransaction[]): Uint8Array {
  return merkleRoot(witnessHashes(transactions));
}

/** The leaves of the witness tree: the coinbase's wtxid is zero (BIP141). */
export function witnessHashes(transactions: readonly BtcTransaction[]): Uint8Array[] {
  return [new Uint8Array(32), ...transactions.slice(1).map((tx) => tx.wtxid)];
}

export interface BlockTemplate {
  height: number;
  parent: Uint8Array;
  time: number;
  version: number;
  /** Subsidy plus the fees of `transactions`. */
  coinbaseValue: bigint;
  coinbaseScript: Uint8Array;
  /** Everything but the coinbase, parents before children. */
  transactions: readonly BtcTransaction[];
}

/** Builds the block and grinds its nonce until the header's hash meets regtest's target. */
export function mineBlock(t: BlockTemplate): BtcBlock {
  const withWitness = t.transactions.some((tx) => tx.hasWitness);
  // The coinbase's own place counts as zero in the witness tree, so any stand-in will do there.
  const wRoot = withWitness ? witnessRoot([t.transactions[0]!, ...t.transactions]) : undefined;
  const transactions = [parseTransaction(coinbase(t.height, t.coinbaseValue, t.coinbaseScript, wRoot)), ...t.transactions];
  const root = merkleRoot(transactions.map((tx) => tx.txid));
  const target = targetOf(REGTEST_BITS);
  for (let time = t.time; ; time++) {
    const candidate = header(t.version, t.parent, root, time, REGTEST_BITS, 0);
    const view = new DataView(candidate.buffer);
    for (let nonce = 0; nonce < NONCE_SPACE; nonce++) {
      view.setUint32(76, nonce, true);
      const hash = sha256d(candidate);
      if (hashValue(hash) <= target) return { height: t.height, header: candidate, hash, transactions };
    }
  }
}

let genesis: BtcBlock | undefined;
/** Regtest's genesis block (its proof of work is the one bitcoind's genesis carries); built on first use, then shared. */
export function genesisBlock(): BtcBlock {
  if (genesis === undefined) {
    const tx = parseTransaction(hexToBytes(GENESIS_COINBASE_HEX));
    const head = header(GENESIS_VERSION, new Uint8Array(32), tx.txid, GENESIS_TIME, REGTEST_BITS, GENESIS_NONCE);
    genesis = { height: 0, header: head, hash: sha256d(head), transactions: [tx] };
  }
  return genesis;
}

/** The block as Bitcoin serializes it (header, count, transactions with witnesses). */
export function serializeBlock(block: BtcBlock): Uint8Array {
  return concatBytes(block.header, varInt(block.transactions.length), ...block.transactions.map((tx) => tx.raw));
}

/**
 * The stored form of a block (the chain's LevelDB): the header, then each transaction as a uint32
 * LE length and its bytes, so it reads back without parsing scripts to find where each one ends.
 */
export function encodeStoredBlock(block: BtcBlock): Uint8Array {
  return concatBytes(block.header, ...block.transactions.flatMap((tx) => [u32le(tx.raw.length), tx.raw]));
}

export function decodeStoredBlock(bytes: Uint8Array, height: number): BtcBlock {
  const head = Uint8Array.from(bytes.subarray(0, BTC_HEADER_SIZE));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const transactions: BtcTransaction[] = [];
  for (let offset = BTC_HEADER_SIZE; offset < bytes.length; ) {
    const length = view.getUint32(offset, true);
    transactions.push(parseTransaction(bytes.slice(offset + 4, offset + 4 + length)));
    offset += 4 + length;
  }
  return { height, header: head, hash: sha256d(head), transactions };
}
