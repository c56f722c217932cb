import { describe, it, expect } from 'vitest';
import { Dispatcher, serializeResponse } from '../../src/rpc/dispatcher.js';
import { ErrorCode, InternalError, RevertError, RpcError } from '../../src/rpc/errors.js';
import { address, blockSelector, params, quantity, noParams } from '../../src/rpc/params.js';
import type { MethodSpec } from '../../src/rpc/types.js';

const defineMethod = <Ctx, P>(spec: MethodSpec<Ctx, P>): MethodSpec<Ctx, P> => spec;

interface Ctx {
  log: string[];
  counter: number;
}

const ADDR = '0x7986b3df570230288501eea3d890bd66948c9b79';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const methods: MethodSpec<Ctx>[] = [
  defineMethod({
    name: 'test_echo',
    doc: 'returns its address argument and block',
    decode: params([address, blockSelector.orDefault({ tag: 'latest' })]),
    handler: (_ctx: Ctx, [a, b]) => ({ address: a.toString(), block: 'tag' in b ? b.tag : 'other' }),
  }),
  defineMethod({
    name: 'test_void',
    doc: 'returns undefined',
    decode: noParams,
    handler: () => undefined,
  }),
  defineMethod({
    name: 'test_slowPush',
    doc: 'appends after a delay',
    decode: params([quantity]),
    handler: async (ctx: Ctx, [n]) => {
      await sleep(Number(n));
      ctx.log.push(`slow${n}`);
      return ctx.log.length;
    },
  }),
  defineMethod({
    name: 'test_push',
    doc: 'appends immediately',
    decode: noParams,
    handler: (ctx: Ctx) => {
      ctx.log.push('fast');
      return ctx.log.length;
    },
  }),
  defineMethod({
    name: 'test_increment',
    doc: 'increments the counter',
    decode: noParams,
    handler: (ctx: Ctx) => `0x${(++ctx.counter).toString(16)}`,
  }),
  defineMethod({
    name: 'test_revert',
    doc: 'throws an RpcError with data',
    decode: noParams,
    handler: () => {
      throw new RevertError('revert nope', '0x08c379a0');
    },
  }),
  defineMethod({
    name: 'test_plainRpcError',
    doc: 'throws an RpcError without data',
    decode: noParams,
    handler: async () => {
      throw new RpcError(ErrorCode.Server, 'filter not found');
    },
  }),
  defineMethod({
    name: 'test_crash',
    doc: 'throws a non-RpcError',
    decode: noParams,
    handler: () => {
      throw new Error('kaboom');
    },
  }),
  defineMethod({
    name: 'test_bigint',
    doc: 'leaks a bigint',
    decode: noParams,
    handler: () => ({ value: 1n }),
  }),
  defineMethod({
    name: 'test_null',
    doc: 'returns null',
    decode: noParams,
    handler: () => null,
  }),
];

const mapped: { err: unknown; method: string }[] = [];
function makeDispatcher(maxBatch = 3) {
  return new Dispatcher<Ctx>(methods, {
    maxBatch,
    mapError: (err, method) => {
      mapped.push({ err, method });
      return new RpcError(ErrorCode.Internal, `mapped: ${(err as Error).message}`);
    },
  });
}
const newCtx = (): Ctx => ({ log: [], counter: 0 });

async function post(body: unknown, d = makeDispatcher(), ctx = newCtx()) {
  const res = await d.handleBody(typeof body === 'string' ? body : JSON.stringify(body), ctx);
  return { status: res.status, text: res.body, json: JSON.parse(res.body) };
}

