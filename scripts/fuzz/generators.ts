/**
 * fast-check arbitraries for the fuzzer: JSON-RPC params (random and mutated), envelopes, batches
 * and raw HTTP requests. A case carries the exact body text it sends, so a failure reproduces with
 * curl. Deeply nested values are built as text: JSON.stringify overflows its stack on them.
 */
import fc from 'fast-check';
import { MAX_BATCH } from './invariants.js';

/** A fragment of JSON text spliced in as is (deep nesting, huge numbers, ids JSON.parse changes). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of `value`, with `RawJson` fragments spliced in. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0000RAW${raws.length - 1}\u0000`;
    }
    return v;
  });
  if (raws.length === 0) return text ?? 'null';
  return (text ?? 'null').replace(/"\\u0000RAW(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}

/** rskj's regtest dev accounts and a few fixed values that decoders accept. */
export const COW = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
export const COW1 = '0x7986b3df570230288501eea3d890bd66948c9b79';
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Balances compared before and after each case (besides head, state root and pool). */
export const WATCHED_ACCOUNTS = [COW, COW1, ZERO_ADDRESS, '0x0000000000000000000000000000000001000008'];

const KB = 1024;
/** Sizes of the long strings: big enough to hurt a parser that does not check lengths first. */
const LONG_SIZES = [100, 4 * KB, 64 * KB, 1024 * KB];

const hexDigits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: n, maxLength: n });

/** Hex strings that look right for something: addresses, hashes, quantities, data. */
const validLooking = fc.oneof(
  fc.constantFrom(COW, COW1, ZERO_ADDRESS, 'latest', 'earliest', 'pending', 'safe', 'finalized', '0x0', '0x1', '0x', '0x00', '0xff', '0x5208', '0x3b9aca00'),
  hexDigits(40).map((h) => `0x${h}`),
  hexDigits(64).map((h) => `0x${h}`),
  fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map((n) => `0x${n.toString(16)}`),
  fc.nat({ max: 1_000 }).map((n) => `0x${n.toString(16)}`),
  fc.nat({ max: 1_000 }).map((n) => String(n)),
  fc.uint8Array({ maxLength: 64 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
);

/** Hex and decimal strings that are nearly right: wrong length, leading zeros, no prefix, bad digits. */
const badLooking = fc.oneof(
  hexDigits(39).map((h) => `0x${h}`),
  hexDigits(41).map((h) => `0x${h}`),
  hexDigits(63).map((h) => `0x${h}`),
  hexDigits(40),
  fc.constantFrom('0x', '0X1', '0x0001', '0xg', '0x-1', '-0x1', '-1', '1.5', '1e3', ' 0x1', '0x1 ', '0x\u0000', 'LATEST', 'Latest', 'null', 'true', '', ' ', '0b1', '0o7', 'Infinity', 'NaN'),
  fc.bigInt({ min: 1n << 256n, max: 1n << 520n }).map((n) => `0x${n.toString(16)}`),
  fc.bigInt({ min: 1n << 63n, max: 1n << 300n }).map((n) => n.toString()),
  fc.constantFrom(...LONG_SIZES).chain((n) => fc.constantFrom(`0x${'f'.repeat(n)}`, '9'.repeat(n), `0x${'0'.repeat(n)}1`, `0x${'z'.repeat(n)}`, 'a'.repeat(n))),
);

const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, -0, 0, 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, Number.MAX_VALUE, Number.MIN_VALUE, 0.5),
  fc.constantFrom('1e400', '-1e400', '18446744073709551617', '123456789012345678901234567890', '1.0', '-0', '1E2').map((t) => new RawJson(t)),
);

const unicode = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('\ud800', '\u0000', '💩', 'é'.normalize('NFD'), '\u202e0x1'));

