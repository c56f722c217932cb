/**
 * JSON shapes of blocks, transactions, receipts and logs, as rskj's DTOs print them (reference
 * section 9): QUANTITY as minimal hex, DATA as even hex, nulls serialized.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { RskBlock, RskHeader, LogMatch, ReceiptRecord, TxRecord } from '../chain/index.js';

export const quantity = (n: bigint | number): string => `0x${n.toString(16)}`;

/**
 * `quantity` of the value asked last, kept: a value polled over and over (the head's number, one
 * account's balance) is written once and answered as the same string, which the envelope's own
 * memo (dispatcher.ts, serializeResponse) then recognises without comparing text (issue 25).
 */
export class QuantityMemo {
  private value: bigint | undefined;
  private text = '';

  of(n: bigint): string {
    if (n !== this.value) {
      this.text = quantity(n);
      this.value = n;
    }
    return this.text;
  }
}
export const hex = (bytes: Uint8Array): string => bytesToHex(bytes);

const ZERO_HASH = `0x${'0'.repeat(64)}`;
const EMPTY_NONCE = '0x0000000000000000';

export interface TxPosition {
  blockHash: Uint8Array;
  blockNumber: bigint;
  index: number;
}

export function formatTransaction(tx: TxRecord, position: TxPosition | undefined): Record<string, unknown> {
  return {
    hash: hex(tx.hash),
    nonce: quantity(tx.nonce),
    blockHash: position ? hex(position.blockHash) : null,
    blockNumber: position ? quantity(position.blockNumber) : null,
    transactionIndex: position ? quantity(position.index) : null,
    from: hex(tx.from),
    to: tx.to ? hex(tx.to) : null,
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(tx.gasPrice),
    value: quantity(tx.value),
    input: hex(tx.data),
    // rskj prints v with at least two hex digits ("0x1b", "0x62"); REMASC has no signature: "0x0".
    v: tx.isRemasc ? '0x0' : `0x${tx.v.toString(16).padStart(2, '0')}`,
    r: quantity(tx.r),
    s: quantity(tx.s),
    type: '0x0',
  };
}

export interface BlockView {
  header: RskHeader;
  /** undefined for the pending block */
  hash: Uint8Array | undefined;
  hashForMergedMining: Uint8Array;
  transactions: TxRecord[];
  size: number;
  totalDifficulty: bigint;
}

export function formatBlock(block: BlockView, fullTransactions: boolean, skipRemasc: boolean): Record<string, unknown> {
  const h = block.header;
  const pending = block.hash === undefined;
  const txs = skipRemasc ? block.transactions.filter((tx) => !tx.isRemasc) : block.transactions;
  return {
    number: pending ? null : quantity(h.number),
    hash: pending ? null : hex(block.hash!),
    parentHash: hex(h.parentHash),
    mixHash: ZERO_HASH,
    nonce: EMPTY_NONCE,
    sha3Uncles: hex(h.unclesHash),
    logsBloom: pending ? null : hex(h.logsBloom),
    transactionsRoot: hex(h.txTrieRoot),
    stateRoot: hex(h.stateRoot),
    receiptsRoot: hex(h.receiptTrieRoot),
    miner: pending ? null : hex(h.coinbase),
    difficulty: quantity(h.difficulty),
    totalDifficulty: quantity(block.totalDifficulty),
    extraData: hex(h.extraData),
    size: quantity(block.size),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    transactions: fullTransactions
      ? txs.map((tx, index) => formatTransaction(tx, pending ? undefined : { blockHash: block.hash!, blockNumber: h.number, index }))
      : txs.map((tx) => hex(tx.hash)),
    uncles: [],
    minimumGasPrice: quantity(h.minimumGasPrice),
    bitcoinMergedMiningHeader: hex(h.bitcoinMergedMiningHeader),
    bitcoinMergedMiningCoinbaseTransaction: hex(h.bitcoinMergedMiningCoinbaseTransaction),
    bitcoinMergedMiningMerkleProof: hex(h.bitcoinMergedMiningMerkleProof),
    hashForMergedMining: hex(block.hashForMergedMining),
    paidFees: quantity(h.paidFees),
    // No uncles on a single-node chain: the block's own difficulty (rskj adds uncles' difficulties).
    cumulativeDifficulty: quantity(h.difficulty),
    rskPteEdges: null,
    baseEvent: null,
  };
}

export function formatLog(m: LogMatch, removed = false): Record<string, unknown> {
  return {
    removed,
    logIndex: quantity(m.logIndex),
    transactionIndex: quantity(m.txIndex),
    transactionHash: hex(m.txHash),
    blockHash: hex(m.blockHash),
    blockNumber: quantity(m.blockNumber),
    address: hex(m.log.address),
    data: hex(m.log.data),
    topics: m.log.topics.map(hex),
  };
}

/** `logIndexStart`: how many logs the block's earlier transactions emitted (logIndex is per block). */
export function formatReceipt(receipt: ReceiptRecord, tx: TxRecord, block: RskBlock, index: number, logIndexStart: number): Record<string, unknown> {
  return {
    transactionHash: hex(tx.hash),
    transactionIndex: quantity(index),
    blockHash: hex(block.hash),
    blockNumber: quantity(block.header.number),
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    gasUsed: quantity(receipt.gasUsed),
    contractAddress: receipt.contractAddress ? hex(receipt.contractAddress) : null,
    logs: receipt.logs.map((log, i) =>
      formatLog({ log, blockHash: block.hash, blockNumber: block.header.number, txHash: tx.hash, txIndex: index, logIndex: logIndexStart + i }),
    ),
    from: hex(tx.from),
    to: tx.to ? hex(tx.to) : null,
    status: receipt.success ? '0x1' : '0x0',
    logsBloom: hex(receipt.logsBloom),
    type: '0x0',
    effectiveGasPrice: quantity(tx.gasPrice),
  };
}
