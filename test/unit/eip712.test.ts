/**
 * EIP-712 hashing (src/chain/eip712.ts) against two independent implementations: ethers'
 * TypedDataEncoder and viem's hashTypedData, on the payloads wallets send (ethers' getPayload
 * JSON, with EIP712Domain listed) and on the bare form (EIP712Domain derived from the domain).
 */
import { bytesToHex } from '@ethereumjs/util';
import { TypedDataEncoder } from 'ethers';
import { hashTypedData } from 'viem';
import { describe, expect, it } from 'vitest';
import { TypedDataError, typedDataHash } from '../../src/chain/keys/eip712.js';

interface Case {
  name: string;
  domain: Record<string, unknown>;
  types: Record<string, Array<{ name: string; type: string }>>;
  primaryType: string;
  message: Record<string, unknown>;
  /** ethers refuses recursive types ("circular type reference"); viem alone is the oracle then. */
  viemOnly?: boolean;
}

const VERIFIER = '0xcccccccccccccccccccccccccccccccccccccccc';
const CASES: Case[] = [
  {
    name: "EIP-712's Mail example",
    domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: VERIFIER },
    types: {
      Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
      Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
    },
    primaryType: 'Mail',
    message: {
      from: { name: 'Cow', wallet: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826' },
      to: { name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' },
      contents: 'Hello, Bob!',
    },
  },
  {
    name: 'an EIP-2612 permit on RSK testnet',
    domain: { name: 'Permit Token', version: '1', chainId: 31, verifyingContract: VERIFIER },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: {
      owner: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826',
      spender: '0x7986b3df570230288501eea3d890bd66948c9b79',
      value: 10n ** 30n,
      nonce: 0n,
      deadline: 2n ** 256n - 1n,
    },
  },
  {
    name: 'v4 arrays of structs and atoms, fixed arrays, signed ints, bytes, bool and a salt',
    domain: { name: 'Arrays', chainId: 30, salt: `0x${'ab'.repeat(32)}` },
    types: {
      Person: [{ name: 'name', type: 'string' }, { name: 'wallets', type: 'address[]' }],
      Group: [
        { name: 'members', type: 'Person[]' },
        { name: 'scores', type: 'int64[3]' },
        { name: 'tags', type: 'string[]' },
        { name: 'blob', type: 'bytes' },
        { name: 'code', type: 'bytes4' },
        { name: 'open', type: 'bool' },
        { name: 'grid', type: 'uint8[][]' },
      ],
    },
    primaryType: 'Group',
    message: {
      members: [
        { name: 'A', wallets: ['0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] },
        { name: 'B', wallets: [] },
      ],
      scores: [-1n, 0n, 2n ** 63n - 1n],
      tags: ['x', ''],
      blob: '0xdeadbeef00',
      code: '0x12345678',
      open: true,
      grid: [[1, 2], [], [255]],
    },
  },
  {
    name: 'a recursive struct (a reply chain)',
    domain: { version: '2', verifyingContract: VERIFIER },
    types: { Note: [{ name: 'text', type: 'string' }, { name: 'replies', type: 'Note[]' }] },
    primaryType: 'Note',
    message: { text: 'root', replies: [{ text: 'child', replies: [{ text: 'grandchild', replies: [] }] }] },
    viemOnly: true,
  },
];

/** What ethers' JsonRpcSigner.signTypedData sends (EIP712Domain included, values as JSON strings). */
function ethersPayload(c: Case): unknown {
  return JSON.parse(JSON.stringify(TypedDataEncoder.getPayload(c.domain, c.types, c.message)));
}

describe('typedDataHash', () => {
  for (const c of CASES) {
    it(`equals ${c.viemOnly ? 'viem' : 'ethers and viem'} for ${c.name}`, () => {
      const expected = hashTypedData({ domain: c.domain, types: c.types, primaryType: c.primaryType, message: c.message } as never);
      if (!c.viemOnly) {
        expect(TypedDataEncoder.hash(c.domain, c.types, c.message)).toBe(expected);
        expect(bytesToHex(typedDataHash(ethersPayload(c)))).toBe(expected);
      }
      // Without EIP712Domain in types: derived from the domain's fields, as ethers and viem do.
      const { viemOnly: _, ...bare } = c;
      expect(bytesToHex(typedDataHash(JSON.parse(JSON.stringify(bare, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))))).toBe(expected);
    });
  }

  it('reads integers as JSON numbers, decimal strings and 0x strings alike', () => {
    const c = CASES[1]!;
    const payload = ethersPayload(c) as { message: Record<string, unknown> };
    const expected = bytesToHex(typedDataHash(payload));
    expect(bytesToHex(typedDataHash({ ...payload, message: { ...payload.message, nonce: 0, value: `0x${(10n ** 30n).toString(16)}` } }))).toBe(expected);
  });

  it('signs the domain alone when the primary type is EIP712Domain (as viem)', () => {
    const domain = { name: 'Only', version: '1', chainId: 31 };
    const expected = hashTypedData({ domain, types: {}, primaryType: 'EIP712Domain' } as never);
    expect(bytesToHex(typedDataHash({ domain, types: {}, primaryType: 'EIP712Domain', message: {} }))).toBe(expected);
  });

  it('refuses malformed typed data with a message saying what is wrong', () => {
    const good = ethersPayload(CASES[1]!) as { types: Record<string, unknown>; message: Record<string, unknown> };
    const refusals: Array<[unknown, RegExp]> = [
      [null, /must be an object/],
      [{ ...good, types: undefined }, /no "types" object/],
      [{ ...good, primaryType: 'Nope' }, /primaryType "Nope" is not one of the types/],
      [{ ...good, message: { ...good.message, value: undefined } }, /Permit.value must be an integer/],
      [{ ...good, message: { ...good.message, value: '-1' } }, /Permit.value is out of range for uint256/],
      [{ ...good, message: { ...good.message, value: (2n ** 256n).toString() } }, /out of range/],
      [{ ...good, message: { ...good.message, owner: '0x1234' } }, /Permit.owner must be a 20-byte address/],
      [{ ...good, message: { owner: good.message.owner } }, /Permit.spender is missing/],
      [{ ...good, types: { ...good.types, Permit: [{ name: 'x', type: 'uint7' }] } }, /unknown type uint7/],
      [{ ...good, types: { ...good.types, Permit: [{ name: 'x', type: 'constructor' }] }, message: { x: {} } }, /unknown type constructor/],
      [{ ...good, types: { ...good.types, Permit: [{ name: 'x', type: 'bytes33' }] }, message: { x: '0x00' } }, /unknown type bytes33/],
      [{ ...good, types: { ...good.types, Permit: [{ name: 'x', type: `uint256${'[]'.repeat(200)}` }] } }, /longer than 256/],
    ];
    for (const [input, message] of refusals) expect(() => typedDataHash(input)).toThrow(message);
    for (const [input] of refusals) expect(() => typedDataHash(input)).toThrow(TypedDataError);
  });
});
