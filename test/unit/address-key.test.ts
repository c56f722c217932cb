/** src/chain/state/address-key.ts: the key of an address is `Address.toString()`, made once per object. */
import { describe, expect, it } from 'vitest';
import { Address, createAddressFromString } from '@ethereumjs/util';
import { addressKey } from '../../src/chain/state/address-key.js';

describe('addressKey', () => {
  it('is Address.toString() (lower case, 0x), the same for every object of the same bytes', () => {
    const hex = '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826';
    const first = createAddressFromString(hex);
    const second = new Address(first.bytes.slice());
    expect(addressKey(first)).toBe(first.toString());
    expect(addressKey(first)).toBe(hex.toLowerCase());
    expect(addressKey(first)).toBe(addressKey(second));
    expect(addressKey(createAddressFromString('0x0000000000000000000000000000000000000000'))).toBe(`0x${'00'.repeat(20)}`);
  });
});
