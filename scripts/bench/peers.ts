/**
 * The nodes under test: the peers (anvil, Hardhat 2, ganache 7), installed into their own package
 * folder (peers/) so the project's `npm ci` stays lean; rsk-devnode from dist/, as `npm start` runs
 * it (a fresh LevelDB data directory) and `--in-memory`; and the calibration row, a bare node:http
 * server. Each runs as a child process of the bench, its output going to a log file under results/.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, closeSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeConnections, post, rpcBody } from './load.js';

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
export const ROOT = join(BENCH_DIR, '..', '..');
export const PEERS_DIR = join(BENCH_DIR, 'peers');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

/** rsk-devnode's operator key in the bench (a fixed one, so the URL is known before the banner). */
const OPERATOR_KEY = 'bench-operator';
/** Dashboard users' quota for the run: far above what the bench sends in a day. */
const BENCH_DAILY_LIMIT = 1_000_000_000;
/** How often a starting node is asked for eth_blockNumber, and for how long at most. */
const READY_POLL_MS = 2;
const READY_TIMEOUT_MS = 60_000;

export type NodeId = 'bare' | 'anvil' | 'hardhat' | 'ganache' | 'rsk' | 'rsk-mem' | 'rsk-user';

/** A peer to compare with, one of rsk-devnode's rows, or the calibration row (answers reads only). */
export type NodeKind = 'calibration' | 'peer' | 'rsk';

export interface NodeCommand {
  file: string;
  args: string[];
  cwd: string;
  /** What to remove once the process is gone (rsk-devnode's fresh data directory). */
  scratch?: string;
}

export interface NodeSpec {
  id: NodeId;
  label: string;
  kind: NodeKind;
  command(port: number): NodeCommand;
  /** The JSON-RPC URL of a node listening on `port` (rsk-user's is made after start, see setup.ts). */
  url(port: number): URL;
  version(): string;
}

const node = process.execPath;
const peerPackage = (name: string) => join(PEERS_DIR, 'node_modules', name);
const packageVersion = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
const local = (port: number, path = '/') => new URL(`http://127.0.0.1:${port}${path}`);
/** The package's bin (package.json "bin"), as a user's `npx rsk-devnode` runs it. */
const RSK_BIN = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['rsk-devnode']!;

const RSK_FLAGS = (port: number) => ['--port', String(port), '--api-key', OPERATOR_KEY, '--daily-limit', String(BENCH_DAILY_LIMIT)];

/**
 * As `npm start` runs it (the bin, in one process), on a data directory of its own that starts
 * empty. It lies under results/, in the project's file system as `npm start`'s chain-data does
 * (the system's temp directory may be a tmpfs, which would make the disk row a memory row).
 */
const rskOnDisk = (port: number): NodeCommand => {
  const dataDir = mkdtempSync(join(RESULTS_DIR, 'data-'));
  return { file: node, args: [RSK_BIN, '--data-dir', dataDir, ...RSK_FLAGS(port)], cwd: ROOT, scratch: dataDir };
};

const rskInMemory = (port: number): NodeCommand => ({ file: node, args: [RSK_BIN, '--in-memory', ...RSK_FLAGS(port)], cwd: ROOT });

export const NODES: NodeSpec[] = [
  {
    id: 'bare',
    label: 'bare node:http',
    kind: 'calibration',
    command: (port) => ({ file: node, args: [join(BENCH_DIR, 'bare-server.mjs'), String(port)], cwd: BENCH_DIR }),
    url: (port) => local(port),
    version: () => process.version,
  },
  {
    id: 'anvil',
    label: 'anvil',
    kind: 'peer',
    // The package's bin is anvil's own executable: spawned directly, so the pid is the node's.
    command: (port) => ({ file: join(peerPackage('@foundry-rs/anvil-linux-amd64'), 'bin', 'anvil'), args: ['--port', String(port)], cwd: PEERS_DIR }),
    url: (port) => local(port),
    version: () => packageVersion(peerPackage('@foundry-rs/anvil-linux-amd64')),
  },
  {
    id: 'hardhat',
    label: 'Hardhat',
    kind: 'peer',
    // bootstrap.js is the `hardhat` bin; `hardhat node` runs in this process. peers/ holds its config.
    command: (port) => ({ file: node, args: [join(peerPackage('hardhat'), 'internal', 'cli', 'bootstrap.js'), 'node', '--port', String(port)], cwd: PEERS_DIR }),
    url: (port) => local(port),
    version: () => packageVersion(peerPackage('hardhat')),
  },
  {
    id: 'ganache',
    label: 'ganache',
    kind: 'peer',
    command: (port) => ({ file: node, args: [join(peerPackage('ganache'), 'dist', 'node', 'cli.js'), '--port', String(port)], cwd: PEERS_DIR }),
    url: (port) => local(port),
    version: () => packageVersion(peerPackage('ganache')),
  },
  {
    id: 'rsk',
    label: 'rsk-devnode (disk)',
    kind: 'rsk',
    command: rskOnDisk,
    url: (port) => local(port, `/${OPERATOR_KEY}`),
    version: () => packageVersion(ROOT),
  },
  {
    id: 'rsk-mem',
    label: 'rsk-devnode (--in-memory)',
    kind: 'rsk',
    command: rskInMemory,
    url: (port) => local(port, `/${OPERATOR_KEY}`),
    version: () => packageVersion(ROOT),
  },
  {
    id: 'rsk-user',
    label: 'rsk-devnode (disk, user key)',
    kind: 'rsk',
    command: rskOnDisk,
    url: (port) => local(port, `/${OPERATOR_KEY}`),
    version: () => packageVersion(ROOT),
  },
];

/** Installs the peers with npm ci (peers/package-lock.json's versions) when peers/node_modules is missing. */
export function ensurePeersInstalled(): void {
  if (existsSync(join(PEERS_DIR, 'node_modules'))) return;
  console.log('installing the peers into scripts/bench/peers (once) ...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: PEERS_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${PEERS_DIR} failed (${result.status})`);
}

/** Brings dist/ up to date (scripts/build.mjs skips the work when nothing changed). */
export function buildDevnode(): void {
  const result = spawnSync(node, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status === 0) return;
  if (!existsSync(join(ROOT, RSK_BIN))) throw new Error(`the build failed and there is no ${RSK_BIN}`);
  console.warn('warning: the build failed; measuring the dist/ that is there');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNode {
  spec: NodeSpec;
  port: number;
  url: URL;
  pid: number;
  /** ms from spawn to the first answer to eth_blockNumber. */
  startMs: number;
  stop(): Promise<void>;
}

/** Spawns a node and waits for its first answer to eth_blockNumber. */
export async function startNode(spec: NodeSpec, logName: string = spec.id): Promise<RunningNode> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const port = await freePort();
  const url = spec.url(port);
  const { file, args, cwd, scratch } = spec.command(port);
  const log = openSync(join(RESULTS_DIR, `${logName}.log`), 'w');
  const began = performance.now();
  const child = spawn(file, args, { cwd, stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve())).then(() => {
    closeConnections(url);
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });
  const body = rpcBody('eth_blockNumber', []);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${spec.label} exited (${child.exitCode}) while starting; see results/${logName}.log`);
    try {
      const text = await post(url, body);
      if (text.includes('"result"')) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - began > READY_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`${spec.label} did not answer within ${READY_TIMEOUT_MS} ms`);
    }
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
  const startMs = performance.now() - began;
  return { spec, port, url, pid: child.pid!, startMs, stop: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process in MiB (VmRSS from /proc). */
export function residentMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}
