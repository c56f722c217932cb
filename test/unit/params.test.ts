import { describe, it, expect, expectTypeOf } from 'vitest';
import { Address, bytesToHex } from '@ethereumjs/util';
import { InvalidParams, ErrorCode } from '../../src/rpc/errors.js';
import {
  ParamError,
  address,
  blockSelector,
  bool,
  callRequest,
  data,
  field,
  hash32,
  makeDecoder,
  noParams,
  params,
  quantity,
  quantityOrDecimal,
} from '../../src/rpc/params.js';
import type { BlockSelector, CallRequest } from '../../src/rpc/types.js';

const ADDR = '0x7986b3df570230288501eea3d890bd66948c9b79';
const HASH = '0x' + 'ab'.repeat(32);
const L = 'argument 0 (x)';

/** Asserts that `fn` throws InvalidParams with exactly `message`. */
function rejects(fn: () => unknown, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(InvalidParams);
  expect((caught as InvalidParams).code).toBe(ErrorCode.InvalidParams);
  expect((caught as InvalidParams).message).toBe(message);
}

describe('address', () => {
  it('accepts lower, upper and mixed case', () => {
    expect(address(ADDR, L).toString()).toBe(ADDR);
    expect(address('0x' + ADDR.slice(2).toUpperCase(), L).toString()).toBe(ADDR);
    // Wrong EIP-55/1191 checksum casing is still accepted.
    expect(address('0x7986B3dF570230288501eEa3D890bD66948C9b79', L).toString()).toBe(ADDR);
    expect(address(ADDR, L)).toBeInstanceOf(Address);
  });
  it('keeps the text ethereumjs would write from the bytes (issue 25: not rebuilt per read)', () => {
    for (const text of [ADDR, '0x' + ADDR.slice(2).toUpperCase(), '0X' + ADDR.slice(2).toUpperCase(), '0x7986B3dF570230288501eEa3D890bD66948C9b79', '0x' + '0'.repeat(40), '0x' + 'F'.repeat(40)]) {
      const decoded = address(text, L);
      expect(decoded.toString()).toBe(bytesToHex(decoded.bytes));
      expect(decoded.toString()).toBe(new Address(decoded.bytes).toString());
      expect(decoded.equals(new Address(decoded.bytes))).toBe(true);
      expect(decoded).toEqual(new Address(decoded.bytes));
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(new Address(decoded.bytes)));
    }
  });
  it('rejects bad input with exact messages', () => {
    rejects(() => address(ADDR.slice(0, 40), 'argument 0 (address)'), 'invalid argument 0 (address): hex string has length 38, want 40 for RSK address');
    rejects(() => address(ADDR + '00', L), `invalid ${L}: hex string has length 42, want 40 for RSK address`);
    rejects(() => address(ADDR.slice(2), L), `invalid ${L}: hex string without 0x prefix`);
    rejects(() => address('0x' + 'g'.repeat(40), L), `invalid ${L}: invalid hex string`);
    rejects(() => address(ADDR.slice(0, 41) + 'G', L), `invalid ${L}: invalid hex string`);
    rejects(() => address('0x' + 'g'.repeat(38), L), `invalid ${L}: invalid hex string`);
    rejects(() => address('0x' + '0'.repeat(39) + ' ', L), `invalid ${L}: invalid hex string`);
    rejects(() => address(42, L), `invalid ${L}: expected a 0x-prefixed hex string, got number`);
    rejects(() => address(null, L), `invalid ${L}: expected a 0x-prefixed hex string, got null`);
    rejects(() => address([ADDR], L), `invalid ${L}: expected a 0x-prefixed hex string, got array`);
  });
});

describe('hash32', () => {
  it('accepts a 32-byte hash', () => {
    expect(bytesToHex(hash32(HASH, L))).toBe(HASH);
    expect(bytesToHex(hash32(HASH.toUpperCase().replace('0X', '0x'), L))).toBe(HASH);
  });
  it('rejects wrong length, prefix and characters', () => {
    rejects(() => hash32('0x1234', L), `invalid ${L}: hex string has length 4, want 64 for 32-byte hash`);
    rejects(() => hash32(HASH.slice(2), L), `invalid ${L}: hex string without 0x prefix`);
    rejects(() => hash32('0x' + 'zz'.repeat(32), L), `invalid ${L}: invalid hex string`);
    rejects(() => hash32({}, L), `invalid ${L}: expected a 0x-prefixed hex string, got object`);
  });
});

