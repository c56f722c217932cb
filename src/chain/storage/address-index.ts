/**
 * The explorer's indexes, written in each block's commit batch and deleted with the block: every
 * address's transactions (as sender, recipient or the contract a transaction created), the
 * transaction of each (sender, nonce), and each contract's creator. They let Otterscan's address
 * pages (ots_searchTransactions*, ots_getTransactionBySenderAndNonce, ots_getContractCreator) read
 * only the blocks they show, never scan the chain. Only top-level facts are indexed: addresses
 * touched inside a call, and contracts a contract creates, are not: the transaction and its receipt
 * are the only cheap sources at commit time (docs/decisions.md).
 */
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import type { BlockReceipts } from '../records/receipt.js';
import { type Kv, type KvOp, addressTxPrefix, concatKey, contractCreatorKey, decodeNumber, encodeNumber, senderNoncePrefix } from './keys.js';

const EMPTY = new Uint8Array(0);
const HASH_BYTES = 32;
/** A position after a key's prefix: block number (8 bytes) and index in the block (4). */
const POSITION_BYTES = 12;
/** Above every position: the inclusive end of a prefix's range. */
const LAST_POSITION = new Uint8Array(POSITION_BYTES).fill(0xff);

/** What the index's readers use of the store (store.ts passes a view that counts what they visit). */
export type IndexKv = Pick<Kv, 'get' | 'iterator'>;

export interface TxPosition {
  blockNumber: bigint;
  index: number;
}

export interface ContractCreation {
  txHash: Uint8Array;
  creator: Uint8Array;
}

/**
 * Written byte by byte: a DataView over a new small array makes V8 move the array off its heap (an
 * allocation and a copy), for bytes that only go into a key (issue 25).
 */
function position(blockNumber: bigint, index: number): Uint8Array {
  const out = new Uint8Array(POSITION_BYTES);
  writeUint32(out, 0, Number(blockNumber >> 32n));
  writeUint32(out, 4, Number(blockNumber & 0xffff_ffffn));
  writeUint32(out, 8, index);
  return out;
}

function writeUint32(out: Uint8Array, at: number, value: number): void {
  out[at] = value >>> 24;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
}

function positionOf(key: Uint8Array): TxPosition {
  const at = key.length - POSITION_BYTES;
  return { blockNumber: decodeNumber(key, at), index: new DataView(key.buffer, key.byteOffset + at + 8, 4).getUint32(0) };
}

/** The index records of a block (puts for its commit; their keys are deleted when it is dropped). */
export function addressIndexOps(block: RskBlock, receipts: BlockReceipts): Array<KvOp & { type: 'put' }> {
  const ops: Array<KvOp & { type: 'put' }> = [];
  const number = block.header.number;
  block.transactions.forEach((tx, index) => {
    const at = position(number, index);
    const receipt = receipts.receipts[index];
    const created = tx.to === undefined && receipt?.success === true ? receipt.contractAddress : undefined;
    // One entry per distinct address: a transaction sent to oneself is listed once.
    const addresses = new Map<string, Uint8Array>();
    for (const address of [tx.from, tx.to, created]) if (address !== undefined) addresses.set(bytesToHex(address), address);
    for (const address of addresses.values()) ops.push({ type: 'put', key: concatKey(addressTxPrefix(address), at), value: EMPTY });
    ops.push({ type: 'put', key: concatKey(senderNoncePrefix(tx.from, tx.nonce), at), value: EMPTY });
    if (created !== undefined) ops.push({ type: 'put', key: contractCreatorKey(created), value: concatBytes(tx.hash, tx.from) });
  });
  return ops;
}

/** One page of an address's history, newest first, and whether older/newer entries remain. */
export interface HistoryPage {
  positions: TxPosition[];
  /** Entries remain beyond the page in the search's direction. */
  more: boolean;
}

/**
 * The address's transactions in blocks below `before` (newest first) or above `after` (oldest
 * first), at least `pageSize` of them unless the history ends, and never half a block: once the
 * page is full the scan stops at the next block boundary, as Otterscan's API documents.
 */
export async function addressHistory(kv: IndexKv, address: Uint8Array, direction: { before: bigint } | { after: bigint }, pageSize: number): Promise<HistoryPage> {
  const prefix = addressTxPrefix(address);
  const range =
    'before' in direction
      ? { gte: prefix, lt: concatBytes(prefix, encodeNumber(direction.before)), reverse: true }
      : { gt: concatBytes(prefix, position(direction.after, 0xffffffff)), lte: concatBytes(prefix, LAST_POSITION) };
  const positions: TxPosition[] = [];
  for await (const [key] of kv.iterator(range)) {
    const found = positionOf(key);
    const last = positions[positions.length - 1];
    if (last !== undefined && positions.length >= pageSize && found.blockNumber !== last.blockNumber) return { positions, more: true };
    positions.push(found);
  }
  return { positions, more: false };
}

/** Whether the address has any entry in blocks at or above, or at or below, a block number. */
export async function hasHistory(kv: IndexKv, address: Uint8Array, bound: { atOrAbove: bigint } | { atOrBelow: bigint }): Promise<boolean> {
  const prefix = addressTxPrefix(address);
  const range =
    'atOrAbove' in bound
      ? { gte: concatBytes(prefix, encodeNumber(bound.atOrAbove)), lte: concatBytes(prefix, LAST_POSITION) }
      : { gte: prefix, lte: concatBytes(prefix, position(bound.atOrBelow, 0xffffffff)) };
  for await (const _ of kv.iterator(range)) return true;
  return false;
}

/** The newest mined transaction of `sender` with `nonce` (test control can make a nonce repeat). */
export async function senderNonceTx(kv: IndexKv, sender: Uint8Array, nonce: bigint): Promise<TxPosition | undefined> {
  const prefix = senderNoncePrefix(sender, nonce);
  for await (const [key] of kv.iterator({ gte: prefix, lte: concatBytes(prefix, LAST_POSITION), reverse: true })) {
    return positionOf(key);
  }
  return undefined;
}

export async function contractCreation(kv: IndexKv, contract: Uint8Array): Promise<ContractCreation | undefined> {
  const value = await kv.get(contractCreatorKey(contract));
  return value === undefined ? undefined : { txHash: value.subarray(0, HASH_BYTES), creator: value.subarray(HASH_BYTES) };
}
