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

  it('shows an unknown custom error as its selector and argument data apart, the arguments cut after 64 bytes', () => {
    const bad = encoded('Bad(uint256)', ['uint256'], [7]);
    expect(describeRevert(bad)).toBe(`reverted with error ${selector('Bad(uint256)')} (args 0x${'0'.repeat(63)}7)`);
    const long = encoded('Long(uint256,uint256,uint256)', ['uint256', 'uint256', 'uint256'], [1, 2, 3]);
    expect(describeRevert(long)).toBe(`reverted with error ${selector('Long(uint256,uint256,uint256)')} (args 0x${Buffer.from(long.subarray(4, 68)).toString('hex')}...)`);
    expect(describeRevert(encoded('Halted()', [], []))).toBe(`reverted with error ${selector('Halted()')} (no args)`);
    expect(describeRevert(Uint8Array.of(1, 2))).toBe('reverted with data 0x0102');
  });

  it("names OpenZeppelin's standard custom errors with their arguments", () => {
    const holder = '0x7986b3df570230288501eea3d890bd66948c9b79';
    expect(describeRevert(encoded('ERC20InsufficientBalance(address,uint256,uint256)', ['address', 'uint256', 'uint256'], [holder, 5, 100]))).toBe(
      `reverted: ERC20InsufficientBalance(${holder}, 5, 100)`,
    );
    const role = `0x${'ab'.repeat(32)}`;
    expect(describeRevert(encoded('AccessControlUnauthorizedAccount(address,bytes32)', ['address', 'bytes32'], [holder, role]))).toBe(
      `reverted: AccessControlUnauthorizedAccount(${holder}, ${role})`,
    );
    expect(describeRevert(encoded('EnforcedPause()', [], []))).toBe('reverted: EnforcedPause()');
  });

  it('says when there is no reason, and does not misread a truncated Error(string)', () => {
    expect(describeRevert(undefined)).toBe('reverted without a reason');
    expect(describeRevert(new Uint8Array(0))).toBe('reverted without a reason');
    const truncated = encoded('Error(string)', ['string'], ['a reason longer than the data']).subarray(0, 4 + 64 + 4);
    expect(describeRevert(truncated)).toBe(`reverted with error 0x08c379a0 (args 0x${Buffer.from(truncated.subarray(4, 68)).toString('hex')}...)`);
  });
});
