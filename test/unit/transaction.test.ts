import { describe, expect, it } from 'vitest';
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTxFromRLP } from '@ethereumjs/tx';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { Transaction, Wallet } from 'ethers';
import { RSK_TX_PARAMS, createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { remascTransaction, txRecordFromLegacyTx, txRecordFromStored } from '../../src/chain/records/transaction.js';
import { COW, COW1 } from '../helpers/node.js';

const REMASC = hexToBytes('0000000000000000000000000000000001000008');
const ZERO = new Uint8Array(20);
const EMPTY = new Uint8Array(0);
const hex0x = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;

describe('remascTransaction', () => {
  it('has nonce = block number - 1 and nothing else set', () => {
    const tx = remascTransaction(5n);
    expect(tx).toMatchObject({
      nonce: 4n,
      gasPrice: 0n,
      gasLimit: 0n,
      value: 0n,
      v: 0n,
      r: 0n,
      s: 0n,
      isRemasc: true,
    });
    expect(tx.from).toEqual(ZERO);
    expect(tx.to).toEqual(REMASC);
    expect(tx.data).toEqual(EMPTY);
  });

  it('is the RLP of nine fields, hashed with keccak256', () => {
    const tx = remascTransaction(5n);
    expect(RLP.decode(tx.raw)).toEqual([Uint8Array.of(4), EMPTY, EMPTY, REMASC, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]);
    expect(tx.hash).toEqual(keccak_256(tx.raw));
    // Block 1's has nonce 0, an empty string in RLP.
    const first = remascTransaction(1n);
    expect(bytesToHex(first.raw)).toBe(`dd80808094${bytesToHex(REMASC)}8080808080`);
    expect(bytesToHex(first.hash)).toBe(bytesToHex(keccak_256(hexToBytes(`dd80808094${bytesToHex(REMASC)}8080808080`))));
    // A nonce above 0x7f takes a length prefix.
    expect(RLP.decode(remascTransaction(0x1235n).raw)).toEqual([Uint8Array.of(0x12, 0x34), EMPTY, EMPTY, REMASC, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]);
  });

  it('is stable: the same block gives the same hash, other blocks other hashes', () => {
    expect(remascTransaction(7n)).toEqual(remascTransaction(7n));
    const hashes = new Set([1n, 2n, 3n, 1000n].map((n) => bytesToHex(remascTransaction(n).hash)));
    expect(hashes.size).toBe(4);
  });

  it('round-trips through the stored form and is recognised as REMASC', () => {
    for (const n of [1n, 2n, 300n]) {
      const tx = remascTransaction(n);
      const stored = txRecordFromStored(tx.raw, ZERO);
      expect(stored).toEqual(tx);
      expect(stored.isRemasc).toBe(true);
    }
  });
});

describe('txRecordFromStored', () => {
  const common = createRskCommon(31, 'rsk-testnet');
  const wallet = new Wallet(COW.privateKey);

  it('rebuilds a signed legacy transfer exactly', async () => {
    const raw = await wallet.signTransaction({
      type: 0,
      chainId: 31,
      nonce: 7,
      gasPrice: 60_000_000n,
      gasLimit: 21_000n,
      to: COW1.address,
      value: 10n ** 18n,
      data: '0x',
    });
    const parsed = Transaction.from(raw);
    const record = txRecordFromStored(hexToBytes(raw.slice(2)), hexToBytes(COW.address.slice(2)));

    expect(hex0x(record.hash)).toBe(parsed.hash);
    expect(hex0x(record.raw)).toBe(raw);
    expect(hex0x(record.from)).toBe(COW.address);
    expect(record.nonce).toBe(7n);
    expect(record.gasPrice).toBe(60_000_000n);
    expect(record.gasLimit).toBe(21_000n);
    expect(hex0x(record.to!)).toBe(COW1.address);
    expect(record.value).toBe(10n ** 18n);
    expect(record.data).toEqual(EMPTY);
    // EIP-155 on chain 31: v = 31 * 2 + 35 + parity.
    expect([97n, 98n]).toContain(record.v);
    expect(record.v).toBe(parsed.signature!.networkV);
    expect(record.r).toBe(BigInt(parsed.signature!.r));
    expect(record.s).toBe(BigInt(parsed.signature!.s));
    expect(record.isRemasc).toBe(false);

    // The same record as the pool builds from the decoded transaction.
    const tx = createLegacyTxFromRLP(hexToBytes(raw.slice(2)), { common, params: RSK_TX_PARAMS });
    expect(txRecordFromLegacyTx(tx)).toEqual(record);
    expect(txRecordFromLegacyTx(tx, hexToBytes(raw.slice(2)))).toEqual(record);
    expect(txRecordFromLegacyTx(tx, hexToBytes(raw.slice(2)), tx.getSenderAddress())).toEqual(record);
  });

  it('rebuilds a contract creation (no recipient) with its data', async () => {
    const raw = await wallet.signTransaction({
      type: 0,
      chainId: 31,
      nonce: 0,
      gasPrice: 65_000_000n,
      gasLimit: 500_000n,
      value: 0n,
      data: '0x6080604052348015600e575f5ffd5b50',
    });
    const record = txRecordFromStored(hexToBytes(raw.slice(2)), hexToBytes(COW.address.slice(2)));
    expect(record.to).toBeUndefined();
    expect(hex0x(record.data)).toBe('0x6080604052348015600e575f5ffd5b50');
    expect(record.nonce).toBe(0n);
    expect(record.value).toBe(0n);
    expect(record.gasLimit).toBe(500_000n);
    expect(hex0x(record.hash)).toBe(Transaction.from(raw).hash);
    const tx = createLegacyTxFromRLP(hexToBytes(raw.slice(2)), { common, params: RSK_TX_PARAMS });
    expect(txRecordFromLegacyTx(tx)).toEqual(record);
  });

  it('does not take a signed transaction to the REMASC address for REMASC', async () => {
    const raw = await wallet.signTransaction({ type: 0, chainId: 31, nonce: 0, gasPrice: 1n, gasLimit: 21_000n, to: hex0x(REMASC), value: 0n });
    expect(txRecordFromStored(hexToBytes(raw.slice(2)), ZERO).isRemasc).toBe(false);
    expect(txRecordFromStored(hexToBytes(raw.slice(2)), hexToBytes(COW.address.slice(2))).isRemasc).toBe(false);
    // Nor the REMASC bytes stored with a non-zero sender.
    expect(txRecordFromStored(remascTransaction(3n).raw, hexToBytes(COW.address.slice(2))).isRemasc).toBe(false);
  });
});
