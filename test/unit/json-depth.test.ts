import { describe, expect, it } from 'vitest';
import { Dispatcher, MAX_PARAMS_DEPTH, jsonTextDepth } from '../../src/rpc/dispatcher.js';
import { InternalError } from '../../src/rpc/errors.js';
import { noParams } from '../../src/rpc/params.js';

describe('jsonTextDepth', () => {
  it('counts nested arrays and objects, not brackets inside strings', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('[]')).toBe(1);
    expect(jsonTextDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonTextDepth('["[[[[", "{{{"]')).toBe(1);
    // An escaped quote does not end the string; an escaped backslash does not escape the quote.
    expect(jsonTextDepth(String.raw`["\"[[[", "\\", [[]]]`)).toBe(3);
    expect(jsonTextDepth(JSON.stringify([[[['x']]], { a: { b: '}]' } }]))).toBe(4);
  });
});

describe('the params depth check with the body text', () => {
  const dispatcher = new Dispatcher<object>(
    [{ name: 'test_none', doc: 'takes nothing', decode: noParams, handler: () => 'ok' }],
    { maxBatch: 10, mapError: () => new InternalError() },
  );
  const call = async (params: string) => JSON.parse((await dispatcher.handleBody(`{"jsonrpc":"2.0","id":1,"method":"test_none","params":${params}}`, {})).body);
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it('still refuses params nested too deep, alone and in a batch', async () => {
    expect((await call(`[${nested(MAX_PARAMS_DEPTH)}]`)).error.message).toContain('nested more than');
    const batch = JSON.parse((await dispatcher.handleBody(`[{"jsonrpc":"2.0","id":1,"method":"test_none","params":[${nested(150)}]}]`, {})).body);
    expect(batch[0].error.message).toContain('nested more than');
  });

  it('refuses params one level past the limit and takes them at the limit (short bodies skip the scan: they cannot be that deep)', async () => {
    expect((await call(nested(MAX_PARAMS_DEPTH + 1))).error.message).toContain('nested more than');
    expect((await call(nested(MAX_PARAMS_DEPTH))).error.message).toContain('too many arguments');
    expect((await call('[[[]]]')).error.message).toContain('too many arguments');
  });

  it('lets a wide but shallow body through to the method, brackets in strings or not', async () => {
    const wide = JSON.stringify([Array.from({ length: 50_000 }, () => []), '['.repeat(500)]);
    expect((await call(wide)).error.message).toContain('too many arguments');
    expect(await call('[]')).toMatchObject({ result: 'ok' });
  });
});
