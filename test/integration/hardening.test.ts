/**
 * Regression tests for the "known findings" of issue 12 (a hostile probe of the landed node), each
 * named after what broke: -32603 for bad input (deep nesting), the event loop blocked by huge
 * numbers, slow clients holding sockets, JSON-RPC ids beyond 2^53 changed, and key URLs built from
 * a forged Host header. No timing assertions: short configured timeouts, and what was answered.
 */
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { METHODS } from '../../src/rpc/methods/index.js';
import { MAX_PARAMS_DEPTH } from '../../src/rpc/dispatcher.js';
import { rawIds } from '../../src/rpc/raw-id.js';
import { TESTNET_KEY, rpc, startTestNode, type TestNode } from '../helpers/node.js';

const DEPTH = 5_000;
/** JSON text 5,000 levels deep (JSON.stringify itself overflows on such values, so bodies are built as text). */
const DEEP_ARRAY = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

async function rpcText(url: string, method: string, paramsText: string): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"jsonrpc":"2.0","id":7,"method":${JSON.stringify(method)},"params":${paramsText}}`,
  });
  return response.json();
}

/** Sends raw text over a fresh TCP socket; resolves with everything received until the server closes it. */
function rawExchange(port: number, chunks: string[], options: { keepOpen?: boolean } = {}): Promise<{ received: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    // A socket the server drops may end in a reset: the close that follows is what counts.
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (!options.keepOpen) socket.end();
    });
    socket.on('close', () => resolve({ received, closedByServer: true }));
  });
}

/** An HTTP request with any headers (fetch may not forge Host); answers status, headers and body text. */
function httpCall(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('hardening (issue 12 known findings)', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('-32603 for bad input: params nested 5,000 levels deep answer -32602 for every method and position', async () => {
    const failures: string[] = [];
    const methods = METHODS.map((m) => ({ name: m.name, unsupported: m.unsupported === true }));
    expect(methods.length).toBeGreaterThan(100);
    const cases: Array<{ name: string; unsupported: boolean; params: string }> = [];
    for (const m of methods) {
      for (let position = 0; position < 4; position++) {
        for (const deep of [DEEP_ARRAY, DEEP_OBJECT]) {
          cases.push({ ...m, params: `[${'null,'.repeat(position)}${deep}]` });
        }
      }
    }
    for (let i = 0; i < cases.length; i += 16) {
      await Promise.all(
        cases.slice(i, i + 16).map(async (c) => {
          const body = await rpcText(t.testnetUrl, c.name, c.params);
          const code = body.error?.code;
          const expected = c.unsupported ? -32601 : -32602;
          if (code !== expected) failures.push(`${c.name} ${JSON.stringify(body).slice(0, 200)}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    // The message names the limit; the node still answers.
    const body = await rpcText(t.testnetUrl, 'eth_getBalance', `["0x7986b3df570230288501eea3d890bd66948c9b79",${DEEP_ARRAY}]`);
    expect(body.error).toEqual({ code: -32602, message: `invalid params: nested more than ${MAX_PARAMS_DEPTH} levels deep` });
    const evmRevert = await rpcText(t.testnetUrl, 'evm_revert', `[${DEEP_OBJECT}]`);
    expect(evmRevert.error?.code).toBe(-32602);
    expect((await rpc(t.testnetUrl, 'eth_blockNumber')).body.result).toMatch(/^0x[0-9a-f]+$/);
  });

  it('-32603 for bad input: ordinary nesting (eth_getLogs topics, call objects) still decodes', async () => {
    const { body } = await rpc(t.testnetUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [[`0x${'00'.repeat(32)}`], null] }]);
    expect(body.result).toEqual([]);
    const { body: call } = await rpc(t.testnetUrl, 'eth_call', [{ to: '0x7986b3df570230288501eea3d890bd66948c9b79', data: '0x' }, 'latest']);
    expect(call.result).toBe('0x');
  });

  it('the event loop blocks: 15 MB numeric strings are refused by length while eth_blockNumber keeps answering', async () => {
    const decimal = '9'.repeat(15_000_000);
    const hex = `0x${'f'.repeat(15_000_000)}`;
    const addr = '0x7986b3df570230288501eea3d890bd66948c9b79';
    const probes: Array<[string, unknown[]]> = [
      ['evm_increaseTime', [decimal]],
      ['evm_setNextBlockTimestamp', [decimal]],
      ['eth_getBalance', [addr, decimal]],
      ['eth_getBalance', [addr, hex]],
      ['eth_getBlockByNumber', [hex, false]],
      ['eth_getStorageAt', [addr, hex, 'latest']],
      ['evm_revert', [hex]],
      ['eth_getTransactionCount', [hex, 'latest']],
      ['eth_getBlockByHash', [hex, false]],
      ['trace_filter', [{ fromBlock: hex }]],
      ['personal_unlockAccount', [addr, 'pass', hex]],
      ['personal_importRawKey', [hex, 'pass']],
      ['eth_getBlockTransactionCountByNumber', [decimal]],
    ];
    for (const [method, params] of probes) {
      // A concurrent caller keeps being answered while the big one is refused.
      const [big, small] = await Promise.all([rpc(t.testnetUrl, method, params), rpc(t.testnetUrl, 'eth_blockNumber')]);
      expect(big.body.error?.code, `${method} ${JSON.stringify(big.body).slice(0, 200)}`).toBe(-32602);
      // The answer never carries the whole 15 MB back.
      expect(big.body.error!.message.length).toBeLessThan(400);
      expect(small.body.result).toMatch(/^0x[0-9a-f]+$/);
    }
    // sco_banAddress: refused unparsed; sco_clearPeerScoring: clears nothing and answers the list.
    const ban = await rpc(t.testnetUrl, 'sco_banAddress', [decimal]);
    expect(ban.body.error?.code).toBe(-32602);
    expect(ban.body.error!.message).toMatch(/^invalid banned address 9{80}\.\.\.: longer than any IP address or block$/);
    const clear = await rpc(t.testnetUrl, 'sco_clearPeerScoring', [decimal]);
    expect(Array.isArray(clear.body.result)).toBe(true);
  });

  it('JSON-RPC ids beyond 2^53 come back changed: ids are echoed as sent (single, batch, gate errors)', async () => {
    const single = await httpCall(portOf(t.baseUrl), 'POST', `/${TESTNET_KEY}`, { 'content-type': 'application/json' },
      '{"jsonrpc":"2.0","method":"eth_chainId","params":[],"id":18446744073709551617}');
    expect(single.text).toBe('{"jsonrpc":"2.0","id":18446744073709551617,"result":"0x1f"}');

    const batch = await httpCall(portOf(t.baseUrl), 'POST', `/${TESTNET_KEY}`, { 'content-type': 'application/json' },
      '[ {"id" : 1.50, "jsonrpc":"2.0","method":"eth_chainId"}, {"jsonrpc":"2.0","method":"eth_chainId","id":7},' +
        ' {"method":"nope","params":[{"id":1}],"id":-9007199254740993 ,"jsonrpc":"2.0"}, {"jsonrpc":"2.0","method":"eth_chainId","id":"18446744073709551617"} ]');
    expect(batch.text).toBe(
      '[{"jsonrpc":"2.0","id":1.50,"result":"0x1f"},{"jsonrpc":"2.0","id":7,"result":"0x1f"},' +
        '{"jsonrpc":"2.0","id":-9007199254740993,"error":{"code":-32601,"message":"method not found: nope"}},' +
        '{"jsonrpc":"2.0","id":"18446744073709551617","result":"0x1f"}]',
    );

    const unauthorized = await httpCall(portOf(t.baseUrl), 'POST', '/no-such-key', { 'content-type': 'application/json' },
      '{"jsonrpc":"2.0","method":"eth_chainId","id":18446744073709551617}');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.text.startsWith('{"jsonrpc":"2.0","id":18446744073709551617,"error":{"code":-32001,')).toBe(true);

    // WebSocket messages too.
    const ws = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/${TESTNET_KEY}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
    ws.send('{"jsonrpc":"2.0","method":"eth_chainId","id":18446744073709551617}');
    expect(await reply).toBe('{"jsonrpc":"2.0","id":18446744073709551617,"result":"0x1f"}');
    ws.close();
  });

  it('JSON-RPC ids beyond 2^53 come back changed: the raw id scanner reads top-level ids only', () => {
    expect(rawIds('{"params":[{"id":1}],"id" :\n 123456789012345678901 }')).toEqual(['123456789012345678901']);
    expect(rawIds('{"a":"x\\"id\\":5","\\u0069d":2e400}')).toEqual(['2e400']);
    expect(rawIds('[1,{"id":3,"id":4},{"x":[{"id":9}]},"s"]')).toEqual([undefined, '4', undefined, undefined]);
    expect(rawIds('[]')).toEqual([]);
  });

  it('Host header: key URLs come from the listening address, not a forged Host', async () => {
    const port = portOf(t.baseUrl);
    const forged = { host: 'evil.example:666', 'content-type': 'application/json' };
    const signup = await httpCall(port, 'POST', '/api/signup', forged, JSON.stringify({ email: 'host@example.com', password: 'a-long-password-1' }));
    expect(signup.status).toBe(201);
    const login = await httpCall(port, 'POST', '/api/login', forged, JSON.stringify({ email: 'host@example.com', password: 'a-long-password-1' }));
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']?.[0]).split(';')[0]!;
    const created = await httpCall(port, 'POST', '/api/keys', { ...forged, cookie }, JSON.stringify({ name: 'k', network: 'testnet' }));
    expect(created.status).toBe(201);
    const key = JSON.parse(created.text) as { key: string; url: string };
    expect(key.url).toBe(`${t.baseUrl}/${key.key}`);
    const listed = JSON.parse((await httpCall(port, 'GET', '/api/keys', { ...forged, cookie })).text) as { keys: Array<{ url: string }> };
    expect(listed.keys.map((k) => k.url)).toEqual([`${t.baseUrl}/${key.key}`]);
  });

  it('Host header: --public-url sets the base of key URLs', async () => {
    const proxied = await startTestNode({ publicUrl: 'https://rpc.example.com/rsk/' });
    try {
      const port = portOf(proxied.baseUrl);
      const forged = { host: 'evil.example', 'content-type': 'application/json' };
      await httpCall(port, 'POST', '/api/signup', forged, JSON.stringify({ email: 'p@example.com', password: 'a-long-password-1' }));
      const login = await httpCall(port, 'POST', '/api/login', forged, JSON.stringify({ email: 'p@example.com', password: 'a-long-password-1' }));
      const cookie = String(login.headers['set-cookie']?.[0]).split(';')[0]!;
      const created = JSON.parse((await httpCall(port, 'POST', '/api/keys', { ...forged, cookie }, JSON.stringify({ name: 'k', network: 'mainnet' }))).text) as { key: string; url: string };
      expect(created.url).toBe(`https://rpc.example.com/rsk/${created.key}`);
    } finally {
      await proxied.close();
    }
    await expect(startTestNode({ publicUrl: 'ftp://x' })).rejects.toThrow(/public URL ftp:\/\/x/);
  });
});

