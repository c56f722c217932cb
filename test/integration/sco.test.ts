/**
 * sco_ (issue 9): the ban list of client addresses (rskj's validation and messages, CIDR blocks,
 * persistence), banned clients cut at connection accept (issue 19; a connection open before the
 * ban gets 403 on HTTP, 1008 on WebSocket), sco_peerList and
 * sco_reputationSummary counting real traffic in rskj's shapes, and eth_bridgeState.
 *
 * Clients other than the test itself bind their sockets to other loopback addresses (127.0.0.2…):
 * Linux routes all of 127.0.0.0/8 to the loopback interface, and the devnode accepts bans of those
 * addresses while refusing 127.0.0.1 and ::1 (docs/decisions.md#client-bans-and-reputation-sco_-bridge-state-module-list).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { COW, COW1, MAINNET_KEY, rpc, startTestNode, TESTNET_KEY, type TestNode } from '../helpers/node.js';

const MIN_GAS_PRICE = 60_000_000n;

/** rskj PeerScoringInformation's fields, in its order. */
const PEER_FIELDS = [
  'successfulHandshakes', 'failedHandshakes', 'invalidNetworks', 'repeatedMessages', 'validBlocks', 'validTransactions',
  'invalidBlocks', 'invalidTransactions', 'invalidMessages', 'timeoutMessages', 'unexpectedMessages', 'invalidHeader',
  'score', 'punishments', 'goodReputation', 'punishedUntil', 'id', 'type',
];
/** rskj PeerScoringReputationSummary's fields, in its order. */
const SUMMARY_FIELDS = [
  'count', 'successfulHandshakes', 'failedHandshakes', 'invalidHeader', 'validBlocks', 'invalidBlocks', 'validTransactions',
  'invalidTransactions', 'invalidNetworks', 'invalidMessages', 'repeatedMessages', 'timeoutMessages', 'unexpectedMessages',
  'peersTotalScore', 'punishments', 'goodReputationCount', 'badReputationCount',
];
const ZERO_COUNTERS = Object.fromEntries(PEER_FIELDS.slice(0, 12).map((f) => [f, 0]));

