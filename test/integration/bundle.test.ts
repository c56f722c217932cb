/**
 * The bin as users run it: dist/bin/rsk-devnode.js, the loader that runs the esbuild bundle of the CLI
 * (dist/bin/rsk-devnode.cjs, scripts/build.mjs) through its V8 code cache,
 * built first when dist/ is older than the sources. What the bundle could break is checked here:
 * the packaged files found from dist/bin/ (genesis, the dashboard's static files), the modules that
 * load later (the EVM, Express, ws), pino's lines, LevelDB through --data-dir, and the code cache.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, parseEther } from 'ethers';
import { wsCall } from '../helpers/ws.js';
import { CODE_CACHE_DELAY_MS } from '../../src/code-cache.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'bundle-test-key-testnet';
const RECIPIENT = '0x00000000000000000000000000000000000b0b01';
/** A tsc build of the whole project on a busy 2-core machine takes well under this. */
const BUILD_TIMEOUT_MS = 240_000;

interface BuildScript {
  BIN: string;
  isCurrent(): boolean;
  build(): Promise<number>;
}

interface BinNode {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stop(): Promise<void>;
}

let bin = '';
const running = new Set<BinNode>();
const tempDirs: string[] = [];
const providers: JsonRpcProvider[] = [];

beforeAll(async () => {
  const script = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'build.mjs')).href)) as BuildScript;
  if (!script.isCurrent()) expect(await script.build()).toBe(0);
  bin = script.BIN;
}, BUILD_TIMEOUT_MS);

afterEach(async () => {
  for (const p of providers.splice(0)) p.destroy();
  await Promise.all([...running].map((n) => n.stop()));
});

afterAll(async () => {
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

/** Spawns the bin with `args` (cwd: a temp dir, so nothing resolves from the repository's folder). */
async function startBin(args: string[]): Promise<BinNode> {
  const cwd = await mkdtemp(join(tmpdir(), 'rsk-devnode-bundle-cwd-'));
  tempDirs.push(cwd);
  const child = spawn(process.execPath, [bin, '--port', '0', '--api-key', KEY, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /^ {2}testnet +chain 31 +(http:\/\/\S+)$/m.exec(out);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`the bin exited before its banner\nstdout:\n${out}\nstderr:\n${err}`)));
  });
  const node: BinNode = {
    child,
    url,
    stdout: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      running.delete(node);
    },
  };
  running.add(node);
  return node;
}

function provider(url: string): JsonRpcProvider {
  const p = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  providers.push(p);
  return p;
}

/** eth_sendTransaction from the node's first account (the node signs it); resolves with the receipt. */
async function sendFromNodeAccount(p: JsonRpcProvider, value: bigint) {
  const signer = await p.getSigner(0);
  const tx = await signer.sendTransaction({ to: RECIPIENT, value });
  const receipt = await tx.wait();
  return { from: await signer.getAddress(), hash: tx.hash, receipt: receipt! };
}

