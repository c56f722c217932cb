/**
 * `npx tsx scripts/profile/profile-start.ts [--runs N] [--cpu-prof DIR] [--bin PATH]`: cold start of the built bin
 * (dist/bin/rsk-devnode.js, what `npm start` runs once dist/ is current), spawn → first JSON-RPC
 * answer, in three modes: a fresh data directory, the same directory again (existing chains), and
 * --in-memory. Prints the median wall time and the median CPU time of the child up to its first
 * answer (utime + stime from /proc, 10 ms ticks): on a machine shared with other work the CPU time
 * is the steadier number. With --cpu-prof, each child writes a V8 CPU profile into DIR; --bin
 * starts another build (an older commit's, to compare under the same load).
 * Numbers for docs/performance.md; never part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const DEFAULT_BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin', 'rsk-devnode.js');
const API_KEY = 'profilestartkey0001';
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, 'cpu-prof': { type: 'string' }, bin: { type: 'string', default: DEFAULT_BIN } } });
const BIN = values.bin;

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

async function firstAnswer(url: string): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' });
      if (res.ok && ((await res.json()) as { result?: string }).result !== undefined) return;
    } catch {
      // not listening yet
    }
  }
}

/** One start: ms to the first answer and the child's CPU ms by then. */
async function startOnce(args: string[]): Promise<{ ms: number; cpuMs: number }> {
  const prof = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];
  const t0 = performance.now();
  const child = spawn(process.execPath, [...prof, BIN, '--port', '0', '--api-key', `${API_KEY}:testnet`, '--log-level', 'warn', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  await firstAnswer(`${url}/${API_KEY}`);
  const ms = performance.now() - t0;
  const cpuMs = cpuMsOf(child.pid!);
  await new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGINT');
  });
  return { ms, cpuMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function mode(name: string, argsFor: () => { args: string[]; cleanup: () => void }): Promise<void> {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    const { args, cleanup } = argsFor();
    const r = await startOnce(args);
    cleanup();
    ms.push(r.ms);
    cpu.push(r.cpuMs);
  }
  console.log(`${name.padEnd(22)} wall median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)})   child CPU median ${median(cpu).toFixed(0)} ms`);
}

const existing = mkdtempSync(join(tmpdir(), 'profile-start-'));
await startOnce(['--data-dir', existing]);
await mode('fresh data dir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-start-'));
  return { args: ['--data-dir', dir], cleanup: () => rmSync(dir, { recursive: true, force: true }) };
});
await mode('existing data dir', () => ({ args: ['--data-dir', existing], cleanup: () => {} }));
await mode('--in-memory', () => ({ args: ['--in-memory'], cleanup: () => {} }));
rmSync(existing, { recursive: true, force: true });
