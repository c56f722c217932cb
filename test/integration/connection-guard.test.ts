/**
 * Issue 19: who may hold a socket (server/connection-guard.ts). A banned address is cut when its
 * connection is accepted, one address holds at most its share of the connection cap, bans cover
 * the dashboard and its API too, and an address is read the same way wherever it is given.
 *
 * Every socket goes to 127.0.0.1, bound to other loopback addresses (127.0.0.2…) to play other
 * clients (Linux routes 127.0.0.0/8 to loopback). Counts are small and fixed; nothing is timed:
 * a socket the node cuts closes without a byte, one it keeps is still open after a later answer.
 */
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../src/gateway/ban-list.js';
import { maxConnectionsPerAddress } from '../../src/server/connection-guard.js';
import { TESTNET_KEY, call, nodesClosedAfterEach } from '../helpers/node.js';

const start = nodesClosedAfterEach();
/** Request line and headers, no blank line yet: the node waits for the rest (a held, half-sent request). */
const HALF_SENT = `POST /${TESTNET_KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`;

interface Held {
  socket: Socket;
  /** Everything received, once the node closes the connection. */
  closed: Promise<string>;
}
const held: Held[] = [];
afterEach(() => {
  for (const h of held.splice(0)) h.socket.destroy();
});

/** A connection from `localAddress` that sends `text` and stays open until the node closes it. */
function openFrom(localAddress: string, port: number, text = HALF_SENT): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    // A socket the node cuts may end in a reset: the close that follows is what counts.
    socket.on('error', () => undefined);
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    socket.once('connect', () => {
      socket.write(text);
      const h = { socket, closed };
      held.push(h);
      resolve(h);
    });
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
}

