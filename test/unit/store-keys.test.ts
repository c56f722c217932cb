import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { stateNodeKey, stateNodeKeyOfHex } from '../../src/chain/storage/keys.js';

describe('store keys', () => {
  it('names a trie node the same from its hash bytes and from the hex the trie keys it by', () => {
    const hash = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
    const fromHex = stateNodeKeyOfHex(bytesToUnprefixedHex(hash));
    expect(fromHex).toEqual(stateNodeKey(hash));
    expect(fromHex).toBeInstanceOf(Uint8Array);
    expect(fromHex.length).toBe(33);
  });
});
