/**
 * decodeRawTransaction recovers the sender once and takes the hash of the bytes as submitted
 * (pool/decode.ts): both must be what ethereumjs computes from the fields, and bytes that are not
 * the fields' canonical RLP (whose hash would differ) must be refused.
 */
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { decodeRawTransaction } from '../../src/chain/pool/decode.js';
import { createRskCommon, rskTxOptions } from '../../src/chain/evm/rsk-common.js';
import { useFastRlp } from '../../src/chain/base/rlp.js';

useFastRlp();
const common = createRskCommon(33, 'regtest');
const key = hexToBytes('0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4');
const signed = createLegacyTx(
  { nonce: 7n, gasPrice: 80_000_000n, gasLimit: 60_000n, to: '0x7986b3df570230288501eea3d890bd66948c9b79', data: new Uint8Array(68).fill(1) },
  rskTxOptions(common),
).sign(key);
const raw = signed.serialize();

describe('decodeRawTransaction', () => {
  it("answers ethereumjs's sender and hash, the same objects at every call", () => {
    const tx = decodeRawTransaction(raw, common, 'regtest');
    expect(tx.getSenderAddress().toString()).toBe(signed.getSenderAddress().toString());
    expect(bytesToHex(tx.hash())).toBe(bytesToHex(signed.hash()));
    expect(tx.getSenderAddress()).toBe(tx.getSenderAddress());
    expect(tx.hash()).toBe(tx.hash());
    expect(bytesToHex(tx.serialize())).toBe(bytesToHex(raw));
  });

  it('refuses the same fields in a non-canonical RLP (a longer length prefix, trailing bytes)', () => {
    // raw is 0xf8 <length> ...: the same list with its length in two bytes (0xf9 0x00 <length>).
    expect(raw[0]).toBe(0xf8);
    const longPrefix = concatBytes(Uint8Array.of(0xf9, 0x00, raw[1]!), raw.subarray(2));
    expect(() => decodeRawTransaction(longPrefix, common, 'regtest')).toThrow(/Invalid input/);
    expect(() => decodeRawTransaction(concatBytes(raw, Uint8Array.of(0)), common, 'regtest')).toThrow(/Invalid input/);
  });
});

describe('decodeRawTransaction, the object', () => {
  it('is frozen, as ethereumjs leaves a transaction, so that it caches its data gas', () => {
    const tx = decodeRawTransaction(raw, common, 'regtest');
    expect(Object.isFrozen(tx)).toBe(true);
    expect(tx.getDataGas()).toBe(signed.getDataGas());
    expect(tx.getIntrinsicGas()).toBe(signed.getIntrinsicGas());
  });
});
