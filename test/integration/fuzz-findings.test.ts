/**
 * Regression tests for what the JSON-RPC fuzzer (scripts/fuzz, `npm run fuzz`) found, each named
 * after the finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcRaw, startTestNode, type TestNode } from '../helpers/node.js';

describe('fuzz findings', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('an unknown method name of 1 MB is not echoed whole in the -32601 message', async () => {
    const name = `0x${'f'.repeat(1024 * 1024)}`;
    const { status, body } = await rpcRaw(t.testnetUrl, JSON.stringify({ jsonrpc: '2.0', id: 3, method: name, params: [] }));
    expect(status).toBe(200);
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-32601);
    expect(body.error.message).toBe(`method not found: 0x${'f'.repeat(78)}...`);
  });

  it('a short unknown method name is still named in full', async () => {
    const { body } = await rpcRaw(t.testnetUrl, JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'eth_foo', params: [] }));
    expect(body).toEqual({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'method not found: eth_foo' } });
  });
});
