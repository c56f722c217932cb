/**
 * The key page's alternative-provider options in Chromium (issue 23): the /v2 URL, editing the
 * allow lists (normalised entries shown back, a bad entry's error, the lists enforced on the RPC
 * path), registering a JWT key from its PEM (requests then need a token) and removing it. The page
 * with the options fits a 360 px phone. Screenshots go to test-output/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { TEST_OUTPUT_DIR as OUTPUT_DIR } from '../helpers/browser.js';
import { dashboardPageForTests, signUpAndOpenNewKey } from '../helpers/dashboard-page.js';
import { measurePageWidth } from '../helpers/layout.js';
import type { TestNode } from '../helpers/node.js';

const EMAIL = 'options@example.com';
const PASSWORD = 'correct horse battery staple';
const CONTRACT = '0xAbCdEf0000000000000000000000000000000001';

let t: TestNode;
let page: Page;
let pageErrors: string[];

// The API's refusals of bad entries are 400s, which Chromium logs as failed loads.
dashboardPageForTests((node) => ({ t, page, pageErrors } = node), (text) => text.startsWith('Failed to load resource:'));
beforeAll(() => {
  page.on('dialog', (dialog) => void dialog.accept());
});

async function rpcStatus(url: string, method: string, params: unknown[] = [], headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('key options in the dashboard', () => {
  let v2Url: string;

  it('shows the key with its /v2 URL, which copies and answers', async () => {
    await signUpAndOpenNewKey(page, t.baseUrl, { email: EMAIL, password: PASSWORD }, 'shop');
    const url = await page.locator('#key-url').inputValue();
    v2Url = await page.locator('#key-v2-url').inputValue();
    expect(v2Url).toBe(url.replace(t.baseUrl, `${t.baseUrl}/v2`));
    await page.getByRole('button', { name: 'Copy the /v2 URL' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(v2Url);
    expect((await rpcStatus(v2Url, 'eth_chainId')).body.result).toBe('0x1f');
    expect(await page.locator('#no-jwt-keys').isVisible()).toBe(true);
  });

  it('edits the allow lists: a bad entry is explained, saved lists come back normalised and are enforced', async () => {
    const form = page.locator('#allowlist-form');
    await form.getByLabel('Allowed origins').fill('example.com');
    await form.getByRole('button', { name: 'Save allow lists' }).click();
    await expect.poll(() => page.locator('#allowlist-error').textContent()).toContain('origins: "example.com" is not an origin');

    await form.getByLabel('Allowed origins').fill('');
    await form.getByLabel('Allowed IP ranges').fill('127.0.0.0/8\n::FFFF:10.0.0.7');
    await form.getByLabel('Allowed contracts').fill(CONTRACT);
    await form.getByLabel('Allowed methods').fill('eth_chainId\n\neth_call\n');
    await form.getByRole('button', { name: 'Save allow lists' }).click();
    await expect.poll(() => page.locator('#allowlist-notice').textContent()).toContain('Allow lists saved');
    expect(await page.locator('#allowlist-error').isVisible()).toBe(false);
    expect(await form.getByLabel('Allowed IP ranges').inputValue()).toBe('127.0.0.0/8\n10.0.0.7');
    expect(await form.getByLabel('Allowed contracts').inputValue()).toBe(CONTRACT.toLowerCase());
    expect(await form.getByLabel('Allowed methods').inputValue()).toBe('eth_chainId\neth_call');
    await page.screenshot({ path: `${OUTPUT_DIR}alt-provider-allowlists.png`, fullPage: true });

    expect((await rpcStatus(v2Url, 'eth_chainId')).status).toBe(200);
    const refused = await rpcStatus(v2Url, 'eth_blockNumber');
    expect(refused.status).toBe(403);
    expect(refused.body.error.data).toEqual({ rule: 'methods' });
    expect((await rpcStatus(v2Url, 'eth_call', [{ to: '0x2000000000000000000000000000000000000002' }, 'latest'])).body.error.data).toEqual({ rule: 'contracts' });

    // Emptying every list lifts them.
    for (const label of ['Allowed IP ranges', 'Allowed contracts', 'Allowed methods']) await form.getByLabel(label).fill('');
    await form.getByRole('button', { name: 'Save allow lists' }).click();
    await expect.poll(async () => (await rpcStatus(v2Url, 'eth_blockNumber')).status).toBe(200);
  });

  it('registers a JWT key from its PEM, after which requests need a token, and removes it', async () => {
    const pair = await generateKeyPair('RS256');
    const form = page.locator('#jwt-form');
    await form.getByLabel('Name').fill('backend');
    await form.getByLabel('Algorithm').selectOption('ES256');
    await form.getByLabel('Public key').fill(await exportSPKI(pair.publicKey));
    await form.getByRole('button', { name: 'Add JWT key' }).click();
    await expect.poll(() => page.locator('#jwt-error').textContent()).toContain('is not a ES256 public key');

    await form.getByLabel('Algorithm').selectOption('RS256');
    await form.getByRole('button', { name: 'Add JWT key' }).click();
    await expect.poll(() => page.locator('#jwt-keys li').count()).toBe(1);
    expect(await page.locator('#jwt-keys li').textContent()).toMatch(/^backend RS256 · added \d{4}-\d\d-\d\d \d\d:\d\d UTCRemove$/);
    expect(await page.locator('#no-jwt-keys').isVisible()).toBe(false);
    await page.screenshot({ path: `${OUTPUT_DIR}alt-provider-jwt-key.png`, fullPage: true });

    expect((await rpcStatus(v2Url, 'eth_chainId')).body.error.data).toEqual({ rule: 'jwt', reason: 'missing' });
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuedAt().setExpirationTime('10m').sign(pair.privateKey);
    expect((await rpcStatus(v2Url, 'eth_chainId', [], { authorization: `Bearer ${jwt}` })).body.result).toBe('0x1f');

    await page.getByRole('button', { name: 'Remove backend' }).click();
    await expect.poll(() => page.locator('#jwt-keys li').count()).toBe(0);
    expect((await rpcStatus(v2Url, 'eth_chainId')).body.result).toBe('0x1f');
  });

  it('fits a 360 px phone with the options shown', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await expect.poll(() => page.locator('#key-name').textContent()).toBe('shop');
    const width = await measurePageWidth(page);
    expect(width.offScreen).toEqual([]);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
    await page.screenshot({ path: `${OUTPUT_DIR}phone-360-alt-provider-options.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
