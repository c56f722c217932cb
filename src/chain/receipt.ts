/**
 * Transaction receipts in rskj's raw form (reference 9.5): RLP [postTxState (always empty),
 * cumulativeGas, bloom, logs, gasUsed, status (0x01 success, empty on failure)]. The stored form
 * appends the created contract's address, which RSK derives at read time.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

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
}

const EMPTY = new Uint8Array(0);
const STATUS_SUCCESS = Uint8Array.of(1);

type RlpReceipt = [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][], Uint8Array, Uint8Array];

function rskReceiptFields(r: ReceiptRecord): RlpReceipt {
  return [
    EMPTY,
    bigIntToUnpaddedBytes(r.cumulativeGasUsed),
    r.logsBloom,
    r.logs.map((log) => [log.address, log.topics, log.data]) as unknown as Uint8Array[][],
    bigIntToUnpaddedBytes(r.gasUsed),
    r.success ? STATUS_SUCCESS : EMPTY,
  ];
}

/** rskj's raw receipt, as `rsk_getRawTransactionReceiptByHash` returns and the receipt trie holds. */
export function encodeRskReceipt(r: ReceiptRecord): Uint8Array {
  return RLP.encode(rskReceiptFields(r));
}

export function encodeStoredReceipts(receipts: ReceiptRecord[]): Uint8Array {
  return RLP.encode(receipts.map((r) => [...rskReceiptFields(r), r.contractAddress ?? EMPTY]) as never);
}

export function decodeStoredReceipts(bytes: Uint8Array): ReceiptRecord[] {
  const list = RLP.decode(bytes) as unknown as Uint8Array[][];
  return list.map((f) => {
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
}
