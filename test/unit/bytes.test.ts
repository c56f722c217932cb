/** src/chain/base/bytes.ts: the byte helpers the chain's folders share. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes, utf8ToBytes } from '@ethereumjs/util';
import { compareBytes, javaInt, lastIndexOf, sha256, sha256d, unpaddedBytes } from '../../src/chain/base/bytes.js';

describe('lastIndexOf (Collections.lastIndexOfSubList)', () => {
  const tag = utf8ToBytes('RSKBLOCK:');
  it('finds the last occurrence, not the first', () => {
    const data = utf8ToBytes('xxRSKBLOCK:yyRSKBLOCK:zz');
    expect(lastIndexOf(data, tag)).toBe(13);
  });
  it('at the very start and the very end', () => {
    expect(lastIndexOf(utf8ToBytes('RSKBLOCK:abc'), tag)).toBe(0);
    expect(lastIndexOf(utf8ToBytes('abcRSKBLOCK:'), tag)).toBe(3);
  });
  it('-1 when absent, cut short, or the haystack is shorter than the needle', () => {
    expect(lastIndexOf(utf8ToBytes('RSKBLOCK'), tag)).toBe(-1);
    expect(lastIndexOf(new Uint8Array(0), tag)).toBe(-1);
    expect(lastIndexOf(utf8ToBytes('RSKBLOCX:RSKBLOCK'), tag)).toBe(-1);
  });
  it('an empty needle matches at the end, as Java', () => {
    expect(lastIndexOf(Uint8Array.of(1, 2, 3), new Uint8Array(0))).toBe(3);
  });
});

describe('compareBytes (unsigned lexicographic, a prefix first)', () => {
  it('orders bytes as unsigned, not as signed Java bytes', () => {
    expect(compareBytes(Uint8Array.of(0x7f), Uint8Array.of(0x80))).toBeLessThan(0);
    expect(compareBytes(Uint8Array.of(0xff), Uint8Array.of(0x00))).toBeGreaterThan(0);
  });
  it('orders by the first differing byte, not by length or numeric value', () => {
    expect(compareBytes(Uint8Array.of(0x02), Uint8Array.of(0x01, 0xff))).toBeGreaterThan(0);
  });
  it('a prefix sorts first; equal arrays compare 0', () => {
    expect(compareBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBeLessThan(0);
    expect(compareBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(0);
    expect(compareBytes(new Uint8Array(0), new Uint8Array(0))).toBe(0);
  });
  it('sorts compressed public keys as bitcoinj does (by their bytes)', () => {
    const keys = ['0x03aa', '0x02ff', '0x0300', '0x02'].map((h) => hexToBytes(h as `0x${string}`));
    expect(keys.sort(compareBytes).map((k) => bytesToHex(k))).toEqual(['0x02', '0x02ff', '0x0300', '0x03aa']);
  });
});

describe('sha256 and sha256d', () => {
  it('SHA-256 of "abc" (FIPS 180-2 vector)', () => {
    expect(bytesToHex(sha256(utf8ToBytes('abc')))).toBe('0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('sha256d is SHA-256 twice: Bitcoin genesis block hash', () => {
    const genesisHeader = hexToBytes(
      '0x0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c',
    );
    expect(bytesToHex(sha256d(genesisHeader).reverse())).toBe('0x000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
    const once = createHash('sha256').update(genesisHeader).digest();
    expect(bytesToHex(sha256d(genesisHeader))).toBe(bytesToHex(createHash('sha256').update(once).digest()));
  });
});

describe('javaInt (BigInteger.intValue)', () => {
  it('keeps the low 32 bits, signed', () => {
    expect(javaInt(5n)).toBe(5);
    expect(javaInt(0x7fffffffn)).toBe(2147483647);
    expect(javaInt(0x80000000n)).toBe(-2147483648);
    expect(javaInt((1n << 32n) + 32n)).toBe(32);
    expect(javaInt(-1n)).toBe(-1);
    expect(javaInt((1n << 256n) - 1n)).toBe(-1);
  });
});

describe("unpaddedBytes (@ethereumjs/util's bigIntToUnpaddedBytes without a hex string)", () => {
  it('gives the library bytes at the byte boundaries, the double limit and above', () => {
    const values = [0n, 1n, 127n, 128n, 255n, 256n, 65_535n, 65_536n, 60_000_000n, 1_700_000_000n, 2n ** 32n, 2n ** 52n + 1n];
    values.push(BigInt(Number.MAX_SAFE_INTEGER) - 1n, BigInt(Number.MAX_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER) + 1n, 2n ** 64n - 1n, 10n ** 30n);
    for (let shift = 0n; shift < 80n; shift += 7n) values.push((1n << shift) + 3n, (1n << shift) - 1n);
    for (const value of values) expect(bytesToHex(unpaddedBytes(value)), String(value)).toBe(bytesToHex(bigIntToUnpaddedBytes(value)));
  });
});
