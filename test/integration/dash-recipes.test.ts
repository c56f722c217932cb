/**
 * The key page's recipes and usage by method in Chromium (issue 23): the ethers and viem recipes
 * carry the key's URL and chain id and work as written (run here against the node), as do the
 * web3.js one and the Foundry one's cast lines; the Hardhat entry names the URL and chain id; the /v2 form switches every recipe, Copy puts the recipe on the clipboard;
 * after real calls through the key the page shows them per day and by method, as the API counts
 * them. The page fits 360 and 390 px phones. Screenshots go to test-output/.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPublicClient, http } from 'viem';
import * as viemChains from 'viem/chains';
import { Web3 } from 'web3';
import { TEST_OUTPUT_DIR as OUTPUT_DIR } from '../helpers/browser.js';
import { dashboardPageForTests, signUpAndOpenNewKey } from '../helpers/dashboard-page.js';
import { measurePageWidth } from '../helpers/layout.js';
import type { TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const EMAIL = 'recipes@example.com';
const PASSWORD = 'correct horse battery staple';
const run = promisify(execFile);

let t: TestNode;
let page: Page;
let pageErrors: string[];

dashboardPageForTests((node) => ({ t, page, pageErrors } = node));

const recipe = (id: string) => page.locator(`#recipe-${id}`).textContent().then((text) => text ?? '');

/** The ethers recipe's URL and chain id, as a user would read them off the page. */
function ethersArgs(code: string): { url: string; chainId: number } {
  const match = /new JsonRpcProvider\('([^']+)', (\d+), \{ staticNetwork: true \}\)/.exec(code);
  if (match === null) throw new Error(`no JsonRpcProvider call in the ethers recipe:\n${code}`);
  return { url: match[1]!, chainId: Number(match[2]) };
}

/** The viem recipe's chain (by its name in viem/chains) and transport URL. */
function viemArgs(code: string): { chain: string; url: string } {
  const chain = /import \{ (\w+) \} from 'viem\/chains';/.exec(code);
  const url = /transport: http\('([^']+)'\)/.exec(code);
  if (chain === null || url === null) throw new Error(`no chain import or transport in the viem recipe:\n${code}`);
  return { chain: chain[1]!, url: url[1]! };
}

