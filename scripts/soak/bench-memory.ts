/**
 * Where the bench's "resident memory after the write workloads" goes: runs the bench's workloads
 * against rsk-devnode alone (the same CLI and flags as the bench, plus an inspector on a local
 * port), then asks the node itself, through the inspector, for its memory after full GCs: RSS, V8
 * heap used and total by space, external and array buffers, and a heap snapshot grouped by
 * constructor (the in-memory store's red-black tree shows up as RBNode).
 * Run: npx tsx scripts/soak/bench-memory.ts [--quick] [--idle] [--top 25] [-- extra CLI args]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NODES, RESULTS_DIR, residentMiB, startNode, type NodeSpec } from '../bench/peers.js';
import { prepare } from '../bench/setup.js';
import { FULL, QUICK, WORKLOADS } from '../bench/workloads.js';
import { type MemoryUsage, heapSummary, inspector } from './inspector.js';

const { values, positionals } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    idle: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    'node-flags': { type: 'string', default: '' },
  },
  allowPositionals: true,
});

const rsk = NODES.find((n) => n.id === 'rsk')!;
const nodeFlags = values['node-flags'].split(' ').filter((f) => f !== '');
const spec: NodeSpec = {
  ...rsk,
  command: (port) => {
    const { file, args, cwd } = rsk.command(port);
    return { file, args: ['--inspect=127.0.0.1:0', ...nodeFlags, ...args, ...positionals], cwd };
  },
};

const sizes = values.quick ? QUICK : FULL;
const node = await startNode(spec, 'rsk-memory');
console.log(`rsk-devnode up in ${Math.round(node.startMs)} ms, RSS ${residentMiB(node.pid).toFixed(0)} MiB`);
try {
  if (!values.idle) {
    const target = await prepare(node);
    const state = new Map<string, unknown>();
    for (const workload of WORKLOADS) {
      if (workload.id === 'cold-start' || workload.id === 'memory') continue;
      const m = await workload.run(target, sizes, state);
      console.log(`${workload.id.padEnd(20)} ${m === undefined ? '-' : m.value.toFixed(1)}   RSS ${residentMiB(node.pid).toFixed(0)} MiB`);
    }
  }
  const rssBefore = residentMiB(node.pid);
  const cdp = await inspector(readFileSync(join(RESULTS_DIR, 'rsk-memory.log'), 'utf8'));
  const usage = () => cdp.memoryUsage();
  const mib = (n: number) => (n / 2 ** 20).toFixed(1);
  const show = (label: string, u: MemoryUsage) =>
    console.log(`${label}: rss ${mib(u.rss)}, heap used ${mib(u.heapUsed)} of ${mib(u.heapTotal)}, external ${mib(u.external)} (array buffers ${mib(u.arrayBuffers)}) MiB`);
  console.log(`\nRSS after the workloads (before the inspector attached): ${rssBefore.toFixed(1)} MiB`);
  show('before GC', await usage());
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  show('after GC ', await usage());
  const spaces = await cdp.evaluate<Array<{ space_name: string; space_size: number; space_used_size: number }>>(
    `process.getBuiltinModule('v8').getHeapSpaceStatistics()`,
  );
  for (const s of spaces) if (s.space_size > 0) console.log(`  ${s.space_name.padEnd(24)} size ${mib(s.space_size).padStart(7)}  used ${mib(s.space_used_size).padStart(7)}`);
  console.log('\nheap by type and constructor (self sizes):');
  for (const g of await heapSummary(cdp, Number(values.top))) console.log(`${mib(g.bytes).padStart(8)} MiB ${String(g.count).padStart(9)}  ${g.key}`);
  show('\nafter the snapshot', await usage());
  cdp.close();
} finally {
  await node.stop();
}