describe('data', () => {
  it('accepts even-length hex and 0x', () => {
    expect(data('0x', L)).toEqual(new Uint8Array(0));
    expect(Array.from(data('0x00fF10', L))).toEqual([0, 255, 16]);
  });
  it('rejects odd length, missing prefix, bad chars, non-strings', () => {
    rejects(() => data('0x123', L), `invalid ${L}: hex string of odd length`);
    rejects(() => data('1234', L), `invalid ${L}: hex string without 0x prefix`);
    rejects(() => data('0xqq', L), `invalid ${L}: invalid hex string`);
    rejects(() => data(true, L), `invalid ${L}: expected a 0x-prefixed hex string, got boolean`);
  });
});

describe('quantity', () => {
  it('accepts canonical hex', () => {
    expect(quantity('0x0', L)).toBe(0n);
    expect(quantity('0x1', L)).toBe(1n);
    expect(quantity('0xFf', L)).toBe(255n);
    expect(quantity('0X10', L)).toBe(16n);
    expect(quantity('0x' + 'f'.repeat(64), L)).toBe((1n << 256n) - 1n);
  });
  it('rejects empty, leading zeros, overflow, missing prefix, numbers', () => {
    rejects(() => quantity('0x', L), `invalid ${L}: hex string "0x"`);
    rejects(() => quantity('0x01', L), `invalid ${L}: hex number with leading zero digits`);
    rejects(() => quantity('0x00', L), `invalid ${L}: hex number with leading zero digits`);
    rejects(() => quantity('0x1' + '0'.repeat(64), L), `invalid ${L}: hex number > 256 bits`);
    rejects(() => quantity('10', L), `invalid ${L}: hex string without 0x prefix`);
    rejects(() => quantity('0xg', L), `invalid ${L}: invalid hex string`);
    rejects(() => quantity(10, L), `invalid ${L}: expected a 0x-prefixed hex quantity, got number`);
  });
});

describe('quantityOrDecimal', () => {
  it('accepts hex, decimal strings and safe integers', () => {
    expect(quantityOrDecimal('0x3c', L)).toBe(60n);
    expect(quantityOrDecimal('60', L)).toBe(60n);
    expect(quantityOrDecimal('007', L)).toBe(7n);
    expect(quantityOrDecimal(60, L)).toBe(60n);
    expect(quantityOrDecimal(0, L)).toBe(0n);
    expect(quantityOrDecimal(Number.MAX_SAFE_INTEGER, L)).toBe(9007199254740991n);
  });
  it('rejects negatives, fractions, unsafe integers, junk', () => {
    rejects(() => quantityOrDecimal(-1, L), `invalid ${L}: negative value -1`);
    rejects(() => quantityOrDecimal(1.5, L), `invalid ${L}: expected an integer, got 1.5`);
    rejects(() => quantityOrDecimal(2 ** 53, L), `invalid ${L}: expected an integer, got 9007199254740992`);
    rejects(() => quantityOrDecimal('-5', L), `invalid ${L}: invalid number '-5'`);
    rejects(() => quantityOrDecimal('1e3', L), `invalid ${L}: invalid number '1e3'`);
    rejects(() => quantityOrDecimal('', L), `invalid ${L}: invalid number ''`);
    rejects(() => quantityOrDecimal('1' + '0'.repeat(78), L), `invalid ${L}: number > 256 bits`);
    rejects(() => quantityOrDecimal('0x01', L), `invalid ${L}: hex number with leading zero digits`);
    rejects(() => quantityOrDecimal(null, L), `invalid ${L}: expected a hex or decimal number, got null`);
  });
});

describe('bool', () => {
  it('accepts booleans only', () => {
    expect(bool(true, L)).toBe(true);
    expect(bool(false, L)).toBe(false);
    rejects(() => bool('true', L), `invalid ${L}: expected a boolean, got string`);
    rejects(() => bool(1, L), `invalid ${L}: expected a boolean, got number`);
  });
});

