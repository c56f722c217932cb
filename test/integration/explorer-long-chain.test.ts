/**
 * The explorer's address page on a chain of 100,000 blocks (issue 23: pages stay fast on such a
 * chain because an address's transactions and a contract's creator come from indexes, not a scan).
 * A contract is deployed at block 1 and receives transfers spread from block 2 to the head; its
 * address page in Chromium shows them newest first with their blocks and hashes, pages "Older" down
 * to its creation, and names its creator. "Fast" is shown without timing: the store counts what it
 * is asked for (StoreReads), and each page reads exactly as much on the 100,000-block chain as on a
 * 1,000-block chain holding the same transactions, at most a block and a receipt per row shown.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Wallet } from 'ethers';
import { launchChromium } from '../helpers/browser.js';
import { COW, startTestNode, type TestNode } from '../helpers/node.js';
import type { StoreReads } from '../../src/chain/storage/store.js';

const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
const LONG_CHAIN = 100_000;
const SHORT_CHAIN = 1_000;
/** Transfers to the contract: with its creation, 61 rows, so three pages of 25, 25 and 11. */
const TRANSFERS = 60;
/** explorer-address.js PAGE_SIZE. */
const PAGE_SIZE = 25;
/** Init code returning the one-byte runtime STOP: a contract that takes any call and value. */
const STOP_CONTRACT_INIT = '0x600060005360016000f3';
/** Building 100,000 blocks takes tens of seconds on a busy machine: a limit, not an assertion. */
const BUILD_TIMEOUT_MS = 600_000;

interface Mined {
  hash: string;
  block: number;
}

interface BuiltChain {
  t: TestNode;
  contract: string;
  creation: Mined;
  transfers: Mined[];
}

/**
 * A chain of `blocks` blocks: the contract's creation in block 1, then TRANSFERS transfers to it,
 * the first in block 2 and the last in the head block, with empty blocks (hardhat_mine) between.
 */
async function buildChain(blocks: number): Promise<BuiltChain> {
  const t = await startTestNode();
  const request = (method: string, params: unknown[]) => t.node.provider.request({ method, params });
  const wallet = new Wallet(COW.privateKey);
  let nonce = Number(await request('eth_getTransactionCount', [COW.address, 'latest']));
  const send = async (tx: { to?: string; data?: string; value?: bigint; gasLimit: bigint }): Promise<Mined> => {
    const gasPrice = BigInt((await request('eth_gasPrice', [])) as string);
    const raw = await wallet.signTransaction({ type: 0, chainId: 31, nonce: nonce++, gasPrice, ...tx });
    const hash = (await request('eth_sendRawTransaction', [raw])) as string;
    const receipt = (await request('eth_getTransactionReceipt', [hash])) as { blockNumber: string; status: string; contractAddress: string | null };
    expect(receipt.status).toBe('0x1');
    return { hash, block: Number(receipt.blockNumber) };
  };
  const creation = await send({ data: STOP_CONTRACT_INIT, gasLimit: 100_000n });
  const contract = ((await request('eth_getTransactionReceipt', [creation.hash])) as { contractAddress: string }).contractAddress;
  const transfers: Mined[] = [];
  for (let i = 0; i < TRANSFERS; i++) {
    const target = 2 + Math.floor((i * (blocks - 2)) / (TRANSFERS - 1));
    const head = Number(await request('eth_blockNumber', []));
    if (target - head > 1) await request('hardhat_mine', [`0x${(target - head - 1).toString(16)}`]);
    transfers.push(await send({ to: contract, value: BigInt(i + 1), gasLimit: 30_000n }));
  }
  expect(creation.block).toBe(1);
  expect(transfers[0]!.block).toBe(2);
  expect(transfers.at(-1)!.block).toBe(blocks);
  return { t, contract, creation, transfers };
}

let browser: Browser;
let page: Page;
let long: BuiltChain;
let short: BuiltChain;

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  short = await buildChain(SHORT_CHAIN);
  long = await buildChain(LONG_CHAIN);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await short?.t.close();
  await long?.t.close();
});

const rows = () => page.locator('#address-txs tbody tr');