describe('Dispatcher.handleBody: envelope', () => {
  it('answers a valid single request with HTTP 200', async () => {
    const r = await post({ jsonrpc: '2.0', id: 7, method: 'test_echo', params: [ADDR] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 7, result: { address: ADDR, block: 'latest' } });
    expect(r.text).toBe(`{"jsonrpc":"2.0","id":7,"result":{"address":"${ADDR}","block":"latest"}}`);
  });

  it('answers malformed JSON with -32700, id null, HTTP 400', async () => {
    for (const body of ['{"jsonrpc":"2.0",', '', 'nope']) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the request body is not valid JSON' },
      });
    }
  });

  it('answers an empty batch with a single -32600 object', async () => {
    const r = await post([]);
    expect(r.status).toBe(400);
    expect(Array.isArray(r.json)).toBe(false);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
  });

  it('answers an over-size batch with a single -32600 naming the limit', async () => {
    const req = { jsonrpc: '2.0', id: 1, method: 'test_increment' };
    const ctx = newCtx();
    const r = await post([req, req, req, req], makeDispatcher(3), ctx);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Cannot dispatch batch requests. 3 is the max number of supported batch requests' },
    });
    expect(ctx.counter).toBe(0);
    const ok = await post([req, req, req], makeDispatcher(3), ctx);
    expect(ok.status).toBe(200);
    expect(ok.json.map((x: { result: string }) => x.result)).toEqual(['0x1', '0x2', '0x3']);
  });

  it('answers a mixed batch element by element, in order, HTTP 200', async () => {
    const r = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'test_echo', params: [ADDR, 'earliest'] },
        5,
        { jsonrpc: '2.0', id: 'b', method: 'nope_nope' },
        { jsonrpc: '1.0', id: 3, method: 'test_void' },
        { jsonrpc: '2.0', id: 4, method: 'test_echo', params: ['0x12'] },
        { jsonrpc: '2.0', id: { x: 1 }, method: 'test_void' },
        { jsonrpc: '2.0', id: 6, method: 'test_void' },
      ],
      makeDispatcher(10),
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: { address: ADDR, block: 'earliest' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a JSON object' } },
      { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'method not found: nope_nope' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' } },
      {
        jsonrpc: '2.0',
        id: 4,
        error: { code: -32602, message: 'invalid argument 0 (address): hex string has length 2, want 40 for RSK address' },
      },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: id must be a string, a number or null' } },
      { jsonrpc: '2.0', id: 6, result: null },
    ]);
  });

  it('runs batch elements sequentially so state changes apply in order', async () => {
    const ctx = newCtx();
    const r = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'test_slowPush', params: ['0x1e'] },
        { jsonrpc: '2.0', id: 2, method: 'test_push' },
        { jsonrpc: '2.0', id: 3, method: 'test_slowPush', params: ['0x5'] },
      ],
      makeDispatcher(),
      ctx,
    );
    expect(ctx.log).toEqual(['slow30', 'fast', 'slow5']);
    expect(r.json.map((x: { id: number; result: number }) => [x.id, x.result])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it('uses httpStatusFor on single errors: 400 for -32600/-32602, 200 otherwise', async () => {
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: ['x'] })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 1 })).status).toBe(400);
    expect((await post('"just a string"')).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'nope' })).status).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'test_revert' })).status).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'test_crash' })).status).toBe(200);
  });

  it('turns a leaked bigint into -32603 without losing the rest of the batch', async () => {
    const single = await post({ jsonrpc: '2.0', id: 9, method: 'test_bigint' });
    expect(single.status).toBe(200);
    expect(single.json).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32603, message: 'Internal server error: the response could not be serialized' },
    });
    const batch = await post([
      { jsonrpc: '2.0', id: 1, method: 'test_increment' },
      { jsonrpc: '2.0', id: 2, method: 'test_bigint' },
      { jsonrpc: '2.0', id: 3, method: 'test_increment' },
    ]);
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x1' },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal server error: the response could not be serialized' } },
      { jsonrpc: '2.0', id: 3, result: '0x2' },
    ]);
  });
});

