/** Runs the real CLI (`node --import tsx src/cli.ts`) and keeps everything it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (or signal name) once the process has exited. */
  exited: Promise<number | NodeJS.Signals>;
  /** The server's base URL from the banner (after `started`). */
  baseUrl(): string;
  /** Resolves once the banner is out; rejects if the process exits first. */
  started: Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | NodeJS.Signals>;
}

const LISTENING = /rsk-devnode listening on (http:\/\/\S+) /;

/** Starts the CLI with `args`; `keyCount` is how many key URLs its banner lists. */
export function runCli(args: string[], keyCount = 2): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const started = new Promise<void>((resolve, reject) => {
    const check = () => {
      // The banner ends with one line per key: complete once those lines have their newlines.
      const header = out.indexOf('JSON-RPC URLs');
      if (header < 0 || out.slice(header).split('\n').length < keyCount + 2) return;
      child.stdout!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`CLI exited (${code}) before its banner\nstdout:\n${out}\nstderr:\n${err}`)));
  });
  void started.catch(() => undefined); // a test that expects an early exit never awaits the banner
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    started,
    baseUrl() {
      const match = LISTENING.exec(out);
      if (match === null) throw new Error(`no "listening on" line in:\n${out}`);
      return match[1]!;
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
