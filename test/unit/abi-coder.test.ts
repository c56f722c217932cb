import { describe, expect, it } from 'vitest';
import { decodeAbiParameters, encodeAbiParameters, toFunctionSelector, bytesToHex as vBytesToHex } from 'viem';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalType, decodeAbi, encodeAbi, selectorOf, type AbiType, type AbiValue } from '../../src/chain/native/bridge/abi.js';

const hex = (b: Uint8Array) => '0x' + bytesToHex(b);
const params = (types: AbiType[]) => types.map((type) => ({ type }));

describe('Bridge ABI coder agrees with viem', () => {
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
    [['int256', 'string'], [2n, 'btc']],
    [['bytes', 'int256', 'bytes'], [Uint8Array.of(1, 2, 3), 5n, new Uint8Array(33).fill(9)]],
  ];
  for (const [types, values] of cases) {
    it(`encodes and decodes (${types.join(',')})`, () => {
      const viemValues = values.map((v) => (v instanceof Uint8Array ? vBytesToHex(v) : v));
      const expected = encodeAbiParameters(params(types), viemValues as never);
      const ours = encodeAbi(types, values);
      expect(hex(ours)).toBe(expected);
      const decoded = decodeAbi(types, ours).map((v) => (v instanceof Uint8Array ? hex(v) : v));
      expect(decoded).toEqual(decodeAbiParameters(params(types), expected));
    });
  }

  it('canonicalises int/uint and computes selectors as viem does', () => {
    expect(canonicalType('int')).toBe('int256');
    expect(canonicalType('uint')).toBe('uint256');
    expect(canonicalType('int64')).toBe('int64');
    expect(hex(selectorOf('getFederatorPublicKeyOfType', ['int256', 'string']))).toBe(
      toFunctionSelector('getFederatorPublicKeyOfType(int256,string)'),
    );
    expect(hex(selectorOf('registerBtcTransaction', ['bytes', 'int', 'bytes']))).toBe(
      toFunctionSelector('registerBtcTransaction(bytes,int256,bytes)'),
    );
  });

  it('refuses truncated data', () => {
    expect(() => decodeAbi(['int256'], new Uint8Array(31))).toThrow();
    expect(() => decodeAbi(['string'], encodeAbi(['int256'], [1000n]))).toThrow();
  });
});