describe('Dispatcher.handleRequest', () => {
  const d = makeDispatcher();

  it('rejects non-object requests', async () => {
    for (const req of [null, 1, 'x', [], true]) {
      expect(await d.handleRequest(req, newCtx())).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: expected a JSON object' },
      });
    }
  });

  it('rejects a wrong jsonrpc version but accepts a missing one', async () => {
    expect(await d.handleRequest({ jsonrpc: '1.0', id: 1, method: 'test_void' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' },
    });
    expect(await d.handleRequest({ jsonrpc: 2, id: 1, method: 'test_void' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' },
    });
    expect(await d.handleRequest({ id: 1, method: 'test_void' }, newCtx())).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });

  it('rejects a missing, empty or non-string method', async () => {
    for (const method of [undefined, '', 5]) {
      expect(await d.handleRequest({ jsonrpc: '2.0', id: 'a', method }, newCtx())).toEqual({
        jsonrpc: '2.0',
        id: 'a',
        error: { code: -32600, message: 'invalid request: method must be a non-empty string' },
      });
    }
  });

  it('rejects bad id types with id null, accepts string/number/null ids', async () => {
    for (const id of [{}, [1], true]) {
      expect(await d.handleRequest({ jsonrpc: '2.0', id, method: 'test_void' }, newCtx())).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: id must be a string, a number or null' },
      });
    }
    for (const id of ['abc', 0, 1.5, -3, null]) {
      expect(await d.handleRequest({ jsonrpc: '2.0', id, method: 'test_void' }, newCtx())).toEqual({ jsonrpc: '2.0', id, result: null });
    }
  });

  it('answers a notification (no id) with id null', async () => {
    const ctx = newCtx();
    expect(await d.handleRequest({ jsonrpc: '2.0', method: 'test_increment' }, ctx)).toEqual({
      jsonrpc: '2.0',
      id: null,
      result: '0x1',
    });
    expect(ctx.counter).toBe(1);
  });

  it('rejects params given as an object with -32602, and other non-arrays with -32600', async () => {
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: { address: ADDR } }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'params must be an array: RSK methods take positional params' },
    });
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: ADDR }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'invalid request: params must be an array' },
    });
  });

  it('treats absent or null params as []', async () => {
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_increment' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x1',
    });
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_increment', params: null }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x1',
    });
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_echo' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'missing value for required argument 0 (address)' },
    });
  });

  it('reports an unknown method before looking at its params', async () => {
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'eth_nope', params: { bad: true } }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'method not found: eth_nope' },
    });
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'eth_nope', params: ['garbage', 1, 2, 3] }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'method not found: eth_nope' },
    });
    // Object.prototype members are not methods.
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'toString' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'method not found: toString' },
    });
  });

  it('propagates InvalidParams from decode without calling the handler', async () => {
    const ctx = newCtx();
    expect(await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_increment', params: [1] }, ctx)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'too many arguments, want at most 0' },
    });
    expect(ctx.counter).toBe(0);
  });

  it('returns an RpcError with its data, and without data when undefined', async () => {
    const withData = await d.handleRequest({ jsonrpc: '2.0', id: 2, method: 'test_revert' }, newCtx());
    expect(withData).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32015, message: 'VM Exception while processing transaction: revert nope', data: '0x08c379a0' },
    });
    const noData = await d.handleRequest({ jsonrpc: '2.0', id: 3, method: 'test_plainRpcError' }, newCtx());
    expect(noData).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'filter not found' } });
    expect('data' in (noData as { error: object }).error).toBe(false);
    expect(serializeResponse(noData)).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"filter not found"}}');
  });

  it('maps non-RpcErrors through options.mapError with the method name', async () => {
    mapped.length = 0;
    const res = await d.handleRequest({ jsonrpc: '2.0', id: 5, method: 'test_crash' }, newCtx());
    expect(res).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'mapped: kaboom' } });
    expect(mapped).toHaveLength(1);
    expect(mapped[0]!.method).toBe('test_crash');
    expect((mapped[0]!.err as Error).message).toBe('kaboom');
  });

  it('falls back to -32603 when mapError itself throws', async () => {
    const broken = new Dispatcher<Ctx>(methods, {
      maxBatch: 5,
      mapError: () => {
        throw new Error('mapper bug');
      },
    });
    expect(await broken.handleRequest({ jsonrpc: '2.0', id: 5, method: 'test_crash' }, newCtx())).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32603, message: new InternalError().message },
    });
  });

  it('serializes an undefined result as null and keeps a null result', async () => {
    const res = await d.handleRequest({ jsonrpc: '2.0', id: 1, method: 'test_void' }, newCtx());
    expect(res).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(serializeResponse(res)).toBe('{"jsonrpc":"2.0","id":1,"result":null}');
    const r2 = await post({ jsonrpc: '2.0', id: 2, method: 'test_null' });
    expect(r2.text).toBe('{"jsonrpc":"2.0","id":2,"result":null}');
  });
});

describe('serializeResponse: a string result written as text (issue 25)', () => {
  it('gives what JSON.stringify of the response object gives, for every kind of id and string', () => {
    const ids = [1, 0, -7, 1.5, 2 ** 53 + 2, 1e21, 'abc', 'quote " backslash \\ newline \n', '\u2028\ud800', '', null];
    const results = ['0x1', '', '0x' + 'f'.repeat(64), 'quote " and \n and \u0000', '\ud800 lone surrogate', 'ünïcødé'];
    for (const id of ids) {
      for (const result of results) {
        const res = { jsonrpc: '2.0' as const, id, result };
        expect(serializeResponse(res)).toBe(JSON.stringify(res));
      }
    }
  });
});

