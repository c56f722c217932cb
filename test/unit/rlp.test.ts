import { type Input, type NestedUint8Array, RLP, decode as libraryDecode, encode as libraryEncode } from '@ethereumjs/rlp';
import { BranchMPTNode, LeafMPTNode, decodeMPTNode } from '@ethereumjs/mpt';
import { Account } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { rlpDecode, rlpEncode, useFastRlp } from '../../src/chain/base/rlp.js';
import { generator } from '../helpers/random.js';

/** Byte strings around every length boundary of RLP (0, 1, 55, 56, 255, 256, 65,536) and lists of them. */
function randomItem(next: (below: number) => number, depth: number): Uint8Array | NestedUint8Array {
  if (depth > 0 && next(3) === 0) return Array.from({ length: next(depth > 2 ? 6 : 18) }, () => randomItem(next, depth - 1));
  const lengths = [0, 1, 1, 1, 2, 31, 32, 33, 54, 55, 56, 57, 200, 255, 256, 1024];
  // Now and then a string whose length takes three bytes.
  const length = next(50) === 0 ? 65_536 : lengths[next(lengths.length)]!;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = next(4) === 0 ? next(0x80) : next(256);
  return bytes;
}

/** Nested hex strings: vitest compares long byte arrays element by element, hex strings at once. */
const hex = (item: Uint8Array | NestedUint8Array): unknown => (item instanceof Uint8Array ? Buffer.from(item).toString('hex') : item.map(hex));

describe('RLP with fewer allocations', () => {
  it('encodes and decodes 2,000 random items exactly as @ethereumjs/rlp does', () => {
    const next = generator(20261127);
    for (let n = 0; n < 2_000; n++) {
      const item = randomItem(next, 4);
      const expected = libraryEncode(item);
      expect(hex(rlpEncode(item)), `case ${n}`).toBe(hex(expected));
      expect(hex(rlpDecode(expected)), `case ${n}`).toEqual(hex(libraryDecode(expected)));
    }
  });

  it('encodes numbers, bigints, strings and null through the library conversion', () => {
    const items: Input[] = [0, 1, 127, 128, 1024, 0n, 2n ** 64n, '', 'rsk-devnode', '0x', '0x1', '0xabcdef', null, undefined, [1, 'rsk-devnode', [0n, null]]];
    for (const item of items) expect(rlpEncode(item)).toEqual(libraryEncode(item));
    expect(() => rlpEncode(-1)).toThrow(/unsigned/);
    expect(() => rlpEncode([{} as unknown as Input])).toThrow(/unsupported type/);
  });

  it('hands back a one-byte input below 0x80 itself, as the library does', () => {
    const single = Uint8Array.of(0x7f);
    expect(rlpEncode(single)).toBe(single);
  });

  it('returns copies: changing a decoded item leaves the input and the other items alone', () => {
    const encoded = libraryEncode([Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5, 6)]);
    const before = encoded.slice();
    const [first, second] = rlpDecode(encoded) as Uint8Array[];
    first!.fill(0);
    expect(encoded).toEqual(before);
    expect(second).toEqual(Uint8Array.of(4, 5, 6));
    expect(first!.buffer).not.toBe(second!.buffer);
  });

  it('fails on malformed input with the library error', () => {
    const cases = [
      Uint8Array.of(0x81, 0x05), // a byte below 0x80 given a prefix
      Uint8Array.of(0x83, 1, 2), // string shorter than its prefix says
      Uint8Array.of(0xb8, 0x05, 1, 2, 3, 4, 5), // long form for a short string
      Uint8Array.of(0xb9, 0x00, 0x40), // length with a leading zero
      Uint8Array.of(0xc3, 0x01, 0x02), // list shorter than its prefix says
      Uint8Array.of(0xc2, 0x83, 1, 2, 3), // item overrunning its list
      Uint8Array.of(0xf8, 0x02, 1, 2), // long form for a short list
      Uint8Array.of(0x01, 0x02), // bytes after the item
      Uint8Array.of(0xbf), // length of the length missing
    ];
    for (const input of cases) {
      let expected: unknown;
      try {
        libraryDecode(input);
      } catch (err) {
        expected = (err as Error).message;
      }
      expect(expected, `library accepts ${input}`).toBeTypeOf('string');
      expect(() => rlpDecode(input)).toThrow(expected as string);
    }
  });

  it('leaves stream decoding and hex-string input to the library', () => {
    const encoded = Uint8Array.of(0x82, 0xaa, 0xbb, 0x01);
    expect(rlpDecode(encoded, true)).toEqual(libraryDecode(encoded, true));
    expect(rlpDecode('0x82aabb')).toEqual(Uint8Array.of(0xaa, 0xbb));
    expect(rlpDecode(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it('is what @ethereumjs packages call once installed: trie nodes and accounts round-trip', () => {
    useFastRlp();
    expect(RLP.encode).toBe(rlpEncode);
    expect(RLP.decode).toBe(rlpDecode);
    const branch = new BranchMPTNode();
    branch.setBranch(3, new Uint8Array(32).fill(7));
    branch.setBranch(9, [Uint8Array.of(0x20), Uint8Array.of(1)]);
    branch.value(Uint8Array.of(5));
    const serialized = branch.serialize();
    expect(serialized).toEqual(libraryEncode(branch.raw()));
    const decoded = (decodeMPTNode(serialized) as BranchMPTNode).raw();
    expect(decoded).toEqual(BranchMPTNode.fromArray(libraryDecode(serialized) as Uint8Array[]).raw());
    expect(decoded[3]).toEqual(new Uint8Array(32).fill(7));
    const leaf = new LeafMPTNode([1, 2, 3], new Uint8Array(40).fill(9));
    expect(leaf.serialize()).toEqual(libraryEncode(leaf.raw()));
    const account = new Account(5n, 10n ** 24n);
    expect(account.serialize()).toEqual(libraryEncode(account.raw()));
  });
});
