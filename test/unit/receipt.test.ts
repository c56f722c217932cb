import { describe, expect, it } from 'vitest';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@noble/hashes/utils.js';
import { type BlockReceipts, type ReceiptRecord, compactBlockReceipts, decodeBlockReceipts, encodeBlockReceipts, encodeRskReceipt } from '../../src/chain/records/receipt.js';

const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);
const EMPTY = new Uint8Array(0);

const deployment: ReceiptRecord = {
  success: true,
  cumulativeGasUsed: 500_123n,
  gasUsed: 479_123n,
  logsBloom: filled(256, 0x01),
  logs: [
    {
      address: filled(20, 0xaa),
      topics: [filled(32, 0x01), filled(32, 0x02), filled(32, 0x03)],
      data: Uint8Array.of(0, 0, 0, 7),
    },
    { address: filled(20, 0xbb), topics: [], data: EMPTY },
  ],
  contractAddress: filled(20, 0xcc),
};

const failed: ReceiptRecord = {
  success: false,
  cumulativeGasUsed: 21_000n,
  gasUsed: 21_000n,
  logsBloom: new Uint8Array(256),
  logs: [],
  contractAddress: undefined,
};

const remasc: ReceiptRecord = {
  success: true,
  cumulativeGasUsed: 0n,
  gasUsed: 0n,
  logsBloom: new Uint8Array(256),
  logs: [],
  contractAddress: undefined,
};

const hash = (byte: number) => new Uint8Array(32).fill(byte);
const stored = (receipts: ReceiptRecord[]): BlockReceipts => ({
  blockHash: hash(0xbb),
  blockNumber: 1234n,
  txHashes: receipts.map((_, i) => hash(i + 1)),
  receipts,
});

describe('stored block receipts', () => {
  it('round-trip with logs, contract address, failures, zero gas, block and transaction hashes', () => {
    const block = stored([deployment, failed, remasc]);
    expect(decodeBlockReceipts(encodeBlockReceipts(block))).toEqual(block);
  });

  it('round-trip an empty block', () => {
    expect(decodeBlockReceipts(encodeBlockReceipts(stored([])))).toEqual(stored([]));
  });

  it('are [blockHash, number, [RSK receipt fields ‖ contract address ‖ tx hash]]', () => {
    const [blockHash, number, list] = RLP.decode(encodeBlockReceipts(stored([deployment, failed]))) as unknown as [Uint8Array, Uint8Array, Uint8Array[][]];
    expect(blockHash).toEqual(hash(0xbb));
    expect(bytesToHex(number)).toBe('04d2');
    expect(list).toHaveLength(2);
    expect(list[0]).toHaveLength(8);
    expect(list[0]!.slice(0, 6)).toEqual(RLP.decode(encodeRskReceipt(deployment)));
    expect(list[0]![6]).toEqual(deployment.contractAddress);
    expect(list[1]![6]).toEqual(EMPTY);
    expect(list[1]![7]).toEqual(hash(2));
  });
});

describe('compactBlockReceipts (issue 25: one buffer per kept block, not one per field)', () => {
  const copy = (r: ReceiptRecord): ReceiptRecord => ({
    ...r,
    logsBloom: r.logsBloom.slice(),
    logs: r.logs.map((l) => ({ address: l.address.slice(), topics: l.topics.map((t) => t.slice()), data: l.data.slice() })),
  });

  it('keeps every value and the stored encoding, with every byte field a view into one buffer', () => {
    const block = stored([copy(deployment), copy(failed), copy(remasc)]);
    const before = encodeBlockReceipts(block);
    const logObjects = block.receipts.flatMap((r) => r.logs);
    compactBlockReceipts(block);
    expect(block).toEqual(stored([deployment, failed, remasc]));
    expect(encodeBlockReceipts(block)).toEqual(before);
    // The same log objects (the RPC layer's JSON cache is keyed by identity), their fields moved.
    expect(block.receipts.flatMap((r) => r.logs)).toEqual(logObjects);
    block.receipts.flatMap((r) => r.logs).forEach((log, i) => expect(log).toBe(logObjects[i]));
    const fields = block.receipts.flatMap((r) => [r.logsBloom, ...r.logs.flatMap((l) => [l.address, ...l.topics, l.data])]);
    const buffers = new Set(fields.map((f) => f.buffer));
    expect(buffers.size).toBe(1);
    expect([...buffers][0]!.byteLength).toBe(fields.reduce((sum, f) => sum + f.length, 0));
  });

  it('leaves the arrays it was handed untouched and does not alias them', () => {
    const original = copy(deployment);
    const topic = original.logs[0]!.topics[0]!;
    const block = stored([original]);
    compactBlockReceipts(block);
    block.receipts[0]!.logs[0]!.topics[0]![0] = 0xff;
    expect(topic).toEqual(filled(32, 0x01));
  });

  it('handles a block without receipts', () => {
    const block = stored([]);
    compactBlockReceipts(block);
    expect(block).toEqual(stored([]));
  });
});

describe('encodeRskReceipt', () => {
  it('lays out rskj raw receipt: [postTxState, cumulativeGas, bloom, logs, gasUsed, status]', () => {
    const fields = RLP.decode(encodeRskReceipt(deployment)) as unknown as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][], Uint8Array, Uint8Array];
    expect(fields).toHaveLength(6);
    expect(fields[0]).toEqual(EMPTY);
    expect(bytesToHex(fields[1])).toBe('07a19b'); // 500123
    expect(fields[2]).toEqual(deployment.logsBloom);
    expect(fields[3]).toEqual([
      [filled(20, 0xaa), [filled(32, 0x01), filled(32, 0x02), filled(32, 0x03)], Uint8Array.of(0, 0, 0, 7)],
      [filled(20, 0xbb), [], EMPTY],
    ]);
    expect(bytesToHex(fields[4])).toBe('074f93'); // 479123
    expect(fields[5]).toEqual(Uint8Array.of(0x01));
  });

  it('writes an empty status for a failed transaction and empty gas for zero', () => {
    const failedFields = RLP.decode(encodeRskReceipt(failed)) as Uint8Array[];
    expect(failedFields).toHaveLength(6);
    expect(failedFields[5]).toEqual(EMPTY);
    expect(failedFields[3]).toEqual([]);
    expect(bytesToHex(failedFields[1]!)).toBe('5208');
    const remascFields = RLP.decode(encodeRskReceipt(remasc)) as Uint8Array[];
    expect(remascFields[1]).toEqual(EMPTY);
    expect(remascFields[4]).toEqual(EMPTY);
    expect(remascFields[5]).toEqual(Uint8Array.of(0x01));
  });

  it('does not carry the contract address', () => {
    expect(encodeRskReceipt(deployment)).toEqual(encodeRskReceipt({ ...deployment, contractAddress: undefined }));
  });
});
