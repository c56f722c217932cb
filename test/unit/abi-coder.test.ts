/**
 * src/chain/native/abi.ts, the native contracts' one ABI coder: its encoding agrees with viem's,
 * and its decoding follows rskj's SolidityType where that differs from a strict standard decoder.
 */
import { describe, expect, it } from 'vitest';
import { decodeAbiParameters, encodeAbiParameters, toFunctionSelector, bytesToHex as vBytesToHex } from 'viem';
import { bytesToHex, concatBytes } from '@noble/hashes/utils.js';
import {
  AbiDecodeError,
  canonicalType,
  decodeArguments,
  encodeAbi,
  encodeBytes,
  encodeString,
  encodeUint,
  selector,
  type AbiType,
  type AbiValue,
} from '../../src/chain/native/abi.js';

const hex = (b: Uint8Array) => '0x' + bytesToHex(b);
const params = (types: AbiType[]) => types.map((type) => ({ type }));
const SEL = selector('f', []);
const call = (...words: Uint8Array[]) => concatBytes(SEL, ...words);
const toViem = (v: AbiValue): unknown => (v instanceof Uint8Array ? vBytesToHex(v) : Array.isArray(v) ? v.map(toViem) : v);
const fromOurs = (v: AbiValue): unknown => (v instanceof Uint8Array ? hex(v) : Array.isArray(v) ? v.map(fromOurs) : v);

describe('native ABI coder agrees with viem', () => {
  const cases: Array<[AbiType[], AbiValue[]]> = [
    [['int256'], [-10n]],
    [['int256'], [100_000_000_000n]],
    [['uint256'], [34_400n]],
    [['int64'], [-1n]],
    [['bool'], [true]],
    [['bool'], [false]],
    [['string'], ['2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7']],
    [['string'], ['']],
    [['bytes'], [new Uint8Array(80).fill(7)]],
    [['bytes'], [new Uint8Array(0)]],
    [['bytes32'], [new Uint8Array(32).fill(0xab)]],
    [['address'], [new Uint8Array(20).fill(0xcd)]],
    [['int256', 'string'], [2n, 'btc']],
    [['bytes', 'int256', 'bytes'], [Uint8Array.of(1, 2, 3), 5n, new Uint8Array(33).fill(9)]],
    [['int256', 'bytes[]'], [7n, [Uint8Array.of(1), new Uint8Array(0), new Uint8Array(40).fill(2)]]],
  ];
  for (const [types, values] of cases) {
    it(`encodes and decodes (${types.join(',')})`, () => {
      const expected = encodeAbiParameters(params(types), values.map(toViem) as never);
      const ours = encodeAbi(types, values);
      expect(hex(ours)).toBe(expected);
      const decoded = decodeArguments(types, concatBytes(SEL, ours)).map(fromOurs);
      const theirs = decodeAbiParameters(params(types), expected).map((v, i) => (types[i] === 'address' ? (v as string).toLowerCase() : v));
      expect(decoded).toEqual(theirs);
    });
  }

  it('the one-value encoders are abi.encode of that value', () => {
    expect(hex(encodeBytes(Uint8Array.of(1, 2)))).toBe(encodeAbiParameters([{ type: 'bytes' }], ['0x0102']));
    expect(hex(encodeString('rsk'))).toBe(encodeAbiParameters([{ type: 'string' }], ['rsk']));
    expect(hex(encodeUint(2n ** 200n))).toBe(encodeAbiParameters([{ type: 'uint256' }], [2n ** 200n]));
  });

  it('canonicalises int/uint and computes selectors as viem does', () => {
    expect(canonicalType('int')).toBe('int256');
    expect(canonicalType('uint')).toBe('uint256');
    expect(canonicalType('int64')).toBe('int64');
    expect(hex(selector('getFederatorPublicKeyOfType', ['int256', 'string']))).toBe(
      toFunctionSelector('getFederatorPublicKeyOfType(int256,string)'),
    );
    expect(hex(selector('registerBtcTransaction', ['bytes', 'int', 'bytes']))).toBe(
      toFunctionSelector('registerBtcTransaction(bytes,int256,bytes)'),
    );
  });

  it('refuses truncated data', () => {
    expect(() => decodeArguments(['int256'], call(new Uint8Array(31)))).toThrow(AbiDecodeError);
    expect(() => decodeArguments(['string'], call(encodeUint(1000n)))).toThrow(AbiDecodeError);
  });
});

describe("rskj's decoding rules (SolidityType, Utils.safeCopyOfRange)", () => {
  it('no arguments at all: integers, bools and addresses read 0, arrays are empty', () => {
    expect(decodeArguments(['int256', 'uint256', 'int64', 'bool', 'bytes[]'], SEL)).toEqual([0n, 0n, 0n, false, []]);
    expect(decodeArguments(['address'], SEL)).toEqual([new Uint8Array(20)]);
  });

  it('no arguments at all: bytes, string and bytes32 fail', () => {
    for (const type of ['bytes', 'string', 'bytes32'] as const) expect(() => decodeArguments([type], SEL)).toThrow(AbiDecodeError);
  });

  it('one byte of arguments is not "none": an integer then fails', () => {
    expect(() => decodeArguments(['int256'], call(Uint8Array.of(1)))).toThrow(AbiDecodeError);
  });

  it('integers are signed whatever the type name (new BigInteger(bytes))', () => {
    expect(decodeArguments(['uint256'], call(new Uint8Array(32).fill(0xff)))).toEqual([-1n]);
  });

  it('a bool is its low 32 bits as a Java int, not 0', () => {
    expect(decodeArguments(['bool'], call(encodeUint(1n << 32n)))).toEqual([false]);
    expect(decodeArguments(['bool'], call(encodeUint(2n)))).toEqual([true]);
  });

  it('offsets and lengths are the low 32 bits of their word (BigInteger.intValue)', () => {
    const data = call(encodeUint((1n << 32n) + 32n), encodeUint(3n), Uint8Array.of(0x61, 0x62, 0x63));
    expect(decodeArguments(['string'], data)).toEqual(['abc']);
  });

  it('a negative length fails', () => {
    expect(() => decodeArguments(['bytes'], call(encodeUint(32n), encodeUint(-1n)))).toThrow(AbiDecodeError);
  });
});
