/**
 * The alternative provider's options (issue 23): the same dashboard keys at /v2/<KEY> over HTTP and
 * WebSocket (network binding and quota included), each allow-list rule (origins, IP ranges,
 * contracts, methods) and every JWT refusal on both transports, through ethers and viem as users
 * call, with tokens made by jose. The dashboard's API for the options: validation, normal forms,
 * persistence across a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRequest, Network, Wallet, WebSocketProvider } from 'ethers';
import { type CryptoKey, SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { createPublicClient, http } from 'viem';
import WebSocket from 'ws';
import { createNode } from '../../src/index.js';
import { DashboardUser, type KeyView } from '../helpers/dashboard-user.js';
import { COW, TESTNET_KEY, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const GATE_CODE = -32001;
const ALLOWED = '0x1000000000000000000000000000000000000001';
const OTHER = '0x2000000000000000000000000000000000000002';
const TESTNET = new Network('rsk-testnet', 31n);

/** A clock the node reads; tests move it to expire tokens. Starts at the real time (jose signs with it). */
class Clock {
  ms = Date.now();
  readonly now = () => this.ms;
}

/** One JSON-RPC POST with extra headers: status and parsed body. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params });

const wsUrl = (url: string) => url.replace(/^http/, 'ws');

/** Opens a WebSocket; resolves the open socket or the refused upgrade's status and JSON body. */
function openWs(url: string, options: WebSocket.ClientOptions = {}): Promise<{ socket: WebSocket } | { status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.on('open', () => resolve({ socket }));
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('error', reject);
  });
}

/** One request over an open socket; the parsed answer. */
function wsSend(socket: WebSocket, body: unknown): Promise<any> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(String(data))));
    socket.send(JSON.stringify(body));
  });
}

async function openedWs(url: string, options?: WebSocket.ClientOptions): Promise<WebSocket> {
  const opened = await openWs(url, options);
  if (!('socket' in opened)) throw new Error(`upgrade refused: ${opened.status} ${JSON.stringify(opened.body)}`);
  return opened.socket;
}

let t: TestNode;
let user: DashboardUser;
const clock = new Clock();

beforeAll(async () => {
  t = await startTestNode({ now: clock.now, dailyLimit: 1000 });
  user = await DashboardUser.create(t.baseUrl, 'alt@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('/v2/<KEY> addresses', () => {
  it('answer with the key\'s network and quota, over HTTP (ethers, viem) and WebSocket', async () => {
    const testnet = await user.createKey('testnet');
    const mainnet = await user.createKey('mainnet');
    expect(testnet.v2Url).toBe(`${t.baseUrl}/v2/${testnet.key}`);
    expect(testnet.url).toBe(`${t.baseUrl}/${testnet.key}`);

    const ethers = uncachedProvider(testnet.v2Url, undefined, { staticNetwork: true });
    expect((await ethers.getNetwork()).chainId).toBe(31n);
    const viem = createPublicClient({ transport: http(mainnet.v2Url) });
    expect(await viem.getChainId()).toBe(30);

    const before = (await user.expect(200, 'GET', '/usage')).used as number;
    const answer = await fetch(testnet.v2Url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call('eth_blockNumber')) });
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBe(1000 - before - 1);
    expect((await user.expect(200, 'GET', '/usage')).used).toBe(before + 1);

    const ws = new WebSocketProvider(wsUrl(testnet.v2Url), TESTNET, { staticNetwork: true });
    expect(await ws.getBlockNumber()).toBeGreaterThanOrEqual(0);
    await ws.destroy();
    // The operator's keys answer there too; an unknown key is refused as at /<KEY>.
    expect((await post(`${t.baseUrl}/v2/${TESTNET_KEY}`, call('eth_chainId'))).body.result).toBe('0x1f');
    const unknown = await post(`${t.baseUrl}/v2/not-a-key`, call('eth_chainId', [], 7));
    expect(unknown).toMatchObject({ status: 401, body: { id: 7, error: { code: GATE_CODE, message: expect.stringContaining('unknown API key') } } });
    const refused = await openWs(`${wsUrl(t.baseUrl)}/v2/not-a-key`);
    expect(refused).toMatchObject({ status: 401, body: { error: { code: GATE_CODE } } });
  });
});

