/**
 * Which records a committed RSK block writes, and which its removal (evm_revert) deletes: the
 * block, its receipts, the hash and transaction indexes, its log postings and address-index
 * entries. One place for both, so a record kind added to one side cannot be forgotten on the other.
 */
import type { RskBlock } from '../records/block.js';
import type { BlockReceipts } from '../records/receipt.js';
import { addressIndexOps } from './address-index.js';
import { logIndexKeys } from './log-index.js';
import { type KvOp, blockKey, encodeNumber, hashToNumberKey, irregularStateMeta, metaKey, receiptsKey, recordBytes, txLocationKey } from './keys.js';

const EMPTY = new Uint8Array(0);

/** A block's records: the block, its receipts, the hash, transaction and address indexes and its log postings. */
export function blockRecordOps(block: RskBlock, receipts: BlockReceipts, blockBytes: Uint8Array, receiptBytes: Uint8Array): KvOp[] {
  const number = block.header.number;
  const ops: KvOp[] = [
    { type: 'put', key: blockKey(number), value: blockBytes },
    { type: 'put', key: receiptsKey(number), value: receiptBytes },
    { type: 'put', key: hashToNumberKey(block.hash), value: encodeNumber(number) },
  ];
  block.transactions.forEach((tx, index) => {
    const location = recordBytes(12);
    const view = new DataView(location.buffer, location.byteOffset, 12);
    view.setBigUint64(0, number);
    view.setUint32(8, index);
    ops.push({ type: 'put', key: txLocationKey(tx.hash), value: location });
  });
  for (const key of logIndexKeys(number, receipts.receipts)) ops.push({ type: 'put', key, value: EMPTY });
  ops.push(...addressIndexOps(block, receipts));
  return ops;
}

/** The deletes that remove a block's records (and its irregular-state record) from the store. */
export function blockRecordDeletes(block: RskBlock, receipts: BlockReceipts): KvOp[] {
  const number = block.header.number;
  const ops: KvOp[] = [
    { type: 'del', key: blockKey(number) },
    { type: 'del', key: receiptsKey(number) },
    { type: 'del', key: hashToNumberKey(block.hash) },
    { type: 'del', key: metaKey(irregularStateMeta(block.hash)) },
  ];
  for (const tx of block.transactions) ops.push({ type: 'del', key: txLocationKey(tx.hash) });
  for (const key of logIndexKeys(number, receipts.receipts)) ops.push({ type: 'del', key });
  for (const { key } of addressIndexOps(block, receipts)) ops.push({ type: 'del', key });
  return ops;
}
