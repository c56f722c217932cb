/**
 * The Chromium that browser tests drive through playwright-core. Nothing is downloaded at test time:
 *
 * 1. `RSK_DEVNODE_CHROMIUM=/path/to/chromium` uses that binary; `RSK_DEVNODE_CHROMIUM=npm` forces 2.
 * 2. Debian's `/usr/bin/chromium` when it is installed (`apt-get install chromium`): nothing to unpack.
 * 3. Otherwise the Chromium build that the npm package @sparticuz/chromium (a devDependency) ships
 *    inside itself as brotli files. It is unpacked once per package version into
 *    `node_modules/.cache/rsk-devnode-chromium/<version>/` (about 3 s, 220 MB; `npm ci` clears it)
 *    and reused after that. It needs only libnss3, libnspr4, libexpat1 and fontconfig from the
 *    system, which the machine image has.
 *
 * Written by hand: @sparticuz/chromium always unpacks straight into `os.tmpdir()` (`/tmp/chromium`,
 * `/tmp/libGLESv2.so`, ...) and reuses `/tmp/chromium` whenever that file exists, so an unpack cut
 * short, two test runs unpacking at once, or an older version left behind would launch a broken or
 * stale binary, and /tmp fills with its files. Here the package unpacks into a private staging
 * folder that is then renamed into place, so a versioned folder is either complete or absent.
 *
 * Also the set-up browser test files share: Chromium and a node started and closed around the
 * tests (chromiumAndNodeForTests), and a page's errors collected (recordPageErrors).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestNode, type TestNode } from './node.js';

/** Where browser tests write their screenshots (the repository's test-output/, ignored by git). */
export const TEST_OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Flags every launch gets: headless without a GPU, and nothing that reaches for the network by
 * itself (this machine's closed network refuses such connections, many at a time).
 */
export const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Flags of @sparticuz/chromium's recommended list that we leave out. `--disable-web-security` and
 * `--allow-running-insecure-content` switch off the same-origin policy and mixed-content blocking,
 * which a user's browser enforces and the dashboard must live with. `--single-process` and
 * `--no-zygote` are there for AWS Lambda's sandbox (its prctl restrictions); elsewhere Chromium's
 * normal multi-process mode works with the same binary (the dashboard test passes either way) and
 * is the mode users run.
 */
const DROPPED_NPM_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--no-zygote']);

export interface ChromiumChoice {
  executablePath: string;
  /** Where the binary came from, for messages. */
  source: 'env' | 'system' | 'npm';
  args: string[];
}

/** Picks the browser (see the file comment) and unpacks the npm one if that is the one. */
export async function findChromium(): Promise<ChromiumChoice> {
  const forced = process.env.RSK_DEVNODE_CHROMIUM;
  if (forced && forced !== 'npm') {
    if (!existsSync(forced)) throw new Error(`RSK_DEVNODE_CHROMIUM=${forced}: no such file`);
    return { executablePath: forced, source: 'env', args: BASE_ARGS };
  }
  if (forced !== 'npm' && existsSync(SYSTEM_CHROMIUM)) {
    return { executablePath: SYSTEM_CHROMIUM, source: 'system', args: BASE_ARGS };
  }
  const { default: sparticuz } = await import('@sparticuz/chromium');
  const npmArgs = sparticuz.args.filter((arg) => !DROPPED_NPM_ARGS.has(arg));
  return { executablePath: await unpackNpmChromium(sparticuz), source: 'npm', args: [...npmArgs, ...BASE_ARGS] };
}

/** Launches the chosen Chromium headless; a failure says which binary and how to get another. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const choice = await findChromium();
  try {
    return await chromium.launch({
      ...options,
      executablePath: choice.executablePath,
      headless: true,
      args: [...choice.args, ...(options.args ?? [])],
    });
  } catch (err) {
    const hint =
      choice.source === 'npm'
        ? ` Check its shared libraries with \`ldd ${choice.executablePath} | grep "not found"\`, ` +
          'or install Debian\'s browser (`apt-get install -y chromium`), which is used when present.'
        : '';
    throw new Error(`could not start ${choice.source} Chromium ${choice.executablePath}: ${(err as Error).message}${hint}`);
  }
}

/** A test node and a Chromium for a browser test file. */
export interface ChromiumNode {
  t: TestNode;
  browser: Browser;
}

/**
 * Makes TEST_OUTPUT_DIR, launches Chromium and starts a test node before the tests of the file or
 * describe block it is called in, hands both to `use`, and closes both after them.
 */
export function chromiumAndNodeForTests(use: (node: ChromiumNode) => void): void {
  const node: Partial<ChromiumNode> = {};
  beforeAll(async () => {
    mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
    node.browser = await launchChromium();
    node.t = await startTestNode();
    use(node as ChromiumNode);
  });
  afterAll(async () => {
    await node.browser?.close();
    await node.t?.close();
  });
}

/**
 * Pushes `page`'s uncaught exceptions and console errors into `errors`, for a test to expect it
 * empty at the end; `expected` names console errors the test provokes on purpose.
 */
export function recordPageErrors(page: Page, errors: string[], expected: (text: string) => boolean = () => false): void {
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected(message.text())) errors.push(message.text());
  });
}

type Sparticuz = { executablePath(input?: string): Promise<string> };

async function unpackNpmChromium(sparticuz: Sparticuz): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium'); // <pkg>/build/cjs/index.cjs
  const pkgDir = join(dirname(entry), '..', '..');
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const base = join(pkgDir, '..', '..', '.cache', 'rsk-devnode-chromium'); // node_modules/.cache/...
  const target = join(base, version);
  const binary = join(target, 'chromium');
  if (existsSync(binary)) return binary;

  await mkdir(base, { recursive: true });
  const staging = await mkdtemp(join(base, `${version}.partial-`));
  // The package unpacks into os.tmpdir(), which reads TMPDIR on every call; point it at our staging
  // folder only while the package computes its paths and inflates.
  const savedTmpdir = process.env.TMPDIR;
  try {
    process.env.TMPDIR = staging;
    await sparticuz.executablePath();
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`could not unpack @sparticuz/chromium ${version} into ${staging}: ${(err as Error).message}`);
  } finally {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  }
  if (!existsSync(join(staging, 'chromium'))) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`@sparticuz/chromium ${version} unpacked no chromium binary into ${staging}`);
  }
  try {
    await rename(staging, target);
  } catch (err) {
    // Another run unpacked the same version first: use its copy.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw err;
  }
  return binary;
}
