/**
 * The fork's remote client and state source against a stub JSON-RPC server (real HTTP on
 * 127.0.0.1): batches of at most 50 calls with an account never split, identical reads in flight
 * merged, Retry-After honoured, alloy's retryable errors, and the cache keyed by typed params.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { ForkCache, type CacheStore } from '../../src/chain/fork/cache.js';
import { RemoteClient, RemoteError, isRetryableRpcError } from '../../src/chain/fork/remote-client.js';
import { RemoteState } from '../../src/chain/fork/remote-state.js';

interface Call {
  id: number;
  method: string;
  params: unknown[];
}

let server: Server;
let url: string;
/** Every HTTP body received: a call or a batch. */
const received: Array<Call | Call[]> = [];
/** Statuses to answer the next requests with (then forwarded normally). */
const statuses: Array<{ status: number; retryAfter?: string }> = [];
/** Answer every batch with one error object, as rskj refuses a batch over its limit. */
let refuseBatches = false;

function answer(call: Call): unknown {
  switch (call.method) {
    case 'eth_getBalance':
      return '0x10';
    case 'eth_getTransactionCount':
      return '0x1';
    case 'eth_getCode':
      return '0x6000';
    case 'eth_getStorageAt':
      return '0x05';
    default:
      return null;
  }
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as Call | Call[];
    received.push(body);
    if (refuseBatches && Array.isArray(body)) {
      const refusal = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Cannot dispatch batch requests. 50 is the max number of supported batch requests' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
      return;
    }
    const next = statuses.shift();
    if (next !== undefined) {
      res.writeHead(next.status, next.retryAfter === undefined ? {} : { 'retry-after': next.retryAfter }).end('busy');
      return;
    }
    const reply = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: answer(call) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(reply) : reply(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function memoryStore(): CacheStore & { size(): number } {
  const map = new Map<string, Uint8Array>();
  return {
    get: async (key) => map.get(bytesToHex(key)),
    put: async (key, value) => void map.set(bytesToHex(key), value),
    size: () => map.size,
  };
}

/** The fork block's hash, part of every cache key. */
const FORK_HASH = new Uint8Array(32).fill(7);
const address = (i: number) => hexToBytes(`0x${(0x1000 + i).toString(16).padStart(40, '0')}`);

describe('fork remote state', () => {
  it('reads 20 accounts made in one turn as batches of at most 50 calls, no account split', async () => {
    received.length = 0;
    const remote = new RemoteState(new RemoteClient(url), new ForkCache(memoryStore(), 31n, 7n, FORK_HASH), 7n);
    const accounts = await Promise.all(Array.from({ length: 20 }, (_, i) => remote.account(address(i))));
    expect(accounts[0]).toEqual({ balance: 16n, nonce: 1n, code: Uint8Array.of(0x60, 0x00) });
    expect(received.map((b) => (b as Call[]).length)).toEqual([48, 12]);
    for (const batch of received as Call[][]) for (const call of batch) expect(call.params.at(-1)).toBe('0x7');
    expect(remote.requests).toBe(2);
  });

  it('merges identical reads in flight and asks nothing for what the cache has, whatever the spelling', async () => {
    received.length = 0;
    const store = memoryStore();
    const remote = new RemoteState(new RemoteClient(url), new ForkCache(store, 31n, 7n, FORK_HASH), 7n);
    const slot = new Uint8Array(32);
    const [a, b] = await Promise.all([remote.storage(address(1), slot), remote.storage(address(1), slot)]);
    expect(bytesToHex(a)).toBe(`0x${'00'.repeat(31)}05`);
    expect(b).toEqual(a);
    expect(received).toHaveLength(1);
    // Another source over the same store (a restart): the same read is cached.
    const again = new RemoteState(new RemoteClient(url), new ForkCache(store, 31n, 7n, FORK_HASH), 7n);
    expect(await again.storage(address(1), slot)).toEqual(a);
    expect(again.requests).toBe(0);
    // Another fork block is another cache.
    const other = new RemoteState(new RemoteClient(url), new ForkCache(store, 31n, 8n, FORK_HASH), 8n);
    await other.storage(address(1), slot);
    expect(other.requests).toBe(1);
  });

  it('waits as long as Retry-After says, then reads', async () => {
    const waits: number[] = [];
    const client = new RemoteClient(url, { backoffMs: 1, sleep: async (ms) => void waits.push(ms) });
    statuses.push({ status: 429, retryAfter: '2' }, { status: 503 });
    expect(await client.call('eth_getBalance', ['0x00', '0x1'])).toBe('0x10');
    expect(waits).toEqual([2000, 2]);
    expect(client.requests).toBe(3);
  });

  it('reports a read that runs out of retries, and does not retry a plain error', async () => {
    const client = new RemoteClient(url, { retries: 2, backoffMs: 1, sleep: async () => undefined });
    statuses.push({ status: 429 }, { status: 429 }, { status: 429 });
    await expect(client.call('eth_getBalance', ['0x00', '0x1'])).rejects.toThrow(/failed after 2 retries: HTTP 429/);
    statuses.push({ status: 400 });
    const error = await client.call('eth_getBalance', ['0x00', '0x1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as Error).message).toMatch(/HTTP 400 without JSON-RPC/);
  });

  it('reports a batch refused whole with the remote\'s error for each of its calls', async () => {
    refuseBatches = true;
    try {
      const remote = new RemoteState(new RemoteClient(url), new ForkCache(memoryStore(), 31n, 7n, FORK_HASH), 7n);
      await expect(remote.account(address(99))).rejects.toThrow(/eth_getBalance failed on .*Cannot dispatch batch requests\. 50 is the max/);
    } finally {
      refuseBatches = false;
    }
  });

  it("treats alloy's rate-limit answers as retryable and others not", () => {
    expect(isRetryableRpcError({ code: -32005, message: 'whatever' })).toBe(true);
    expect(isRetryableRpcError({ code: 429 })).toBe(true);
    expect(isRetryableRpcError({ code: -32016, message: 'Rate limit exceeded' })).toBe(true);
    expect(isRetryableRpcError({ code: -32000, message: 'daily request count exceeded, request rate limited' })).toBe(true);
    expect(isRetryableRpcError({ code: -32000, message: 'header not found' })).toBe(true);
    expect(isRetryableRpcError({ code: -32600, message: 'Block 0x5 not found' })).toBe(false);
    expect(isRetryableRpcError({ code: -32603, message: 'Internal error' })).toBe(false);
  });
});