describe('blockSelector', () => {
  const B = 'argument 1 (block)';
  it('accepts every tag', () => {
    for (const tag of ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const) {
      expect(blockSelector(tag, B)).toEqual({ tag });
      // One shared selector per tag, which nothing may change.
      expect(blockSelector(tag, B)).toBe(blockSelector(tag, B));
      expect(Object.isFrozen(blockSelector(tag, B))).toBe(true);
    }
  });
  it('accepts hex numbers (leading zeros tolerated like rskj) and decimal strings', () => {
    expect(blockSelector('0x0', B)).toEqual({ number: 0n });
    expect(blockSelector('0x1A', B)).toEqual({ number: 26n });
    expect(blockSelector('0x01', B)).toEqual({ number: 1n });
    expect(blockSelector('12', B)).toEqual({ number: 12n });
    expect(blockSelector('0x7fffffffffffffff', B)).toEqual({ number: 9223372036854775807n });
  });
  it('accepts a bare 32-byte hash as non-canonical hash selector', () => {
    const sel = blockSelector(HASH, B) as { hash: Uint8Array; requireCanonical: boolean };
    expect(bytesToHex(sel.hash)).toBe(HASH);
    expect(sel.requireCanonical).toBe(false);
  });
  it('accepts EIP-1898 objects', () => {
    const a = blockSelector({ blockHash: HASH, requireCanonical: true }, B) as { hash: Uint8Array; requireCanonical: boolean };
    expect(bytesToHex(a.hash)).toBe(HASH);
    expect(a.requireCanonical).toBe(true);
    const b = blockSelector({ blockHash: HASH }, B) as { requireCanonical: boolean };
    expect(b.requireCanonical).toBe(false);
    const c = blockSelector({ blockHash: HASH, requireCanonical: 'TRUE' }, B) as { requireCanonical: boolean };
    expect(c.requireCanonical).toBe(true);
    expect(blockSelector({ blockNumber: '0x10' }, B)).toEqual({ number: 16n });
    expect(blockSelector({ blockNumber: 'latest' }, B)).toEqual({ tag: 'latest' });
    expect(blockSelector({ blockNumber: '0x5', blockHash: null }, B)).toEqual({ number: 5n });
  });
  it('rejects anything else with the rskj message', () => {
    rejects(() => blockSelector('foo', B), `invalid ${B}: Invalid block identifier 'foo'`);
    rejects(() => blockSelector('Latest', B), `invalid ${B}: Invalid block identifier 'Latest'`);
    rejects(() => blockSelector('', B), `invalid ${B}: Invalid block identifier ''`);
    rejects(() => blockSelector('0x', B), `invalid ${B}: Invalid block identifier '0x'`);
    rejects(() => blockSelector('0xzz', B), `invalid ${B}: Invalid block identifier '0xzz'`);
    rejects(() => blockSelector('-1', B), `invalid ${B}: Invalid block identifier '-1'`);
    rejects(() => blockSelector('0x' + 'zz'.repeat(32), B), `invalid ${B}: Invalid block identifier '0x${'zz'.repeat(32)}'`);
    rejects(() => blockSelector(5, B), `invalid ${B}: Invalid block identifier '5'`);
    rejects(() => blockSelector(true, B), `invalid ${B}: Invalid block identifier 'true'`);
    rejects(() => blockSelector(['latest'], B), `invalid ${B}: Invalid block identifier '["latest"]'`);
  });
  it('rejects bad numbers and bad EIP-1898 objects', () => {
    rejects(() => blockSelector('0x8000000000000000', B), `invalid ${B}: block number larger than int64`);
    rejects(() => blockSelector({}, B), `invalid ${B}: Invalid block input`);
    rejects(() => blockSelector({ blockHash: null }, B), `invalid ${B}: Invalid block input`);
    rejects(
      () => blockSelector({ blockHash: HASH, blockNumber: '0x1' }, B),
      `invalid ${B}: cannot specify both blockHash and blockNumber, choose one or the other`,
    );
    rejects(() => blockSelector({ blockHash: '0x12' }, B), `invalid ${B}: field "blockHash": hex string has length 2, want 64 for 32-byte hash`);
    rejects(() => blockSelector({ blockNumber: 'nope' }, B), `invalid ${B}: field "blockNumber": Invalid block identifier 'nope'`);
    rejects(() => blockSelector({ blockNumber: 7 }, B), `invalid ${B}: field "blockNumber": expected a hex string, got number`);
    rejects(
      () => blockSelector({ blockHash: HASH, requireCanonical: 'yes' }, B),
      `invalid ${B}: Invalid input: requireCanonical must be a boolean`,
    );
  });
});

