/**
 * src/chain/evm/words.ts, word-opcodes.ts and sload.ts: words read and written without hex strings
 * equal @ethereumjs/util's, and CALLDATALOAD, KECCAK256, MLOAD and SLOAD through the node's EVM
 * answer and charge as the stock EVM does.
 */
import { describe, expect, it } from 'vitest';
import { EVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bigIntToBytes, bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { bytesWord, readWord, readWordPadded, wordBytes } from '../../src/chain/evm/words.js';
import { Execution } from '../../src/chain/exec/execution.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const A = createAddressFromString('0x00000000000000000000000000000000000000aa');

/** A deterministic byte pattern (no randomness: a failure repeats). */
function bytesOf(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 97 + ((i * i) >> 3)) & 0xff);
}

describe('readWord and readWordPadded (evm/words.ts)', () => {
  it('read the same word as bytesToBigInt, at any offset, zeros and all-ones included', () => {
    const samples = [new Uint8Array(40), new Uint8Array(40).fill(0xff), bytesOf(40, 1), bytesOf(40, 2)];
    samples[3]!.fill(0, 0, 20);
    for (const bytes of samples) {
      for (let at = 0; at + 32 <= bytes.length; at++) expect(readWord(bytes, at)).toBe(bytesToBigInt(bytes.subarray(at, at + 32)));
    }
    // Words at the edge of the small (Number) path: six, seven and eight significant bytes.
    for (const word of [2n ** 48n - 1n, 2n ** 48n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 56n, 2n ** 64n - 1n]) {
      const bytes = new Uint8Array(40);
      bytes.set(setLengthLeft(bigIntToBytes(word), 32), 3);
      expect(readWord(bytes, 3)).toBe(word);
    }
    // A view into a larger buffer reads from the view's own start.
    const outer = bytesOf(100, 3);
    expect(readWord(outer.subarray(10, 60), 5)).toBe(bytesToBigInt(outer.subarray(15, 47)));
  });

  it('pad past the end with zeros, and read 0 at or past the end', () => {
    const data = bytesOf(36, 4);
    expect(readWordPadded(data, 4)).toBe(bytesToBigInt(data.subarray(4)));
    const tail = new Uint8Array(32);
    tail.set(data.subarray(10));
    expect(readWordPadded(data, 10)).toBe(bytesToBigInt(tail));
    expect(readWordPadded(data, 36)).toBe(0n);
    expect(readWordPadded(data, 1000)).toBe(0n);
  });

  it('wordBytes and bytesWord convert as setLengthLeft(bigIntToBytes) and bytesToBigInt do', () => {
    const words = [0n, 1n, 0xffn, 0x100n, 2n ** 48n - 1n, 2n ** 48n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 56n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 160n - 1n, 2n ** 192n, 2n ** 255n, 2n ** 256n - 1n, 0x0123456789abcdefn << 100n];
    for (const word of words) {
      expect(bytesToHex(wordBytes(word))).toBe(bytesToHex(setLengthLeft(bigIntToBytes(word), 32)));
      const shortest = bigIntToBytes(word);
      expect(bytesWord(word === 0n ? new Uint8Array(0) : shortest)).toBe(word);
      expect(bytesWord(setLengthLeft(shortest, 32))).toBe(word);
    }
    expect(() => wordBytes(2n ** 256n)).toThrow(/wider than 256 bits/);
  });
});

/** Slots `install` fills (slot → value), for SLOAD: values of every length, at small and large slots. */
const STORED: [bigint, bigint][] = [
  [0n, 0x2an],
  [1n, 2n ** 256n - 1n],
  [5n, 0x0100n],
  [2n ** 160n + 7n, 0xabcdef0123456789n << 80n],
  [2n ** 256n - 1n, 2n ** 255n],
];

async function install(evm: EVM, code: string): Promise<void> {
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
  await evm.stateManager.putAccount(A, new Account(1n, 0n));
  await evm.stateManager.putCode(A, hexToBytes(code as `0x${string}`));
  for (const [slot, value] of STORED) await evm.stateManager.putStorage(A, setLengthLeft(bigIntToBytes(slot), 32), bigIntToBytes(value));
}

/** `code` on the node's EVM (with the custom opcodes) and on a stock one: return data, gas, error. */
async function both(code: string, data: Uint8Array) {
  const common = createRskCommon(33, 'unit');
  const node = (await new Execution(common, async () => undefined).vm(new MerkleStateManager({ common }))).evm as EVM;
  const stock = new EVM({ common: createRskCommon(33, 'unit'), stateManager: new MerkleStateManager({ common: createRskCommon(33, 'unit') }) });
  const results = [];
  for (const evm of [node, stock]) {
    await install(evm, code);
    const { execResult } = await evm.runCall({ caller: CALLER, origin: CALLER, to: A, data, gasLimit: 100_000n, skipBalance: true });
    results.push({ returnValue: bytesToHex(execResult.returnValue), gasUsed: execResult.executionGasUsed, error: execResult.exceptionError?.error });
  }
  expect(results[0]).toEqual(results[1]);
  return results[0]!;
}

/** PUSH32 `word` (hex without 0x, 64 digits). */
const push32 = (word: string) => `7f${word}`;