describe('recipes and usage by method on the key page', () => {
  let keyUrl: string;
  let v2Url: string;

  it('shows recipes with the key URL and chain id; the ethers, viem, web3.js and cast ones run as written', async () => {
    await signUpAndOpenNewKey(page, t.baseUrl, { email: EMAIL, password: PASSWORD }, 'shop');
    keyUrl = await page.locator('#key-url').inputValue();
    v2Url = await page.locator('#key-v2-url').inputValue();
    expect(await page.locator('#recipes-card').isVisible()).toBe(true);
    expect(await page.locator('#recipes article h3').allTextContents()).toEqual(['ethers v6', 'viem', 'web3.js', 'Hardhat network', 'Foundry (cast, forge)']);

    const ethers = ethersArgs(await recipe('ethers'));
    expect(ethers).toEqual({ url: keyUrl, chainId: 31 });
    const provider = uncachedProvider(ethers.url, ethers.chainId, { staticNetwork: true });
    expect(await provider.getBlockNumber()).toBe(0);
    expect((await provider.send('eth_chainId', [])) as string).toBe('0x1f');
    provider.destroy();

    const viem = viemArgs(await recipe('viem'));
    expect(viem).toEqual({ chain: 'rootstockTestnet', url: keyUrl });
    const chain = (viemChains as unknown as Record<string, viemChains.Chain>)[viem.chain]!;
    expect(chain.id).toBe(31);
    const client = createPublicClient({ chain, transport: http(viem.url) });
    expect(await client.getBlockNumber()).toBe(0n);

    const web3Code = await recipe('web3');
    expect(web3Code).toContain(`new Web3('${keyUrl}'); // chain id 31`);
    const web3 = new Web3(/new Web3\('([^']+)'\)/.exec(web3Code)![1]!);
    expect(await web3.eth.getBlockNumber()).toBe(0n);
    expect(await web3.eth.getChainId()).toBe(31n);
    const hardhat = await recipe('hardhat');
    expect(hardhat).toContain(`url: '${keyUrl}',`);
    expect(hardhat).toContain('chainId: 31,');
    expect(hardhat).toContain('accounts: process.env.DEPLOYER_KEY ? [process.env.DEPLOYER_KEY] : [],');
    const foundry = await recipe('foundry');
    expect(foundry).toContain(`export RSK_RPC_URL=${keyUrl}\n`);
    expect(foundry).toContain('forge create src/Counter.sol:Counter --legacy --broadcast --rpc-url "$RSK_RPC_URL"');
    expect(foundry).toContain('cast send <address> "increment()" --legacy --rpc-url "$RSK_RPC_URL"');
    // The recipe's read-only lines run as written in a shell, with Foundry's cast (a dev dependency).
    const readOnly = foundry.split('\n').slice(0, 3).join('\n');
    const { stdout } = await run('bash', ['-c', readOnly], { env: { ...process.env, PATH: `${resolve('node_modules/.bin')}:${process.env.PATH}` } });
    expect(stdout).toBe('31\n0\n');
    await page.screenshot({ path: `${OUTPUT_DIR}key-recipes.png`, fullPage: true });
  });

  it('switches every recipe to the /v2 address, and copies a recipe whole', async () => {
    await page.locator('#recipe-address').selectOption('v2');
    expect(ethersArgs(await recipe('ethers'))).toEqual({ url: v2Url, chainId: 31 });
    expect(viemArgs(await recipe('viem')).url).toBe(v2Url);
    expect(await recipe('foundry')).toContain(`export RSK_RPC_URL=${v2Url}\n`);
    const v2Provider = uncachedProvider(ethersArgs(await recipe('ethers')).url, 31, { staticNetwork: true });
    expect(await v2Provider.getBlockNumber()).toBe(0);
    v2Provider.destroy();

    await page.getByRole('button', { name: 'Copy the viem recipe' }).click();
    await expect.poll(() => page.locator('#recipe-status').textContent()).toBe('viem recipe copied to the clipboard.');
    const copied = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(copied).toBe(await recipe('viem'));
    await page.locator('#recipe-address').selectOption('url');
    expect(ethersArgs(await recipe('ethers')).url).toBe(keyUrl);
  });

  it('shows the calls made through the key per day and by method, as the API counts them', async () => {
    for (let i = 0; i < 3; i++) {
      await fetch(keyUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'net_version', params: [] }) });
    }
    await page.reload();
    await expect.poll(() => page.locator('#methods-body tr').count()).toBe(3);
    // eth_blockNumber: ethers, viem, web3.js, cast, ethers at /v2; eth_chainId: ethers, web3.js, cast; then 3 net_version.
    const rows = await Promise.all((await page.locator('#methods-body tr').all()).map((tr) => tr.locator('td').allTextContents()));
    expect(rows).toEqual([
      ['eth_blockNumber', '5', '5'],
      ['eth_chainId', '3', '3'],
      ['net_version', '3', '3'],
    ]);
    expect(await page.locator('#key-usage-chart figcaption').textContent()).toBe('11 requests in the last 30 days.');
    expect(await page.locator('#key-usage-chart rect.bar.today title').textContent()).toMatch(/^\d{4}-\d\d-\d\d: 11 requests$/);
    expect(await page.locator('#no-methods').isVisible()).toBe(false);
    await page.screenshot({ path: `${OUTPUT_DIR}key-usage-by-method.png`, fullPage: true });
  });

  for (const width of [360, 390]) {
    it(`fits a ${width} px phone with the recipes and the usage shown`, async () => {
      await page.setViewportSize({ width, height: 780 });
      await page.reload();
      await expect.poll(() => page.locator('#methods-body tr').count()).toBe(3);
      const measured = await measurePageWidth(page);
      expect(measured.offScreen).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(measured.clientWidth);
      await page.screenshot({ path: `${OUTPUT_DIR}phone-${width}-key-recipes-usage.png`, fullPage: true });
      expect(pageErrors).toEqual([]);
    });
  }
});
