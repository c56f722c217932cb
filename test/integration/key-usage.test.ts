/**
 * A dashboard key's usage by day and by method (issue 23): GET /api/keys/:id/usage after real calls
 * through the key (ethers, batches, /v2, WebSocket, bad bodies), the bound on method names per day
 * (the rest counted as "other"), other users' keys refused, operator keys and calls over the quota
 * never counted, the UTC day rollover, and the counts across a restart on the same data directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createNode, type DevNode } from '../../src/index.js';
import { MAX_METHODS_PER_DAY } from '../../src/gateway/key-usage.js';
import { DashboardUser } from '../helpers/dashboard-user.js';
import { TESTNET_KEY, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const NOON = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY_MS = 86_400_000;

class Clock {
  constructor(public ms = NOON) {}
  readonly now = () => this.ms;
}

async function post(url: string, body: string) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as any };
}
const request = (method: string, id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params: [] });

describe('GET /api/keys/:id/usage', () => {
  let t: TestNode;
  const clock = new Clock();
  beforeAll(async () => {
    t = await startTestNode({ now: clock.now });
  });
  afterAll(() => t?.close());

  it('counts each call by method on the day, busiest first, over 30 days', async () => {
    const user = await DashboardUser.create(t.baseUrl, 'usage@example.com');
    const key = await user.createKey('testnet', 'app');
    const other = await user.createKey('mainnet', 'other-app');
    const empty = await user.expect(200, 'GET', `/keys/${key.id}/usage`);
    expect(empty.days).toHaveLength(30);
    expect(empty.day).toBe('2025-01-15');
    expect(empty.methodsPerDay).toBe(MAX_METHODS_PER_DAY);
    expect(empty.days.every((d: any) => d.requests === 0 && d.methods.length === 0)).toBe(true);

    const provider = uncachedProvider(key.url, 31, { staticNetwork: true, batchMaxCount: 1 });
    expect(await provider.getBlockNumber()).toBe(0);
    expect(await provider.getBalance('0x0000000000000000000000000000000001000008')).toBeGreaterThanOrEqual(0n);
    provider.destroy();
    // A batch counts each call by its method; the /v2 address counts for the same key.
    const batch = await post(key.v2Url, JSON.stringify([request('eth_chainId', 1), request('eth_chainId', 2), request('net_version', 3)]));
    expect(batch.body.map((r: any) => r.result)).toEqual(['0x1f', '0x1f', '31']);
    // Bodies the dispatcher refuses, and calls without a method name, count as "other".
    expect((await post(key.url, '{not json')).body.error.code).toBe(-32700);
    expect((await post(key.url, JSON.stringify({ jsonrpc: '2.0', id: 9 }))).body.error.code).toBe(-32600);
    // A method we do not serve still counts by name: it was a request.
    expect((await post(key.url, JSON.stringify(request('eth_noSuchMethod')))).body.error.code).toBe(-32601);
    // The operator's key is never counted.
    await post(`${t.baseUrl}/${TESTNET_KEY}`, JSON.stringify(request('eth_chainId')));

    const usage = await user.expect(200, 'GET', `/keys/${key.id}/usage`);
    const today = usage.days[usage.days.length - 1];
    expect(today).toEqual({
      day: '2025-01-15',
      requests: 8,
      methods: [
        { method: 'eth_chainId', requests: 2 },
        { method: 'other', requests: 2 },
        { method: 'eth_blockNumber', requests: 1 },
        { method: 'eth_getBalance', requests: 1 },
        { method: 'eth_noSuchMethod', requests: 1 },
        { method: 'net_version', requests: 1 },
      ],
    });
    // The user's daily quota counted the same calls.
    expect((await user.expect(200, 'GET', '/usage')).used).toBe(8);
    expect((await user.expect(200, 'GET', `/keys/${other.id}/usage`)).days.at(-1).requests).toBe(0);
  });

  it('counts WebSocket messages, and starts a new day at UTC midnight with the old one kept', async () => {
    const user = await DashboardUser.create(t.baseUrl, 'ws-usage@example.com');
    const key = await user.createKey('testnet');
    const ws = new WebSocket(key.url.replace('http', 'ws'));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify(request('eth_blockNumber')));
    expect((await answer).result).toBe('0x0');
    ws.close();

    clock.ms += DAY_MS;
    await post(key.url, JSON.stringify(request('eth_gasPrice')));
    const usage = await user.expect(200, 'GET', `/keys/${key.id}/usage`);
    expect(usage.day).toBe('2025-01-16');
    expect(usage.days.slice(-2)).toEqual([
      { day: '2025-01-15', requests: 1, methods: [{ method: 'eth_blockNumber', requests: 1 }] },
      { day: '2025-01-16', requests: 1, methods: [{ method: 'eth_gasPrice', requests: 1 }] },
    ]);
    clock.ms = NOON;
  });

  it(`keeps at most ${MAX_METHODS_PER_DAY} method names a day; further names count as "other"`, async () => {
    const user = await DashboardUser.create(t.baseUrl, 'many@example.com');
    const key = await user.createKey('testnet');
    const names = Array.from({ length: MAX_METHODS_PER_DAY + 10 }, (_, i) => `made_up${String(i).padStart(2, '0')}`);
    // Two requests each of 25 names (batches within the dispatcher's batch limit).
    for (let i = 0; i < names.length; i += 25) {
      const res = await post(key.url, JSON.stringify(names.slice(i, i + 25).map((name, j) => request(name, j))));
      expect(res.status).toBe(200);
    }
    await post(key.url, JSON.stringify(request('x'.repeat(65))));
    const today = (await user.expect(200, 'GET', `/keys/${key.id}/usage`)).days.at(-1);
    expect(today.methods).toHaveLength(MAX_METHODS_PER_DAY);
    expect(today.requests).toBe(names.length + 1);
    const kept = MAX_METHODS_PER_DAY - 1;
    expect(today.methods.find((m: any) => m.method === 'other')).toEqual({ method: 'other', requests: names.length - kept + 1 });
    expect(today.methods.filter((m: any) => m.method !== 'other').map((m: any) => m.method)).toEqual(names.slice(0, kept));
  });

  it("refuses another user's key, an unknown id, and a request without a session", async () => {
    const owner = await DashboardUser.create(t.baseUrl, 'owner@example.com');
    const stranger = await DashboardUser.create(t.baseUrl, 'stranger@example.com');
    const key = await owner.createKey('testnet');
    expect(await stranger.call('GET', `/keys/${key.id}/usage`)).toEqual({ status: 404, body: { error: 'No such key' } });
    expect(await owner.call('GET', '/keys/no-such-id/usage')).toEqual({ status: 404, body: { error: 'No such key' } });
    const anonymous = await fetch(`${t.baseUrl}/api/keys/${key.id}/usage`);
    expect(anonymous.status).toBe(401);
  });

  it('still shows a revoked key’s usage', async () => {
    const user = await DashboardUser.create(t.baseUrl, 'revoked@example.com');
    const key = await user.createKey('testnet');
    await post(key.url, JSON.stringify(request('eth_chainId')));
    await user.expect(200, 'DELETE', `/keys/${key.id}`);
    expect((await post(key.url, JSON.stringify(request('eth_chainId')))).status).toBe(401);
    expect((await user.expect(200, 'GET', `/keys/${key.id}/usage`)).days.at(-1).methods).toEqual([{ method: 'eth_chainId', requests: 1 }]);
  });
});

describe('what is not counted, and names that are no plain words', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 3, now: new Clock().now });
  });
  afterAll(() => t?.close());

  it('calls refused by the daily quota are not counted; names such as __proto__ count as themselves', async () => {
    const user = await DashboardUser.create(t.baseUrl, 'limited@example.com');
    const key = await user.createKey('testnet');
    const names = await post(key.url, JSON.stringify([request('__proto__', 1), request('constructor', 2)]));
    expect(names.body.map((r: any) => r.error.code)).toEqual([-32601, -32601]);
    expect((await post(key.url, JSON.stringify(request('eth_chainId')))).status).toBe(200);
    // The quota of 3 is spent: these are refused with 429 and cost nothing.
    expect((await post(key.url, JSON.stringify(request('eth_chainId')))).status).toBe(429);
    expect((await post(key.url, JSON.stringify([request('eth_blockNumber', 1), request('eth_blockNumber', 2)]))).status).toBe(429);
    expect((await user.expect(200, 'GET', `/keys/${key.id}/usage`)).days.at(-1)).toEqual({
      day: '2025-01-15',
      requests: 3,
      methods: [
        { method: '__proto__', requests: 1 },
        { method: 'constructor', requests: 1 },
        { method: 'eth_chainId', requests: 1 },
      ],
    });
  });
});

describe('usage by method survives a restart', () => {
  let dataDir: string;
  let node: DevNode | undefined;
  const clock = new Clock();
  const open = () => createNode({ inMemory: false, dataDir, now: clock.now, logLevel: 'silent' });
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-key-usage-'));
  });
  afterAll(async () => {
    await node?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts made before a restart are added to after it', async () => {
    node = await open();
    let server = await node.server(0);
    const user = await DashboardUser.create(server.url, 'restart@example.com');
    const key = await user.createKey('testnet');
    for (let i = 0; i < 3; i++) await post(`${server.url}/${key.key}`, JSON.stringify(request('eth_chainId', i)));
    await node.close();
    node = undefined;

    node = await open();
    server = await node.server(0);
    await post(`${server.url}/${key.key}`, JSON.stringify(request('eth_blockNumber')));
    const again = await DashboardUser.login(server.url, 'restart@example.com');
    expect((await again.expect(200, 'GET', `/keys/${key.id}/usage`)).days.at(-1)).toEqual({
      day: '2025-01-15',
      requests: 4,
      methods: [
        { method: 'eth_chainId', requests: 3 },
        { method: 'eth_blockNumber', requests: 1 },
      ],
    });
  });
});