/** Arrays or objects nested `depth` levels, as text. */
const deep = fc.tuple(fc.constantFrom(50, 99, 100, 101, 1_000, 5_000, 20_000), fc.boolean()).map(([depth, arrays]) =>
  new RawJson(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
);

export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: validLooking, weight: 6 },
  { arbitrary: badLooking, weight: 4 },
  { arbitrary: weirdNumber, weight: 2 },
  { arbitrary: unicode, weight: 1 },
  { arbitrary: fc.constantFrom(null, true, false), weight: 2 },
);

/** Object members: call objects, filters, EIP-1898 selectors, trace options, tracer configs. */
const KEYS = [
  'from', 'to', 'gas', 'gasLimit', 'gasPrice', 'value', 'data', 'input', 'nonce', 'type', 'chainId', 'accessList',
  'fromBlock', 'toBlock', 'blockHash', 'blockNumber', 'requireCanonical', 'address', 'topics',
  'tracer', 'tracerConfig', 'disableStack', 'disableMemory', 'disableStorage', 'enableMemory', 'onlyTopCall', 'timeout',
  'count', 'after', 'fromAddress', 'toAddress', 'forking', 'jsonRpcUrl', 'a', '__proto__', 'constructor', 'toString',
];

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 10 },
    { arbitrary: fc.dictionary(fc.constantFrom(...KEYS), tie('v'), { maxKeys: 6 }), weight: 3 },
    { arbitrary: fc.array(tie('v'), { maxLength: 5 }), weight: 2 },
    { arbitrary: deep, weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(null, 1, '0x1', COW, 'latest', [], {}), fc.constantFrom(1_000, 10_000, 100_000)).map(([v, n]) => new Array(n).fill(v)), weight: 1 },
  ),
})).v;

/** Positional params: usually an array of 0-4 values, sometimes something that is not an array. */
export const paramsValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.array(value, { maxLength: 4 }), weight: 20 },
  { arbitrary: fc.array(value, { minLength: 5, maxLength: 8 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 3 }), weight: 1 },
  { arbitrary: scalar, weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Cases

/** One method call with random params (the bulk of the cases). */
export interface ParamsCase {
  kind: 'params';
  method: string;
  params: unknown;
  id: number;
  /** Sent even when valid for a method the random phase keeps away from (the side-effect phase). */
  forced?: true;
}

/** A single request whose envelope members vary; `truncateAt` cuts the text to make it invalid JSON. */
export interface EnvelopeCase {
  kind: 'envelope';
  members: Record<string, unknown>;
  truncateAt?: number;
}

/** A batch of requests and junk elements. */
export interface BatchCase {
  kind: 'batch';
  items: unknown[];
}

/** An HTTP request the transport must survive. */
export interface HttpCase {
  kind: 'http';
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  chunked: boolean;
}

export type FuzzCase = ParamsCase | EnvelopeCase | BatchCase | HttpCase;

const ids = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 31 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(0, -1, 2 ** 53, 0.5, '', 'id', '💩'),
  fc.constantFrom('18446744073709551617', '9007199254740993', '1e400', '-0', '1.0', '1E2', '0.1').map((t) => new RawJson(t)),
  fc.constantFrom(null, true, false, {}, [], [1], { id: 1 }),
);

/** Safe read-only requests that make up batches and envelopes. */
const READ_ONLY = ['eth_blockNumber', 'eth_chainId', 'net_version', 'eth_getBalance', 'eth_gasPrice', 'web3_clientVersion', 'eth_getBlockByNumber'];

export function paramsCase(methods: readonly string[]): fc.Arbitrary<ParamsCase> {
  return fc.record({ kind: fc.constant('params' as const), method: fc.constantFrom(...methods), params: paramsValue, id: fc.nat() });
}

