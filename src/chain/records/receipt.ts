/**
 * Transaction receipts in rskj's raw form (reference 9.5): RLP [postTxState (always empty),
 * cumulativeGas, bloom, logs, gasUsed, status (0x01 success, empty on failure)]. The stored form
 * (BlockReceipts) adds the created contract's address, which RSK derives at read time, and the
 * block and transaction hashes.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/bytes.js';

export interface LogRecord {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface ReceiptRecord {
  success: boolean;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  logsBloom: Uint8Array;
  logs: LogRecord[];
  contractAddress: Uint8Array | undefined;
  /** Why execution failed ('revert', 'out of gas', ...); for the node's log, never stored. */
  vmError?: string;
  /** What a REVERT returned (an `Error(string)`, a panic, a custom error); for the log, never stored. */
  revertData?: Uint8Array;
}

const EMPTY = new Uint8Array(0);
const STATUS_SUCCESS = Uint8Array.of(1);

type RlpReceipt = [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][], Uint8Array, Uint8Array];

function rskReceiptFields(r: ReceiptRecord): RlpReceipt {
  return [
    EMPTY,
    unpaddedBytes(r.cumulativeGasUsed),
    r.logsBloom,
    r.logs.map((log) => [log.address, log.topics, log.data]) as unknown as Uint8Array[][],
    unpaddedBytes(r.gasUsed),
    r.success ? STATUS_SUCCESS : EMPTY,
  ];
}

/** rskj's raw receipt, as `rsk_getRawTransactionReceiptByHash` returns and the receipt trie holds. */
export function encodeRskReceipt(r: ReceiptRecord): Uint8Array {
  return RLP.encode(rskReceiptFields(r));
}

/**
 * A block's receipts as stored: with the block's hash and number and each transaction's hash, so
 * that log queries read this one record per block and never decode the block itself.
 */
export interface BlockReceipts {
  blockHash: Uint8Array;
  blockNumber: bigint;
  txHashes: Uint8Array[];
  receipts: ReceiptRecord[];
}

export function encodeBlockReceipts(b: BlockReceipts): Uint8Array {
  const list = b.receipts.map((r, i) => [...rskReceiptFields(r), r.contractAddress ?? EMPTY, b.txHashes[i]!]);
  return RLP.encode([b.blockHash, unpaddedBytes(b.blockNumber), list] as never);
}

/**
 * Moves a freshly executed block's byte fields (each receipt's bloom, each log's address, topics
 * and data) into one buffer for the block, as views, in place. The EVM hands each field over in a
 * buffer of its own, and the store keeps these receipts and logs for many blocks (RECENT_BLOCKS,
 * RECENT_LOGS): V8 spends about 190 bytes beside each such buffer (its ArrayBuffer and backing
 * store), more than a log's address or topic holds (issue 25). Receipts read back from the store
 * need no compacting: RLP.decode already answers views into the record's bytes.
 */
export function compactBlockReceipts(b: BlockReceipts): void {
  let size = 0;
  for (const r of b.receipts) {
    size += r.logsBloom.length;
    for (const log of r.logs) size += log.address.length + log.data.length + log.topics.reduce((sum, t) => sum + t.length, 0);
  }
  const slab = new Uint8Array(size);
  let offset = 0;
  const place = (bytes: Uint8Array): Uint8Array => {
    slab.set(bytes, offset);
    return slab.subarray(offset, (offset += bytes.length));
  };
  for (const r of b.receipts) {
    r.logsBloom = place(r.logsBloom);
    for (const log of r.logs) {
      log.address = place(log.address);
      log.topics = log.topics.map(place);
      log.data = place(log.data);
    }
  }
}

export function decodeBlockReceipts(bytes: Uint8Array): BlockReceipts {
  const [blockHash, blockNumber, list] = RLP.decode(bytes) as unknown as [Uint8Array, Uint8Array, Uint8Array[][]];
  const txHashes: Uint8Array[] = [];
  const receipts = list.map((f) => {
    txHashes.push(f[7]!);
    const logs = (f[3] as unknown as Uint8Array[][]).map((l) => ({
      address: l[0]!,
      topics: l[1] as unknown as Uint8Array[],
      data: l[2]!,
    }));
    const contractAddress = f[6]!;
    return {
      success: f[5]!.length > 0,
      cumulativeGasUsed: bytesToBigInt(f[1]!),
      gasUsed: bytesToBigInt(f[4]!),
      logsBloom: f[2]!,
      logs,
      contractAddress: contractAddress.length === 0 ? undefined : contractAddress,
    };
  });
  return { blockHash, blockNumber: bytesToBigInt(blockNumber), txHashes, receipts };
}
