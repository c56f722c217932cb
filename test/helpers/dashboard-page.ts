/**
 * The dashboard as a user drives it in Chromium (playwright-core), for the browser tests that start
 * on a new key's page: the page set up around a file's tests, and signing up to a new key's page.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import { chromiumAndNodeForTests, recordPageErrors, type ChromiumNode } from './browser.js';

/** Signs up `email`, logs in through the form, creates a testnet key named `keyName` and opens its page. */
export async function signUpAndOpenNewKey(page: Page, baseUrl: string, user: { email: string; password: string }, keyName: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/signup`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/dashboard/login?created=1');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/dashboard/keys');
  const form = page.locator('#new-key-form');
  await form.getByLabel('Name').fill(keyName);
  await form.getByLabel('Network').selectOption('testnet');
  await form.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('link', { name: keyName }).click();
  await expect.poll(() => page.locator('#key-name').textContent()).toBe(keyName);
}

/** A browser test's node and Chromium with a dashboard page open, and that page's errors so far. */
export interface DashboardPageNode extends ChromiumNode {
  page: Page;
  pageErrors: string[];
}

/**
 * chromiumAndNodeForTests, then a 1100×900 page that may use the clipboard on the node's origin (the
 * Copy buttons), its errors recorded into pageErrors (`expectedConsoleError` as in recordPageErrors).
 */
export function dashboardPageForTests(use: (node: DashboardPageNode) => void, expectedConsoleError?: (text: string) => boolean): void {
  let chromiumNode: ChromiumNode | undefined;
  chromiumAndNodeForTests((node) => (chromiumNode = node));
  beforeAll(async () => {
    const { t, browser } = chromiumNode!;
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    recordPageErrors(page, pageErrors, expectedConsoleError);
    use({ t, browser, page, pageErrors });
  });
}
