/**
 * The in-process node's life: after close() its providers refuse calls with EIP-1193's 4900, and a
 * second node on a data directory that another holds open says so (in process and through the CLI).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserProvider } from 'ethers';
import { DataDirInUseError, DISCONNECTED, ProviderRpcError, createNode, type DevNode } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { COW } from '../helpers/node.js';

const GENESIS_BALANCE = 10n ** 30n;
const CLOSED_MESSAGE = 'Disconnected: this rsk-devnode node is closed (node.close() was called); start a new one with createNode()';

const open: DevNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((n) => n.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function node(options: Parameters<typeof createNode>[0] = {}): Promise<DevNode> {
  const n = await createNode({ logLevel: 'silent', ...options });
  open.push(n);
  return n;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-lifecycle-'));
  dirs.push(dir);
  return dir;
}

/** The rejection of a request that must fail. */
async function rejection(promise: Promise<unknown>): Promise<ProviderRpcError> {
  const outcome = await promise.then(
    (value) => new Error(`expected a rejection, got ${JSON.stringify(value)}`),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ProviderRpcError);
  return outcome as ProviderRpcError;
}

describe('a provider after node.close()', () => {
  it('rejects every request with code 4900 and says the node is closed, for provider and providerFor', async () => {
    const n = await node();
    const mainnet = n.providerFor('mainnet');
    expect(await n.provider.request({ method: 'eth_chainId' })).toBe('0x1f');
    expect(await mainnet.request({ method: 'eth_getBalance', params: [COW.address, 'latest'] })).toBe(`0x${GENESIS_BALANCE.toString(16)}`);
    const disconnects: ProviderRpcError[] = [];
    n.provider.on('disconnect', (err: ProviderRpcError) => disconnects.push(err));

    await n.close();

    for (const [provider, method] of [
      [n.provider, 'eth_blockNumber'],
      [n.providerFor('testnet'), 'eth_chainId'],
      [mainnet, 'eth_getBalance'],
    ] as const) {
      const err = await rejection(provider.request({ method, params: [COW.address, 'latest'] }));
      expect(err.code).toBe(DISCONNECTED);
      expect(err.code).toBe(4900);
      expect(err.message).toBe(CLOSED_MESSAGE);
    }
    expect(disconnects.map((e) => [e.code, e.message])).toEqual([[4900, CLOSED_MESSAGE]]);
  });

  it('reaches ethers as an error carrying the node-closed message', async () => {
    const n = await node();
    const browser = new BrowserProvider(n.provider);
    expect(await browser.getBalance(COW.address)).toBe(GENESIS_BALANCE);
    await n.close();
    await expect(browser.getBalance(COW.address)).rejects.toThrow(/this rsk-devnode node is closed/);
  });

  it('close() twice is one close', async () => {
    const n = await node();
    await Promise.all([n.close(), n.close()]);
    await n.close();
    expect((await rejection(n.provider.request({ method: 'eth_chainId' }))).code).toBe(4900);
  });
});

describe('a data directory another node holds open', () => {
  it('refuses a second node with a message naming the directory, --data-dir and --in-memory; the first keeps working', async () => {
    const dir = await tempDir();
    const first = await node({ inMemory: false, dataDir: dir });

    const err = await createNode({ inMemory: false, dataDir: dir, logLevel: 'silent' }).then(
      (second) => (open.push(second), new Error('the second node opened')),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as DataDirInUseError).message).toBe(
      `another rsk-devnode holds the data directory ${dir} open (its database is locked). ` +
        'Stop that node, or start this one with --data-dir <another directory> or --in-memory.',
    );
    expect((err as DataDirInUseError).code).toBe('DATA_DIR_IN_USE');

    await first.provider.request({ method: 'evm_mine' });
    expect(await first.provider.request({ method: 'eth_blockNumber' })).toBe('0x1');
    // The failed attempt released what it had opened: once the first closes, the directory opens again.
    await first.close();
    const third = await node({ inMemory: false, dataDir: dir });
    expect(await third.provider.request({ method: 'eth_blockNumber' })).toBe('0x1');
  });

  it('makes the CLI exit with that message instead of "Database failed to open"', async () => {
    const dir = await tempDir();
    await node({ inMemory: false, dataDir: dir });
    const cli = runCli(['--data-dir', dir, '--port', '0']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      `rsk-devnode: another rsk-devnode holds the data directory ${dir} open (its database is locked). ` +
        'Stop that node, or start this one with --data-dir <another directory> or --in-memory.\n',
    );
    expect(cli.stdout()).toBe('');
  });
});
