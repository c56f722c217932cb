/**
 * The dashboard's JSON API under /api (issue 3): sign-up, log-in, log-out and /me through fetch
 * with the session cookie; how passwords are stored; the login throttle (with an injectable
 * clock); API keys (4 active per user, revoke, the key-bearing URL, 401s on the RPC path); bad
 * input that changes nothing; the Origin check on state-changing requests; CORS on the RPC path
 * but not on /api.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Level } from 'level';
import { createNode, type DevNode } from '../../src/index.js';
import { MAINNET_KEY, TESTNET_KEY, rpc, startTestNode, type TestNode } from '../helpers/node.js';

const SESSION_COOKIE = 'rsk_devnode_session';
const START = Date.UTC(2025, 2, 10, 9, 30, 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const KEY_STRING = /^[0-9a-f]{32}$/;
const WRONG_LOGIN = { error: 'Wrong email or password' };
const THROTTLED = { error: 'Too many failed logins: try again shortly' };

/** A clock the node reads through `now`; tests move it forward. */
class Clock {
  constructor(public ms = START) {}
  readonly now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
}

interface KeyView {
  id: string;
  name: string;
  network: 'testnet' | 'mainnet';
  description: string;
  key: string;
  url: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A browser-like client of /api: it keeps the session cookie the server sets. */
class ApiClient {
  cookie: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie === undefined ? {} : { cookie: this.cookie }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (name !== SESSION_COOKIE) continue;
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || value.join('=') === '';
      this.cookie = expired ? undefined : `${name}=${value.join('=')}`;
    }
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  get(path: string) {
    return this.request('GET', path);
  }
  delete(path: string, headers?: Record<string, string>) {
    return this.request('DELETE', path, undefined, headers);
  }