describe('serializeResponse: the last short string result kept (issue 25)', () => {
  it('answers each result, repeated or changed, long or short, as JSON.stringify does', () => {
    const long = `0x${'ab'.repeat(100)}`;
    const sequence = ['0x1', '0x1', '0x2', '0x1', 'a "quoted" one', 'a "quoted" one', long, long, '0x1', '', '', '0x' + 'f'.repeat(64), '0x' + 'f'.repeat(64)];
    sequence.forEach((result, id) => {
      const res = { jsonrpc: '2.0' as const, id, result };
      expect(serializeResponse(res)).toBe(JSON.stringify(res));
    });
  });
});

describe('Dispatcher registry', () => {
  it('lists and finds methods', () => {
    const d = makeDispatcher();
    expect(d.methodNames()).toEqual(methods.map((m) => m.name));
    expect(d.has('test_echo')).toBe(true);
    expect(d.has('eth_nope')).toBe(false);
    expect(d.has('constructor')).toBe(false);
  });

  it('refuses duplicate method names', () => {
    expect(() => new Dispatcher<Ctx>([methods[0]!, methods[0]!], { maxBatch: 1, mapError: () => new InternalError() })).toThrow(
      'duplicate RPC method test_echo',
    );
  });
});

describe('Dispatcher.dispatch: no promise when no call needs one', () => {
  const d = makeDispatcher();

  it('answers a synchronous handler, an unknown method and bad JSON in the same tick', () => {
    const sync = d.dispatch({ jsonrpc: '2.0', id: 1, method: 'test_increment', params: [] }, newCtx(), '{}');
    expect(sync).not.toBeInstanceOf(Promise);
    expect(JSON.parse((sync as { body: string }).body)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
    const unknown = d.dispatch({ jsonrpc: '2.0', id: 2, method: 'test_nope', params: [] }, newCtx(), '{}');
    expect(unknown).not.toBeInstanceOf(Promise);
    expect(JSON.parse((unknown as { body: string }).body).error.code).toBe(ErrorCode.MethodNotFound);
  });

  it('answers a synchronous throw with its code, and a non-RpcError through mapError, without a promise', () => {
    const revert = d.dispatch({ jsonrpc: '2.0', id: 3, method: 'test_revert', params: [] }, newCtx(), '{}');
    expect(revert).not.toBeInstanceOf(Promise);
    const expected = new RevertError('revert nope', '0x08c379a0');
    expect(JSON.parse((revert as { body: string }).body).error).toEqual({ code: expected.code, message: expected.message, data: '0x08c379a0' });
    const crash = d.dispatch({ jsonrpc: '2.0', id: 4, method: 'test_crash', params: [] }, newCtx(), '{}');
    expect(JSON.parse((crash as { body: string }).body).error).toEqual({ code: ErrorCode.Internal, message: 'mapped: kaboom' });
  });

  it('answers an asynchronous handler, a rejection and a batch through a promise, with the same bodies as handleBody', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'test_slowPush', params: ['0x1'] });
    const slow = d.dispatch(JSON.parse(body), newCtx(), body);
    expect(slow).toBeInstanceOf(Promise);
    expect(await slow).toEqual(await d.handleBody(body, newCtx()));
    const rejected = await d.dispatch({ jsonrpc: '2.0', id: 6, method: 'test_plainRpcError', params: [] }, newCtx(), '{}');
    expect(JSON.parse(String(rejected.body)).error).toEqual({ code: ErrorCode.Server, message: 'filter not found' });
    const batch = d.dispatch([{ jsonrpc: '2.0', id: 7, method: 'test_increment' }], newCtx(), '[{}]');
    expect(batch).toBeInstanceOf(Promise);
    expect(JSON.parse(String((await batch).body))).toEqual([{ jsonrpc: '2.0', id: 7, result: '0x1' }]);
  });

  it('awaits a result that is a thenable but no native promise, as await would', async () => {
    const thenable = new Dispatcher<Ctx>(
      [defineMethod({ name: 'test_thenable', doc: 'a thenable', decode: noParams, handler: () => ({ then: (resolve: (v: unknown) => void) => resolve('0x2a') }) })],
      { maxBatch: 3, mapError: () => new InternalError() },
    );
    const res = await thenable.dispatch({ jsonrpc: '2.0', id: 8, method: 'test_thenable', params: [] }, newCtx(), '{}');
    expect(JSON.parse(String(res.body))).toEqual({ jsonrpc: '2.0', id: 8, result: '0x2a' });
  });
});