/** A raw POST from a chosen local address (node:http, since fetch cannot bind one). */
function postFrom(localAddress: string, url: string, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const callFrom = (localAddress: string, url: string, method: string, params: unknown[] = [], id: number | string = 1) =>
  postFrom(localAddress, url, JSON.stringify({ jsonrpc: '2.0', id, method, params }));

/** The HTTP status a call from `localAddress` gets, or 'refused' when the node cuts the connection at accept (a ban). */
async function statusFrom(localAddress: string, url: string): Promise<number | 'refused'> {
  try {
    return (await callFrom(localAddress, url, 'eth_chainId')).status;
  } catch (err) {
    if (isCut(err)) return 'refused';
    throw err;
  }
}

/** A connection the server closed before answering: reset, or closed with no response. */
const isCut = (err: unknown) => ['ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? '') || /socket hang up/.test(String(err));

/** A keep-alive connection from `localAddress` that posts requests one after another; answers status and body. */
function keepAliveFrom(localAddress: string, url: string) {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  let buffer = '';
  let waiting: (() => void) | undefined;
  socket.on('data', (d: string) => {
    buffer += d;
    waiting?.();
  });
  return {
    async post(body: string): Promise<{ status: number; body: any }> {
      socket.write(`POST ${pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        const length = end < 0 ? undefined : Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1]);
        if (end >= 0 && length !== undefined && buffer.length >= end + 4 + length) {
          const answer = { status: Number(buffer.slice(9, 12)), body: JSON.parse(buffer.slice(end + 4, end + 4 + length)) };
          buffer = buffer.slice(end + 4 + length);
          return answer;
        }
        await new Promise<void>((resolve) => (waiting = resolve));
      }
    },
    close: () => socket.destroy(),
  };
}

async function ok(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { status, body } = await rpc(url, method, params);
  expect(body.error, `${method} ${JSON.stringify(params)}: ${JSON.stringify(body.error)}`).toBeUndefined();
  expect(status).toBe(200);
  return body.result;
}

/** Opens a WebSocket from a local address: the open socket, or the refused upgrade's status and body. */
function openWs(url: string, localAddress: string): Promise<{ socket: WebSocket } | { status: number; body: any } | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { localAddress });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    socket.once('error', (err) => (isCut(err) ? resolve('refused') : reject(err)));
  });
}

function wsCall(socket: WebSocket, method: string, params: unknown[] = [], id = 1): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
}

const wsUrl = (httpUrl: string) => httpUrl.replace(/^http/, 'ws');

describe('sco_banAddress / sco_unbanAddress / sco_bannedAddresses', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('refuse what rskj refuses (loopback, any-local, unknown hosts, bad masks) and blocks holding 127.0.0.1 or ::1: -32602 "invalid banned address X", HTTP 400', async () => {
    const inputs = [
      '127.0.0.1', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1', 'localhost', 'no-such-host.invalid', '', '  ', 'abc/def',
      '10.0.0.0/0', '10.0.0.0/33', '10.0.0.0/x', '2001:db8::/129', '127.0.0.0/8', '127.0.0.0/30', '10.0.0.0//8',
    ];
    for (const method of ['sco_banAddress', 'sco_unbanAddress']) {
      for (const input of inputs) {
        const { status, body } = await rpc(t.testnetUrl, method, [input], 7);
        expect(body, `${method} ${JSON.stringify(input)}`).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: `invalid banned address ${input}` } });
        expect(status).toBe(400);
      }
      expect((await rpc(t.testnetUrl, method, [])).body.error).toEqual({ code: -32602, message: 'invalid banned address null' });
      expect((await rpc(t.testnetUrl, method, [{ ip: '10.0.0.1' }])).body.error).toEqual({ code: -32602, message: 'invalid banned address {"ip":"10.0.0.1"}' });
    }
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual([]);
  });

  it('answer null, list plain addresses then blocks (rskj text forms), on both networks alike', async () => {
    for (const entry of ['10.1.0.0/16', '192.168.51.1', '2001:DB8::1', '::ffff:10.9.9.9', ' 10.2.3.4 ', '2001:db8::/32', '192.168.51.1']) {
      const { status, body } = await rpc(t.testnetUrl, 'sco_banAddress', [entry], 'ban');
      expect(body).toEqual({ jsonrpc: '2.0', id: 'ban', result: null });
      expect(status).toBe(200);
    }
    const expected = ['192.168.51.1', '2001:db8:0:0:0:0:0:1', '10.9.9.9', '10.2.3.4', '10.1.0.0/16', '2001:db8:0:0:0:0:0:0/32'];
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual(expected);
    expect(await ok(t.mainnetUrl, 'sco_bannedAddresses')).toEqual(expected);

    expect(await ok(t.mainnetUrl, 'sco_unbanAddress', ['10.9.9.9'])).toBeNull();
    expect(await ok(t.mainnetUrl, 'sco_unbanAddress', ['10.1.0.0/24'])).toBeNull(); // not banned: nothing happens
    expect(await ok(t.mainnetUrl, 'sco_unbanAddress', ['2001:db8:0::/32'])).toBeNull();
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual(['192.168.51.1', '2001:db8:0:0:0:0:0:1', '10.2.3.4', '10.1.0.0/16']);
    for (const entry of ['192.168.51.1', '2001:db8::1', '10.2.3.4', '10.1.0.0/16']) await ok(t.testnetUrl, 'sco_unbanAddress', [entry]);
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual([]);
  });

  it('a banned client is cut at connection accept on every key; a connection open before the ban gets HTTP 403 and -32001, before any chain work; unbanned, it works again', async () => {
    expect((await callFrom('127.0.0.2', t.testnetUrl, 'eth_chainId')).body.result).toBe('0x1f');
    const before = keepAliveFrom('127.0.0.2', t.testnetUrl);
    expect((await before.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))).body.result).toBe('0x1f');
    expect(await ok(t.testnetUrl, 'sco_banAddress', ['127.0.0.2'])).toBeNull();

    const cow1Before = await ok(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest']);
    const raw = await new Wallet(COW.privateKey).signTransaction({
      type: 0, chainId: 31, nonce: Number(await ok(t.testnetUrl, 'eth_getTransactionCount', [COW.address, 'pending'])),
      gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, to: COW1.address, value: 1n,
    });
    const refused = await before.post(JSON.stringify({ jsonrpc: '2.0', id: 'tx-1', method: 'eth_sendRawTransaction', params: [raw] }));
    before.close();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: 'tx-1',
      error: { code: -32001, message: 'Forbidden: requests from 127.0.0.2 are banned on this node (sco_banAddress); the operator can lift the ban with sco_unbanAddress' },
    });
    await expect(callFrom('127.0.0.2', t.testnetUrl, 'eth_sendRawTransaction', [raw])).rejects.toSatisfy(isCut);
    expect(await ok(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest'])).toBe(cow1Before); // never reached the chain
    for (const url of [t.mainnetUrl, `${t.baseUrl}/not-a-key`]) expect(await statusFrom('127.0.0.2', url)).toBe('refused');
    // Others are untouched.
    expect((await callFrom('127.0.0.3', t.testnetUrl, 'eth_chainId')).body.result).toBe('0x1f');
    expect(await ok(t.testnetUrl, 'eth_chainId')).toBe('0x1f');

    expect(await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2'])).toBeNull();
    const again = await callFrom('127.0.0.2', t.testnetUrl, 'eth_sendRawTransaction', [raw]);
    expect(again.status).toBe(200);
    expect(again.body.result).toMatch(/^0x[0-9a-f]{64}$/);
    expect(BigInt(await ok(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest']))).toBe(BigInt(cow1Before) + 1n);
  });

  it('a CIDR block bans every address in it and nothing outside', async () => {
    expect(await ok(t.testnetUrl, 'sco_banAddress', ['127.0.0.2/31'])).toBeNull(); // 127.0.0.2 and 127.0.0.3
    const statuses = [];
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.1']) statuses.push(await statusFrom(from, t.testnetUrl));
    expect(statuses).toEqual(['refused', 'refused', 200, 200]);
    expect(await ok(t.testnetUrl, 'sco_banAddress', ['127.0.0.8/29'])).toBeNull(); // 127.0.0.8 … 127.0.0.15
    const more = [];
    for (const from of ['127.0.0.7', '127.0.0.8', '127.0.0.15', '127.0.0.16']) more.push(await statusFrom(from, t.testnetUrl));
    expect(more).toEqual([200, 'refused', 'refused', 200]);
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual(['127.0.0.2/31', '127.0.0.8/29']);
    // Unbanning one address inside a block does not lift the block (rskj keeps them apart).
    expect(await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.3'])).toBeNull();
    expect(await statusFrom('127.0.0.3', t.testnetUrl)).toBe('refused');
    await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2/31']);
    await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.8/29']);
    expect((await callFrom('127.0.0.3', t.testnetUrl, 'eth_chainId')).status).toBe(200);
  });

  it('WebSocket: a banned address is cut before its upgrade; an open socket is closed (1008) when its address gets banned; unbanned, it connects again', async () => {
    await ok(t.testnetUrl, 'sco_banAddress', ['127.0.0.2']);
    expect(await openWs(wsUrl(t.testnetUrl), '127.0.0.2')).toBe('refused');

    const opened = await openWs(wsUrl(t.mainnetUrl), '127.0.0.3');
    if (opened === 'refused' || !('socket' in opened)) throw new Error(`upgrade refused: ${JSON.stringify(opened)}`);
    const socket = opened.socket;
    expect((await wsCall(socket, 'eth_chainId')).result).toBe('0x1e');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await ok(t.testnetUrl, 'sco_banAddress', ['127.0.0.3']);
    expect(await closed).toEqual({ code: 1008, reason: 'Forbidden: 127.0.0.3 is banned on this node' });

    await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2']);
    await ok(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.3']);
    const back = await openWs(wsUrl(t.testnetUrl), '127.0.0.2');
    if (back === 'refused' || !('socket' in back)) throw new Error(`upgrade refused: ${JSON.stringify(back)}`);
    expect((await wsCall(back.socket, 'eth_chainId')).result).toBe('0x1f');
    back.socket.close();
  });
});

describe('the ban list persists in the data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-sco-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('survives a restart, still refusing the banned client', async () => {
    const apiKeys = [{ key: TESTNET_KEY, network: 'testnet' as const }, { key: MAINNET_KEY, network: 'mainnet' as const }];
    const first = await createNode({ inMemory: false, dataDir: dir, apiKeys, logLevel: 'silent' });
    const url1 = `${(await first.server(0)).url}/${TESTNET_KEY}`;
    await ok(url1, 'sco_banAddress', ['127.0.0.2']);
    await ok(url1, 'sco_banAddress', ['10.0.0.0/8']);
    await ok(url1, 'sco_banAddress', ['2001:db8::7']);
    await ok(url1, 'sco_unbanAddress', ['2001:db8::7']);
    await first.close();
    expect(JSON.parse(await readFile(join(dir, 'banned-addresses.json'), 'utf8'))).toEqual({ banned: ['127.0.0.2', '10.0.0.0/8'] });

    const second = await createNode({ inMemory: false, dataDir: dir, apiKeys, logLevel: 'silent' });
    try {
      const url2 = `${(await second.server(0)).url}/${MAINNET_KEY}`;
      expect(await ok(url2, 'sco_bannedAddresses')).toEqual(['127.0.0.2', '10.0.0.0/8']);
      expect(await statusFrom('127.0.0.2', url2)).toBe('refused');
      expect((await callFrom('127.0.0.3', url2, 'eth_chainId')).body.result).toBe('0x1e');
    } finally {
      await second.close();
    }
  });
});

describe('sco_peerList and sco_reputationSummary count what the node sees', () => {
  const T0 = 1_750_000_000_000;
  let now = T0;
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ now: () => now });
  });
  afterAll(() => t.close());

  it('start with only the caller: one entry, its handshake counted', async () => {
    // The operator's own call is counted before it is answered, so only its handshake shows.
    const peers = await ok(t.testnetUrl, 'sco_peerList');
    expect(peers).toEqual([{ ...ZERO_COUNTERS, successfulHandshakes: 1, score: 0, punishments: 0, goodReputation: true, punishedUntil: 0, id: '127.0.0.1', type: 'address' }]);
    expect(Object.keys(peers[0])).toEqual(PEER_FIELDS);
  });

  it('map requests, transactions, malformed and unknown calls onto rskj counters, score and punishment', async () => {
    const from = '127.0.0.5';
    const cow = new Wallet(COW1.privateKey);
    const nonce = Number(await ok(t.testnetUrl, 'eth_getTransactionCount', [COW1.address, 'pending']));
    const raw = await cow.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, to: COW.address, value: 5n });

    // Known traffic, in order (score after each event in brackets):
    expect((await callFrom(from, t.testnetUrl, 'eth_blockNumber')).status).toBe(200); //          handshake 1
    expect((await callFrom(from, t.testnetUrl, 'eth_sendRawTransaction', [raw])).body.result).toMatch(/^0x/); // handshake 2, validTransactions 1 [1]
    expect((await callFrom(from, t.mainnetUrl, 'eth_chainId')).status).toBe(200); //               handshake 3 (other network, same client)
    expect((await callFrom(from, t.testnetUrl, 'eth_noSuchMethod')).body.error.code).toBe(-32601); // handshake 4, unexpected 1
    expect((await callFrom(from, t.testnetUrl, 'eth_getBalance', ['0x12'])).body.error.code).toBe(-32602); // handshake 5, unexpected 2
    expect((await callFrom(from, `${t.baseUrl}/wrong-key`, 'eth_chainId')).status).toBe(401); //     failedHandshakes 1
    expect((await callFrom(from, t.testnetUrl, 'eth_sendRawTransaction', ['0x1234'])).body.error).toBeDefined(); // handshake 6, invalidTransactions 1 [-1]
    const batch = await postFrom(from, t.testnetUrl, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2 }]));
    expect(batch.body.map((r: any) => r.result ?? r.error.code)).toEqual(['0x1f', -32600]); //      handshake 7, invalidMessages 1 [-2] → punished
    expect((await postFrom(from, t.testnetUrl, '{"jsonrpc":')).status).toBe(400); //              handshake 8, invalidMessages 2 [-3]

    const peers = await ok(t.testnetUrl, 'sco_peerList');
    expect(peers.map((p: any) => p.id)).toEqual(['127.0.0.5', '127.0.0.1']); // least recently active first
    const duration = 2 * 12 * 60_000; // rskj: 12 minutes × −score (−2) at the time of the first invalid message
    expect(peers[0]).toEqual({
      ...ZERO_COUNTERS,
      successfulHandshakes: 8,
      failedHandshakes: 1,
      validTransactions: 1,
      invalidTransactions: 1,
      invalidMessages: 2,
      unexpectedMessages: 2,
      score: -3,
      punishments: 1,
      goodReputation: false,
      punishedUntil: T0 + duration,
      id: '127.0.0.5',
      type: 'address',
    });
    for (const p of peers) {
      expect(Object.keys(p)).toEqual(PEER_FIELDS);
      for (const field of PEER_FIELDS.slice(0, 14)) expect(Number.isInteger(p[field]), field).toBe(true);
    }
    // The operator: its earlier calls (1 in the first test, eth_getTransactionCount, this one) and nothing bad.
    expect(peers[1]).toEqual({ ...ZERO_COUNTERS, successfulHandshakes: 3, score: 0, punishments: 0, goodReputation: true, punishedUntil: 0, id: '127.0.0.1', type: 'address' });

    // Reputation is reported, never enforced: a punished client is still served.
    expect((await callFrom(from, t.testnetUrl, 'eth_chainId')).status).toBe(200); // handshake 9

    const summary = await ok(t.testnetUrl, 'sco_reputationSummary');
    expect(Object.keys(summary)).toEqual(SUMMARY_FIELDS);
    expect(summary).toEqual({
      count: 2,
      successfulHandshakes: 9 + 4, // 127.0.0.5, and the operator's 3 above plus this call
      failedHandshakes: 1,
      invalidHeader: 0,
      validBlocks: 0,
      invalidBlocks: 0,
      validTransactions: 1,
      invalidTransactions: 1,
      invalidNetworks: 0,
      invalidMessages: 2,
      repeatedMessages: 0,
      timeoutMessages: 0,
      unexpectedMessages: 2,
      peersTotalScore: -3,
      punishments: 1,
      goodReputationCount: 1,
      badReputationCount: 1,
    });

    // When the punishment ends, rskj wipes the counters and the score and keeps the punishment count.
    now = T0 + duration;
    const after = (await ok(t.mainnetUrl, 'sco_peerList')).find((p: any) => p.id === from);
    expect(after).toEqual({ ...ZERO_COUNTERS, score: 0, punishments: 1, goodReputation: true, punishedUntil: 0, id: from, type: 'address' });
  });

  it('WebSocket: the upgrade is a handshake, each message a call; refused upgrades and connections cut for a ban are failed handshakes', async () => {
    const from = '127.0.0.6';
    const opened = await openWs(wsUrl(t.testnetUrl), from);
    if (opened === 'refused' || !('socket' in opened)) throw new Error('upgrade refused');
    expect((await wsCall(opened.socket, 'eth_chainId', [], 1)).result).toBe('0x1f');
    expect((await wsCall(opened.socket, 'net_nothing', [], 2)).error.code).toBe(-32601);
    opened.socket.close();
    const refused = await openWs(`${wsUrl(t.baseUrl)}/wrong-key`, from);
    expect(refused !== 'refused' && 'status' in refused && refused.status).toBe(401);
    await ok(t.testnetUrl, 'sco_banAddress', [from]);
    // Cut at accept: a failed handshake too.
    expect(await openWs(wsUrl(t.testnetUrl), from)).toBe('refused');
    const peer = (await ok(t.testnetUrl, 'sco_peerList')).find((p: any) => p.id === from);
    expect(peer).toEqual({ ...ZERO_COUNTERS, successfulHandshakes: 1, failedHandshakes: 2, unexpectedMessages: 1, score: 0, punishments: 0, goodReputation: true, punishedUntil: 0, id: from, type: 'address' });
  });

  it('sco_clearPeerScoring forgets an address and answers the peer list', async () => {
    const before = (await ok(t.testnetUrl, 'sco_peerList')).map((p: any) => p.id);
    expect(before).toContain('127.0.0.6');
    const after = await ok(t.testnetUrl, 'sco_clearPeerScoring', ['127.0.0.6']);
    expect(after.map((p: any) => p.id)).toEqual(before.filter((id: string) => id !== '127.0.0.6'));
  });

  it('calls through the in-process provider are not counted (no client address)', async () => {
    const count = (await ok(t.testnetUrl, 'sco_reputationSummary')).count;
    await t.node.provider.request({ method: 'eth_chainId' });
    const viaProvider = await t.node.provider.request({ method: 'sco_reputationSummary' }) as { count: number };
    expect(viaProvider.count).toBe(count);
  });
});

describe('eth_bridgeState', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('answers rskj\'s shape for the simulated Bridge: no transactions waiting, the BTC height of the network\'s Bitcoin chain (101 premined), on both networks', async () => {
    for (const url of [t.testnetUrl, t.mainnetUrl]) {
      const state = await ok(url, 'eth_bridgeState');
      expect(state).toEqual({ rskTxsWaitingForSignatures: [], btcBlockchainBestChainHeight: 101 });
      expect(Number.isInteger(state.btcBlockchainBestChainHeight)).toBe(true);
    }
    expect((await rpc(t.testnetUrl, 'eth_bridgeState', ['latest'])).body.error?.code).toBe(-32602);
  });
});

describe('--hosted: sco_ stays operator-only', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ hosted: true });
  });
  afterAll(() => t.close());

  it('a dashboard key gets -32601 for every sco_ method and bans nothing; the operator key works', async () => {
    const headers = { 'content-type': 'application/json' };
    const credentials = JSON.stringify({ email: 'sco@example.com', password: 'hosted-password-1' });
    expect((await fetch(`${t.baseUrl}/api/signup`, { method: 'POST', headers, body: credentials })).status).toBe(201);
    const login = await fetch(`${t.baseUrl}/api/login`, { method: 'POST', headers, body: credentials });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const created = await fetch(`${t.baseUrl}/api/keys`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ name: 'app', network: 'testnet' }) });
    const userUrl = ((await created.json()) as { url: string }).url;
    for (const [method, params] of [['sco_banAddress', ['10.0.0.1']], ['sco_unbanAddress', ['10.0.0.1']], ['sco_bannedAddresses', []], ['sco_peerList', []], ['sco_reputationSummary', []]] as const) {
      const { body } = await rpc(userUrl, method, [...params]);
      expect(body.error?.code, method).toBe(-32601);
      expect(body.error?.message, method).toBe(`${method} is not available to dashboard keys on the hosted endpoint: it would rewrite a chain other tenants share`);
    }
    expect(await ok(t.testnetUrl, 'sco_bannedAddresses')).toEqual([]);
  });
});
