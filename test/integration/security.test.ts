/**
 * Security checks of the dashboard and the key-bearing endpoints (issue 12), driven as a user (or
 * an attacker) would: HTTP with cookies, a real browser for the pages. Key names and descriptions
 * are shown as text on every page; every login starts a new session; cross-site requests are
 * refused; wrong passwords are slowed without locking the owner out; no secret reaches the log;
 * users are kept apart; a testnet key never touches mainnet.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { COW, COW1, call, nodesClosedAfterEach, rpc } from '../helpers/node.js';
import { MAX_DELAY_MS } from '../../src/gateway/login-throttle.js';

const start = nodesClosedAfterEach();
const SESSION_COOKIE = 'rsk_devnode_session';
const PASSWORD = 'correct horse battery staple';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/** One HTTP request with node:http, so that the client address (localAddress) can be chosen. */
function http(base: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; from?: string } = {}): Promise<Answer> {
  const url = new URL(path, base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress: options.from,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The session cookie (name=value) a login answer sets. */
function sessionCookie(answer: Answer): string {
  const setCookie = answer.headers['set-cookie'];
  const line = (Array.isArray(setCookie) ? setCookie : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (line === undefined) throw new Error(`no session cookie in ${JSON.stringify(answer.headers)}`);
  return line.split(';')[0]!;
}

/** A dashboard user: signs up and logs in; `api` sends the session cookie. */
async function user(base: string, email: string) {
  expect((await http(base, 'POST', '/api/signup', { body: { email, password: PASSWORD } })).status).toBe(201);
  const login = await http(base, 'POST', '/api/login', { body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  const cookie = sessionCookie(login);
  return {
    cookie,
    api: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      http(base, method, `/api${path}`, { body, headers: { cookie, ...headers } }),
  };
}

describe('key names and descriptions on the pages', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  const HOSTILE = [
    { name: `<script>window.__xss = 'name'</script>`, description: `</textarea><img src=x onerror="window.__xss = 'description'">` },
    { name: `"'><svg onload="window.__xss = 'svg'">&amp;`, description: `'; window.__xss = 'quote'; //"</p><b>bold</b>` },
  ];

  it('are shown as text, never as markup, on the keys page and each key page', async () => {
    const t = await start();
    const alice = await user(t.baseUrl, 'alice@example.com');
    const ids: string[] = [];
    for (const key of HOSTILE) {
      const created = await alice.api('POST', '/keys', { ...key, network: 'testnet' });
      expect(created.status).toBe(201);
      // The API gives the text back unchanged, as JSON (never sniffed as HTML).
      expect(created.body.name).toBe(key.name);
      expect(created.body.description).toBe(key.description);
      expect(created.headers['content-type']).toMatch(/^application\/json/);
      ids.push(created.body.id);
    }
    // The server-rendered shells never carry the names; the CSP forbids inline scripts anyway.
    for (const path of ['/dashboard/keys', ...ids.map((id) => `/dashboard/keys/${id}`)]) {
      const page = await http(t.baseUrl, 'GET', path, { headers: { cookie: alice.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      for (const key of HOSTILE) {
        expect(page.text).not.toContain(key.name);
        expect(page.text).not.toContain(key.description);
      }
    }

    browser = await launchChromium();
    const context = await browser.newContext();
    const [name, value] = alice.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: t.baseUrl }]);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await page.goto(`${t.baseUrl}/dashboard/keys`);
    await page.locator('#keys-body tr').nth(HOSTILE.length - 1).waitFor();
    const shown = await page.locator('#keys-body .key-name').evaluateAll((cells) => cells.map((c) => ({ name: c.querySelector('a')!.textContent, description: c.querySelector('div')?.textContent })));
    expect(shown).toEqual(expect.arrayContaining(HOSTILE));
    expect(await page.locator('#keys-body script, #keys-body img, #keys-body svg, #keys-body b').count()).toBe(0);

    for (const [i, id] of ids.entries()) {
      await page.goto(`${t.baseUrl}/dashboard/keys/${id}`);
      await page.locator('#key-detail').waitFor();
      expect(await page.locator('#key-name').textContent()).toBe(HOSTILE[i]!.name);
      expect(await page.locator('#key-description').textContent()).toBe(HOSTILE[i]!.description);
      expect(await page.locator('main script, main img, main svg:not(#usage-chart svg):not(#key-usage-chart svg), main b').count()).toBe(0);
    }
    expect(await page.evaluate(() => (globalThis as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe('sessions', () => {
  it('every login gets a new session; the one it came with, and a logged-out one, stop working', async () => {
    const t = await start();
    const alice = await user(t.baseUrl, 'alice@example.com');
    const login = await http(t.baseUrl, 'POST', '/api/login', { body: { email: 'alice@example.com', password: PASSWORD }, headers: { cookie: alice.cookie } });
    expect(login.status).toBe(200);
    const setCookie = (login.headers['set-cookie'] as string[]).join('\n');
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const rotated = sessionCookie(login);
    expect(rotated).not.toBe(alice.cookie);
    expect((await http(t.baseUrl, 'GET', '/api/me', { headers: { cookie: alice.cookie } })).status).toBe(401);
    expect((await http(t.baseUrl, 'GET', '/api/me', { headers: { cookie: rotated } })).body).toEqual({ email: 'alice@example.com' });
    // A made-up session id gets nothing.
    expect((await http(t.baseUrl, 'GET', '/api/keys', { headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` } })).status).toBe(401);
    expect((await http(t.baseUrl, 'POST', '/api/logout', { headers: { cookie: rotated } })).status).toBe(200);
    expect((await http(t.baseUrl, 'GET', '/api/me', { headers: { cookie: rotated } })).status).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('are refused with a valid session: foreign or null Origin, or a cross-site Sec-Fetch-Site; nothing changes', async () => {
    const t = await start();
    const alice = await user(t.baseUrl, 'alice@example.com');
    const key = (await alice.api('POST', '/keys', { name: 'mine', network: 'testnet' })).body;
    const foreign: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://localhost:1` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of foreign) {
      const created = await alice.api('POST', '/keys', { name: 'planted', network: 'mainnet' }, headers);
      expect(created.status).toBe(403);
      expect(created.body.error).toBe('Cross-origin request refused');
      expect((await alice.api('DELETE', `/keys/${key.id}`, undefined, headers)).status).toBe(403);
      expect((await alice.api('POST', '/logout', undefined, headers)).status).toBe(403);
    }
    const keys = (await alice.api('GET', '/keys')).body.keys;
    expect(keys.map((k: { name: string; revokedAt: unknown }) => [k.name, k.revokedAt])).toEqual([['mine', null]]);
    // Without the session cookie (what SameSite=Strict leaves a cross-site request with): 401.
    expect((await http(t.baseUrl, 'POST', '/api/keys', { body: { name: 'x', network: 'testnet' } })).status).toBe(401);
    // The dashboard's own requests pass.
    const own = await alice.api('POST', '/keys', { name: 'second', network: 'testnet' }, { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(201);
  });
});

describe('wrong passwords', () => {
  it('slow the guesser, never lock the owner out: her right password works from her address at once, and from the guesser\'s after a bounded wait', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const t = await start({ now: () => clock });
    await user(t.baseUrl, 'alice@example.com');
    const login = (password: string, from: string) => http(t.baseUrl, 'POST', '/api/login', { body: { email: 'alice@example.com', password }, from });
    const GUESSER = '127.0.0.2';

    // Three free failures, then each attempt waits 1 s, 2 s, 4 s, ... up to MAX_DELAY_MS.
    for (let i = 0; i < 3; i++) expect((await login('wrong password', GUESSER)).status).toBe(401);
    const throttled = await login('wrong password', GUESSER);
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('1');
    // A guesser who keeps failing, each time as soon as allowed.
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const wait = Number((await login('wrong password', GUESSER)).headers['retry-after'] ?? 0);
      clock += wait * 1000;
      expect((await login('wrong password', GUESSER)).status).toBe(401);
      waits.push(wait);
    }
    expect(Math.max(...waits)).toBe(MAX_DELAY_MS / 1000);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    // Meanwhile the owner, from her own address, gets in at once.
    expect((await login(PASSWORD, '127.0.0.1')).status).toBe(200);

    // Even from the guesser's address, the right password works after at most MAX_DELAY_MS.
    const refused = await login(PASSWORD, GUESSER);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(MAX_DELAY_MS / 1000);
    clock += MAX_DELAY_MS;
    expect((await login(PASSWORD, GUESSER)).status).toBe(200);
  });
});

describe('secrets and the log', () => {
  it('never logs a password, a session token, an API key or a private key, at trace level, on any dashboard or RPC path', async () => {
    const output: string[] = [];
    const t = await start({ logLevel: 'trace', logDestination: { write: (text: string) => void output.push(text) } });
    const wrongPassword = 'not-the-password-1234';
    const alice = await user(t.baseUrl, 'alice@example.com');
    for (let i = 0; i < 5; i++) await http(t.baseUrl, 'POST', '/api/login', { body: { email: 'alice@example.com', password: wrongPassword } });
    await http(t.baseUrl, 'POST', '/api/signup', { body: { email: 'alice@example.com', password: 'another-password-5678' } });
    const key = (await alice.api('POST', '/keys', { name: 'logged?', network: 'testnet', description: 'a description' })).body;
    await alice.api('GET', '/keys');
    await alice.api('GET', '/usage');
    const url = `${t.baseUrl}/${key.key}`;
    const privateKey = Wallet.createRandom().privateKey;
    const passphrase = 'keystore-passphrase-9999';
    await call(url, 'eth_blockNumber');
    // The node's own keys answer the operator's key only (a dashboard key is refused them).
    await call(t.testnetUrl, 'personal_importRawKey', [privateKey.slice(2), passphrase]);
    await call(t.testnetUrl, 'personal_newAccount', [passphrase]);
    await call(t.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    await rpc(url, 'personal_importRawKey', [privateKey.slice(2), passphrase]);
    await rpc(url, 'no_such_method', [privateKey]);
    await rpc(url, 'eth_getBalance', [privateKey, passphrase]);
    await alice.api('DELETE', `/keys/${key.id}`);
    await rpc(url, 'eth_chainId');
    const otherKey = `${key.key}x`;
    await rpc(`${t.baseUrl}/${otherKey}`, 'eth_chainId');
    await alice.api('POST', '/logout');
    await http(t.baseUrl, 'GET', '/api/me', { headers: { cookie: alice.cookie } });

    const log = output.join('');
    expect(log).toContain('rpc eth_blockNumber');
    const session = alice.cookie.split('=')[1]!;
    for (const secret of [PASSWORD, wrongPassword, 'another-password-5678', session, key.key, otherKey, privateKey.slice(2), passphrase]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('users are kept apart', () => {
  it('a user cannot see, revoke or reach through the API another user\'s keys', async () => {
    const t = await start();
    const alice = await user(t.baseUrl, 'alice@example.com');
    const bob = await user(t.baseUrl, 'bob@example.com');
    const key = (await alice.api('POST', '/keys', { name: 'alice key', network: 'testnet' })).body;
    expect((await bob.api('GET', '/keys')).body.keys).toEqual([]);
    const revoke = await bob.api('DELETE', `/keys/${key.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.text).not.toContain(key.key);
    // Bob's page for Alice's key id is his own (empty) view: the shell, with no key in it.
    const page = await http(t.baseUrl, 'GET', `/dashboard/keys/${key.id}`, { headers: { cookie: bob.cookie } });
    expect(page.text).not.toContain(key.key);
    // Alice's key still works and is still hers.
    expect(await call(`${t.baseUrl}/${key.key}`, 'eth_chainId')).toBe('0x1f');
    expect((await alice.api('GET', '/keys')).body.keys.map((k: { id: string; revokedAt: unknown }) => [k.id, k.revokedAt])).toEqual([[key.id, null]]);
    // Bob's usage does not count Alice's calls.
    expect((await bob.api('GET', '/usage')).body.used).toBe(0);
    expect((await alice.api('GET', '/usage')).body.used).toBe(1);
  });
});

describe('networks are kept apart', () => {
  it('a testnet key reaches only testnet (chain 31): its transactions, blocks and balances never show on mainnet (chain 30)', async () => {
    const t = await start();
    const alice = await user(t.baseUrl, 'alice@example.com');
    const testnet = `${t.baseUrl}/${(await alice.api('POST', '/keys', { name: 't', network: 'testnet' })).body.key}`;
    const mainnet = `${t.baseUrl}/${(await alice.api('POST', '/keys', { name: 'm', network: 'mainnet' })).body.key}`;
    expect(await call(testnet, 'eth_chainId')).toBe('0x1f');
    expect(await call(mainnet, 'eth_chainId')).toBe('0x1e');
    const mainnetBalance = await call(mainnet, 'eth_getBalance', [COW1.address, 'latest']);

    const signedForTestnet = await new Wallet(COW.privateKey).signTransaction({ to: COW1.address, value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: 60_000_000n, chainId: 31n, type: 0 });
    const hash = await call(testnet, 'eth_sendRawTransaction', [signedForTestnet]);
    expect((await call(testnet, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(await call(mainnet, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await call(testnet, 'eth_blockNumber')).toBe('0x1');
    expect(await call(mainnet, 'eth_blockNumber')).toBe('0x0');
    expect(await call(mainnet, 'eth_getBalance', [COW1.address, 'latest'])).toBe(mainnetBalance);
    expect(await call(testnet, 'eth_getBalance', [COW1.address, 'latest'])).not.toBe(mainnetBalance);

    // A transaction signed for mainnet (chain id 30) is refused on the testnet key, and mines nothing.
    const signed = await new Wallet(COW.privateKey).signTransaction({ to: COW1.address, value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: 60_000_000n, chainId: 30n, type: 0 });
    const wrongChain = await rpc(testnet, 'eth_sendRawTransaction', [signed]);
    expect(wrongChain.body.error?.code).toBe(-32602);
    expect(await call(testnet, 'eth_blockNumber')).toBe('0x1');
    expect(await call(mainnet, 'eth_blockNumber')).toBe('0x0');
    // The mainnet key's state is its own: the same transaction is valid there.
    const onMainnet = await call(mainnet, 'eth_sendRawTransaction', [signed]);
    expect((await call(mainnet, 'eth_getTransactionReceipt', [onMainnet])).status).toBe('0x1');
    expect(await call(testnet, 'eth_getTransactionReceipt', [onMainnet])).toBeNull();
  });
});
