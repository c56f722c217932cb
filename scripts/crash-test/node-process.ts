/** Runs the real CLI as a child process (built dist/cli.js, or src/cli.ts through tsx) and kills it. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The operator key the scripts pass with --api-key: a stable testnet URL across restarts. */
export const OPERATOR_KEY = 'reliability-operator-key';
/** How long a start may take before the scripts give up (a loaded 2-core machine is slow). */
const START_TIMEOUT_MS = 60_000;
const LISTENING = /rsk-devnode listening on (http:\/\/\S+) /;

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves with the base URL once the banner is out; rejects if the process exits first. */
  started: Promise<string>;
  exited: Promise<number | NodeJS.Signals>;
  output(): string;
}

export interface SpawnOptions {
  dataDir: string;
  /** Run src/cli.ts through tsx instead of the built dist/cli.js. */
  fromSource?: boolean;
  nodeArgs?: string[];
  cliArgs?: string[];
}

/** `node scripts/build.mjs`; throws with its output when it fails. */
export function build(): void {
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
}

export function spawnNode(options: SpawnOptions): NodeProcess {
  const entry = options.fromSource ? ['--import', 'tsx', 'src/cli.ts'] : ['dist/cli.js'];
  const args = [
    ...(options.nodeArgs ?? []),
    ...entry,
    '--data-dir', options.dataDir,
    '--port', '0',
    '--api-key', OPERATOR_KEY,
    '--quiet',
    ...(options.cliArgs ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner after ${START_TIMEOUT_MS} ms:\n${out}`)), START_TIMEOUT_MS);
    const check = () => {
      const match = LISTENING.exec(out);
      if (match === null || !out.includes(OPERATOR_KEY)) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node exited (${code}) before its banner:\n${out}`));
    });
  });
  void started.catch(() => undefined); // a kill before the banner is part of the test
  return { child, pid: child.pid!, started, exited, output: () => out };
}

/** SIGKILL (no chance to flush or close anything) and wait for the exit. */
export async function killHard(node: NodeProcess): Promise<void> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
  await node.exited;
}

/** SIGTERM (a clean close) and wait for the exit code. */
export async function stop(node: NodeProcess): Promise<number | NodeJS.Signals> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
  return node.exited;
}