describe('slow clients (issue 12): header, body and idle timeouts, connection cap', () => {
  let t: TestNode;
  let port: number;
  beforeAll(async () => {
    t = await startTestNode({ http: { headerTimeoutMs: 200, requestTimeoutMs: 400, idleTimeoutMs: 200 } });
    port = portOf(t.baseUrl);
  });
  afterAll(() => t.close());

  it('slow clients: a socket that never finishes its headers is closed', async () => {
    const { received, closedByServer } = await rawExchange(port, [`POST /${TESTNET_KEY} HTTP/1.1\r\nHost: x\r\n`], { keepOpen: true });
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('slow clients: a socket that never finishes its body is closed without running the call', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}';
    const before = (await rpc(t.testnetUrl, 'eth_blockNumber')).body.result;
    const { received, closedByServer } = await rawExchange(
      port,
      [`POST /${TESTNET_KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`],
      { keepOpen: true },
    );
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect((await rpc(t.testnetUrl, 'eth_blockNumber')).body.result).toBe(before);
  });

  it('slow clients: an idle keep-alive connection is closed after its answer', async () => {
    const { received, closedByServer } = await rawExchange(
      port,
      [`GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`],
      { keepOpen: true },
    );
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(received).toContain('"name":"rsk-devnode"');
  });

  it('slow clients: a WebSocket upgrade whose headers never end is closed', async () => {
    const { received, closedByServer } = await rawExchange(
      port,
      [`GET /${TESTNET_KEY} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`],
      { keepOpen: true },
    );
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

});

describe('slow clients (issue 12): the connection cap', () => {
  let t: TestNode;
  let port: number;
  const MAX = 4;
  beforeAll(async () => {
    // A node of its own: no keep-alive sockets of earlier tests count against its cap.
    t = await startTestNode({ http: { maxConnections: MAX } });
    port = portOf(t.baseUrl);
  });
  afterAll(() => t.close());

  it('slow clients: connections above the cap are refused while existing ones work', async () => {
    // MAX open connections: WebSockets count too.
    const sockets: WebSocket[] = [];
    for (let i = 0; i < MAX; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/${TESTNET_KEY}`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      sockets.push(ws);
    }
    // One more is closed at once, before any answer.
    const refused = await rawExchange(port, [`GET / HTTP/1.1\r\nHost: x\r\n\r\n`], { keepOpen: true });
    expect(refused).toEqual({ received: '', closedByServer: true });
    // The open ones still answer.
    const answers = await Promise.all(
      sockets.map((ws, i) => {
        const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }));
        return reply;
      }),
    );
    expect(answers.map((a) => JSON.parse(a))).toEqual(sockets.map((_, i) => ({ jsonrpc: '2.0', id: i, result: '0x1f' })));
    // Once one closes, a new connection is let in.
    await new Promise<void>((resolve) => {
      sockets[0]!.once('close', () => resolve());
      sockets[0]!.close();
    });
    for (let attempt = 0; ; attempt++) {
      const { body } = await rpc(t.testnetUrl, 'eth_chainId').catch(() => ({ body: undefined as any }));
      if (body?.result === '0x1f') break;
      // The server notices the close a moment after the client does.
      if (attempt > 100) throw new Error('no connection let in after one closed');
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const ws of sockets.slice(1)) ws.close();
  });
});