describe('CALLDATALOAD, KECCAK256 and MLOAD (evm/word-opcodes.ts, mstore.ts) through the node\'s EVM', () => {
  it('CALLDATALOAD at 0, inside, across the end, at the end, past it and at 2^255: the stock words and gas', async () => {
    const data = bytesOf(40, 5);
    for (const position of ['00', '05', '0a', '27', '28', '29', 'ff']) {
      // CALLDATALOAD(position), MSTORE at 0, RETURN 32 bytes.
      const result = await both(`0x60${position}3560005260206000f3`, data);
      const at = Number.parseInt(position, 16);
      const expected = new Uint8Array(32);
      if (at < data.length) expected.set(data.subarray(at, at + 32));
      expect(result.returnValue).toBe(bytesToHex(expected));
    }
    const huge = await both(`0x${push32('80'.padEnd(64, '0'))}3560005260206000f3`, data);
    expect(BigInt(huge.returnValue)).toBe(0n);
    // No call data at all.
    expect(BigInt((await both('0x60003560005260206000f3', new Uint8Array(0))).returnValue)).toBe(0n);
  });

  it('KECCAK256 of nothing, of one word and of 100 bytes (memory grown and charged)', async () => {
    // KECCAK256(0, 0), MSTORE at 0, RETURN.
    const empty = await both('0x6000600020600052 60206000f3'.replace(' ', ''), new Uint8Array(0));
    expect(empty.returnValue).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    // MSTORE a word at 0, KECCAK256(0, 32), and KECCAK256(7, 100) beyond the memory used so far.
    await both(`0x${push32('ab'.repeat(32))}60005260206000206000526064600720602052604060 00f3`.replace(' ', ''), new Uint8Array(0));
  });

  it('MLOAD of words written by MSTORE, at unaligned offsets and past the memory used', async () => {
    const result = await both(`0x${push32('0123456789abcdef'.repeat(4))}6003526005516000526101005160205260406000f3`, new Uint8Array(0));
    expect(BigInt(`0x${result.returnValue.slice(66)}`)).toBe(0n);
  });

  it('MSTORE, MLOAD and KECCAK256 memory gas: inside memory paid for, growing it, far past it and at 2^255 (out of gas)', async () => {
    // MSTORE at 0 twice (the second inside paid memory), MLOAD at 0xffff (grows to 2,049 words), RETURN 32 bytes.
    const grown = await both('0x602a600052602b60005261ffff5160005260206000f3', new Uint8Array(0));
    expect(grown.gasUsed).toBeGreaterThan(14_000n);
    expect(grown.error).toBeUndefined();
    // MSTORE at 2^32 and at 2^255: the charge is more than the call has.
    expect((await both('0x602a640100000000 52'.replace(' ', ''), new Uint8Array(0))).error).toBe('out of gas');
    expect((await both(`0x602a${push32('80'.padEnd(64, '0'))}52`, new Uint8Array(0))).error).toBe('out of gas');
    expect((await both(`0x${push32('80'.padEnd(64, '0'))}51`, new Uint8Array(0))).error).toBe('out of gas');
    // KECCAK256 of nothing at 2^255 (no memory charged), of 2^32 bytes (out of gas), of 33 bytes inside and across paid memory.
    expect((await both(`0x6000${push32('80'.padEnd(64, '0'))}2060005260206000f3`, new Uint8Array(0))).error).toBeUndefined();
    expect((await both('0x64010000000060002060005260206000f3', new Uint8Array(0))).error).toBe('out of gas');
    await both('0x602a60405260216000206021601f2060005260406000f3', new Uint8Array(0));
    // MLOAD just inside and just past a word already paid for (memory of one word: 0..31).
    await both('0x602a6000526000516001516020515060206000f3', new Uint8Array(0));
  });

  it('SLOAD of stored slots (values of every length), of an empty slot and of 2^256-1: the stock words and gas', async () => {
    for (const [slot, value] of [...STORED, [3n, 0n] as [bigint, bigint]]) {
      // SLOAD(slot), MSTORE at 0, RETURN 32 bytes.
      const result = await both(`0x${push32(slot.toString(16).padStart(64, '0'))}5460005260206000f3`, new Uint8Array(0));
      expect(BigInt(result.returnValue)).toBe(value);
      // PUSH32 3, SLOAD 200 (RSK, no access lists), PUSH1 + MSTORE 6 with memory, PUSH1 + PUSH1 6.
      expect(result.gasUsed).toBe(3n + 200n + 6n + 3n + 6n);
    }
  });

  it('SLOAD with too little gas for its fee fails as the stock one does', async () => {
    const common = createRskCommon(33, 'unit');
    const node = (await new Execution(common, async () => undefined).vm(new MerkleStateManager({ common }))).evm as EVM;
    const stock = new EVM({ common: createRskCommon(33, 'unit'), stateManager: new MerkleStateManager({ common: createRskCommon(33, 'unit') }) });
    const results = [];
    for (const evm of [node, stock]) {
      await install(evm, '0x600054');
      const { execResult } = await evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 202n, skipBalance: true });
      results.push({ gasUsed: execResult.executionGasUsed, error: execResult.exceptionError?.error });
    }
    expect(results[0]).toEqual({ gasUsed: 202n, error: 'out of gas' });
    expect(results[1]).toEqual(results[0]);
  });
});
