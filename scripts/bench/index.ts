/**
 * `npm run bench [-- --quick] [--docs] [--only rsk,anvil]`: rsk-devnode (on disk, as `npm start`,
 * and --in-memory) side by side with anvil, Hardhat 2 and ganache 7 on the workloads of issues 11
 * and 25, interleaved workload by workload, with a bare node:http server as the read rows'
 * calibration. Numbers go to results/ and docs/benchmarks.md, never into `npm test`.
 */
import { parseArgs } from 'node:util';
import { NODES, buildDevnode, ensurePeersInstalled, startNode, type RunningNode } from './peers.js';
import { clientCostTable, textTable, writeDocs, writeResults, type Run, type WorkloadResult } from './report.js';
import { prepare, resyncNonces, type BenchTarget } from './setup.js';
import { FULL, QUICK, WORKLOADS, type Measurement } from './workloads.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
  strict: true,
});

const sizes = values.quick ? QUICK : FULL;
// "rsk" picks all of rsk-devnode's rows (rsk, rsk-mem, rsk-user); any other name picks that node.
const picked = values.only?.split(',').map((s) => s.trim());
const specs = NODES.filter((n) => picked === undefined || picked.some((p) => n.id === p || n.id.startsWith(`${p}-`)));
if (specs.length === 0) throw new Error(`--only ${values.only}: no such node (${NODES.map((n) => n.id).join(', ')})`);

if (specs.some((s) => s.kind === 'peer')) ensurePeersInstalled();
if (specs.some((s) => s.kind === 'rsk')) buildDevnode();

const run: Run = {
  date: new Date().toISOString(),
  quick: values.quick,
  sizes,
  nodes: specs,
  versions: Object.fromEntries(specs.filter((s) => s.kind !== 'rsk' || s.id === 'rsk').map((s) => [s.kind === 'rsk' ? 'rsk-devnode' : s.label, s.version()])),
  results: [],
};

const running: RunningNode[] = [];
const stopAll = () => Promise.all(running.splice(0).map((n) => n.stop()));
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  const targets: BenchTarget[] = [];
  for (const spec of specs) {
    const node = await startNode(spec);
    running.push(node);
    console.log(`${spec.label} ${spec.version()}: up in ${Math.round(node.startMs)} ms on port ${node.port}; preparing ...`);
    targets.push(await prepare(node));
  }
  const state = new Map(targets.map((t) => [t.node.spec.id, new Map<string, unknown>()]));
  for (const workload of WORKLOADS) {
    const result: WorkloadResult = { workload, values: {} };
    for (const target of targets) {
      if (target.node.spec.kind === 'calibration' && workload.read !== true) continue;
      // A node that fails a workload gets no value there; the run goes on with the others.
      let m: Measurement | undefined;
      try {
        m = await workload.run(target, sizes, state.get(target.node.spec.id)!);
      } catch (err) {
        m = { value: NaN, failed: err instanceof Error ? err.message : String(err) };
        await resyncNonces(target).catch(() => undefined);
      }
      if (m !== undefined) result.values[target.node.spec.id] = m;
      const cpu = m?.clientCpuUs === undefined ? '' : `  (client ${m.clientCpuUs.toFixed(1)} µs CPU/request)`;
      const shown = m === undefined ? '—' : m.failed !== undefined ? `failed: ${m.failed}` : `${m.value.toFixed(1)} ${workload.unit}${cpu}`;
      console.log(`  ${workload.id.padEnd(18)} ${target.node.spec.label.padEnd(28)} ${shown}`);
    }
    run.results.push(result);
  }
} finally {
  await stopAll();
}

console.log(`\n${textTable(run)}\n${clientCostTable(run)}`);
writeResults(run);
console.log('written: scripts/bench/results/latest.json, latest.md');
if (values.docs) {
  writeDocs(run);
  console.log('written: docs/benchmarks.md');
}
// Kept-alive sockets would keep the process up.
process.exit(0);
