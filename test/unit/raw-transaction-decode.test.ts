/**
 * decodeRawTransaction recovers the sender once and takes the hash of the bytes as submitted
 * (pool/decode.ts): both must be what ethereumjs computes from the fields, and bytes that are not
 * the fields' canonical RLP (whose hash would differ) must be refused.
 */
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx, createLegacyTxFromBytesArray, createLegacyTxFromRLP } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, concatBytes, hexToBytes, privateToAddress, unpadBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { decodeRawTransaction } from '../../src/chain/pool/decode.js';
import { createRskCommon, rskTxOptions } from '../../src/chain/evm/rsk-common.js';
import { useFastRlp } from '../../src/chain/base/rlp.js';
import { keccak256 } from '../../src/chain/base/hash.js';
import { sign } from '../../src/chain/base/secp256k1.js';

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

describe('decodeRawTransaction, the sender', () => {
  const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const keyOf = (i: number) => keccak256(Uint8Array.of(i, 0x5e));
  /** A signature without a chain id (v 27/28), which RSK still accepts. */
  const preEip155 = (message: Uint8Array[], key: Uint8Array) => {
    const { r, s, recovery } = sign(keccak256(RLP.encode(message)), key);
    return createLegacyTxFromBytesArray([...message, bigIntToUnpaddedBytes(27n + BigInt(recovery)), unpadBytes(r), unpadBytes(s)], rskTxOptions(common));
  };

  it("is ethereumjs's for EIP-155 and pre-EIP-155 signatures, any key, nonce, value and data", () => {
    for (let i = 0; i < 40; i++) {
      const fields = { nonce: BigInt(i * 977), gasPrice: 60_000_000n + BigInt(i), gasLimit: 21_000n + BigInt(i * 1000), value: BigInt(i) ** 9n, data: new Uint8Array(i).fill(i) };
      const to = i % 5 === 0 ? undefined : '0x7986b3df570230288501eea3d890bd66948c9b79';
      const unsigned = createLegacyTx({ ...fields, to }, rskTxOptions(common));
      const signed = i % 2 === 0 ? unsigned.sign(keyOf(i)) : preEip155(unsigned.getMessageToSign().slice(0, 6), keyOf(i));
      if (i % 2 === 1) expect(signed.v! === 27n || signed.v! === 28n).toBe(true);
      const tx = decodeRawTransaction(signed.serialize(), common, 'regtest');
      expect(tx.getSenderAddress().toString(), `transaction ${i}`).toBe(createLegacyTxFromRLP(signed.serialize(), rskTxOptions(common)).getSenderAddress().toString());
      expect(tx.getSenderAddress().toString()).toBe(bytesToHex(privateToAddress(keyOf(i))));
      // Recovered by decode.ts, not by ethereumjs (which caches the key it recovers).
      expect(tx.cache.senderPubKey).toBeUndefined();
    }
  });

  it("refuses a high s (the same signature's twin) with ethereumjs's message", () => {
    const fields = RLP.decode(raw) as Uint8Array[];
    const v = bytesToBigInt(fields[6]!);
    const twin = [...fields.slice(0, 6), bigIntToUnpaddedBytes(v % 2n === 0n ? v - 1n : v + 1n), fields[7]!, bigIntToUnpaddedBytes(SECP256K1_N - bytesToBigInt(fields[8]!))];
    expect(() => decodeRawTransaction(RLP.encode(twin), common, 'regtest')).toThrow(/Invalid signature: Invalid Signature: s-values greater than secp256k1n\/2/);
  });

  it("refuses a signature that recovers no key with ethereumjs's message", () => {
    const fields = RLP.decode(raw) as Uint8Array[];
    const rAboveOrder = [...fields.slice(0, 7), new Uint8Array(32).fill(0xff), fields[8]!];
    expect(() => decodeRawTransaction(RLP.encode(rAboveOrder), common, 'regtest')).toThrow(/^Invalid signature: Invalid Signature$/);
  });
});
