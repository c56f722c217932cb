import { describe, expect, it } from 'vitest';
import { bytesToHex, privateToAddress, utf8ToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { DEV_ACCOUNTS, DEV_ACCOUNT_SOURCES, MINER_ACCOUNT, MINER_ACCOUNT_SOURCE } from '../../src/chain/keys/accounts.js';

describe('node accounts', () => {
  it('each precomputed key is keccak256 of its seed, as rskj derives it, and each address is its key\'s', () => {
    expect(DEV_ACCOUNTS).toHaveLength(10);
    const seeds = [...DEV_ACCOUNT_SOURCES, MINER_ACCOUNT_SOURCE];
    [...DEV_ACCOUNTS, MINER_ACCOUNT].forEach((account, i) => {
      expect(bytesToHex(account.privateKey)).toBe(bytesToHex(keccak_256(utf8ToBytes(seeds[i]![0]))));
      expect(account.address).toBe(bytesToHex(privateToAddress(account.privateKey)));
    });
    expect(DEV_ACCOUNT_SOURCES.map(([seed]) => seed)).toEqual(['cow', ...Array.from({ length: 9 }, (_, i) => `cow${i + 1}`)]);
  });
});
