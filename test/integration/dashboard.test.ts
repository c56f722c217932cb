/**
 * The dashboard in a real browser: playwright-core driving Debian's chromium when it is installed,
 * else the Chromium that the npm package @sparticuz/chromium ships (test/helpers/browser.ts; nothing
 * is downloaded at test time). Signs up, logs in, fills the key quota and sees the
 * fifth key refused, copies a key's URL and uses it with ethers, sees the usage count rise,
 * revokes the key and sees it refused, all without an error in the browser console. Then every page
 * again on a phone (390 px, and 360 px, the narrowest the dashboard is made for): nothing wider than
 * the screen, the header with a long address and "Log out" on screen, key names whole, chart text
 * readable. Screenshots go to test-output/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { JsonRpcProvider } from 'ethers';
import { launchChromium } from '../helpers/browser.js';
import { fullyOnScreen, lineCounts, measurePageWidth, overlap, shownTexts } from '../helpers/layout.js';
import { rpc, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
const DAILY_LIMIT = 50;
/** An ordinary address, long enough to have overflowed the header on a phone. */
const EMAIL = 'alexandra.richardson-whitfield@engineering.example.com';
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

/** A common phone's CSS width, and the narrowest screen the dashboard is made for. */
const PHONE = { width: 390, height: 844 };
const NARROWEST = { width: 360, height: 740 };
/** Between the phone layout (up to 640 px) and a desktop: the keys stay a table. */
const TABLET = { width: 768, height: 1024 };
/** A key name with no space in it, wider than a phone screen. */
const LONG_NAME = 'stagingEnvironmentIndexerForPaymentsBackendAndMobileWallet2026';
/** Text drawn smaller than this is hard to read on a phone. */
const MIN_LABEL_PX = 10;

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
      ['charlie payments backend', 'testnet', 'reads testnet blocks for the staging shop'],
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

    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    testnetKeyUrl = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(testnetKeyUrl).toBe(shown);
    await page.screenshot({ path: `${OUTPUT_DIR}dashboard-key.png`, fullPage: true });

    provider = uncachedProvider(testnetKeyUrl);
    expect((await provider.getNetwork()).chainId).toBe(31n);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
  });

  it('a mainnet key answers with chain id 30', async () => {
    await page.getByRole('link', { name: 'All keys' }).click();
    await page.waitForURL('**/dashboard/keys');
    await page.getByRole('link', { name: 'bravo' }).click();
    await expect.poll(() => page.locator('#key-chain-id').textContent()).toBe('30 (0x1e)');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    const mainnetUrl = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    const mainnet = uncachedProvider(mainnetUrl);
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

  it('on a desktop screen the header is one row and the keys a table', async () => {
    const width = await measurePageWidth(page);
    expect(width.offScreen).toEqual([]);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
    const brand = await page.locator('.brand').boundingBox();
    const logout = await page.getByRole('button', { name: 'Log out' }).boundingBox();
    expect(logout!.y).toBeLessThan(brand!.y + brand!.height);
    expect(await page.locator('#keys-table').evaluate((table) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(table).display)).toBe('table');
    expect(await page.locator('#keys-table th').first().isVisible()).toBe(true);
    for (const label of await shownTexts(page.locator('#usage-chart'))) expect(label.fontPx, label.text).toBeGreaterThanOrEqual(MIN_LABEL_PX);
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

describe('dashboard on a phone', () => {
  let phone: BrowserContext;
  let p: Page;
  const phoneErrors: string[] = [];
  const phoneFailedLoads: string[] = [];

  beforeAll(async () => {
    phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    p = await phone.newPage();
    p.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (message.text().startsWith('Failed to load resource:')) phoneFailedLoads.push(`${message.text()} (${message.location().url})`);
      else phoneErrors.push(message.text());
    });
    p.on('pageerror', (error) => phoneErrors.push(String(error)));
  });

  afterAll(async () => {
    await phone?.close();
  });

  /** The page is no wider than the screen and nothing sticks out past its edges. */
  async function expectFits(what: string) {
    const width = await measurePageWidth(p);
    expect(width.viewportWidth, what).toBe(p.viewportSize()!.width);
    expect(width.offScreen, what).toEqual([]);
    expect(width.scrollWidth, what).toBeLessThanOrEqual(width.clientWidth);
  }

  const screenshot = (name: string) => p.screenshot({ path: `${OUTPUT_DIR}phone-${p.viewportSize()!.width}-${name}.png`, fullPage: true });

  async function openKeysPage(keys = 4) {
    await p.goto(`${t.baseUrl}/dashboard/keys`);
    await expect.poll(() => p.locator('#user-email').textContent()).toBe(EMAIL);
    await expect.poll(() => p.locator('#keys-body tr').count()).toBe(keys);
    await expect.poll(() => p.locator('#usage-chart rect.bar').count()).toBe(30);
  }

  async function openKeyPage(name: string, keys = 4) {
    await openKeysPage(keys);
    await p.getByRole('link', { name }).tap();
    await expect.poll(() => p.locator('#key-name').textContent()).toBe(name);
  }

  async function checkSignedOutPages() {
    for (const [name, path, button] of [['login', 'login', 'Log in'], ['signup', 'signup', 'Sign up'], ['not-found', 'no-such-page', '']] as const) {
      await p.goto(`${t.baseUrl}/dashboard/${path}`);
      await screenshot(name);
      await expectFits(name);
      if (button !== '') {
        expect(await fullyOnScreen(p, p.getByRole('button', { name: button })), name).toBe(true);
        expect(await fullyOnScreen(p, p.getByLabel('Password')), name).toBe(true);
      }
    }
  }

  /** The key list in its phone layout (cards) or, from 641 px, as a table. */
  async function checkKeysPage(layout: 'cards' | 'table' = 'cards') {
    await openKeysPage();
    await screenshot('keys');
    await expectFits('keys page');
    // The header wraps: the whole email shows, and Log out is on the screen.
    expect(await fullyOnScreen(p, p.getByRole('button', { name: 'Log out' }))).toBe(true);
    const email = p.locator('#user-email');
    expect(await fullyOnScreen(p, email)).toBe(true);
    expect(await email.evaluate((e) => { const box = e as unknown as { scrollWidth: number; clientWidth: number }; return box.scrollWidth <= box.clientWidth; })).toBe(true);
    // Key names read across the row, not one word a line; every row shows all it holds.
    const names = await lineCounts(p.locator('#keys-body td.key-name a'));
    expect(names.map((n) => n.text)).toEqual(['alpha', 'bravo', 'charlie payments backend', '<b>delta</b>']);
    // A table column may wrap a name, but never to one word a line.
    for (const name of names) expect(name.lines, name.text).toBeLessThanOrEqual(layout === 'cards' ? 1 : Math.max(1, name.words - 1));
    const rows = p.locator('#keys-body tr');
    for (let i = 0; i < 4; i++) {
      const row = rows.nth(i);
      for (let cell = 0; cell < 4; cell++) expect(await row.locator('td').nth(cell).isVisible(), `row ${i} cell ${cell}`).toBe(true);
      expect(await row.locator('td').nth(2).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    }
    // Laid out as cards or not, a screen reader still gets a table: a heading row and a row a key.
    expect(await p.getByRole('table').getByRole('row').count()).toBe(names.length + 1);
    expect(await p.getByRole('columnheader', { name: 'Created' }).count()).toBe(1);
    expect(await p.getByRole('row', { name: /charlie payments backend/ }).getByRole('cell').count()).toBe(5);
    for (const button of await p.locator('#keys-body button').all()) expect(await fullyOnScreen(p, button)).toBe(true);
    expect(await fullyOnScreen(p, p.getByRole('button', { name: 'Create key' }))).toBe(true);
    // The usage chart's text keeps a readable size and does not pile up.
    const texts = await shownTexts(p.locator('#usage-chart'));
    expect(texts.map((x) => x.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^busiest day: \d+$/), expect.stringMatching(/\(today\)$/)]));
    for (const x of texts) {
      expect(x.fontPx, x.text).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      expect(x.rect.left, x.text).toBeGreaterThanOrEqual(0);
      expect(x.rect.right, x.text).toBeLessThanOrEqual(p.viewportSize()!.width);
    }
    for (const [i, a] of texts.entries()) for (const b of texts.slice(i + 1)) expect(overlap(a.rect, b.rect), `${a.text} / ${b.text}`).toBe(false);
  }

  async function checkKeyPage() {
    await openKeyPage('charlie payments backend');
    await screenshot('key');
    await expectFits('key page');
    for (const control of [p.locator('#key-url'), p.getByRole('button', { name: 'Copy', exact: true }), p.getByRole('button', { name: 'Revoke key' })]) {
      expect(await fullyOnScreen(p, control)).toBe(true);
    }
  }

  it('the log-in, sign-up and not-found pages fit 390 px', async () => {
    await checkSignedOutPages();
  });

  it('logs in on the phone', async () => {
    await p.goto(`${t.baseUrl}/dashboard/login`);
    await p.getByLabel('Email').fill(EMAIL);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Log in' }).tap();
    await p.waitForURL('**/dashboard/keys');
  });

  it('at 390 px the header keeps the long email and Log out on screen, key names stay whole, chart text readable', async () => {
    await checkKeysPage();
  });

  it("at 390 px a key's page fits", async () => {
    await checkKeyPage();
  });

  it('at 768 px (a tablet) the keys page fits as a table', async () => {
    await p.setViewportSize(TABLET);
    await checkKeysPage('table');
    expect(await p.locator('#keys-table th').first().isVisible()).toBe(true);
  });

  it("at 360 px the keys page and a key's page fit too", async () => {
    await p.setViewportSize(NARROWEST);
    await checkKeysPage();
    await checkKeyPage();
  });

  it('at 360 px a long unbroken key name, and the new-key notice and refusal, fit', async () => {
    await openKeysPage();
    const form = p.locator('#new-key-form');
    await form.getByLabel('Name').fill(LONG_NAME);
    await form.getByLabel('Network').selectOption('mainnet');
    await form.getByRole('button', { name: 'Create key' }).tap();
    await expect.poll(() => p.locator('#keys-body tr').count()).toBe(5);
    await expect.poll(() => p.locator('#new-key-notice').textContent()).toContain(`Key "${LONG_NAME}" created`);
    await screenshot('keys-long-name');
    await expectFits('keys page with a long name and the notice');
    const long = (await lineCounts(p.locator('#keys-body td.key-name a'))).find((n) => n.text === LONG_NAME)!;
    // One word that is wider than the screen breaks where it must, and only there.
    expect(long.lines).toBeGreaterThan(1);
    expect(long.lines).toBeLessThanOrEqual(3);

    await form.getByLabel('Name').fill('one too many');
    await form.getByLabel('Network').selectOption('testnet');
    await form.getByRole('button', { name: 'Create key' }).tap();
    await expect.poll(() => p.locator('#new-key-error').textContent()).toMatch(/Key limit reached/);
    await expectFits('keys page with the key-limit refusal');

    await openKeyPage(LONG_NAME, 5);
    await screenshot('key-long-name');
    await expectFits('key page with a long name');
  });

  it('logs out at 360 px; the signed-out pages fit', async () => {
    await p.getByRole('button', { name: 'Log out' }).tap();
    await p.waitForURL('**/dashboard/login');
    await checkSignedOutPages();
  });

  it("nothing went wrong in the phone's browser console", () => {
    expect(phoneErrors).toEqual([]);
    // The not-found page's own 404 (once per width) and the refused fifth active key (409 by design).
    expect(phoneFailedLoads).toHaveLength(3);
    expect(phoneFailedLoads.filter((f) => /status of 404 \(Not Found\).*\/dashboard\/no-such-page/.test(f))).toHaveLength(2);
    expect(phoneFailedLoads.filter((f) => /status of 409 \(Conflict\).*\/api\/keys/.test(f))).toHaveLength(1);
  });
});
