/**
 * Daily quotas per dashboard user (issue 3), with a small `dailyLimit` and an injectable clock:
 * the rate-limit headers, the 429 at the boundary (-32005, data, Retry-After), batches, the
 * quota shared by a user's keys, operator keys never counted, the UTC day rollover, GET
 * /api/usage, counts across a restart, exactness under concurrency, the 401/429 shapes through
 * ethers and viem, and WebSocket messages against the same quota.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FetchRequest, JsonRpcProvider, Network, isError } from 'ethers';
import { BaseError, HttpRequestError, LimitExceededRpcError, RpcRequestError, createPublicClient, http } from 'viem';
import { createNode, type DevNode } from '../../src/index.js';
import { MAINNET_KEY, TESTNET_KEY, startTestNode, type TestNode } from '../helpers/node.js';

const DAY_MS = 86_400_000;
/** Noon, 15 January 2025 UTC: 12 hours to the next UTC midnight. */
const NOON = Date.UTC(2025, 0, 15, 12, 0, 0);
const MIDNIGHT = Date.UTC(2025, 0, 16);
const MIDNIGHT_ISO = '2025-01-16T00:00:00.000Z';
const MIDNIGHT_SECONDS = String(MIDNIGHT / 1000);
const PASSWORD = 'quota-password-1';

class Clock {
  constructor(public ms = NOON) {}
  readonly now = () => this.ms;
}

interface RpcResponse {
  status: number;
  body: any;
  headers: Headers;
}

async function post(url: string, body: unknown): Promise<RpcResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const request = (method: string, id: number | string = 1, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });
const call = (url: string, id: number | string = 1, method = 'eth_chainId') => post(url, request(method, id));

function rateLimit(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: headers.get('x-ratelimit-reset'),
  };
}

function quotaError(id: number | string | null, limit: number, used: number, resetsAt = MIDNIGHT_ISO) {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32005,
      message:
        used >= limit
          ? `Daily request limit of ${limit} reached; it resets at ${resetsAt} (UTC midnight)`
          : `Daily request limit of ${limit}: this batch needs more calls than the ${limit - used} left today; the count resets at ${resetsAt} (UTC midnight)`,
      data: { limit, used, resetsAt },
    },
  };
}

/** A signed-in dashboard user (its session cookie) with helpers for keys and usage. */
class User {
  private constructor(
    readonly baseUrl: string,
    private cookie: string,
  ) {}

