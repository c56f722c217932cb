/**
 * Transactions as the chain stores and serves them: RSK accepts legacy (9-field RLP)
 * transactions only, and closes every block with an unsigned REMASC transaction.
 */
import { RLP } from '@ethereumjs/rlp';
import type { LegacyTx } from '@ethereumjs/tx';
import { type Address, bytesToBigInt } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/bytes.js';
import { keccak256 } from '../base/hash.js';
import { REMASC_ADDRESS, ZERO_ADDRESS } from '../base/addresses.js';

export interface TxRecord {
  hash: Uint8Array;
  /** The transaction's RLP, exactly as submitted (and as hashed). */
  raw: Uint8Array;
  from: Uint8Array;
  nonce: bigint;
  gasPrice: bigint;
  gasLimit: bigint;
  /** undefined for a contract creation */
  to: Uint8Array | undefined;
  value: bigint;
  data: Uint8Array;
  v: bigint;
  r: bigint;
  s: bigint;
  isRemasc: boolean;
}

/** `sender`: the recovered sender when the caller has it (ethereumjs hashes the public key again at every getSenderAddress). */
export function txRecordFromLegacyTx(tx: LegacyTx, raw: Uint8Array = tx.serialize(), sender: Address = tx.getSenderAddress()): TxRecord {
  return {
    hash: tx.hash(),
    raw,
    from: sender.bytes,
    nonce: tx.nonce,
    gasPrice: tx.gasPrice,
    gasLimit: tx.gasLimit,
    to: tx.to?.bytes,
    value: tx.value,
    data: tx.data,
    v: tx.v ?? 0n,
    r: tx.r ?? 0n,
    s: tx.s ?? 0n,
    isRemasc: false,
  };
}

/**
 * Rebuilds a record from stored bytes. The sender and hash are stored beside the RLP so that
 * reading a block never repeats signature recovery or hashing.
 */
export function txRecordFromStored(raw: Uint8Array, from: Uint8Array, hash: Uint8Array = keccak256(raw)): TxRecord {
  const fields = RLP.decode(raw) as Uint8Array[];
  const to = fields[3]!;
  const [v, r, s] = [bytesToBigInt(fields[6]!), bytesToBigInt(fields[7]!), bytesToBigInt(fields[8]!)];
  return {
    hash,
    raw,
    from,
    nonce: bytesToBigInt(fields[0]!),
    gasPrice: bytesToBigInt(fields[1]!),
    gasLimit: bytesToBigInt(fields[2]!),
    to: to.length === 0 ? undefined : to,
    value: bytesToBigInt(fields[4]!),
    data: fields[5]!,
    v,
    r,
    s,
    isRemasc: from.every((b) => b === 0) && to.length === 20 && v === 0n && r === 0n && s === 0n && isRemascAddress(to),
  };
}

function isRemascAddress(to: Uint8Array): boolean {
  return to.every((b, i) => b === REMASC_ADDRESS[i]);
}

/** rskj's RemascTransaction: nonce = block number - 1, no gas, no price, no value, no signature. */
export function remascTransaction(blockNumber: bigint): TxRecord {
  const empty = new Uint8Array(0);
  const nonce = blockNumber - 1n;
  const raw = RLP.encode([unpaddedBytes(nonce), empty, empty, REMASC_ADDRESS, empty, empty, empty, empty, empty]);
  return {
    hash: keccak256(raw),
    raw,
    from: ZERO_ADDRESS,
    nonce,
    gasPrice: 0n,
    gasLimit: 0n,
    to: REMASC_ADDRESS,
    value: 0n,
    data: empty,
    v: 0n,
    r: 0n,
    s: 0n,
    isRemasc: true,
  };
}
