import { describe, expect, it } from 'vitest';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { DEV_ACCOUNTS, MINER_ACCOUNT } from '../../src/chain/accounts.js';

describe('node accounts', () => {
  it('each precomputed address is the address of its key', () => {
    expect(DEV_ACCOUNTS).toHaveLength(10);
    for (const account of [...DEV_ACCOUNTS, MINER_ACCOUNT]) {
      expect(account.address).toBe(bytesToHex(privateToAddress(account.privateKey)));
    }
  });
});