export function envelopeCase(methods: readonly string[]): fc.Arbitrary<EnvelopeCase> {
  const methodMember = fc.oneof(
    { arbitrary: fc.constantFrom(...READ_ONLY), weight: 5 },
    { arbitrary: fc.constantFrom(...methods), weight: 1 },
    { arbitrary: fc.constantFrom('eth_foo', 'ETH_BLOCKNUMBER', 'eth_blockNumber ', '', 'constructor', '__proto__', 'toString', 'hasOwnProperty'), weight: 2 },
    { arbitrary: scalar, weight: 1 },
  );
  return fc.record(
    {
      kind: fc.constant('envelope' as const),
      members: fc.record(
        {
          jsonrpc: fc.oneof({ arbitrary: fc.constant('2.0'), weight: 6 }, fc.constantFrom('1.0', '2', 2, 2.0, null, '', '3.0')),
          id: ids,
          method: methodMember,
          params: fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, paramsValue, fc.constantFrom(null, 'x', 1, {}, true)),
          extra: scalar,
        },
        { requiredKeys: [] },
      ),
      truncateAt: fc.option(fc.nat({ max: 60 }), { nil: undefined }),
    },
    { requiredKeys: ['kind', 'members'] },
  );
}

export function batchCase(): fc.Arbitrary<BatchCase> {
  const request = fc.record({ jsonrpc: fc.constant('2.0'), id: ids, method: fc.constantFrom(...READ_ONLY), params: fc.oneof(fc.constant([]), fc.array(scalar, { maxLength: 3 })) });
  const junk = fc.oneof(scalar, fc.constant([]), fc.constant({}), fc.array(request, { maxLength: 2 }));
  const item = fc.oneof({ arbitrary: request, weight: 8 }, { arbitrary: junk, weight: 2 });
  return fc.record({
    kind: fc.constant('batch' as const),
    items: fc.oneof({ arbitrary: fc.array(item, { maxLength: 10 }), weight: 6 }, fc.array(item, { minLength: 45, maxLength: 55 }), fc.constantFrom(MAX_BATCH, MAX_BATCH + 1, 10 * MAX_BATCH).map((n) => new Array(n).fill({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }))),
  });
}

export function httpCase(testnetKey: string): fc.Arbitrary<HttpCase> {
  const valid = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
  return fc.record({
    kind: fc.constant('http' as const),
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'),
    path: fc.constantFrom('/', `/${testnetKey}`, `/${testnetKey}/`, '/wrong-key', '/api', '/api/keys', '/dashboard', '/a/b/c', '/?x=1', '//', '/%00', '/%E0%A4%A', `/${'k'.repeat(5_000)}`, '/../etc/passwd', '/ws'),
    contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''), { nil: undefined }),
    body: fc.option(
      fc.oneof(
        fc.constantFrom(valid, '', ' ', 'null', '[]', '{}', 'garbage', valid.slice(0, 20), `${valid}${valid}`, '\uFEFF' + valid, 'jsonrpc=2.0&method=eth_blockNumber'),
        fc.constantFrom(1, 15).map((mb) => `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[],"pad":"${'x'.repeat(mb * 1024 * 1024)}"}`),
        fc.constant(' '.repeat(17 * 1024 * 1024)),
      ),
      { nil: undefined },
    ),
    chunked: fc.boolean(),
  });
}

/** The class a case counts under in the report. */
export function classOf(c: FuzzCase): string {
  if (c.kind === 'params') return `params:${c.method}`;
  if (c.kind === 'batch') return c.items.length > MAX_BATCH ? 'batch:oversized' : c.items.length === 0 ? 'batch:empty' : 'batch';
  if (c.kind === 'envelope') return c.truncateAt !== undefined ? 'envelope:truncated' : 'envelope';
  return 'http';
}

/** The request body a JSON-RPC case sends. */
export function bodyOf(c: ParamsCase | EnvelopeCase | BatchCase): string {
  if (c.kind === 'params') return toJson({ jsonrpc: '2.0', id: c.id, method: c.method, params: c.params });
  if (c.kind === 'batch') return toJson(c.items);
  const text = toJson(c.members);
  return c.truncateAt === undefined ? text : text.slice(0, Math.min(c.truncateAt, text.length - 1));
}