  static async create(baseUrl: string, email: string): Promise<User> {
    const signup = await fetch(`${baseUrl}/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(signup.status).toBe(201);
    return User.login(baseUrl, email);
  }

  static async login(baseUrl: string, email: string): Promise<User> {
    const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(login.status).toBe(200);
    return new User(baseUrl, login.headers.getSetCookie()[0]!.split(';')[0]!);
  }

  private async api(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Creates a key and returns its key string and URL. */
  async key(network: 'testnet' | 'mainnet' = 'testnet'): Promise<{ id: string; key: string; url: string }> {
    const res = await this.api('POST', '/keys', { name: `${network} key`, network });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  async revoke(id: string): Promise<void> {
    expect((await this.api('DELETE', `/keys/${id}`)).status).toBe(200);
  }

  async usage(): Promise<{ limit: number; used: number; remaining: number; day: string; history: Array<{ day: string; requests: number }> }> {
    const res = await this.api('GET', '/usage');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
}

// ---- the boundary, headers, batches, sharing ---------------------------------------------------

describe('daily quota with dailyLimit 5 (clock at 12:00 UTC)', () => {
  let t: TestNode;
  const clock = new Clock();
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 5, now: clock.now });
  });
  afterAll(() => t.close());

  it('every response to a user key carries X-RateLimit-*; calls up to the limit pass, the next is 429 -32005 with Retry-After', async () => {
    const user = await User.create(t.baseUrl, 'uma@example.com');
    const { url } = await user.key();
    for (let i = 1; i <= 5; i++) {
      const res = await call(url, i);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: i, result: '0x1f' });
      expect(rateLimit(res.headers)).toEqual({ limit: '5', remaining: String(5 - i), reset: MIDNIGHT_SECONDS });
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const over = await call(url, 6);
    expect(over.status).toBe(429);
    expect(over.body).toEqual(quotaError(6, 5, 5));
    expect(over.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(rateLimit(over.headers)).toEqual({ limit: '5', remaining: '0', reset: MIDNIGHT_SECONDS });
    expect(over.headers.get('access-control-allow-origin')).toBe('*');

    // Retry-After follows the clock: whole seconds to the next UTC midnight, rounded up
    clock.ms = NOON + 3 * 3600_000 + 400;
    const later = await call(url, 'later');
    expect(later.status).toBe(429);
    expect(later.body).toEqual(quotaError('later', 5, 5));
    expect(later.headers.get('retry-after')).toBe(String(9 * 3600));
    clock.ms = NOON;

    // refused calls are not counted
    const usage = await user.usage();
    expect(usage).toMatchObject({ limit: 5, used: 5, remaining: 0, day: '2025-01-15' });
    expect(usage.history).toHaveLength(30);
    expect(usage.history[29]).toEqual({ day: '2025-01-15', requests: 5 });
  });

  it('error answers to a user key carry the headers too, and count as requests', async () => {
    const user = await User.create(t.baseUrl, 'ugo@example.com');
    const { url } = await user.key();
    const garbled = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc": "2.0", ' });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect(rateLimit(garbled.headers)).toEqual({ limit: '5', remaining: '4', reset: MIDNIGHT_SECONDS });
    const unknown = await call(url, 2, 'eth_noSuchMethod');
    expect(unknown.body.error.code).toBe(-32601);
    expect(rateLimit(unknown.headers)).toEqual({ limit: '5', remaining: '3', reset: MIDNIGHT_SECONDS });
    const badParams = await post(url, request('eth_getBalance', 3, ['not an address', 'latest']));
    expect(badParams.body.error.code).toBe(-32602);
    expect(rateLimit(badParams.headers)).toEqual({ limit: '5', remaining: '2', reset: MIDNIGHT_SECONDS });
    expect((await user.usage()).used).toBe(3);
  });

  it('a batch of 3 counts 3; a batch that would pass the limit is refused whole and runs nothing', async () => {
    const user = await User.create(t.baseUrl, 'vic@example.com');
    const { url } = await user.key();
    const head = async () => (await post(t.testnetUrl, request('eth_blockNumber'))).body.result as string;

    const three = await post(url, [request('eth_chainId', 1), request('net_version', 2), request('eth_blockNumber', 3)]);
    expect(three.status).toBe(200);
    expect(three.body.map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    expect(three.body[0].result).toBe('0x1f');
    expect(three.body[1].result).toBe('31');
    expect(rateLimit(three.headers)).toEqual({ limit: '5', remaining: '2', reset: MIDNIGHT_SECONDS });

    const before = await head();
    const tooMany = await post(url, [request('evm_mine', 4), request('evm_mine', 5), request('eth_blockNumber', 6)]);
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toEqual(quotaError(null, 5, 3));
    expect(tooMany.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(rateLimit(tooMany.headers)).toEqual({ limit: '5', remaining: '2', reset: MIDNIGHT_SECONDS });
    expect(await head()).toBe(before);

    const two = await post(url, [request('eth_chainId', 7), request('eth_chainId', 8)]);
    expect(two.status).toBe(200);
    expect(two.body).toEqual([
      { jsonrpc: '2.0', id: 7, result: '0x1f' },
      { jsonrpc: '2.0', id: 8, result: '0x1f' },
    ]);
    expect(rateLimit(two.headers).remaining).toBe('0');
    expect((await post(url, [request('eth_chainId', 9)])).status).toBe(429);
    expect((await user.usage()).used).toBe(5);
  });

  it("the quota is summed over all of a user's keys; another user's quota is separate", async () => {
    const user = await User.create(t.baseUrl, 'wes@example.com');
    const testnet = await user.key('testnet');
    const mainnet = await user.key('mainnet');
    const remaining: Array<string | null> = [];
    for (const url of [testnet.url, testnet.url, testnet.url, mainnet.url, mainnet.url]) {
      const res = await call(url);
      expect(res.status).toBe(200);
      remaining.push(rateLimit(res.headers).remaining);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    for (const url of [testnet.url, mainnet.url]) {
      const res = await call(url, 'over');
      expect(res.status).toBe(429);
      expect(res.body).toEqual(quotaError('over', 5, 5));
    }
    // a key created after the quota ran out shares it too
    const third = await user.key('testnet');
    expect((await call(third.url)).status).toBe(429);

    const other = await User.create(t.baseUrl, 'xena@example.com');
    const otherKey = await other.key('mainnet');
    const res = await call(otherKey.url);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('0x1e');
    expect(rateLimit(res.headers)).toEqual({ limit: '5', remaining: '4', reset: MIDNIGHT_SECONDS });
    expect((await other.usage()).used).toBe(1);
    expect((await user.usage()).used).toBe(5);
  });

  it('operator keys are never counted nor limited and get no rate-limit headers', async () => {
    const user = await User.create(t.baseUrl, 'yara@example.com');
    const { url } = await user.key();
    expect((await call(url)).status).toBe(200);
    for (let i = 0; i < 8; i++) {
      for (const operatorUrl of [t.testnetUrl, t.mainnetUrl]) {
        const res = await call(operatorUrl, i);
        expect(res.status).toBe(200);
        expect(rateLimit(res.headers)).toEqual({ limit: null, remaining: null, reset: null });
      }
    }
    const batch = await post(`${t.baseUrl}/${TESTNET_KEY}`, Array.from({ length: 10 }, (_, i) => request('eth_chainId', i)));
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(10);
    expect(rateLimit(batch.headers)).toEqual({ limit: null, remaining: null, reset: null });
    expect((await post(`${t.baseUrl}/${MAINNET_KEY}`, request('eth_chainId'))).body.result).toBe('0x1e');
    // the user's count did not move, and 401s carry no rate-limit headers either
    expect((await user.usage()).used).toBe(1);
    const unknown = await call(`${t.baseUrl}/not-a-key`);
    expect(unknown.status).toBe(401);
    expect(rateLimit(unknown.headers)).toEqual({ limit: null, remaining: null, reset: null });
  });
});

// ---- batches the node refuses whole -------------------------------------------------------------------

describe('a batch over the 1,000-call cap (dailyLimit 2000)', () => {
  let t: TestNode;
  const clock = new Clock();
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 2000, now: clock.now });
  });
  afterAll(() => t.close());

  it('is refused whole with -32600 and, since none of its calls runs, is not charged as 1,001 calls', async () => {
    const user = await User.create(t.baseUrl, 'hugo@example.com');
    const { url } = await user.key();
    const oversize = await post(url, Array.from({ length: 1001 }, (_, i) => request('eth_chainId', i)));
    expect(oversize.status).toBe(400);
    expect(oversize.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Cannot dispatch batch requests. 1000 is the max number of supported batch requests' },
    });
    // like an empty batch or a body that does not parse, the refused request counts once
    expect(rateLimit(oversize.headers)).toEqual({ limit: '2000', remaining: '1999', reset: MIDNIGHT_SECONDS });
    expect((await user.usage()).used).toBe(1);
  });
});

// ---- UTC day rollover and usage history -------------------------------------------------------------

describe('the UTC day rollover', () => {
  let t: TestNode;
  const clock = new Clock(Date.UTC(2025, 0, 15, 23, 59, 58));
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 5, now: clock.now });
  });
  afterAll(() => t.close());

  it('moving the clock past midnight resets the count; /api/usage shows today and yesterday in a 30-day history', async () => {
    const user = await User.create(t.baseUrl, 'zed@example.com');
    const { url } = await user.key();
    for (let i = 0; i < 5; i++) expect((await call(url)).status).toBe(200);
    const over = await call(url, 'late');
    expect(over.status).toBe(429);
    expect(over.body).toEqual(quotaError('late', 5, 5));
    expect(over.headers.get('retry-after')).toBe('2');
    expect(rateLimit(over.headers).reset).toBe(MIDNIGHT_SECONDS);

    clock.ms = MIDNIGHT + 1_000;
    const fresh = await call(url, 'early');
    expect(fresh.status).toBe(200);
    expect(fresh.body.result).toBe('0x1f');
    expect(rateLimit(fresh.headers)).toEqual({ limit: '5', remaining: '4', reset: String((MIDNIGHT + DAY_MS) / 1000) });

    const usage = await user.usage();
    expect(usage.limit).toBe(5);
    expect(usage.used).toBe(1);
    expect(usage.remaining).toBe(4);
    expect(usage.day).toBe('2025-01-16');
    expect(usage.history).toHaveLength(30);
    expect(usage.history[0]!.day).toBe('2024-12-18');
    expect(usage.history[28]).toEqual({ day: '2025-01-15', requests: 5 });
    expect(usage.history[29]).toEqual({ day: '2025-01-16', requests: 1 });
    // consecutive days, oldest first, nothing but yesterday and today used
    for (let i = 0; i < 30; i++) {
      expect(usage.history[i]!.day).toBe(new Date(MIDNIGHT - (29 - i) * DAY_MS).toISOString().slice(0, 10));
      if (i < 28) expect(usage.history[i]!.requests).toBe(0);
    }

    // the new day has the full limit again, and its own boundary
    for (let i = 0; i < 4; i++) expect((await call(url)).status).toBe(200);
    const overAgain = await call(url, 'again');
    expect(overAgain.status).toBe(429);
    expect(overAgain.body).toEqual(quotaError('again', 5, 5, '2025-01-17T00:00:00.000Z'));
    expect(overAgain.headers.get('retry-after')).toBe(String(DAY_MS / 1000 - 1));
  });
});

// ---- persistence ------------------------------------------------------------------------------------

describe('counts survive a restart', () => {
  let dataDir: string;
  let node: DevNode | undefined;
  const clock = new Clock();
  const open = () =>
    createNode({
      inMemory: false,
      dataDir,
      dailyLimit: 5,
      now: clock.now,
      logLevel: 'silent',
      apiKeys: [{ key: TESTNET_KEY, network: 'testnet' }],
    });
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-quota-'));
  });
  afterAll(async () => {
    await node?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses 3, restarts on the same data dir, and the count continues from 3', async () => {
    node = await open();
    let server = await node.server(0);
    const user = await User.create(server.url, 'ada@example.com');
    const { key } = await user.key();
    for (let i = 1; i <= 3; i++) expect(rateLimit((await call(`${server.url}/${key}`)).headers).remaining).toBe(String(5 - i));
    await node.close();
    node = undefined;

    node = await open();
    server = await node.server(0);
    const url = `${server.url}/${key}`;
    const fourth = await call(url);
    expect(fourth.status).toBe(200);
    expect(rateLimit(fourth.headers)).toEqual({ limit: '5', remaining: '1', reset: MIDNIGHT_SECONDS });
    const again = await User.login(server.url, 'ada@example.com');
    expect(await again.usage()).toMatchObject({ limit: 5, used: 4, remaining: 1, day: '2025-01-15' });
    expect((await call(url)).status).toBe(200);
    const over = await call(url, 'x');
    expect(over.status).toBe(429);
    expect(over.body).toEqual(quotaError('x', 5, 5));
  });
});

// ---- concurrency ----------------------------------------------------------------------------------

describe('the count is exact under concurrency', () => {
  let t: TestNode;
  const clock = new Clock();
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 25, now: clock.now });
  });
  afterAll(() => t.close());

  it('40 concurrent requests with limit 25: exactly 25 pass and 15 get 429', async () => {
    const user = await User.create(t.baseUrl, 'ben@example.com');
    const { url } = await user.key();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => call(url, i)));
    const passed = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(passed).toHaveLength(25);
    expect(refused).toHaveLength(15);
    expect(passed.map((r) => Number(rateLimit(r.headers).remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    for (const r of passed) expect(r.body.result).toBe('0x1f');
    for (const r of refused) expect(r.body).toEqual(quotaError(r.body.id, 25, 25));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(40);
    expect((await user.usage()).used).toBe(25);
  });

  it('concurrent batches over two keys never overshoot the limit', async () => {
    const user = await User.create(t.baseUrl, 'cleo@example.com');
    const [a, b] = [await user.key('testnet'), await user.key('mainnet')];
    // 12 batches of 3 (36 calls) against a limit of 25: 8 batches fit (24), the 9th would make 27
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? a.url : b.url, [request('eth_chainId', 1), request('eth_chainId', 2), request('eth_chainId', 3)])),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
    expect(results.filter((r) => r.status === 429)).toHaveLength(4);
    expect((await user.usage()).used).toBe(24);
    const last = await call(a.url);
    expect(last.status).toBe(200);
    expect(rateLimit(last.headers).remaining).toBe('0');
  });
});

// ---- client libraries -----------------------------------------------------------------------------

describe('401 and 429 through ethers v6 and viem', () => {
  let t: TestNode;
  const clock = new Clock();
  const providers: JsonRpcProvider[] = [];
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 3, now: clock.now });
  });
  afterAll(async () => {
    for (const p of providers) p.destroy();
    await t.close();
  });

  /** A provider that reports a 429 at once (ethers would otherwise retry it, reading Retry-After as milliseconds). */
  function ethersProvider(url: string, chainId: number): JsonRpcProvider {
    const connection = new FetchRequest(url);
    connection.retryFunc = async () => false;
    const provider = new JsonRpcProvider(connection, Network.from(chainId), { staticNetwork: true, cacheTimeout: -1 });
    providers.push(provider);
    return provider;
  }

  async function rejection(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (err) {
      return err;
    }
    throw new Error('expected a rejection');
  }

  it('ethers: the 429 carries -32005 with its message and data; an unknown key the 401 -32001', async () => {
    const user = await User.create(t.baseUrl, 'dora@example.com');
    const { url } = await user.key();
    const provider = ethersProvider(url, 31);
    expect(await provider.getBlockNumber()).toBe(0);
    expect(await provider.send('eth_chainId', [])).toBe('0x1f');
    expect((await provider.getNetwork()).chainId).toBe(31n);
    expect(await provider.send('net_version', [])).toBe('31');

    const err = await rejection(provider.send('eth_chainId', []));
    expect(isError(err, 'SERVER_ERROR')).toBe(true);
    const serverError = err as { info: { responseStatus: string; responseBody: string } };
    expect(serverError.info.responseStatus).toBe('429 Too Many Requests');
    const body = JSON.parse(serverError.info.responseBody);
    expect(body.error).toEqual(quotaError(null, 3, 3).error);
    expect(body.error.code).toBe(-32005);
    expect(body.error.message).toBe(`Daily request limit of 3 reached; it resets at ${MIDNIGHT_ISO} (UTC midnight)`);

    const stranger = ethersProvider(`${t.baseUrl}/not-a-real-key`, 31);
    const unauthorized = await rejection(stranger.getBlockNumber());
    expect(isError(unauthorized, 'SERVER_ERROR')).toBe(true);
    const info = (unauthorized as { info: { responseStatus: string; responseBody: string } }).info;
    expect(info.responseStatus).toBe('401 Unauthorized');
    expect(JSON.parse(info.responseBody).error.code).toBe(-32001);
    expect(JSON.parse(info.responseBody).error.message).toMatch(/unknown API key/);
  });

  it('viem (http transport, retryCount 0): the error chain carries status 429 and the JSON-RPC error; an unknown key 401 -32001', async () => {
    const user = await User.create(t.baseUrl, 'eli@example.com');
    const { url } = await user.key('mainnet');
    const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
    expect(await client.getChainId()).toBe(30);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(0n);
    expect(await client.getChainId()).toBe(30);

    const err = await client.getChainId().then(
      () => undefined,
      (e: unknown) => e,
    );
    // viem maps -32005 to its LimitExceededRpcError; the RpcRequestError below it keeps the HTTP status
    expect(err).toBeInstanceOf(LimitExceededRpcError);
    expect((err as LimitExceededRpcError).code).toBe(-32005);
    const rpcError = (err as BaseError).walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
    expect(rpcError).toBeInstanceOf(RpcRequestError);
    expect(rpcError!.status).toBe(429);
    expect(rpcError!.code).toBe(-32005);
    expect(rpcError!.details).toBe(`Daily request limit of 3 reached; it resets at ${MIDNIGHT_ISO} (UTC midnight)`);
    expect(rpcError!.data).toEqual({ limit: 3, used: 3, resetsAt: MIDNIGHT_ISO });
    expect(rpcError!.headers?.get('retry-after')).toBe(String(12 * 3600));
    expect(rpcError!.headers?.get('x-ratelimit-remaining')).toBe('0');

    const stranger = createPublicClient({ transport: http(`${t.baseUrl}/not-a-real-key`, { retryCount: 0 }) });
    const unauthorized = await stranger.getChainId().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(unauthorized).toBeInstanceOf(BaseError);
    const rpcUnauthorized = (unauthorized as BaseError).walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
    expect(rpcUnauthorized).toBeInstanceOf(RpcRequestError);
    expect(rpcUnauthorized!.status).toBe(401);
    expect(rpcUnauthorized!.code).toBe(-32001);
    expect(rpcUnauthorized!.details).toMatch(/unknown API key/);
    expect((unauthorized as BaseError).walk((e) => e instanceof HttpRequestError)).toBeNull();
  });
});

// ---- WebSocket ------------------------------------------------------------------------------------

/** A raw JSON-RPC WebSocket client: replies by id. */
class WsClient {
  private readonly waiting = new Map<number | string, (reply: any) => void>();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      this.waiting.get(message.id ?? 'null')?.(message);
    });
  }

  static open(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  /** The status of a refused upgrade. */
  static refusal(url: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', () => undefined);
    });
  }

  request(method: string, params: unknown[] = []): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  batch(methods: string[]): Promise<any> {
    return new Promise((resolve) => {
      const listener = (data: WebSocket.RawData) => {
        this.socket.off('message', listener);
        resolve(JSON.parse(data.toString()));
      };
      this.socket.on('message', listener);
      this.socket.send(JSON.stringify(methods.map((method) => ({ jsonrpc: '2.0', id: this.nextId++, method, params: [] }))));
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

describe('WebSocket with a user key', () => {
  let t: TestNode;
  const clock = new Clock();
  const sockets: WsClient[] = [];
  const open = async (url: string) => {
    const client = await WsClient.open(url.replace(/^http/, 'ws'));
    sockets.push(client);
    return client;
  };
  beforeAll(async () => {
    t = await startTestNode({ dailyLimit: 5, now: clock.now });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  afterAll(() => t.close());

  it('counts messages (a batch as its calls) against the same daily quota as HTTP', async () => {
    const user = await User.create(t.baseUrl, 'fay@example.com');
    const { url } = await user.key();
    const ws = await open(url);
    expect(await ws.request('eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1f' });
    const batch = await ws.batch(['eth_chainId', 'net_version']);
    expect(batch.map((r: { result: string }) => r.result)).toEqual(['0x1f', '31']);
    expect((await user.usage()).used).toBe(3);

    const viaHttp = await call(url);
    expect(rateLimit(viaHttp.headers).remaining).toBe('1');
    const fifth = await ws.request('eth_blockNumber');
    expect(fifth.result).toBe('0x0');

    const over = await ws.request('eth_chainId');
    expect(over).toEqual(quotaError(over.id, 5, 5));
    expect(over.id).toBe(5);
    expect((await call(url)).status).toBe(429);
    expect((await user.usage()).used).toBe(5);
    // operator sockets are not counted
    const operator = await open(t.testnetUrl);
    for (let i = 0; i < 7; i++) expect((await operator.request('eth_chainId')).result).toBe('0x1f');
  });

  it("a revoked key's open socket stops working at once and the key cannot open a new one", async () => {
    const user = await User.create(t.baseUrl, 'gus@example.com');
    const { id, url } = await user.key();
    const ws = await open(url);
    expect((await ws.request('eth_chainId')).result).toBe('0x1f');
    await user.revoke(id);
    const after = await ws.request('eth_chainId');
    expect(after).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'Unauthorized: this API key was revoked' } });
    expect((await ws.request('eth_blockNumber')).error.code).toBe(-32001);
    expect(await WsClient.refusal(url.replace(/^http/, 'ws'))).toBe(401);
    // the refused messages were not counted
    expect((await user.usage()).used).toBe(1);
  });
});