  async signup(email: string, password: string): Promise<void> {
    const res = await this.post('/signup', { email, password });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  async login(email: string, password: string): Promise<void> {
    const res = await this.post('/login', { email, password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(this.cookie).toBeDefined();
  }
  async createKey(fields: Record<string, unknown>): Promise<KeyView> {
    const res = await this.post('/keys', fields);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as KeyView;
  }
  async keys(): Promise<KeyView[]> {
    const res = await this.get('/keys');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.keys as KeyView[];
  }
}

/** POST /api/login from a given local address (node:http, since fetch cannot pick one). */
function loginFrom(localAddress: string, port: number, body: unknown): Promise<{ status: number; body: unknown; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, localAddress, method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A signed-in client for a fresh account. */
async function newUser(baseUrl: string, email: string, password = 'correct horse battery'): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  await client.signup(email, password);
  await client.login(email, password);
  return client;
}

// ---- accounts and sessions -----------------------------------------------------------------

describe('accounts and sessions', () => {
  let t: TestNode;
  const clock = new Clock();
  beforeAll(async () => {
    t = await startTestNode({ now: clock.now });
  });
  afterAll(() => t.close());

  it('signs up, logs in with an HttpOnly SameSite=Strict cookie, answers /me, logs out', async () => {
    const client = new ApiClient(t.baseUrl);
    expect(await client.post('/signup', { email: 'alice@example.com', password: 'alice-password-1' })).toMatchObject({ status: 201, body: { ok: true } });
    expect(client.cookie).toBeUndefined();

    const anonymous = await client.get('/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Not signed in' });

    const login = await client.post('/login', { email: 'alice@example.com', password: 'alice-password-1' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ ok: true, email: 'alice@example.com' });
    const setCookie = login.headers.getSetCookie();
    expect(setCookie).toHaveLength(1);
    const attributes = setCookie[0]!.split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
    expect(attributes.map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));

    const me = await client.get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ email: 'alice@example.com' });

    const oldCookie = client.cookie!;
    const logout = await client.post('/logout');
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ ok: true });
    expect(logout.headers.getSetCookie()[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970`, 'i'));
    expect(client.cookie).toBeUndefined();

    // the old token is dead on the server too, not just dropped by the browser
    const replay = await fetch(`${t.baseUrl}/api/me`, { headers: { cookie: oldCookie } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: 'Not signed in' });
  });

  it('each login is its own random session; a forged cookie is not signed in', async () => {
    await new ApiClient(t.baseUrl).signup('bob@example.com', 'bob-password-1');
    const first = new ApiClient(t.baseUrl);
    const second = new ApiClient(t.baseUrl);
    await first.login('bob@example.com', 'bob-password-1');
    await second.login('bob@example.com', 'bob-password-1');
    expect(first.cookie).not.toBe(second.cookie);
    await first.post('/logout');
    expect((await second.get('/me')).body).toEqual({ email: 'bob@example.com' });
    const forged = await fetch(`${t.baseUrl}/api/me`, { headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it('emails are matched without regard to case or surrounding spaces', async () => {
    const client = new ApiClient(t.baseUrl);
    await client.signup('  Carol@Example.COM ', 'carol-password-1');
    const login = await client.post('/login', { email: 'carol@example.com', password: 'carol-password-1' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ ok: true, email: 'carol@example.com' });
    expect((await client.get('/me')).body).toEqual({ email: 'carol@example.com' });
  });

  it('a wrong password and an unknown email fail alike: same status, same message, no cookie', async () => {
    await new ApiClient(t.baseUrl).signup('dave@example.com', 'dave-password-1');
    const wrongPassword = await new ApiClient(t.baseUrl).post('/login', { email: 'dave@example.com', password: 'not-his-password' });
    const unknownEmail = await new ApiClient(t.baseUrl).post('/login', { email: 'nobody@example.com', password: 'dave-password-1' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(WRONG_LOGIN);
    expect(unknownEmail.body).toEqual(WRONG_LOGIN);
    expect(wrongPassword.headers.getSetCookie()).toEqual([]);
    expect(unknownEmail.headers.getSetCookie()).toEqual([]);
    // a success clears the failures counted against this client address
    await new ApiClient(t.baseUrl).login('dave@example.com', 'dave-password-1');
  });
});

// ---- password storage ------------------------------------------------------------------------

describe('password storage', () => {
  let dataDir: string;
  let node: DevNode | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-gateway-'));
  });
  afterAll(async () => {
    await node?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the gateway database holds a salted hash, never the password', async () => {
    const password = 'Plain-Text-Secret-4242';
    node = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
    const server = await node.server(0);
    const client = await newUser(server.url, 'erin@example.com', password);
    await client.createKey({ name: 'app', network: 'testnet' });
    await node.close();
    node = undefined;

    const db = new Level<string, string>(join(dataDir, 'gateway'));
    await db.open();
    const entries: Array<[string, string]> = [];
    try {
      for await (const entry of db.iterator()) entries.push(entry);
    } finally {
      await db.close();
    }
    expect(entries.length).toBeGreaterThanOrEqual(2);
    const encodings = [password, Buffer.from(password).toString('hex'), Buffer.from(password).toString('base64'), password.toLowerCase()];
    for (const [key, value] of entries) {
      for (const encoded of encodings) {
        expect(key.includes(encoded), `key ${key}`).toBe(false);
        expect(value.includes(encoded), `value of ${key}`).toBe(false);
      }
    }
    const userEntry = entries.find(([key]) => key === 'user:erin@example.com');
    expect(userEntry).toBeDefined();
    const user = JSON.parse(userEntry![1]) as Record<string, unknown>;
    expect(user.email).toBe('erin@example.com');
    expect(user.salt).toMatch(/^[0-9a-f]{32,}$/);
    expect(user.hash).toMatch(/^[0-9a-f]{64,}$/);
    expect(user.hash).not.toBe(user.salt);
    expect(Object.keys(user)).not.toContain('password');

    // and the stored hash still lets the user in after a restart
    node = await createNode({ inMemory: false, dataDir, logLevel: 'silent' });
    const again = await node.server(0);
    await new ApiClient(again.url).login('erin@example.com', password);
  });

  it('two accounts with the same password get different salts and hashes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-gateway-'));
    try {
      const local = await createNode({ inMemory: false, dataDir: dir, logLevel: 'silent' });
      try {
        const server = await local.server(0);
        await new ApiClient(server.url).signup('f1@example.com', 'same-password-123');
        await new ApiClient(server.url).signup('f2@example.com', 'same-password-123');
      } finally {
        await local.close();
      }
      const db = new Level<string, string>(join(dir, 'gateway'));
      await db.open();
      try {
        const a = JSON.parse((await db.get('user:f1@example.com'))!) as { salt: string; hash: string };
        const b = JSON.parse((await db.get('user:f2@example.com'))!) as { salt: string; hash: string };
        expect(a.salt).not.toBe(b.salt);
        expect(a.hash).not.toBe(b.hash);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// ---- login throttle --------------------------------------------------------------------------

describe('login throttle (per account and per client address, never a lock-out)', () => {
  let t: TestNode | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('the first 3 failures are answered 401 at once; the 4th attempt gets 429 with Retry-After; after the wait the right password gets in', async () => {
    const clock = new Clock();
    t = await startTestNode({ now: clock.now });
    const client = new ApiClient(t.baseUrl);
    await client.signup('gina@example.com', 'gina-password-1');
    for (let i = 1; i <= 3; i++) {
      const res = await client.post('/login', { email: 'gina@example.com', password: `typo-${i}` });
      expect(res.status, `failure ${i}`).toBe(401);
      expect(res.body).toEqual(WRONG_LOGIN);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const fourth = await client.post('/login', { email: 'gina@example.com', password: 'typo-4' });
    expect(fourth.status, JSON.stringify(fourth.body)).toBe(429);
    expect(fourth.body).toEqual(THROTTLED);
    const wait = Number(fourth.headers.get('retry-after'));
    expect(wait).toBe(1);

    // while the wait runs even the right password is turned away, without a cookie
    const early = await client.post('/login', { email: 'gina@example.com', password: 'gina-password-1' });
    expect(early.status).toBe(429);
    expect(early.body).toEqual(THROTTLED);
    expect(client.cookie).toBeUndefined();

    clock.advance(wait * 1000);
    await client.login('gina@example.com', 'gina-password-1');
    expect((await client.get('/me')).body).toEqual({ email: 'gina@example.com' });
  });

  it('the wait doubles with each further failure up to a cap, always expires, and a success clears it', async () => {
    const clock = new Clock();
    t = await startTestNode({ now: clock.now });
    const client = new ApiClient(t.baseUrl);
    await client.signup('hank@example.com', 'hank-password-1');
    const wrong = () => client.post('/login', { email: 'hank@example.com', password: 'wrong-password' });

    for (let i = 1; i <= 3; i++) expect((await wrong()).status).toBe(401);

    const waits: number[] = [];
    for (let round = 0; round < 8; round++) {
      const refused = await client.post('/login', { email: 'hank@example.com', password: 'hank-password-1' });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(THROTTLED);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      clock.advance(wait * 1000);
      if (round < 7) expect((await wrong()).status, `round ${round}`).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);

    await client.login('hank@example.com', 'hank-password-1');
    // the success cleared the count: the next three typos are free again, the 4th attempt waits 1 s
    for (let i = 1; i <= 3; i++) expect((await wrong()).status).toBe(401);
    const again = await wrong();
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
  });

  it('failures are counted per account and client address: the guesser is slowed, the owner elsewhere is not (no lock-out)', async () => {
    const clock = new Clock();
    t = await startTestNode({ now: clock.now });
    await new ApiClient(t.baseUrl).signup('jack@example.com', 'jack-password-1');
    await new ApiClient(t.baseUrl).signup('jill@example.com', 'jill-password-1');
    const attacker = new ApiClient(t.baseUrl);
    for (let i = 1; i <= 3; i++) expect((await attacker.post('/login', { email: 'jack@example.com', password: `guess-${i}-xx` })).status).toBe(401);
    const throttled = await attacker.post('/login', { email: 'jack@example.com', password: 'jack-password-1' });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(THROTTLED);

    // from 127.0.0.2 (another client address on the loopback): a per-account count would let anyone
    // keep jack locked out by failing once a minute.
    const fromElsewhere = (email: string, password: string) => loginFrom('127.0.0.2', Number(new URL(t!.baseUrl).port), { email, password });
    const jack = await fromElsewhere('jack@example.com', 'jack-password-1');
    expect(jack.status).toBe(200);
    expect(jack.body).toEqual({ ok: true, email: 'jack@example.com' });
    const jill = await fromElsewhere('jill@example.com', 'jill-password-1');
    expect(jill.status).toBe(200);
    clock.advance(1_000);
    expect((await attacker.post('/login', { email: 'jack@example.com', password: 'jack-password-1' })).status).toBe(200);
  });

  it('failures are counted per client address too: spreading guesses over many emails still gets throttled', async () => {
    const clock = new Clock();
    t = await startTestNode({ now: clock.now });
    await new ApiClient(t.baseUrl).signup('ivy@example.com', 'ivy-password-1');
    const guesser = new ApiClient(t.baseUrl);
    for (let i = 1; i <= 3; i++) {
      const res = await guesser.post('/login', { email: `guess${i}@example.com`, password: 'whatever-123' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(WRONG_LOGIN);
    }
    // an account that never failed is refused from this address while the wait runs
    const fromSameAddress = await guesser.post('/login', { email: 'ivy@example.com', password: 'ivy-password-1' });
    expect(fromSameAddress.status).toBe(429);
    expect(fromSameAddress.body).toEqual(THROTTLED);
    expect(guesser.cookie).toBeUndefined();
    const wait = Number(fromSameAddress.headers.get('retry-after'));
    expect(wait).toBe(1);
    // the wait is never a lock-out: one second later the right password gets in
    clock.advance(999);
    expect((await guesser.post('/login', { email: 'ivy@example.com', password: 'ivy-password-1' })).status).toBe(429);
    clock.advance(1);
    await guesser.login('ivy@example.com', 'ivy-password-1');
  });
});

// ---- API keys --------------------------------------------------------------------------------

describe('API keys', () => {
  let t: TestNode;
  const clock = new Clock();
  let client: ApiClient;
  beforeAll(async () => {
    t = await startTestNode({ now: clock.now });
    client = await newUser(t.baseUrl, 'kate@example.com');
  });
  afterAll(() => t.close());

  it('creates a key with name, network and description; the detail URL is http://host:port/<key> and reaches that network', async () => {
    const created = await client.post('/keys', { name: 'My dApp', network: 'testnet', description: 'staging build' });
    expect(created.status).toBe(201);
    const key = created.body as KeyView;
    expect(key.id).toMatch(UUID);
    expect(key.key).toMatch(KEY_STRING);
    expect(key).toEqual({
      id: key.id,
      name: 'My dApp',
      network: 'testnet',
      description: 'staging build',
      key: key.key,
      url: `${t.baseUrl}/${key.key}`,
      v2Url: `${t.baseUrl}/v2/${key.key}`,
      allowlist: { origins: [], ipRanges: [], contracts: [], methods: [] },
      jwtKeys: [],
      createdAt: new Date(clock.ms).toISOString(),
      revokedAt: null,
    });
    expect(key.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
    const chainId = await rpc(key.url, 'eth_chainId');
    expect(chainId.status).toBe(200);
    expect(chainId.body.result).toBe('0x1f');

    const mainnet = await client.createKey({ name: '  Prod  ', network: 'MAINNET' });
    expect(mainnet.name).toBe('Prod');
    expect(mainnet.network).toBe('mainnet');
    expect(mainnet.description).toBe('');
    expect((await rpc(mainnet.url, 'eth_chainId')).body.result).toBe('0x1e');

    expect((await client.keys()).map((k) => k.key)).toEqual([key.key, mainnet.key]);
    // revoked keys stay listed, marked with the time of revocation
    for (const k of [key, mainnet]) expect((await client.delete(`/keys/${k.id}`)).status).toBe(200);
    expect((await client.keys()).map((k) => k.revokedAt)).toEqual([new Date(clock.ms).toISOString(), new Date(clock.ms).toISOString()]);
  });

  it('4 active keys, the fifth refused with 409 saying the limit; revoking one makes room', async () => {
    const user = await newUser(t.baseUrl, 'leo@example.com');
    const made: KeyView[] = [];
    for (let i = 1; i <= 4; i++) made.push(await user.createKey({ name: `key ${i}`, network: i % 2 === 0 ? 'mainnet' : 'testnet' }));
    expect(new Set(made.map((k) => k.key)).size).toBe(4);

    const fifth = await user.post('/keys', { name: 'key 5', network: 'testnet' });
    expect(fifth.status).toBe(409);
    expect(fifth.body).toEqual({ error: 'Key limit reached: a user may hold at most 4 keys that are not revoked. Revoke one to create another.' });
    expect((await user.keys()).map((k) => k.id)).toEqual(made.map((k) => k.id));

    clock.advance(60_000);
    const revoked = await user.delete(`/keys/${made[1]!.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ ...made[1], revokedAt: new Date(clock.ms).toISOString() });
    // revoking again is harmless and keeps the first revocation time
    clock.advance(1_000);
    expect((await user.delete(`/keys/${made[1]!.id}`)).body.revokedAt).toBe(new Date(clock.ms - 1_000).toISOString());

    const replacement = await user.createKey({ name: 'key 5', network: 'testnet' });
    const listed = await user.keys();
    expect(listed.map((k) => k.id)).toEqual([...made.map((k) => k.id), replacement.id]);
    expect(listed.filter((k) => k.revokedAt === null)).toHaveLength(4);
    expect((await user.post('/keys', { name: 'key 6', network: 'testnet' })).status).toBe(409);
  });

  it('a revoked key answers HTTP 401 with a JSON-RPC error that echoes the id and says revoked', async () => {
    const user = await newUser(t.baseUrl, 'mia@example.com');
    const key = await user.createKey({ name: 'soon gone', network: 'testnet' });
    expect((await rpc(key.url, 'eth_blockNumber', [], 'before')).body).toEqual({ jsonrpc: '2.0', id: 'before', result: '0x0' });
    expect((await user.delete(`/keys/${key.id}`)).status).toBe(200);

    const res = await fetch(key.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 'abc-7', method: 'eth_blockNumber', params: [] }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toEqual({ jsonrpc: '2.0', id: 'abc-7', error: { code: -32001, message: 'Unauthorized: this API key was revoked' } });
    const numeric = await rpc(key.url, 'eth_chainId', [], 99);
    expect(numeric.status).toBe(401);
    expect(numeric.body).toMatchObject({ id: 99, error: { code: -32001 } });
    expect(numeric.body.error!.message).toMatch(/revoked/);
  });

  it('a missing key (POST /) and an unknown key answer 401 -32001 with the id echoed', async () => {
    const missing = await rpc(`${t.baseUrl}/`, 'eth_chainId', [], 42);
    expect(missing.status).toBe(401);
    expect((missing.body as { id?: unknown }).id).toBe(42);
    expect(missing.body.error!.code).toBe(-32001);
    expect(missing.body.error!.message).toMatch(/API key/);
    expect(missing.body.error!.message).toContain('POST /<API_KEY>');

    const unknown = await rpc(`${t.baseUrl}/${'0'.repeat(32)}`, 'eth_chainId', [], 'x-1');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      jsonrpc: '2.0',
      id: 'x-1',
      error: { code: -32001, message: 'Unauthorized: unknown API key. Use the key-bearing URL printed at start-up or shown in the dashboard: POST /<API_KEY>' },
    });

    // the body does not parse: no id to echo
    const garbled = await fetch(`${t.baseUrl}/nope`, { method: 'POST', body: '{"id": 5,' });
    expect(garbled.status).toBe(401);
    expect(await garbled.json()).toMatchObject({ id: null, error: { code: -32001 } });
  });

  it('keys are private to their owner: another user neither sees nor revokes them', async () => {
    const owner = await newUser(t.baseUrl, 'ned@example.com');
    const key = await owner.createKey({ name: 'mine', network: 'mainnet' });
    const other = await newUser(t.baseUrl, 'olga@example.com');
    expect(await other.keys()).toEqual([]);
    const attempt = await other.delete(`/keys/${key.id}`);
    expect(attempt.status).toBe(404);
    expect(attempt.body).toEqual({ error: 'No such key' });
    expect((await owner.keys())[0]!.revokedAt).toBeNull();
    expect((await rpc(key.url, 'eth_chainId')).body.result).toBe('0x1e');
  });

  it('the key endpoints need a session', async () => {
    const anonymous = new ApiClient(t.baseUrl);
    for (const res of [await anonymous.get('/keys'), await anonymous.post('/keys', { name: 'x', network: 'testnet' }), await anonymous.delete(`/keys/${'0'.repeat(8)}`), await anonymous.get('/usage')]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Not signed in' });
    }
  });
});

