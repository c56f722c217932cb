/** describeRevert: revert data in words for the node's transaction log line. */
import { describe, expect, it } from 'vitest';
import { AbiCoder, id } from 'ethers';
import { hexToBytes } from '@ethereumjs/util';
import { describeRevert } from '../../src/log/revert-reason.js';

const abi = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => id(signature).slice(0, 10);
const encoded = (signature: string, types: string[], values: unknown[]) =>
  hexToBytes(`${selector(signature)}${abi.encode(types, values).slice(2)}` as `0x${string}`);

describe('describeRevert', () => {
  it('quotes an Error(string) reason', () => {
    expect(describeRevert(encoded('Error(string)', ['string'], ['x is zero']))).toBe('reverted: "x is zero"');
  });

  it('escapes control characters so a contract cannot drive the terminal', () => {
    expect(describeRevert(encoded('Error(string)', ['string'], ['\u001b[31mred\nline']))).toBe('reverted: "\\u001b[31mred\\nline"');
  });

  it('names known panic codes and shows unknown ones', () => {
    expect(describeRevert(encoded('Panic(uint256)', ['uint256'], [0x11]))).toBe('reverted: panic 0x11 (arithmetic overflow or underflow)');
    expect(describeRevert(encoded('Panic(uint256)', ['uint256'], [0x32]))).toBe('reverted: panic 0x32 (array index out of bounds)');
    expect(describeRevert(encoded('Panic(uint256)', ['uint256'], [0x99]))).toBe('reverted: panic 0x99');
  });

  it('shows a custom error as its raw data, cut after 68 bytes', () => {
    const bad = encoded('Bad(uint256)', ['uint256'], [7]);
    expect(describeRevert(bad)).toBe(`reverted with data ${selector('Bad(uint256)')}${'0'.repeat(63)}7`);
    const long = encoded('Long(uint256,uint256,uint256)', ['uint256', 'uint256', 'uint256'], [1, 2, 3]);
    expect(describeRevert(long)).toBe(`reverted with data 0x${Buffer.from(long.subarray(0, 68)).toString('hex')}...`);
  });

  it('says when there is no reason, and does not misread a truncated Error(string)', () => {
    expect(describeRevert(undefined)).toBe('reverted without a reason');
    expect(describeRevert(new Uint8Array(0))).toBe('reverted without a reason');
    const truncated = encoded('Error(string)', ['string'], ['a reason longer than the data']).subarray(0, 4 + 64 + 4);
    expect(describeRevert(truncated)).toBe(`reverted with data 0x${Buffer.from(truncated.subarray(0, 68)).toString('hex')}...`);
  });
});
