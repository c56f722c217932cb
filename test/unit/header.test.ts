import { describe, expect, it } from 'vitest';
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  type RskHeader,
  baseHashForMergedMining,
  blockHash,
  decodeHeaderFields,
  encodeHeaderForHash,
  encodeHeaderForMergedMining,
  encodeHeaderFull,
  hasMergedMiningFields,
  headerFullFields,
} from '../../src/chain/records/header.js';
import { blockRlpLength } from '../../src/chain/records/block.js';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { remascTransaction } from '../../src/chain/records/transaction.js';

const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

/** A mined header: every field set, merged-mining fields present. */
function minedHeader(overrides: Partial<RskHeader> = {}): RskHeader {
  return {
    parentHash: filled(32, 0x11),
    unclesHash: hexToBytes('1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'),
    coinbase: filled(20, 0x22),
    stateRoot: filled(32, 0x33),
    txTrieRoot: filled(32, 0x44),
    receiptTrieRoot: filled(32, 0x55),
    logsBloom: filled(256, 0x66),
    difficulty: 1n,
    number: 42n,
    gasLimit: 6_800_000n,
    gasUsed: 21_000n,
    timestamp: 1_700_000_000n,
    extraData: RLP.encode([1, 'rsk-devnode']),
    paidFees: 1_260_000_000_000n,
    minimumGasPrice: 60_000_000n,
    uncleCount: 0,
    ummRoot: new Uint8Array(0),
    bitcoinMergedMiningHeader: filled(80, 0x77),
    bitcoinMergedMiningMerkleProof: filled(64, 0x88),
    bitcoinMergedMiningCoinbaseTransaction: filled(100, 0x99),
    ...overrides,
  };
}

/** A genesis header: no merged-mining fields at all, zero number and gas used. */
function genesisHeader(): RskHeader {
  const empty = new Uint8Array(0);
  return minedHeader({
    parentHash: new Uint8Array(32),
    coinbase: filled(20, 0x33),
    number: 0n,
    gasUsed: 0n,
    timestamp: 0n,
    paidFees: 0n,
    extraData: hexToBytes('686f727365'),
    bitcoinMergedMiningHeader: empty,
    bitcoinMergedMiningMerkleProof: empty,
    bitcoinMergedMiningCoinbaseTransaction: empty,
  });
}

const decodeList = (bytes: Uint8Array) => RLP.decode(bytes) as Uint8Array[];

describe('header RLP', () => {
  it('round-trips the full form of a mined header (20 fields)', () => {
    const header = minedHeader();
    expect(hasMergedMiningFields(header)).toBe(true);
    const fields = decodeList(encodeHeaderFull(header));
    expect(fields).toHaveLength(20);
    expect(fields).toEqual(headerFullFields(header));
    expect(decodeHeaderFields(fields)).toEqual(header);
    // The merged-mining fields sit at the end, in rskj's order.
    expect(fields[17]).toEqual(header.bitcoinMergedMiningHeader);
    expect(fields[18]).toEqual(header.bitcoinMergedMiningMerkleProof);
    expect(fields[19]).toEqual(header.bitcoinMergedMiningCoinbaseTransaction);
  });

  it('encodes scalars as minimal big-endian bytes, zero as the empty string', () => {
    const fields = decodeList(encodeHeaderFull(minedHeader({ gasUsed: 0n, difficulty: 0x0100n, uncleCount: 3 })));
    expect(bytesToHex(fields[7]!)).toBe('0100');
    expect(bytesToHex(fields[8]!)).toBe('2a');
    expect(bytesToHex(fields[9]!)).toBe('67c280');
    expect(fields[10]).toEqual(new Uint8Array(0));
    expect(bytesToHex(fields[14]!)).toBe('03938700');
    expect(bytesToHex(fields[15]!)).toBe('03');
    expect(fields[16]).toEqual(new Uint8Array(0));
  });

  it('round-trips the genesis form (17 fields, no merged-mining fields)', () => {
    const header = genesisHeader();
    expect(hasMergedMiningFields(header)).toBe(false);
    const full = encodeHeaderFull(header);
    const fields = decodeList(full);
    expect(fields).toHaveLength(17);
    expect(decodeHeaderFields(fields)).toEqual(header);
    // Without merged-mining fields the full, hash and merged-mining forms are one and the same.
    expect(encodeHeaderForHash(header)).toEqual(full);
    expect(encodeHeaderForMergedMining(header)).toEqual(full);
  });

  it('refuses a field count that is neither 17 nor 20', () => {
    const fields = headerFullFields(minedHeader());
    expect(() => decodeHeaderFields(fields.slice(0, 18))).toThrow('RSK header has 18 fields');
    expect(() => decodeHeaderFields(fields.slice(0, 16))).toThrow('RSK header has 16 fields');
    expect(() => decodeHeaderFields([...fields, new Uint8Array(0)])).toThrow('RSK header has 21 fields');
  });
});

