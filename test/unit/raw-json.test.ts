/**
 * A result held as UTF-8 pieces (raw-json.ts): the answer's bytes come in chunks of at most
 * ANSWER_CHUNK_BYTES (a larger piece as its own chunk) whose concatenation is exactly the text
 * JSON.stringify gives, and the RawJson reads back as that JSON everywhere else.
 */
import { describe, expect, it } from 'vitest';
import { ANSWER_CHUNK_BYTES, RawJson, rawJsonArray, rawSuccessBytes, rawSuccessText, resultValue } from '../../src/rpc/raw-json.js';

const item = (i: number, size: number) => Buffer.from(JSON.stringify({ i, pad: 'x'.repeat(size) }));

describe('rawSuccessBytes', () => {
  it('writes an array of pieces as the success response JSON.stringify gives, in bounded chunks', () => {
    const items = Array.from({ length: 500 }, (_, i) => item(i, 300 + (i % 7) * 50));
    const raw = rawJsonArray(items);
    const values = items.map((b) => JSON.parse(b.toString()) as unknown);
    const chunks = rawSuccessBytes(7, raw.pieces!);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(ANSWER_CHUNK_BYTES);
    expect(Buffer.concat(chunks).toString()).toBe(JSON.stringify({ jsonrpc: '2.0', id: 7, result: values }));
    expect(Buffer.concat(chunks).toString()).toBe(rawSuccessText(7, raw));
    expect(resultValue(raw)).toEqual(values);
    expect(JSON.stringify({ wrapped: raw })).toBe(JSON.stringify({ wrapped: values }));
  });

  it('keeps a piece larger than a chunk whole, and answers an empty array', () => {
    const big = item(1, ANSWER_CHUNK_BYTES * 2);
    const chunks = rawSuccessBytes('a', rawJsonArray([item(0, 10), big, item(2, 10)]).pieces!);
    expect(chunks).toContain(big);
    expect(JSON.parse(Buffer.concat(chunks).toString()).result.map((v: { i: number }) => v.i)).toEqual([0, 1, 2]);
    expect(Buffer.concat(rawSuccessBytes(null, rawJsonArray([]).pieces!)).toString()).toBe('{"jsonrpc":"2.0","id":null,"result":[]}');
    expect(new RawJson('[1]').pieces).toBeUndefined();
  });
});