// ---- bad input ---------------------------------------------------------------------------------

describe('bad input gets a clear {error} and changes nothing', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('sign-up: malformed JSON, wrong types, unknown and missing fields, huge bodies, bad values', async () => {
    const client = new ApiClient(t.baseUrl);
    const email = 'pat@example.com';
    const password = 'pat-password-1';
    const cases: Array<[string, unknown, number, string]> = [
      ['malformed JSON', '{"email": "pat@example.com", "password": ', 400, 'Malformed JSON body'],
      ['not an object', JSON.stringify([email, password]), 400, 'Expected a JSON object body'],
      ['a bare string', '"pat"', 400, 'Malformed JSON body'],
      ['wrong type (email)', { email: 12345, password }, 400, 'Field "email" must be a string'],
      ['wrong type (password)', { email, password: ['a', 'b'] }, 400, 'Field "password" must be a string'],
      ['unknown field', { email, password, admin: true }, 400, 'Unknown field "admin"'],
      ['missing password', { email }, 400, 'Field "password" is required'],
      ['missing email', { password }, 400, 'Field "email" is required'],
      ['empty body', {}, 400, 'Field "email" is required'],
      ['bad email', { email: 'pat-at-example.com', password }, 400, 'A valid email address is required'],
      ['short password', { email, password: 'short' }, 400, 'Password must have at least 8 characters'],
      ['huge body', { email, password, pad: 'x'.repeat(17 * 1024) }, 413, 'Request body too large: the limit is 16kb'],
    ];
    for (const [what, body, status, error] of cases) {
      const res = await client.post('/signup', body);
      expect(res.status, what).toBe(status);
      expect(res.body, what).toEqual({ error });
    }
    // none of them created the account
    await client.signup(email, password);
  });

  it('a repeated sign-up is 409 and keeps the first password', async () => {
    const client = new ApiClient(t.baseUrl);
    await client.signup('quinn@example.com', 'first-password-1');
    for (const email of ['quinn@example.com', 'QUINN@example.com']) {
      const again = await client.post('/signup', { email, password: 'second-password-2' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'An account with this email already exists' });
    }
    expect((await client.post('/login', { email: 'quinn@example.com', password: 'second-password-2' })).status).toBe(401);
    await client.login('quinn@example.com', 'first-password-1');
  });

  it('login: malformed and ill-typed bodies are 400 and set no cookie', async () => {
    const client = new ApiClient(t.baseUrl);
    for (const [body, error] of [
      ['{"email":', 'Malformed JSON body'],
      [{ email: 'pat@example.com', password: 1 }, 'Field "password" must be a string'],
      [{ email: 'pat@example.com', password: 'pat-password-1', remember: 'yes' }, 'Unknown field "remember"'],
    ] as const) {
      const res = await client.post('/login', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('keys: every bad create is refused with its reason and the key list stays the same', async () => {
    const client = await newUser(t.baseUrl, 'ruth@example.com');
    await client.createKey({ name: 'existing', network: 'testnet' });
    const before = await client.keys();
    const cases: Array<[string, unknown, number, string]> = [
      ['malformed JSON', '{"name": "x", ', 400, 'Malformed JSON body'],
      ['array body', '[]', 400, 'Expected a JSON object body'],
      ['wrong type (name)', { name: 7, network: 'testnet' }, 400, 'Field "name" must be a string'],
      ['wrong type (network)', { name: 'x', network: 31 }, 400, 'Field "network" must be a string'],
      ['wrong type (description)', { name: 'x', network: 'testnet', description: null }, 400, 'Field "description" must be a string'],
      ['unknown field', { name: 'x', network: 'testnet', owner: 'someone-else' }, 400, 'Unknown field "owner"'],
      ['missing name', { network: 'testnet' }, 400, 'Field "name" is required'],
      ['missing network', { name: 'x' }, 400, 'Field "network" is required'],
      ['bad network', { name: 'x', network: 'regtest' }, 400, 'network must be "testnet" or "mainnet"'],
      ['empty name', { name: '', network: 'testnet' }, 400, 'name is required (at most 100 characters)'],
      ['blank name', { name: '    ', network: 'mainnet' }, 400, 'name is required (at most 100 characters)'],
      ['long name', { name: 'n'.repeat(101), network: 'testnet' }, 400, 'name is required (at most 100 characters)'],
      ['long description', { name: 'x', network: 'testnet', description: 'd'.repeat(501) }, 400, 'description has at most 500 characters'],
      ['huge body', { name: 'x', network: 'testnet', description: 'd'.repeat(20 * 1024) }, 413, 'Request body too large: the limit is 16kb'],
    ];
    for (const [what, body, status, error] of cases) {
      const res = await client.post('/keys', body);
      expect(res.status, what).toBe(status);
      expect(res.body, what).toEqual({ error });
    }
    expect(await client.keys()).toEqual(before);

    const unknownId = await client.delete('/keys/not-a-key-id');
    expect(unknownId.status).toBe(404);
    expect(unknownId.body).toEqual({ error: 'No such key' });
    expect(await client.keys()).toEqual(before);

    const noSuchEndpoint = await client.get('/nothing-here');
    expect(noSuchEndpoint.status).toBe(404);
    expect(noSuchEndpoint.body).toEqual({ error: 'No such API endpoint' });
  });
});

// ---- Origin check --------------------------------------------------------------------------------

describe('state-changing /api requests check the Origin', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  const refused = { error: 'Cross-origin request refused' };

  it('a cross-origin POST is refused 403 and changes nothing; a same-origin one is accepted', async () => {
    const client = new ApiClient(t.baseUrl);
    const evil = { origin: 'http://evil.example' };
    const crossSignup = await client.post('/signup', { email: 'sam@example.com', password: 'sam-password-1' }, evil);
    expect(crossSignup.status).toBe(403);
    expect(crossSignup.body).toEqual(refused);
    const sameSignup = await client.post('/signup', { email: 'sam@example.com', password: 'sam-password-1' }, { origin: t.baseUrl });
    expect(sameSignup.status).toBe(201);

    const crossLogin = await client.post('/login', { email: 'sam@example.com', password: 'sam-password-1' }, evil);
    expect(crossLogin.status).toBe(403);
    expect(crossLogin.headers.getSetCookie()).toEqual([]);
    const sameLogin = await client.post('/login', { email: 'sam@example.com', password: 'sam-password-1' }, { origin: t.baseUrl });
    expect(sameLogin.status).toBe(200);

    const crossKey = await client.post('/keys', { name: 'x', network: 'testnet' }, evil);
    expect(crossKey.status).toBe(403);
    expect(crossKey.body).toEqual(refused);
    expect(await client.keys()).toEqual([]);
    const nullOrigin = await client.post('/keys', { name: 'x', network: 'testnet' }, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const otherPort = await client.post('/keys', { name: 'x', network: 'testnet' }, { origin: 'http://127.0.0.1:1' });
    expect(otherPort.status).toBe(403);
    expect(await client.keys()).toEqual([]);

    const sameKey = await client.post('/keys', { name: 'x', network: 'testnet' }, { origin: t.baseUrl });
    expect(sameKey.status).toBe(201);
    const crossRevoke = await client.delete(`/keys/${sameKey.body.id}`, evil);
    expect(crossRevoke.status).toBe(403);
    expect((await client.keys())[0]!.revokedAt).toBeNull();

    const crossLogout = await client.post('/logout', undefined, evil);
    expect(crossLogout.status).toBe(403);
    expect((await client.get('/me')).status).toBe(200);

    // a GET is not state-changing: it is answered (but, see CORS, a browser will not share it cross-origin)
    const crossGet = await fetch(`${t.baseUrl}/api/me`, { headers: { cookie: client.cookie!, ...evil } });
    expect(crossGet.status).toBe(200);
  });
});

// ---- CORS ------------------------------------------------------------------------------------------

describe('CORS: open on the RPC path, closed on /api', () => {
  let t: TestNode;
  let userKeyUrl: string;
  let client: ApiClient;
  beforeAll(async () => {
    t = await startTestNode();
    client = await newUser(t.baseUrl, 'tess@example.com');
    userKeyUrl = (await client.createKey({ name: 'browser dapp', network: 'testnet' })).url;
  });
  afterAll(() => t.close());

  it('the RPC path answers the preflight with 204, any origin and the allowed methods', async () => {
    for (const url of [t.testnetUrl, userKeyUrl, `${t.baseUrl}/${MAINNET_KEY}`]) {
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const methods = res.headers.get('access-control-allow-methods')!.split(',').map((m) => m.trim());
      expect(methods).toEqual(expect.arrayContaining(['POST', 'OPTIONS']));
      expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('content-type');
      expect(await res.text()).toBe('');
    }
  });

  it('RPC responses carry Access-Control-Allow-Origin: * (successes and 401s alike)', async () => {
    const call = (url: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://dapp.example' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    for (const [url, status] of [[t.testnetUrl, 200], [userKeyUrl, 200], [`${t.baseUrl}/${TESTNET_KEY}x`, 401]] as const) {
      const res = await call(url);
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('/api sends no Access-Control-Allow-Origin, preflight included', async () => {
    const origin = { origin: 'https://dapp.example' };
    const responses = [
      await fetch(`${t.baseUrl}/api/me`, { headers: { ...origin, cookie: client.cookie! } }),
      await fetch(`${t.baseUrl}/api/keys`, { headers: { ...origin, cookie: client.cookie! } }),
      await fetch(`${t.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'tess@example.com', password: 'correct horse battery' }) }),
      await fetch(`${t.baseUrl}/api/login`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } }),
    ];
    expect(responses[0]!.status).toBe(200);
    expect(responses[2]!.status).toBe(200);
    for (const res of responses) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});