/** eth_chainId from `localAddress` on a connection of its own: the result, or 'cut'. */
function chainIdFrom(localAddress: string, port: number, path = `/${TESTNET_KEY}`): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(JSON.parse(text).result ?? `HTTP ${res.statusCode}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || /socket hang up/.test(err.message) ? resolve('cut') : reject(err)));
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }));
  });
}

/** A dashboard API request from `localAddress`: the HTTP status, or 'cut'. */
function apiFrom(localAddress: string, port: number, method: string, path: string, body?: unknown): Promise<number | 'cut'> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, localAddress, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || /socket hang up/.test(err.message) ? resolve('cut') : reject(err)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const isOpen = (h: Held) => !h.socket.destroyed && h.socket.readyState === 'open';

describe('banned addresses are cut at connection accept', () => {
  it('530 half-sent requests from a banned address filled the connection cap and turned new clients away: each is cut at accept', async () => {
    const MAX = 8;
    // The address may hold the whole cap: only the ban stands between it and the cap.
    const t = await start({ http: { maxConnections: MAX, maxConnectionsPerAddress: MAX, headerTimeoutMs: 5_000 } });
    const port = portOf(t.baseUrl);
    await call(t.testnetUrl, 'sco_banAddress', ['127.0.0.2']);
    const attempts = await Promise.all(Array.from({ length: 3 * MAX }, () => openFrom('127.0.0.2', port)));
    // Every one closed by the node before a byte of answer (a held one would get the header timeout's 408).
    expect(await Promise.all(attempts.map((a) => a.closed))).toEqual(attempts.map(() => ''));
    // Other clients find room: the cap was never taken.
    expect(await chainIdFrom('127.0.0.3', port)).toBe('0x1f');
    expect(await call(t.testnetUrl, 'eth_chainId')).toBe('0x1f');
    // The refusals are failed handshakes of the banned address.
    const peer = (await call(t.testnetUrl, 'sco_peerList')).find((p: { id: string }) => p.id === '127.0.0.2');
    expect(peer.failedHandshakes).toBe(3 * MAX);
  });

  it('bans cover sign-up, login, the dashboard and its API; unbanned, they answer again', async () => {
    const t = await start();
    const port = portOf(t.baseUrl);
    const credentials = { email: 'banned@example.com', password: 'banned-password-1' };
    await call(t.testnetUrl, 'sco_banAddress', ['127.0.0.2']);
    expect(await apiFrom('127.0.0.2', port, 'POST', '/api/signup', credentials)).toBe('cut');
    expect(await apiFrom('127.0.0.2', port, 'POST', '/api/login', credentials)).toBe('cut');
    expect(await apiFrom('127.0.0.2', port, 'GET', '/api/me')).toBe('cut');
    expect(await apiFrom('127.0.0.2', port, 'GET', '/dashboard')).toBe('cut');
    expect(await apiFrom('127.0.0.2', port, 'GET', '/')).toBe('cut');
    // No account was made: after the ban is lifted the same sign-up is new.
    await call(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2']);
    expect(await apiFrom('127.0.0.2', port, 'POST', '/api/signup', credentials)).toBe(201);
    expect(await apiFrom('127.0.0.2', port, 'GET', '/dashboard')).toBe(303); // to its login page
  });
});

describe('a connection open before its address is banned', () => {
  it('gets 403 on its next dashboard API request (sign-up on a kept-alive connection went through)', async () => {
    const t = await start();
    const port = portOf(t.baseUrl);
    const credentials = JSON.stringify({ email: 'early@example.com', password: 'early-password-1' });
    const signup = `POST /api/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${credentials.length}\r\n\r\n${credentials}`;
    const early = await openFrom('127.0.0.2', port, 'GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n');
    // Its first answer (401: not signed in) shows the connection is open and kept alive.
    await new Promise<void>((resolve) => early.socket.once('data', () => resolve()));
    await call(t.testnetUrl, 'sco_banAddress', ['127.0.0.2']);
    early.socket.write(signup);
    const received = await early.closed;
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(second).toContain('{"error":"Forbidden: requests from 127.0.0.2 are banned on this node (sco_banAddress)"}');
    // No account was made.
    await call(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2']);
    expect(await apiFrom('127.0.0.2', port, 'POST', '/api/signup', JSON.parse(credentials))).toBe(201);
  });
});

describe('one address holds only its share of the connection cap', () => {
  it('a quarter of the cap by default, at least one', () => {
    expect(maxConnectionsPerAddress(512)).toBe(128);
    expect(maxConnectionsPerAddress(8)).toBe(2);
    expect(maxConnectionsPerAddress(2)).toBe(1);
  });

  it('past its share an address is cut at accept while others, and 127.0.0.1, still get in; a closed one frees its place', async () => {
    const MAX = 8;
    const share = maxConnectionsPerAddress(MAX);
    const t = await start({ http: { maxConnections: MAX } });
    const port = portOf(t.baseUrl);
    const kept: Held[] = [];
    for (let i = 0; i < share; i++) kept.push(await openFrom('127.0.0.2', port));
    const over = await openFrom('127.0.0.2', port);
    expect(await over.closed).toBe('');
    expect(await chainIdFrom('127.0.0.3', port)).toBe('0x1f');
    // The operator's own address may use more than a share.
    const operator: Held[] = [];
    for (let i = 0; i < share + 1; i++) operator.push(await openFrom('127.0.0.1', port));
    expect(await chainIdFrom('127.0.0.1', port)).toBe('0x1f');
    expect([...kept, ...operator].every(isOpen)).toBe(true);
    for (const h of operator) h.socket.destroy();

    // One closes: its place is the address's again (the node sees the close a moment after the client).
    kept[0]!.socket.destroy();
    let answer = 'cut';
    for (let attempt = 0; answer === 'cut' && attempt < 100; attempt++) {
      answer = await chainIdFrom('127.0.0.2', port);
      if (answer === 'cut') await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer).toBe('0x1f');
    expect(isOpen(kept[1]!)).toBe(true);
  });
});

describe('an address is read the same way wherever it is given', () => {
  it('whitespace, IPv4-mapped IPv6 (dotted or hex) and letter case name one client', () => {
    for (const text of ['127.0.0.2', ' 127.0.0.2 ', '::ffff:127.0.0.2', '::FFFF:127.0.0.2', '\t::ffff:7f00:2\n', '[::ffff:127.0.0.2]']) {
      expect(clientAddressOf(text), JSON.stringify(text)).toBe('127.0.0.2');
    }
    expect(clientAddressOf(' 2001:DB8::1 ')).toBe('2001:db8:0:0:0:0:0:1');
  });

  it('sco_banAddress and sco_unbanAddress take padded, mapped or upper-case forms of the address a socket has', async () => {
    const t = await start();
    const port = portOf(t.baseUrl);
    await call(t.testnetUrl, 'sco_banAddress', [' ::FFFF:127.0.0.2 ']);
    await call(t.testnetUrl, 'sco_banAddress', ['\t::ffff:7f00:8/31 ']);
    expect(await call(t.testnetUrl, 'sco_bannedAddresses')).toEqual(['127.0.0.2', '127.0.0.8/31']);
    expect(await chainIdFrom('127.0.0.2', port)).toBe('cut');
    expect(await chainIdFrom('127.0.0.3', port)).toBe('0x1f');
    await call(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2\n']);
    expect(await call(t.testnetUrl, 'sco_bannedAddresses')).toEqual(['127.0.0.8/31']);
    expect(await chainIdFrom('127.0.0.2', port)).toBe('0x1f');
  });
});