describe('callRequest', () => {
  const C = 'argument 0 (call)';
  it('decodes all fields and leaves absent ones unset', () => {
    const req = callRequest(
      { from: ADDR, to: ADDR, gas: '0x5208', gasPrice: '0x1', value: '0xa', data: '0xabcd', nonce: '0x2' },
      C,
    );
    expect(req.from?.toString()).toBe(ADDR);
    expect(req.to?.toString()).toBe(ADDR);
    expect(req.gas).toBe(21000n);
    expect(req.gasPrice).toBe(1n);
    expect(req.value).toBe(10n);
    expect(bytesToHex(req.data!)).toBe('0xabcd');
    expect(req.nonce).toBe(2n);
    expect(Object.keys(callRequest({}, C))).toEqual([]);
  });
  it('treats to: null as contract creation and ignores EIP-1559 / unknown fields', () => {
    const req = callRequest(
      { to: null, maxFeePerGas: 'bogus', maxPriorityFeePerGas: 1, type: '0x2', accessList: 'x', chainId: '0x21', whatever: {} },
      C,
    );
    expect(req).toEqual({});
    expect('to' in req).toBe(false);
  });
  it('accepts gasLimit as alias of gas, gas wins', () => {
    expect(callRequest({ gasLimit: '0x10' }, C).gas).toBe(16n);
    expect(callRequest({ gas: '0x20', gasLimit: '0x10' }, C).gas).toBe(32n);
  });
  it('accepts input, data, or both when equal', () => {
    expect(bytesToHex(callRequest({ input: '0x01' }, C).data!)).toBe('0x01');
    expect(bytesToHex(callRequest({ data: '0x02' }, C).data!)).toBe('0x02');
    expect(bytesToHex(callRequest({ data: '0xAB', input: '0xab' }, C).data!)).toBe('0xab');
  });
  it('rejects differing data/input, bad fields and non-objects', () => {
    rejects(() => callRequest({ data: '0x01', input: '0x02' }, C), `invalid ${C}: both "data" and "input" are set and not equal`);
    rejects(() => callRequest({ from: '0x1234' }, C), `invalid ${C}: field "from": hex string has length 4, want 40 for RSK address`);
    rejects(() => callRequest({ to: 5 }, C), `invalid ${C}: field "to": expected a 0x-prefixed hex string, got number`);
    rejects(() => callRequest({ gas: '0x01' }, C), `invalid ${C}: field "gas": hex number with leading zero digits`);
    rejects(() => callRequest({ gasLimit: '12' }, C), `invalid ${C}: field "gasLimit": hex string without 0x prefix`);
    rejects(() => callRequest({ value: '0x' }, C), `invalid ${C}: field "value": hex string "0x"`);
    rejects(() => callRequest({ gasPrice: 1 }, C), `invalid ${C}: field "gasPrice": expected a 0x-prefixed hex quantity, got number`);
    rejects(() => callRequest({ nonce: '0xz' }, C), `invalid ${C}: field "nonce": invalid hex string`);
    rejects(() => callRequest({ data: '0x123' }, C), `invalid ${C}: field "data": hex string of odd length`);
    rejects(() => callRequest({ input: 'ab' }, C), `invalid ${C}: field "input": hex string without 0x prefix`);
    rejects(() => callRequest('0x', C), `invalid ${C}: expected a call object, got string`);
    rejects(() => callRequest(null, C), `invalid ${C}: expected a call object, got null`);
    rejects(() => callRequest([], C), `invalid ${C}: expected a call object, got array`);
  });
});

