/**
 * The dashboard in a real browser: playwright-core driving Debian's chromium when it is installed,
 * else the Chromium that the npm package @sparticuz/chromium ships (test/helpers/browser.ts; nothing
 * is downloaded at test time). Signs up, logs in, fills the key quota and sees the
 * fifth key refused, copies a key's URL and uses it with ethers, sees the usage count rise,
 * revokes the key and sees it refused, all without an error in the browser console.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { JsonRpcProvider } from 'ethers';
import { launchChromium } from '../helpers/browser.js';
import { rpc, startTestNode, type TestNode } from '../helpers/node.js';

const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
const DAILY_LIMIT = 50;
const EMAIL = 'dev@example.com';
const PASSWORD = 'correct horse battery staple';

let t: TestNode;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const pageErrors: string[] = [];
/** The API answers the fifth key with HTTP 409 by design; chromium logs any 4xx fetch as a console error. */
const resourceErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  // First, so that a first run's unpacking of the npm browser finishes before the node starts.
  browser = await launchChromium();
  t = await startTestNode({ dailyLimit: DAILY_LIMIT });
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (text.startsWith('Failed to load resource:')) resourceErrors.push(`${text} (${message.location().url})`);
    else consoleErrors.push(text);
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  // The revoke buttons ask for confirmation.
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const usedToday = async () => Number((await page.locator('#usage-used').textContent())?.replace(/,/g, ''));

async function createKey(name: string, network: 'testnet' | 'mainnet', description = '') {
  const form = page.locator('#new-key-form');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Network').selectOption(network);
  await form.getByLabel('Description').fill(description);
  await form.getByRole('button', { name: 'Create key' }).click();
}