describe('allow lists through the API', () => {
  it('are validated, normalised, shown with the key, and cleared', async () => {
    const key = await user.createKey('testnet', 'lists');
    expect(key.allowlist).toEqual({ origins: [], ipRanges: [], contracts: [], methods: [] });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ origins: ['example.com'] }, /origins: "example.com" is not an origin/],
      [{ origins: ['https://example.com/path'] }, /is not an origin/],
      [{ ipRanges: ['10.0.0.0/33'] }, /bad prefix length/],
      [{ ipRanges: ['my-host'] }, /not an IP address or CIDR block/],
      [{ contracts: ['0x1234'] }, /not an address/],
      [{ methods: ['eth call'] }, /not a method name/],
      [{ methods: 'eth_call' }, /methods must be an array of strings/],
      [{ hosts: [] }, /Unknown field "hosts"/],
      [{ methods: Array.from({ length: 31 }, (_, i) => `m${i}`) }, /more than 30 entries/],
    ];
    for (const [body, message] of bad) {
      const res = await user.call('PUT', `/keys/${key.id}/allowlist`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    const set = await user.setAllowlist(key, {
      origins: ['HTTPS://App.Example.com/', 'https://*.example.org', 'http://localhost:3000'],
      ipRanges: [' ::FFFF:10.0.0.7 ', '2001:DB8::/32', '10.0.0.0/8'],
      contracts: [ALLOWED.toUpperCase().replace('0X', '0x')],
      methods: ['eth_call', 'eth_call', ''],
    });
    expect(set.allowlist).toEqual({
      origins: ['https://app.example.com', 'https://*.example.org', 'http://localhost:3000'],
      ipRanges: ['10.0.0.7', '2001:db8:0:0:0:0:0:0/32', '10.0.0.0/8'],
      contracts: [ALLOWED],
      methods: ['eth_call'],
    });
    expect((await user.setAllowlist(key, {})).allowlist).toEqual({ origins: [], ipRanges: [], contracts: [], methods: [] });
    expect((await user.call('PUT', '/keys/00000000-0000-4000-8000-000000000000/allowlist', {})).status).toBe(404);
  });

  it('are kept with the key across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-alt-'));
    try {
      let node = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
      let server = await node.server(0);
      const owner = await DashboardUser.create(server.url, 'keeper@example.com');
      const key = await owner.createKey('testnet');
      await owner.setAllowlist(key, { methods: ['eth_chainId'] });
      await node.close();
      node = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
      server = await node.server(0);
      try {
        expect((await post(`${server.url}/v2/${key.key}`, call('eth_chainId'))).body.result).toBe('0x1f');
        expect((await post(`${server.url}/v2/${key.key}`, call('eth_blockNumber'))).status).toBe(403);
      } finally {
        await node.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('allow lists enforced on HTTP', () => {
  let key: KeyView;
  beforeAll(async () => {
    key = await user.createKey('testnet', 'enforced');
  });

  it('methods: a call outside the list gets 403 naming the rule; a batch is refused whole and runs nothing', async () => {
    await user.setAllowlist(key, { methods: ['eth_blockNumber', 'evm_mine', 'eth_chainId'] });
    const provider = uncachedProvider(key.v2Url, TESTNET, { staticNetwork: true });
    const height = await provider.getBlockNumber();
    const refused = await post(key.v2Url, call('eth_getBalance', [COW.address, 'latest'], 'abc'));
    expect(refused).toEqual({
      status: 403,
      body: {
        jsonrpc: '2.0',
        id: 'abc',
        error: { code: GATE_CODE, message: "Forbidden by this key's allowed methods: eth_getBalance is not in this key's allowed methods", data: { rule: 'methods' } },
      },
    });
    const batch = await post(key.v2Url, [call('evm_mine', [], 1), call('eth_getBalance', [COW.address, 'latest'], 2)]);
    expect(batch.status).toBe(403);
    expect(batch.body).toMatchObject({ id: null, error: { code: GATE_CODE, message: expect.stringContaining('(call 1 of the batch; nothing in the batch was run)'), data: { rule: 'methods', call: 1 } } });
    expect(await provider.getBlockNumber()).toBe(height);
    // ethers sees the refusal as the server's error.
    await expect(provider.getBalance(COW.address)).rejects.toThrow(/403|allowed methods/);
    // A refused request costs no quota; an invalid envelope is left to the dispatcher's -32600.
    const used = (await user.expect(200, 'GET', '/usage')).used as number;
    expect((await post(key.v2Url, call('eth_getCode', [COW.address, 'latest']))).status).toBe(403);
    expect((await post(key.v2Url, [call('eth_chainId'), call('eth_getCode', [COW.address, 'latest'])])).status).toBe(403);
    expect((await user.expect(200, 'GET', '/usage')).used).toBe(used);
    expect((await post(key.v2Url, { jsonrpc: '2.0', id: 1 })).body.error.code).toBe(-32600);
  });

  it('origins: exact and *. entries pass; another origin, a bare parent domain, another scheme or no Origin get 403', async () => {
    await user.setAllowlist(key, { origins: ['https://app.example.com', 'https://*.example.org'] });
    for (const origin of ['https://app.example.com', 'https://shop.example.org', 'https://a.b.example.org']) {
      expect((await post(key.v2Url, call('eth_chainId'), { origin })).body.result, origin).toBe('0x1f');
    }
    for (const origin of ['https://evil.example.com', 'https://example.org', 'http://app.example.com']) {
      const res = await post(key.v2Url, call('eth_chainId'), { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.error).toMatchObject({ code: GATE_CODE, message: expect.stringContaining("allowed origins: the origin"), data: { rule: 'origins' } });
    }
    const none = await post(key.v2Url, call('eth_chainId'));
    expect(none.status).toBe(403);
    expect(none.body.error.message).toContain('no Origin header');
  });

  it('IP ranges: the client address must lie in a listed block (IPv4, IPv4-mapped IPv6, IPv6)', async () => {
    await user.setAllowlist(key, { ipRanges: ['10.0.0.0/8'] });
    const refused = await post(key.v2Url, call('eth_chainId'));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ message: "Forbidden by this key's allowed IP ranges: the client address 127.0.0.1 is not in this key's allowed IP ranges", data: { rule: 'ipRanges' } });
    await user.setAllowlist(key, { ipRanges: ['::ffff:127.0.0.1'] });
    expect((await post(key.v2Url, call('eth_chainId'))).body.result).toBe('0x1f');
    await user.setAllowlist(key, { ipRanges: ['127.0.0.0/8'] });
    expect((await post(key.v2Url, call('eth_chainId'))).body.result).toBe('0x1f');
    // Over IPv6 loopback: ::1 is in ::/64 but not in 127.0.0.0/8.
    const v6 = await t.node.server(0, '::1');
    const v6Url = `${v6.url}/v2/${key.key}`;
    expect((await post(v6Url, call('eth_chainId'))).status).toBe(403);
    await user.setAllowlist(key, { ipRanges: ['127.0.0.0/8', '::/64'] });
    expect((await post(v6Url, call('eth_chainId'))).body.result).toBe('0x1f');
    await user.setAllowlist(key, {});
  });

  it('contracts: eth_call, eth_estimateGas, eth_sendRawTransaction, eth_getLogs and eth_newFilter must name listed addresses', async () => {
    await user.setAllowlist(key, { contracts: [ALLOWED] });
    const provider = uncachedProvider(key.v2Url, TESTNET, { staticNetwork: true });
    expect(await provider.call({ to: ALLOWED, data: '0x' })).toBe('0x');
    expect(await provider.estimateGas({ from: COW.address, to: ALLOWED })).toBe(21000n);
    expect(await provider.getLogs({ address: ALLOWED, fromBlock: 0 })).toEqual([]);
    // Methods that name no contract pass.
    expect(await provider.getBalance(OTHER)).toBe(0n);

    const refusals: Array<[unknown, string]> = [
      [call('eth_call', [{ to: OTHER }, 'latest']), `eth_call touches ${OTHER}, which is not in this key's allowed contracts`],
      [call('eth_call', [{ data: '0x00' }, 'latest']), 'this eth_call names no contract (no "to": a deployment)'],
      [call('eth_estimateGas', [{ to: OTHER }]), `eth_estimateGas touches ${OTHER}`],
      [call('debug_traceCall', [{ to: OTHER }, 'latest', {}]), `debug_traceCall touches ${OTHER}`],
      [call('eth_getLogs', [{ address: [ALLOWED, OTHER], fromBlock: '0x0' }]), `eth_getLogs touches ${OTHER}`],
      [call('eth_getLogs', [{ fromBlock: '0x0' }]), 'filter names no address'],
      [call('eth_newFilter', [{ address: OTHER }]), `eth_newFilter touches ${OTHER}`],
      [call('eth_call', [{ to: 'nobody' }, 'latest']), 'the "to" of this eth_call is not an address'],
      [call('eth_call', ['not an object', 'latest']), 'this eth_call names no contract'],
      [call('eth_sendRawTransaction', ['0x1234']), 'cannot be read'],
      [call('eth_sendRawTransaction', ['zz']), 'not hex bytes'],
    ];
    for (const [body, message] of refusals) {
      const res = await post(key.v2Url, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error.message, JSON.stringify(body)).toContain(message);
      expect(res.body.error.data).toEqual({ rule: 'contracts' });
    }

    const wallet = new Wallet(COW.privateKey);
    const nonce = await provider.getTransactionCount(COW.address);
    const signed = (to: string | null, n: number) => wallet.signTransaction({ type: 0, chainId: 31n, nonce: n, gasPrice: 60_000_000n, gasLimit: 100_000n, to, value: 1n, data: to === null ? '0x00' : '0x' });
    const toOther = await post(key.v2Url, call('eth_sendRawTransaction', [await signed(OTHER, nonce)]));
    expect(toOther.status).toBe(403);
    expect(toOther.body.error.message).toContain(`eth_sendRawTransaction touches ${OTHER}`);
    const deploy = await post(key.v2Url, call('eth_sendRawTransaction', [await signed(null, nonce)]));
    expect(deploy.body.error.message).toContain('the raw transaction names no contract (a deployment)');
    const sent = await provider.broadcastTransaction(await signed(ALLOWED, nonce));
    expect((await sent.wait())?.status).toBe(1);
    expect(await provider.getBalance(ALLOWED)).toBe(1n);
    await user.setAllowlist(key, {});
  });
});

describe('allow lists enforced on WebSocket', () => {
  it('judges the upgrade (origin, IP) and then each message (methods, contracts), keeping the socket open', async () => {
    const owner = await DashboardUser.create(t.baseUrl, 'ws@example.com');
    const key = await owner.createKey('testnet', 'ws-lists');
    await owner.setAllowlist(key, { origins: ['https://app.example.com'], methods: ['eth_chainId', 'eth_call'], contracts: [ALLOWED] });
    const url = wsUrl(key.v2Url);
    const noOrigin = await openWs(url);
    expect(noOrigin).toMatchObject({ status: 403, body: { error: { code: GATE_CODE, data: { rule: 'origins' } } } });
    const wrongOrigin = await openWs(url, { origin: 'https://evil.example.com' });
    expect(wrongOrigin).toMatchObject({ status: 403, body: { error: { data: { rule: 'origins' } } } });

    const socket = await openedWs(url, { origin: 'https://app.example.com' });
    expect(await wsSend(socket, call('eth_chainId'))).toMatchObject({ result: '0x1f' });
    expect(await wsSend(socket, call('eth_blockNumber', [], 2))).toMatchObject({ id: 2, error: { code: GATE_CODE, data: { rule: 'methods' } } });
    expect(await wsSend(socket, call('eth_call', [{ to: OTHER }, 'latest'], 3))).toMatchObject({ id: 3, error: { data: { rule: 'contracts' } } });
    expect(await wsSend(socket, call('eth_call', [{ to: ALLOWED }, 'latest'], 4))).toMatchObject({ id: 4, result: '0x' });
    // Log subscriptions are filters too: they must name allowed contracts.
    await owner.setAllowlist(key, { origins: ['https://app.example.com'], methods: ['eth_subscribe'], contracts: [ALLOWED] });
    expect(await wsSend(socket, call('eth_subscribe', ['logs', { address: OTHER }], 6))).toMatchObject({ id: 6, error: { data: { rule: 'contracts' } } });
    expect(await wsSend(socket, call('eth_subscribe', ['logs', { address: ALLOWED }], 7))).toMatchObject({ id: 7, result: expect.stringMatching(/^0x/) });
    // Lists edited while the socket is open apply to its next message.
    await owner.setAllowlist(key, { origins: ['https://app.example.com'], ipRanges: ['10.0.0.0/8'] });
    expect(await wsSend(socket, call('eth_chainId', [], 5))).toMatchObject({ id: 5, error: { data: { rule: 'ipRanges' } } });
    socket.close();
  });
});

// ---- JWT keys -------------------------------------------------------------------------------

interface Pair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

describe('JWT keys', () => {
  let rsa: Pair;
  let ec: Pair;
  let stranger: Pair;
  let key: KeyView;
  let rsaPem: string;
  let user: DashboardUser;
  const nowS = () => Math.floor(clock.ms / 1000);
  const token = (pair: Pair, claims: Record<string, unknown> = {}, alg = 'RS256', kid?: string) =>
    new SignJWT({ exp: nowS() + 600, iat: nowS(), ...claims }).setProtectedHeader({ alg, ...(kid === undefined ? {} : { kid }) }).sign(pair.privateKey);
  const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  /** Each way a token is refused: the headers sent, the reason and the message expected. */
  async function refusedTokens(): Promise<Array<[Record<string, string>, string, RegExp]>> {
    const valid = await token(rsa);
    const [h, p, s] = valid.split('.') as [string, string, string];
    const tampered = `${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), exp: nowS() + 3600 })}.${s}`;
    const hs256 = await new SignJWT({ exp: nowS() + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(rsaPem));
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ exp: nowS() + 600 })}.`;
    return [
      [{}, 'missing', /requires a JWT: send Authorization: Bearer <JWT>/],
      [{ authorization: 'Basic abc' }, 'missing', /requires a JWT/],
      [bearer('not-a-jwt'), 'malformed', /malformed/],
      [bearer(await token(rsa, { exp: nowS() - 120 })), 'expired', /has expired/],
      [bearer(await token(rsa, { nbf: nowS() + 300 })), 'not_yet_valid', /not valid yet/],
      [bearer(await token(rsa, { iat: nowS() + 300 })), 'issued_in_future', /iat is in the future/],
      [bearer(await token(rsa, { exp: nowS() + 2 * 86400 })), 'lifetime_too_long', /more than 24 hours ahead/],
      [bearer(await token(rsa, { exp: undefined })), 'no_expiry', /no valid exp claim/],
      [bearer(await token(stranger)), 'bad_signature', /signature does not verify/],
      [bearer(tampered), 'bad_signature', /signature does not verify/],
      [bearer(none), 'wrong_algorithm', /signed with "none": this key accepts only RS256/],
      [bearer(hs256), 'wrong_algorithm', /signed with "HS256"/],
      [bearer(await token(rsa, {}, 'RS256', 'someone-else')), 'unknown_key', /kid "someone-else" names no key/],
    ];
  }

  beforeAll(async () => {
    rsa = await generateKeyPair('RS256');
    ec = await generateKeyPair('ES256');
    stranger = await generateKeyPair('RS256');
    rsaPem = await exportSPKI(rsa.publicKey);
    user = await DashboardUser.create(t.baseUrl, 'jwt@example.com');
    key = await user.createKey('testnet', 'jwt');
  });

  it('refuses keys the API cannot use', async () => {
    // An extractable pair, so that its private half can be exported as the JWK a careless user pastes.
    const extractable = await generateKeyPair('ES256', { extractable: true });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'a', algorithm: 'HS256', publicKey: rsaPem }, /algorithm must be one of RS256, ES256/],
      [{ name: 'a', algorithm: 'RS256', publicKey: 'hello' }, /must be a PEM public key/],
      [{ name: 'a', algorithm: 'ES256', publicKey: rsaPem }, /is not a ES256 public key/],
      [{ name: 'a', algorithm: 'ES256', publicKey: await exportJWK(extractable.privateKey) }, /private JWK/],
      [{ name: '', algorithm: 'RS256', publicKey: rsaPem }, /name is required/],
      [{ name: 'a', algorithm: 'RS256', publicKey: rsaPem, extra: 1 }, /Unknown field "extra"/],
    ];
    for (const [body, message] of bad) {
      const res = await user.call('POST', `/keys/${key.id}/jwt-keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });

  it('once a key is registered, HTTP requests need a valid token; each refusal is a 401 naming why', async () => {
    const registered = await user.addJwtKey(key, { name: 'backend', algorithm: 'RS256', publicKey: rsaPem });
    expect(registered.jwtKeys).toMatchObject([{ name: 'backend', algorithm: 'RS256', publicKey: rsaPem.trim() }]);
    const viem = (jwt: string) => createPublicClient({ transport: http(key.v2Url, { fetchOptions: { headers: bearer(jwt) } }) });
    expect(await viem(await token(rsa)).getChainId()).toBe(31);
    const request = new FetchRequest(key.v2Url);
    request.setHeader('authorization', `Bearer ${await token(rsa)}`);
    expect(await uncachedProvider(request, TESTNET, { staticNetwork: true }).getBlockNumber()).toBeGreaterThanOrEqual(0);

    const cases = await refusedTokens();
    for (const [headers, reason, message] of cases) {
      const res = await post(key.v2Url, call('eth_chainId', [], 9), headers);
      expect(res.status, reason).toBe(401);
      expect(res.body.id).toBe(9);
      expect(res.body.error.code).toBe(GATE_CODE);
      expect(res.body.error.message, reason).toMatch(message);
      expect(res.body.error.data).toEqual({ rule: 'jwt', reason });
    }
    // The key's id or name as kid picks it; the plain URL needs the token too.
    expect((await post(key.url, call('eth_chainId'), bearer(await token(rsa, {}, 'RS256', 'backend')))).body.result).toBe('0x1f');
    expect((await post(key.url, call('eth_chainId'))).status).toBe(401);
  });

  it('ES256 keys given as JWK work beside RS256 ones; an RS256 token is refused by an ES256-only key', async () => {
    const other = await user.createKey('testnet', 'jwt-ec');
    await user.addJwtKey(other, { name: 'mobile', algorithm: 'ES256', publicKey: await exportJWK(ec.publicKey) });
    expect((await post(other.v2Url, call('eth_chainId'), bearer(await token(ec, {}, 'ES256')))).body.result).toBe('0x1f');
    const wrong = await post(other.v2Url, call('eth_chainId'), bearer(await token(rsa)));
    expect(wrong).toMatchObject({ status: 401, body: { error: { data: { reason: 'wrong_algorithm' }, message: expect.stringContaining('accepts only ES256') } } });
    // Removing the last JWT key lifts the requirement.
    const view = (await user.expect(200, 'GET', '/keys')).keys.find((k: KeyView) => k.id === other.id) as KeyView;
    const removed = await user.expect(200, 'DELETE', `/keys/${other.id}/jwt-keys/${view.jwtKeys[0]!.id}`);
    expect(removed.jwtKeys).toEqual([]);
    expect((await post(other.v2Url, call('eth_chainId'))).body.result).toBe('0x1f');
    expect((await user.call('DELETE', `/keys/${other.id}/jwt-keys/${view.jwtKeys[0]!.id}`)).status).toBe(404);
  });

  it('WebSocket: every refusal on the upgrade; the token comes in the header or access_token, and an expired one stops the next message', async () => {
    const url = wsUrl(key.v2Url);
    for (const [headers, reason, message] of await refusedTokens()) {
      const refused = await openWs(url, { headers });
      expect(refused, reason).toMatchObject({ status: 401, body: { id: null, error: { code: GATE_CODE, data: { rule: 'jwt', reason } } } });
      expect((refused as { body: any }).body.error.message, reason).toMatch(message);
    }
    expect(await openWs(url)).toMatchObject({ status: 401, body: { error: { code: GATE_CODE, data: { rule: 'jwt', reason: 'missing' } } } });
    expect(await openWs(url, { headers: bearer(await token(stranger)) })).toMatchObject({ status: 401, body: { error: { data: { reason: 'bad_signature' } } } });
    expect(await openWs(`${url}?access_token=${await token(rsa, { exp: nowS() - 120 })}`)).toMatchObject({ status: 401, body: { error: { data: { reason: 'expired' } } } });

    const byHeader = await openedWs(url, { headers: bearer(await token(rsa)) });
    expect(await wsSend(byHeader, call('eth_chainId'))).toMatchObject({ result: '0x1f' });
    byHeader.close();
    const byQuery = await openedWs(`${url}?access_token=${await token(rsa, { exp: nowS() + 60 })}`);
    expect(await wsSend(byQuery, call('eth_chainId'))).toMatchObject({ result: '0x1f' });
    clock.ms += 120_000;
    expect(await wsSend(byQuery, call('eth_chainId', [], 2))).toMatchObject({ id: 2, error: { code: GATE_CODE, data: { rule: 'jwt', reason: 'expired' } } });
    byQuery.close();
  });
});
