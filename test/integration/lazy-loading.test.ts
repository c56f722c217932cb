/**
 * Express and `ws` load on first use (server/lazy.ts): the first requests of a fresh server, arriving
 * together, must all be served as if both had been there from the start.
 */
import { describe, expect, it } from 'vitest';
import { TESTNET_KEY, MAINNET_KEY, nodesClosedAfterEach } from '../helpers/node.js';
import WebSocket from 'ws';
import { wsCall } from '../helpers/ws.js';

const start = nodesClosedAfterEach();

describe('lazily loaded parts of the server', () => {
  it('WebSocket upgrades that arrive together on a fresh server are all answered', async () => {
    const t = await start();
    const wsBase = t.baseUrl.replace('http://', 'ws://');
    const answers = await Promise.all([
      wsCall(`${wsBase}/${TESTNET_KEY}`, 'eth_chainId'),
      wsCall(`${wsBase}/${MAINNET_KEY}`, 'eth_chainId'),
      wsCall(`${wsBase}/${TESTNET_KEY}`, 'net_version'),
    ]);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x1f' },
      { jsonrpc: '2.0', id: 1, result: '0x1e' },
      { jsonrpc: '2.0', id: 1, result: '31' },
    ]);
  });

  it('an upgrade with an unknown key still gets the 401 from the first upgrade on', async () => {
    const t = await start();
    const status = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(`${t.baseUrl.replace('http://', 'ws://')}/not-a-key`);
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(401);
  });

  it('the first status-page and dashboard-API requests, sent together with RPC calls, are all answered', async () => {
    const t = await start();
    const [status, api, rpc] = await Promise.all([
      fetch(`${t.baseUrl}/`).then(async (r) => ({ code: r.status, body: (await r.json()) as { name: string; networks: unknown[] } })),
      fetch(`${t.baseUrl}/api/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'lazy@example.com', password: 'correct horse battery' }),
      }).then((r) => r.status),
      fetch(t.testnetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' }),
    ]);
    expect(status.code).toBe(200);
    expect(status.body.name).toBe('rsk-devnode');
    expect(status.body.networks).toHaveLength(2);
    expect(api).toBe(201);
    expect(rpc.status).toBe(200);
    const text = await rpc.text();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' });
    // The RPC answer carries its length (one write, no chunked framing).
    expect(rpc.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });
});