/** The shown page's rows as [tx href, block number text]. */
async function shownRows(): Promise<Array<[string | null, string]>> {
  return rows().evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('td:nth-child(1) a')!.getAttribute('href'), tr.querySelector('td:nth-child(2)')!.textContent ?? '']),
  );
}

const expected = (mined: Mined[]) => mined.map(({ hash, block }): [string, string] => [`/explorer/tx/${hash}`, String(block)]);

/** What the store read while `load` ran (the page's own requests: nothing else runs on these idle nodes). */
async function readsDuring(chain: BuiltChain, load: () => Promise<void>): Promise<StoreReads> {
  const reads = chain.t.node.chains.testnet.storeReads;
  const before = { ...reads };
  await load();
  return { blocks: reads.blocks - before.blocks, receipts: reads.receipts - before.receipts, indexEntries: reads.indexEntries - before.indexEntries };
}

/** Opens the contract's address page (first page) and follows "Older" `older` times, waiting for `rowCount` rows. */
function openPage(chain: BuiltChain, older: number, rowCount: number) {
  return async () => {
    await page.goto(`${chain.t.baseUrl}/explorer/address/${chain.contract}`);
    await expect.poll(() => rows().count()).toBe(PAGE_SIZE);
    for (let i = 0; i < older; i++) {
      const first = await rows().first().locator('td:first-child a').getAttribute('href');
      await page.locator('#older').click();
      await expect.poll(() => rows().first().locator('td:first-child a').getAttribute('href')).not.toBe(first);
    }
    await expect.poll(() => rows().count()).toBe(rowCount);
  };
}

describe(`the address page on a chain of ${LONG_CHAIN} blocks`, () => {
  it('shows the newest transactions first with their blocks and hashes, and the contract\'s creator', async () => {
    await openPage(long, 0, PAGE_SIZE)();
    expect(await shownRows()).toEqual(expected(long.transfers.slice(-PAGE_SIZE).reverse()));
    expect(await page.locator('#address-code-size').textContent()).toBe('1 bytes');
    const creator = page.locator('#address-creator a');
    expect(await creator.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      `/explorer/address/${COW.address}`,
      `/explorer/tx/${long.creation.hash}`,
    ]);
    await page.screenshot({ path: `${OUTPUT_DIR}explorer-long-chain-address.png`, fullPage: true });
  });

  it('pages "Older" down to the oldest: the transfer in block 2 and the creation in block 1', async () => {
    await openPage(long, 1, PAGE_SIZE)();
    expect(await shownRows()).toEqual(expected(long.transfers.slice(-2 * PAGE_SIZE, -PAGE_SIZE).reverse()));
    await page.locator('#older').click();
    await expect.poll(() => rows().count()).toBe(TRANSFERS + 1 - 2 * PAGE_SIZE);
    expect(await shownRows()).toEqual(expected([long.creation, ...long.transfers.slice(0, TRANSFERS - 2 * PAGE_SIZE)].reverse()));
    expect(await page.locator('#older').count()).toBe(0);
    await page.screenshot({ path: `${OUTPUT_DIR}explorer-long-chain-address-oldest.png`, fullPage: true });
  });

  it('reads as much as on a 1,000-block chain: a block per row shown, index entries for a page, nothing per block of the chain', async () => {
    const pages: Array<[string, number, number]> = [
      ['newest', 0, PAGE_SIZE],
      ['older', 1, PAGE_SIZE],
      ['oldest', 2, TRANSFERS + 1 - 2 * PAGE_SIZE],
    ];
    for (const [name, older, rowCount] of pages) {
      const onShort = await readsDuring(short, openPage(short, older, rowCount));
      const onLong = await readsDuring(long, openPage(long, older, rowCount));
      expect(onLong, name).toEqual(onShort);
      // Every page on the way loads once: a block per row shown (receipts come from the RPC layer's
      // JSON cache or the store, at most one per row), and index entries for the rows plus, per
      // page, the creator's record, one entry looked ahead and the firstPage check.
      const shown = PAGE_SIZE * older + rowCount;
      expect(onLong.blocks, name).toBe(shown);
      expect(onLong.receipts, name).toBeLessThanOrEqual(shown);
      expect(onLong.indexEntries, name).toBeLessThanOrEqual(shown + 3 * (older + 1));
    }
  });
});
