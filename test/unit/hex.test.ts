/** src/util/hex.ts answers as @ethereumjs/util's bytesToHex, views into larger buffers included. */
import { describe, expect, it } from 'vitest';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { hexDigitsToBytes, prefixedHex, unprefixedHex } from '../../src/util/hex.js';
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

describe('hexDigitsToBytes (issue 25: an address param checked and decoded in one pass)', () => {
  it('decodes as hexToBytes, digits of either case, from the given start', () => {
    const every = '0123456789abcdefABCDEF';
    for (const text of ['0x', '0x00', '0xff', '0xFF', `0x${every}${every}`, '0x7986B3dF570230288501eEa3D890bD66948C9b79', `0x${'e'.repeat(64)}`]) {
      expect(hexDigitsToBytes(text, 2)).toEqual(hexToBytes(text.toLowerCase() as `0x${string}`));
    }
    expect(hexDigitsToBytes('ab12', 0)).toEqual(Uint8Array.of(0xab, 0x12));
  });

  it('answers undefined for any character that is no hex digit, at either place of a byte', () => {
    // The neighbours of each digit range, and characters whose code | 0x20 lands near a-f.
    for (const bad of ['/', ':', '@', 'G', '`', 'g', 'x', ' ', '\u0000', '\u0141', '\u00e1', '-', '+']) {
      expect(hexDigitsToBytes(`0x${bad}0`, 2)).toBeUndefined();
      expect(hexDigitsToBytes(`0x0${bad}`, 2)).toBeUndefined();
      expect(hexDigitsToBytes(`0x${'00'.repeat(19)}${bad}f`, 2)).toBeUndefined();
    }
  });
});