describe('block hash', () => {
  it('is keccak256 of the hash form', () => {
    for (const header of [minedHeader(), genesisHeader()]) {
      expect(blockHash(header)).toEqual(keccak_256(encodeHeaderForHash(header)));
      expect(blockHash(header)).toHaveLength(32);
    }
  });

  it('hashes the Bitcoin header but not the merkle proof or the coinbase (RSKIP92)', () => {
    const header = minedHeader();
    const fields = decodeList(encodeHeaderForHash(header));
    expect(fields).toHaveLength(18);
    expect(fields.slice(0, 17)).toEqual(headerFullFields(header).slice(0, 17));
    expect(fields[17]).toEqual(header.bitcoinMergedMiningHeader);

    const hash = bytesToHex(blockHash(header));
    const otherProof = minedHeader({ bitcoinMergedMiningMerkleProof: filled(96, 0x01) });
    const otherCoinbase = minedHeader({ bitcoinMergedMiningCoinbaseTransaction: filled(120, 0x02) });
    const neither = minedHeader({ bitcoinMergedMiningMerkleProof: filled(1, 0x03), bitcoinMergedMiningCoinbaseTransaction: filled(1, 0x04) });
    expect(bytesToHex(blockHash(otherProof))).toBe(hash);
    expect(bytesToHex(blockHash(otherCoinbase))).toBe(hash);
    expect(bytesToHex(blockHash(neither))).toBe(hash);
    // ... while the stored full form does change.
    expect(encodeHeaderFull(otherProof)).not.toEqual(encodeHeaderFull(header));

    expect(bytesToHex(blockHash(minedHeader({ bitcoinMergedMiningHeader: filled(80, 0x78) })))).not.toBe(hash);
    expect(bytesToHex(blockHash(minedHeader({ number: 43n })))).not.toBe(hash);
    expect(bytesToHex(blockHash(minedHeader({ minimumGasPrice: 60_000_001n })))).not.toBe(hash);
    expect(bytesToHex(blockHash(minedHeader({ paidFees: 0n })))).not.toBe(hash);
  });
});

describe('merged-mining form', () => {
  it('is the 17 base fields without any merged-mining field', () => {
    const header = minedHeader();
    const fields = decodeList(encodeHeaderForMergedMining(header));
    expect(fields).toHaveLength(17);
    expect(fields).toEqual(headerFullFields(header).slice(0, 17));
    expect(baseHashForMergedMining(header)).toEqual(keccak_256(encodeHeaderForMergedMining(header)));
  });

  it('does not depend on the Bitcoin header, proof or coinbase', () => {
    const header = minedHeader();
    const hash = bytesToHex(baseHashForMergedMining(header));
    const withoutMm = minedHeader({
      bitcoinMergedMiningHeader: new Uint8Array(0),
      bitcoinMergedMiningMerkleProof: new Uint8Array(0),
      bitcoinMergedMiningCoinbaseTransaction: new Uint8Array(0),
    });
    expect(bytesToHex(baseHashForMergedMining(withoutMm))).toBe(hash);
    expect(bytesToHex(baseHashForMergedMining(minedHeader({ bitcoinMergedMiningHeader: filled(80, 0x01) })))).toBe(hash);
    // Without merged-mining fields, the block hash is this same hash.
    expect(bytesToHex(blockHash(withoutMm))).toBe(hash);
    expect(bytesToHex(blockHash(header))).not.toBe(hash);
    expect(bytesToHex(baseHashForMergedMining(minedHeader({ stateRoot: filled(32, 0x34) })))).not.toBe(hash);
  });
});

describe('block size', () => {
  const key = filled(32, 0x42);
  const signed = (nonce: number, dataLength: number) =>
    createLegacyTx({ nonce, to: filled(20, 0x09), gasPrice: 60_000_000n, gasLimit: 3_000_000n, data: filled(dataLength, 0x60) }, { common: createRskCommon(31, 'rsk-testnet') })
      .sign(key)
      .serialize();

  it('adds up to the length of the block RLP [header, [transactions], []], for any block size', () => {
    const header = minedHeader();
    for (const dataLengths of [[], [0], [10, 200], [60_000], [5, 70_000, 300]]) {
      const transactions = [...dataLengths.map((length, i) => ({ ...remascTransaction(1n), raw: signed(i, length) })), remascTransaction(header.number)];
      const encoded = RLP.encode([headerFullFields(header), transactions.map((tx) => RLP.decode(tx.raw)) as never, []]);
      expect(blockRlpLength(header, transactions), `data ${dataLengths}`).toBe(encoded.length);
    }
    expect(blockRlpLength(minedHeader({ bitcoinMergedMiningHeader: new Uint8Array(0) }), [])).toBe(
      RLP.encode([headerFullFields(minedHeader({ bitcoinMergedMiningHeader: new Uint8Array(0) })), [], []]).length,
    );
  });
});
