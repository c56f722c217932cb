/**
 * The state file flags through the real CLI: --dump-state at close (and every --state-interval),
 * --load-state at start with both networks' blocks, receipts and logs compared and a block mined
 * on top, an anvil file brought over, and a bad file refused at start with the data untouched.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../helpers/cli.js';
import { call, waitFor } from '../helpers/node.js';
import { chainAnswers, makeHistory, minesOnTop } from '../helpers/state-history.js';

const KEYS = ['--api-key', 'state-testnet', '--api-key', 'state-mainnet:mainnet'];
let dir: string;
const running: CliProcess[] = [];

async function cli(args: string[]): Promise<{ process: CliProcess; testnet: string; mainnet: string }> {
  const process = runCli(['--port', '0', '--quiet', ...KEYS, ...args]);
  running.push(process);
  await process.started;
  return { process, testnet: `${process.baseUrl()}/state-testnet`, mainnet: `${process.baseUrl()}/state-mainnet` };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'rsk-state-'));
  return dir;
}

describe('--dump-state / --load-state', () => {
  it('round-trips both networks\' blocks, receipts and logs, and each mines on top', async () => {
    const file = join(await tempDir(), 'state.json.gz');
    const a = await cli(['--in-memory', '--dump-state', file]);
    const testnetToken = await makeHistory(a.testnet, 31, 3);
    const mainnetToken = await makeHistory(a.mainnet, 30, 1);
    const before = { testnet: await chainAnswers(a.testnet, testnetToken), mainnet: await chainAnswers(a.mainnet, mainnetToken) };
    expect(await a.process.stop()).toBe(0);
    expect(a.process.stderr()).toBe('');

    const written = JSON.parse(gunzipSync(await readFile(file)).toString('utf8'));
    expect(written.networks.map((n: { network: string; chainId: number }) => [n.network, n.chainId])).toEqual([
      ['testnet', 31],
      ['mainnet', 30],
    ]);

    const b = await cli(['--in-memory', '--load-state', file]);
    expect(await chainAnswers(b.testnet, testnetToken)).toEqual(before.testnet);
    expect(await chainAnswers(b.mainnet, mainnetToken)).toEqual(before.mainnet);
    await minesOnTop(b.testnet, 31, testnetToken, before.testnet.blocks[before.testnet.head]);
    await minesOnTop(b.mainnet, 30, mainnetToken, before.mainnet.blocks[before.mainnet.head]);
  });

  it('loads into a data directory over its chain, and the loaded chain is what a restart finds', async () => {
    const root = await tempDir();
    const file = join(root, 'state.json.gz');
    const dataDir = join(root, 'data');
    const a = await cli(['--in-memory', '--dump-state', file]);
    const token = await makeHistory(a.testnet, 31, 2);
    const before = await chainAnswers(a.testnet, token);
    expect(await a.process.stop()).toBe(0);

    // The data directory first holds a longer chain of its own, which the load replaces.
    const own = await cli(['--data-dir', dataDir]);
    await makeHistory(own.testnet, 31, 5);
    expect(await own.process.stop()).toBe(0);
    const loaded = await cli(['--data-dir', dataDir, '--load-state', file]);
    expect(await chainAnswers(loaded.testnet, token)).toEqual(before);
    expect(await loaded.process.stop()).toBe(0);

    const restarted = await cli(['--data-dir', dataDir]);
    expect(await chainAnswers(restarted.testnet, token)).toEqual(before);
    expect(await call(restarted.testnet, 'eth_getBlockByNumber', [`0x${(before.head + 1).toString(16)}`, false])).toBeNull();
    await minesOnTop(restarted.testnet, 31, token, before.blocks[before.head]);
  });

  it('writes the file every --state-interval seconds while running', async () => {
    const file = join(await tempDir(), 'state.json.gz');
    const a = await cli(['--in-memory', '--dump-state', file, '--state-interval', '1']);
    await makeHistory(a.testnet, 31, 1);
    const head = await call(a.testnet, 'eth_blockNumber');
    const written = await waitFor('a periodic dump holding the latest block', async () => {
      try {
        const json = JSON.parse(gunzipSync(await readFile(file)).toString('utf8'));
        return json.networks[0].headNumber === head ? json : undefined;
      } catch {
        return undefined; // not written yet
      }
    });
    expect(written.end.networks).toBe(2);
  });

  it('loads an anvil state file\'s accounts into both networks', async () => {
    const file = join(await tempDir(), 'anvil-state.json');
    const account = '0x00000000000000000000000000000000000000b1';
    await writeFile(file, JSON.stringify({ block: { number: '0x3' }, best_block_number: '0x3', accounts: { [account]: { nonce: 2, balance: '0x64', code: '0x', storage: {} } }, blocks: [], transactions: [] }));
    const b = await cli(['--in-memory', '--load-state', file]);
    for (const url of [b.testnet, b.mainnet]) {
      expect(await call(url, 'eth_getBalance', [account, 'latest'])).toBe('0x64');
      expect(await call(url, 'eth_getTransactionCount', [account, 'latest'])).toBe('0x2');
    }
  });

  it('refuses a truncated file at start, naming it, and leaves the data directory as it was', async () => {
    const root = await tempDir();
    const file = join(root, 'state.json.gz');
    const dataDir = join(root, 'data');
    const a = await cli(['--data-dir', dataDir, '--dump-state', file]);
    await makeHistory(a.testnet, 31, 2);
    const head = await call(a.testnet, 'eth_getBlockByNumber', ['latest', false]);
    expect(await a.process.stop()).toBe(0);

    // A dump of another chain, cut short: it must not replace the data directory's chain.
    const other = await cli(['--in-memory', '--dump-state', file]);
    await makeHistory(other.testnet, 31, 1);
    expect(await other.process.stop()).toBe(0);
    const text = gunzipSync(await readFile(file)).toString('utf8');
    const truncated = join(root, 'truncated.json.gz');
    await writeFile(truncated, gzipSync(text.slice(0, text.length - 40)));

    const refused = runCli(['--port', '0', '--quiet', ...KEYS, '--data-dir', dataDir, '--load-state', truncated]);
    running.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(`state file ${truncated}`);
    expect(refused.stderr()).toContain('nothing was loaded');

    const c = await cli(['--data-dir', dataDir]);
    expect(await call(c.testnet, 'eth_getBlockByNumber', ['latest', false])).toEqual(head);
  });

  it('refuses a missing file at start, naming it', async () => {
    const missing = join(await tempDir(), 'missing.json.gz');
    const refused = runCli(['--port', '0', '--in-memory', '--load-state', missing]);
    running.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(`state file ${missing}: cannot be read`);
  });

  it('refuses --state-interval without --dump-state', async () => {
    const refused = runCli(['--port', '0', '--in-memory', '--state-interval', '5']);
    running.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain('--state-interval needs --dump-state');
  });
});
