/**
 * `npx tsx scripts/profile/profile-bench-rss.ts [--in-memory] [--quick] [--bin dist/bin/rsk-devnode.js]
 * [--env K=V ...] [--idle-ms 6000] [-- node flags]`: what the bench's memory row (scripts/bench
 * workloads.ts, id 'memory') holds, split by owner. It runs the bench's own workloads, in bench order,
 * on one rsk-devnode started as the bench starts it (peers.ts: the built bin, a fresh data
 * directory), with scripts/profile/rss-probe.mjs preloaded, waits as long as the bench's sample
 * waits (the node idle, so src/idle-gc.ts's collection has run), then reads /proc and asks the probe
 * (SIGUSR2) for V8's view. The split at the sample:
 *   file-backed pages (the node binary, libraries) | malloc arenas ([heap] and 64 MiB-aligned
 *   thread arenas, where LevelDB's block cache and memtables, array buffers and V8's own malloc live)
 *   | other anonymous mappings (V8's heap pages, thread stacks, large mmap'd allocations).
 * Plus the CPU the node spent, per thread, and its GC counts: the numbers to compare a change by.
 * `--bin` runs another build (a copy of the branch point's dist/) for before/after runs.
 * Numbers for docs/performance.md; never part of `npm test`, and never run beside `npm run bench`.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { constants } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { NODES, residentMiB, startNode, type NodeSpec } from '../bench/peers.js';
import { prepare } from '../bench/setup.js';
import { FULL, QUICK, WORKLOADS } from '../bench/workloads.js';

const { values, positionals } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    bin: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    'idle-ms': { type: 'string', default: '6000' },
  },
  allowPositionals: true,
});

const PROBE = join(import.meta.dirname, 'rss-probe.mjs');
/** glibc's arena heaps (non-main arenas) are mapped at multiples of HEAP_MAX_SIZE, 64 MiB on 64-bit. */
const ARENA_ALIGN = 64n * 2n ** 20n;
/** How long the probe gets to write its line after SIGUSR2. */
const PROBE_WAIT_MS = 500;
/** How often RSS is shown while the node sits idle before the sample. */
const IDLE_STEP_MS = 1_000;

const base = NODES.find((n) => n.id === (values['in-memory'] ? 'rsk-mem' : 'rsk'))!;
const out = join(tmpdir(), `rss-probe-${process.pid}.jsonl`);
for (const kv of values.env) {
  const [k, ...v] = kv.split('=');
  process.env[k!] = v.join('=');
}
process.env['RSS_PROBE_OUT'] = out;
const spec: NodeSpec = {
  ...base,
  command: (port) => {
    const cmd = base.command(port);
    const [bin, ...rest] = cmd.args;
    return { ...cmd, args: ['--import', PROBE, ...positionals, values.bin === undefined ? bin! : resolve(values.bin), ...rest] };
  },
};

const mib = (kb: number) => (kb / 1024).toFixed(1);
const mibBytes = (b: number) => (b / 2 ** 20).toFixed(1);

/** Resident kB per kind of mapping, from /proc/<pid>/smaps. */
function mappings(pid: number): Record<string, number> {
  const kinds: Record<string, number> = { file: 0, 'malloc main arena': 0, 'malloc thread arenas': 0, 'other anonymous': 0, stack: 0 };
  let kind = 'other anonymous';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header !== null) {
      const [, start, perms, path] = header;
      if (path!.startsWith('/')) kind = 'file';
      else if (path === '[heap]') kind = 'malloc main arena';
      else if (path === '[stack]') kind = 'stack';
      else if (path === '' && perms === 'rw-p' && BigInt(`0x${start}`) % ARENA_ALIGN === 0n) kind = 'malloc thread arenas';
      else kind = 'other anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null) kinds[kind]! += Number(rss[1]);
  }
  return kinds;
}

/** The mapping kinds in one line, MiB. */
const brief = (pid: number) => Object.entries(mappings(pid)).filter(([k]) => k !== 'stack').map(([k, v]) => `${k.split(' ').at(-1)} ${mib(v)}`).join(' ');