describe('params tuple combinator', () => {
  const LATEST: BlockSelector = { tag: 'latest' };

  it('decodes required and optional positions and infers the tuple type', () => {
    const decode = params([address, blockSelector.optional]);
    const [a, b] = decode([ADDR, '0x2']);
    const typed: [Address, BlockSelector | undefined] = [a, b];
    expectTypeOf(decode).returns.toEqualTypeOf<[Address, BlockSelector | undefined]>();
    expectTypeOf(params([callRequest, hash32, blockSelector.orDefault(LATEST), data.optional])).returns.toEqualTypeOf<
      [CallRequest, Uint8Array, BlockSelector, Uint8Array | undefined]
    >();
    expect(typed[0].toString()).toBe(ADDR);
    expect(typed[1]).toEqual({ number: 2n });
    expect(decode([ADDR])).toEqual([address(ADDR, L), undefined]);
    expect(decode([ADDR, null])[1]).toBeUndefined();
  });

  it('fills defaults with orDefault', () => {
    const decode = params([address, blockSelector.orDefault(LATEST)]);
    const [, sel]: [Address, BlockSelector] = decode([ADDR]);
    expect(sel).toEqual({ tag: 'latest' });
    expect(decode([ADDR, null])[1]).toEqual({ tag: 'latest' });
    expect(decode([ADDR, 'earliest'])[1]).toEqual({ tag: 'earliest' });
  });

  it('labels errors with the argument index and parameter name', () => {
    const decode = params([address, quantity.as('position'), blockSelector]);
    rejects(() => decode([ADDR.slice(0, 40), '0x0', 'latest']), 'invalid argument 0 (address): hex string has length 38, want 40 for RSK address');
    rejects(() => decode([ADDR, '0x01', 'latest']), 'invalid argument 1 (position): hex number with leading zero digits');
    rejects(() => decode([ADDR, '0x0', 'bogus']), "invalid argument 2 (block): Invalid block identifier 'bogus'");
    const opt = params([bool.optional]);
    rejects(() => opt(['x']), 'invalid argument 0 (bool): expected a boolean, got string');
  });

  it('rejects too many arguments', () => {
    rejects(() => params([address, blockSelector.optional])([ADDR, 'latest', 1]), 'too many arguments, want at most 2');
    rejects(() => noParams([1]), 'too many arguments, want at most 0');
    expect(noParams([])).toEqual([]);
  });

  it('rejects missing (or null) required arguments', () => {
    const decode = params([address, quantity, blockSelector.optional]);
    rejects(() => decode([]), 'missing value for required argument 0 (address)');
    rejects(() => decode([ADDR]), 'missing value for required argument 1 (quantity)');
    rejects(() => decode([ADDR, null]), 'missing value for required argument 1 (quantity)');
    expect(decode([ADDR, '0x5'])[1]).toBe(5n);
  });

  it('refuses a required decoder after an optional one at definition time', () => {
    expect(() => params([address.optional, quantity])).toThrow('params(): required argument 1 follows an optional one');
  });

  it('supports custom decoders built with makeDecoder and field', () => {
    const filter = makeDecoder('filter', (v) => {
      if (typeof v !== 'object' || v === null) throw new ParamError('expected an object');
      const o = v as Record<string, unknown>;
      return { address: field(o, 'address', address), fromBlock: field(o, 'fromBlock', blockSelector) };
    });
    const decode = params([filter]);
    const [f] = decode([{ address: ADDR, fromBlock: 'latest' }]);
    expect(f.address?.toString()).toBe(ADDR);
    expect(f.fromBlock).toEqual({ tag: 'latest' });
    rejects(() => decode([{ address: '0x1' }]), 'invalid argument 0 (filter): field "address": hex string has length 1, want 40 for RSK address');
    rejects(() => decode([5]), 'invalid argument 0 (filter): expected an object');
    expect(filter.paramName).toBe('filter');
    expect(filter.as('criteria').paramName).toBe('criteria');
  });

  it('lets non-ParamError exceptions through unchanged', () => {
    const boom = new TypeError('bug');
    const broken = makeDecoder('x', () => {
      throw boom;
    });
    expect(() => params([broken])([1])).toThrow(boom);
  });
});
