import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256, wasmKeccakLoaded } from '../../src/chain/base/hash.js';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';

/** Inputs of every length around the Keccak-256 block size (136 bytes) and the sizes trie nodes have. */
const LENGTHS = [0, 1, 31, 32, 33, 64, 135, 136, 137, 200, 271, 272, 273, 532, 600, 5000];

function input(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7) % 256);
}

describe('keccak256', () => {
  it('gives the known digests before and after the WebAssembly Keccak is loaded', async () => {
    const empty = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
    const abc = '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45';
    expect(bytesToHex(keccak256(new Uint8Array(0)))).toBe(empty);
    expect(await wasmKeccakLoaded()).toBe(true);
    expect(bytesToHex(keccak256(new Uint8Array(0)))).toBe(empty);
    expect(bytesToHex(keccak256(utf8ToBytes('abc')))).toBe(abc);
  });

  it('equals @noble/hashes for inputs of every size class, subarrays included', async () => {
    expect(await wasmKeccakLoaded()).toBe(true);
    for (const length of LENGTHS) {
      for (const seed of [1, 2]) {
        const data = input(length, seed);
        expect(bytesToHex(keccak256(data)), `${length} bytes`).toBe(bytesToHex(keccak_256(data)));
        const inner = input(length + 10, seed).subarray(5, 5 + length);
        expect(bytesToHex(keccak256(inner)), `${length} bytes at an offset`).toBe(bytesToHex(keccak_256(inner)));
      }
    }
  });

  it('returns a fresh array each time: a caller may keep or change it', async () => {
    await wasmKeccakLoaded();
    const a = keccak256(utf8ToBytes('a'));
    const copy = a.slice();
    keccak256(utf8ToBytes('b'));
    expect(a).toEqual(copy);
  });

  it('is the Common\'s keccak256, so trie nodes, keys and transaction hashes use it', () => {
    expect(createRskCommon(31, 'test').customCrypto.keccak256).toBe(keccak256);
  });
});