/** CPU seconds per thread name (utime + stime, USER_HZ 100). */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '#');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return byName;
}

interface Probe {
  usage: NodeJS.MemoryUsage;
  heap: { total_physical_size: number; malloced_memory: number; external_memory: number };
  spaces: Array<{ name: string; size: number; used: number; physical: number }>;
  gcs: { count: Record<string, number>; ms: number; longestMajorMs?: number };
}

async function probe(pid: number): Promise<Probe> {
  rmSync(out, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(out) && waited < PROBE_WAIT_MS * 10; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 50));
  return JSON.parse(readFileSync(out, 'utf8').trim().split('\n').at(-1)!) as Probe;
}

const sizes = values.quick ? QUICK : FULL;
const node = await startNode(spec, 'rsk-rss-profile');
console.log(`${spec.label} up in ${Math.round(node.startMs)} ms, RSS ${residentMiB(node.pid).toFixed(1)} MiB`);
try {
  const target = await prepare(node);
  const state = new Map<string, unknown>();
  for (const workload of WORKLOADS) {
    if (workload.id === 'cold-start' || workload.id === 'memory') continue;
    const m = await workload.run(target, sizes, state);
    console.log(`${workload.id.padEnd(18)} ${(m === undefined ? '-' : m.value.toFixed(1)).padStart(9)}   RSS ${residentMiB(node.pid).toFixed(1)} MiB   ${brief(node.pid)}`);
  }
  for (let idle = 0; idle < Number(values['idle-ms']); idle += IDLE_STEP_MS) {
    await new Promise((r) => setTimeout(r, IDLE_STEP_MS));
    console.log(`idle ${String(idle + IDLE_STEP_MS).padStart(5)} ms           RSS ${residentMiB(node.pid).toFixed(1)} MiB   ${brief(node.pid)}`);
  }
  const rss = residentMiB(node.pid);
  const status = readFileSync(`/proc/${node.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  const maps = mappings(node.pid);
  const p = await probe(node.pid);
  console.log(`\nthe sample (after ${values['idle-ms']} ms idle): RSS ${rss.toFixed(1)} MiB (peak ${mib(kb('VmHWM'))}; anonymous ${mib(kb('RssAnon'))}, file ${mib(kb('RssFile'))})`);
  console.log(`  by mapping, MiB: ${Object.entries(maps).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}`);
  console.log(`  V8 heap: ${mibBytes(p.heap.total_physical_size)} resident (${mibBytes(p.usage.heapUsed)} used of ${mibBytes(p.usage.heapTotal)}); V8's own malloc ${mibBytes(p.heap.malloced_memory)}`);
  console.log(`    ${p.spaces.filter((s) => s.size > 0).map((s) => `${s.name.replace('_space', '')} ${mibBytes(s.used)}/${mibBytes(s.size)}`).join(', ')}`);
  console.log(`  external ${mibBytes(p.usage.external)} (array buffers ${mibBytes(p.usage.arrayBuffers)})`);
  const anon = kb('RssAnon') * 1024;
  console.log(`  native rest (anonymous − V8 heap − external): ${mibBytes(anon - p.heap.total_physical_size - p.usage.external)} MiB`);
  const kinds: Record<string, string> = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks' };
  console.log(`  GCs: ${Object.entries(p.gcs.count).map(([k, v]) => `${kinds[k] ?? k} ×${v}`).join(', ')}, ${p.gcs.ms.toFixed(0)} ms of pauses (longest full collection ${(p.gcs.longestMajorMs ?? 0).toFixed(0)} ms)`);
  const cpu = [...threadCpu(node.pid)].sort((a, b) => b[1] - a[1]);
  console.log(`  CPU s: total ${cpu.reduce((s, [, v]) => s + v, 0).toFixed(2)}; ${cpu.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
} finally {
  await node.stop();
  rmSync(out, { force: true });
}
