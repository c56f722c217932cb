/** src/util/hex.ts answers as @ethereumjs/util's bytesToHex, views into larger buffers included. */
import { describe, expect, it } from 'vitest';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { prefixedHex, unprefixedHex } from '../../src/util/hex.js';
import { slotKey } from '../../src/chain/state/tracking-state-manager.js';

describe('prefixedHex and unprefixedHex', () => {
  it('equal bytesToHex for no bytes, one, a hash, and a view into a larger buffer', () => {
    const outer = Uint8Array.from({ length: 80 }, (_, i) => (i * 37 + 11) & 0xff);
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0xab), outer.subarray(0, 32), outer.subarray(7, 50)]) {
      expect(prefixedHex(bytes)).toBe(bytesToHex(bytes));
      expect(unprefixedHex(bytes)).toBe(bytesToHex(bytes).slice(2));
    }
  });

  it('slotKey keeps its format: address.toString() ‖ bytesToHex(slot)', () => {
    const address = createAddressFromString('0x00000000000000000000000000000000000000aB');
    for (const slot of [new Uint8Array(0), Uint8Array.of(1), new Uint8Array(32).fill(0xfe)]) {
      expect(slotKey(address, slot)).toBe(`${address.toString()}${bytesToHex(slot)}`);
    }
  });
});