describe('dashboard in chromium', () => {
  it('signs up and logs in', async () => {
    await page.goto(`${t.baseUrl}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');

    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/dashboard/signup');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL('**/dashboard/login?created=1');
    await expect.poll(() => page.locator('.notice').textContent()).toContain('Account created');

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/dashboard/keys');
    await expect.poll(() => page.locator('#user-email').textContent()).toBe(EMAIL);
    expect(await page.locator('#no-keys').isVisible()).toBe(true);
  });

  it('creates keys up to the limit and shows the refusal of the fifth', async () => {
    const keys = [
      ['alpha', 'testnet', 'the first key'],
      ['bravo', 'mainnet', ''],
      ['charlie', 'testnet', ''],
      ['<b>delta</b>', 'mainnet', '<img src=x onerror=alert(1)>'],
    ] as const;
    for (const [i, [name, network, description]] of keys.entries()) {
      await createKey(name, network, description);
      await expect.poll(() => page.locator('#keys-body tr').count()).toBe(i + 1);
      expect(await page.locator('#new-key-notice').textContent()).toContain(`Key "${name}" created`);
      expect(await page.locator('#new-key-error').isVisible()).toBe(false);
    }
    // Names and descriptions are text, never markup.
    const last = page.locator('#keys-body tr').nth(3);
    expect(await last.locator('td.key-name a').textContent()).toBe('<b>delta</b>');
    expect(await last.locator('img').count()).toBe(0);
    expect(await last.locator('td').nth(1).textContent()).toBe('Mainnet');
    expect(await last.locator('td').nth(3).textContent()).toBe('Active');
    expect(await page.locator('#key-count').textContent()).toBe('4 of 4 active keys');

    await createKey('echo', 'testnet');
    const error = page.locator('#new-key-error');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.textContent()).toMatch(/Key limit reached: a user may hold at most 4 keys/);
    expect(await page.locator('#keys-body tr').count()).toBe(4);
    expect(resourceErrors).toHaveLength(1);
    expect(resourceErrors[0]).toMatch(/status of 409 \(Conflict\).*\/api\/keys/);
  });

  let testnetKeyUrl: string;
  let provider: JsonRpcProvider;

  it('shows a key with its URL, copies it, and the URL works with ethers', async () => {
    expect(await usedToday()).toBe(0);
    await page.getByRole('link', { name: 'alpha' }).click();
    await page.waitForURL(/\/dashboard\/keys\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator('#key-name').textContent()).toBe('alpha');
    expect(await page.locator('#key-network').textContent()).toBe('Testnet');
    expect(await page.locator('#key-chain-id').textContent()).toBe('31 (0x1f)');
    expect(await page.locator('#key-status').textContent()).toBe('Active');
    expect(await page.locator('#key-description').textContent()).toBe('the first key');
    const shown = await page.locator('#key-url').inputValue();
    expect(shown).toMatch(new RegExp(`^${t.baseUrl}/[0-9a-f]{32}$`));
    expect(await page.locator('#key-url').getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    testnetKeyUrl = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(testnetKeyUrl).toBe(shown);
    await page.screenshot({ path: `${OUTPUT_DIR}dashboard-key.png`, fullPage: true });

    provider = new JsonRpcProvider(testnetKeyUrl);
    expect((await provider.getNetwork()).chainId).toBe(31n);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
  });

  it('a mainnet key answers with chain id 30', async () => {
    await page.getByRole('link', { name: 'All keys' }).click();
    await page.waitForURL('**/dashboard/keys');
    await page.getByRole('link', { name: 'bravo' }).click();
    await expect.poll(() => page.locator('#key-chain-id').textContent()).toBe('30 (0x1e)');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    const mainnetUrl = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    const mainnet = new JsonRpcProvider(mainnetUrl);
    try {
      expect((await mainnet.getNetwork()).chainId).toBe(30n);
      expect(await mainnet.getBlockNumber()).toBeGreaterThanOrEqual(0);
    } finally {
      mainnet.destroy();
    }
  });

  it('the usage count rises on the keys page', async () => {
    await page.goto(`${t.baseUrl}/dashboard/keys`);
    await expect.poll(usedToday).toBeGreaterThan(0);
    const before = await usedToday();
    expect(await page.locator('#usage-meter').evaluate((m) => (m as unknown as { value: number }).value)).toBe(before);
    expect(await page.locator('#usage-limit').textContent()).toBe(String(DAILY_LIMIT));
    expect(await page.locator('#usage-remaining').textContent()).toBe(String(DAILY_LIMIT - before));
    // Today's bar of the 30-day chart holds the same count.
    expect(await page.locator('#usage-chart rect.bar').count()).toBe(30);
    expect(await page.locator('#usage-chart rect.bar.today title').textContent()).toMatch(new RegExp(`: ${before} requests$`));

    expect((await rpc(testnetKeyUrl, 'eth_chainId')).status).toBe(200);
    expect((await rpc(testnetKeyUrl, 'eth_blockNumber')).status).toBe(200);
    await page.reload();
    await expect.poll(usedToday).toBe(before + 2);
    await page.screenshot({ path: `${OUTPUT_DIR}dashboard-keys.png`, fullPage: true });
  });

  it('revokes the key and ethers is refused with HTTP 401', async () => {
    await page.getByRole('link', { name: 'alpha' }).click();
    await expect.poll(() => page.locator('#key-status').textContent()).toBe('Active');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.locator('#key-status').textContent()).toBe('Revoked');
    expect(await page.getByRole('button', { name: 'Revoke key' }).isVisible()).toBe(false);
    expect(await page.locator('#key-revoked').isVisible()).toBe(true);

    try {
      const refused = await provider.getBlockNumber().then(
        () => undefined,
        (err: unknown) => err as { code?: string; info?: { responseStatus?: string; responseBody?: string } },
      );
      expect(refused?.code).toBe('SERVER_ERROR');
      expect(refused?.info?.responseStatus).toMatch(/^401\b/);
      expect(JSON.parse(refused?.info?.responseBody ?? '{}').error.message).toMatch(/revoked/);
    } finally {
      provider.destroy();
    }

    await page.getByRole('link', { name: 'All keys' }).click();
    await page.waitForURL('**/dashboard/keys');
    const row = page.locator('#keys-body tr', { hasText: 'alpha' });
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('Revoked');
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await page.locator('#key-count').textContent()).toBe('3 of 4 active keys');
  });

  it('logs out', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/dashboard/login');
    await page.goto(`${t.baseUrl}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
  });

  it('nothing went wrong in the browser console', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // Only the fifth key's refusal (HTTP 409 by design) failed a request.
    expect(resourceErrors).toHaveLength(1);
  });
});