describe('the bundled bin (dist/bin/rsk-devnode.js)', () => {
  it('answers, mines a node-signed transaction, logs it and serves WebSocket calls (--in-memory)', async () => {
    const node = await startBin(['--in-memory']);
    const p = provider(node.url);
    expect(await p.send('eth_blockNumber', [])).toBe('0x0');

    const { hash, receipt } = await sendFromNodeAccount(p, parseEther('1.5'));
    expect(receipt.status).toBe(1);
    expect(receipt.hash).toBe(hash);
    expect(receipt.blockNumber).toBe(1);
    expect(await p.getBalance(RECIPIENT)).toBe(parseEther('1.5'));
    // pino's line for the block, as the CLI prints it at the default level (info)
    await expect.poll(() => node.stdout()).toMatch(/INFO +testnet block 1\b/);

    expect(await wsCall(`${node.url.replace('http://', 'ws://')}`, 'eth_blockNumber')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
  });

  it('serves the dashboard login page and the explorer with their stylesheets and scripts from the packaged static files', async () => {
    const node = await startBin(['--in-memory']);
    const base = new URL(node.url).origin;
    const login = await fetch(`${base}/dashboard/login`);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await login.text();
    expect(html).toContain('<link rel="stylesheet" href="/dashboard/style.css">');

    const files = [['style.css', /^text\/css/], ['dashboard-shared.js', /javascript/], ['app.js', /javascript/], ['key-page.js', /javascript/]] as const;
    for (const [file, type] of files) {
      const res = await fetch(`${base}/dashboard/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(type);
      expect(await res.text(), file).toBe(await readFile(join(REPO_ROOT, 'src', 'gateway', 'static', file), 'utf8'));
    }

    // The explorer's shell loads one script per view; each must be in the package, byte for byte.
    const shell = await (await fetch(`${base}/explorer/`)).text();
    const scripts = [...shell.matchAll(/<script src="\/explorer\/([\w.-]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual(['explorer-shared.js', 'explorer-home.js', 'explorer-block.js', 'explorer-tx.js', 'explorer-address.js', 'explorer.js']);
    for (const file of [...scripts, 'explorer.css']) {
      const res = await fetch(`${base}/explorer/${file}`);
      expect(res.status, file).toBe(200);
      expect(await res.text(), file).toBe(await readFile(join(REPO_ROOT, 'src', 'gateway', 'static', file), 'utf8'));
    }
  });

  it('keeps its chain in LevelDB across a restart (--data-dir)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-bundle-data-'));
    tempDirs.push(dataDir);
    const first = await startBin(['--data-dir', dataDir]);
    const { hash, receipt } = await sendFromNodeAccount(provider(first.url), parseEther('2'));
    expect(receipt.status).toBe(1);
    const head = await provider(first.url).send('eth_getBlockByNumber', ['latest', false]);
    await first.stop();

    const second = await startBin(['--data-dir', dataDir]);
    const p = provider(second.url);
    expect(await p.send('eth_blockNumber', [])).toBe('0x1');
    expect(await p.send('eth_getBlockByNumber', ['latest', false])).toEqual(head);
    expect((await p.getTransactionReceipt(hash))?.blockHash).toBe(receipt.blockHash);
    expect(await p.getBalance(RECIPIENT)).toBe(parseEther('2'));
  });

  describe('its V8 code cache (scripts/bin-loader.cjs)', () => {
    const cacheFiles = async () => (await readdir(dirname(bin))).filter((name) => name.endsWith('.v8-cache'));
    const removeCaches = async () => {
      for (const name of await cacheFiles()) await rm(join(dirname(bin), name), { recursive: true, force: true });
    };
    /** Starts the bin, checks its first answer, and leaves it running past the cache's save. */
    const startAndAnswer = async () => {
      const node = await startBin(['--in-memory']);
      expect(await provider(node.url).send('eth_blockNumber', [])).toBe('0x0');
      return node;
    };
    const pastTheSave = () => new Promise((resolve) => setTimeout(resolve, 2 * CODE_CACHE_DELAY_MS));
    /** From no cache: a start that writes one, stopped; the cache file's name. */
    const freshCache = async () => {
      await removeCaches();
      const first = await startAndAnswer();
      await expect.poll(cacheFiles, { timeout: 15_000 }).toHaveLength(1);
      await first.stop();
      return (await cacheFiles())[0]!;
    };

    // The build's cache (scripts/build.mjs primes one) and any other is put back for the starts after these tests.
    let keptCaches: { name: string; bytes: Buffer }[] = [];
    beforeAll(async () => {
      keptCaches = await Promise.all((await cacheFiles()).map(async (name) => ({ name, bytes: await readFile(join(dirname(bin), name)) })));
    });
    afterAll(async () => {
      await removeCaches();
      for (const { name, bytes } of keptCaches) await writeFile(join(dirname(bin), name), bytes);
    });

    it('is left by the build (scripts/build.mjs starts the new bin once), for starts stopped right after their first answer', () => {
      expect(keptCaches.length).toBeGreaterThan(0);
      for (const { bytes } of keptCaches) expect(bytes.length).toBeGreaterThan(100_000);
    });

    it('is written after a start without one, and a start that finds it valid does not write it again', async () => {
      const name = await freshCache();
      const path = join(dirname(bin), name);
      expect(name).toMatch(new RegExp(`^rsk-devnode-[0-9a-f]{16}-${process.version}-${process.arch}-[0-9a-f]{8}\\.v8-cache$`));
      const written = await stat(path);
      expect(written.size).toBeGreaterThan(100_000);

      const second = await startAndAnswer();
      await pastTheSave();
      // A rejected cache would have been replaced by now (a new file, a new mtime).
      expect((await stat(path)).mtimeMs).toBe(written.mtimeMs);
      await second.stop();
    });

    it('a damaged cache is not used: the node starts, answers and replaces it', async () => {
      const path = join(dirname(bin), await freshCache());
      const valid = await readFile(path);
      const damaged = Buffer.from(valid);
      for (let i = 64; i < damaged.length; i += 997) damaged[i] ^= 0xff;
      await writeFile(path, damaged);

      const node = await startAndAnswer();
      const { receipt } = await sendFromNodeAccount(provider(node.url), parseEther('1'));
      expect(receipt.status).toBe(1);
      await expect.poll(async () => (await readFile(path)).equals(damaged), { timeout: 15_000 }).toBe(false);
    });

    it('a cache that cannot be read or written (here a folder in its place) leaves the node starting as without one', async () => {
      const path = join(dirname(bin), await freshCache());
      await rm(path);
      await mkdir(path);

      const node = await startAndAnswer();
      await pastTheSave();
      expect(await provider(node.url).send('eth_chainId', [])).toBe('0x1f');
      expect((await stat(path)).isDirectory()).toBe(true);
      expect((await readdir(dirname(bin))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    });
  });
});

