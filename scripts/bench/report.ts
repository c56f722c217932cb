/**
 * The bench's output: one table (values with p50/p99 latency, rsk-devnode's ratio to each peer, the
 * target and whether it is met), printed and written as results/latest.{json,md}; with --docs also
 * docs/benchmarks.md with the machine and the versions.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { NODES, RESULTS_DIR, ROOT, type NodeSpec } from './peers.js';
import { READ_CONNECTIONS } from './load.js';
import type { Measurement, Sizes, Target, Workload } from './workloads.js';

export interface WorkloadResult {
  workload: Workload;
  /** By node id; absent when the node did not run it. */
  values: Partial<Record<NodeSpec['id'], Measurement>>;
}

export interface Run {
  date: string;
  quick: boolean;
  sizes: Sizes;
  nodes: NodeSpec[];
  versions: Record<string, string>;
  results: WorkloadResult[];
}

const RSK_ROWS = ['rsk', 'rsk-user'] as const;

function formatValue(value: number, unit: string): string {
  if (unit === 'ms') return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
  if (value < 100) return value.toFixed(1);
  return (value < 10_000 ? Math.round(value) : Math.round(value / 100) * 100).toLocaleString('en-US');
}

const formatLatency = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function cell(m: Measurement | undefined, unit: string): string {
  if (m === undefined) return '—';
  if (m.failed !== undefined) return 'failed';
  const latency = m.p50 !== undefined && m.p99 !== undefined && unit !== 'ms' ? ` (${formatLatency(m.p50)}/${formatLatency(m.p99)})` : '';
  return formatValue(m.value, unit) + latency;
}

/** rsk-devnode's speed relative to a peer: above 1 is better (faster, or less memory). */
function ratio(w: Workload, rsk: Measurement | undefined, peer: Measurement | undefined): number | undefined {
  if (rsk === undefined || peer === undefined || rsk.failed !== undefined || peer.failed !== undefined) return undefined;
  return w.higherIsBetter ? rsk.value / peer.value : peer.value / rsk.value;
}

function targetText(w: Workload): string {
  const cmp = w.higherIsBetter ? '≥' : '≤';
  const t: Target = w.target;
  if ('bound' in t) return `${cmp} ${t.bound} ${w.unit}`;
  const label = NODES.find((n) => n.id === t.peer)!.label;
  return t.factor === 1 ? `${cmp} ${label}` : `${cmp} ${t.factor} × ${label}`;
}

export function targetMet(r: WorkloadResult, m: Measurement | undefined): boolean | undefined {
  if (m === undefined || m.failed !== undefined) return undefined;
  const t = r.workload.target;
  const peer = 'bound' in t ? undefined : r.values[t.peer];
  const bound = 'bound' in t ? t.bound : peer === undefined || peer.failed !== undefined ? undefined : peer.value * t.factor;
  if (bound === undefined) return undefined;
  return r.workload.higherIsBetter ? m.value >= bound : m.value <= bound;
}

const metText = (met: boolean | undefined) => (met === undefined ? '—' : met ? 'met' : 'not met');

/** Header and rows of the results table. */
export function table(run: Run): string[][] {
  const peers = run.nodes.filter((n) => n.peer);
  const rsk = run.nodes.filter((n) => !n.peer);
  const header = [
    'workload',
    ...run.nodes.map((n) => n.label),
    ...(run.nodes.some((n) => n.id === 'rsk') ? peers.map((p) => `rsk ÷ ${p.label}`) : []),
    'target',
    ...rsk.map((n) => `met (${n.id === 'rsk' ? 'operator' : 'user key'})`),
  ];
  const rows = run.results.map((r) => {
    const w = r.workload;
    return [
      `${w.label(run.sizes)} [${w.unit}]`,
      ...run.nodes.map((n) => cell(r.values[n.id], w.unit)),
      ...(run.nodes.some((n) => n.id === 'rsk') ? peers.map((p) => ratioText(ratio(w, r.values.rsk, r.values[p.id]))) : []),
      targetText(w),
      ...rsk.map((n) => metText(targetMet(r, r.values[n.id]))),
    ];
  });
  return [header, ...rows];
}

const ratioText = (x: number | undefined) => (x === undefined ? '—' : `${x.toFixed(2)}×`);

const LEGEND =
  'Throughput cells: value (p50/p99 latency of one request or transaction, ms). ' +
  '"rsk ÷ peer" is rsk-devnode\'s (operator key) speed relative to the peer: above 1 is faster, or less memory. ' +
  '"user key": rsk-devnode through a dashboard user\'s key with quota counting, so the gateway\'s cost shows.';

export function markdownTable(run: Run): string {
  const [header, ...rows] = table(run);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header!), line(header!.map(() => '---')), ...rows.map(line)].join('\n') + '\n';
}

export function textTable(run: Run): string {
  const all = table(run);
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')).join('\n') + '\n';
}

function notes(run: Run): string {
  const lines: string[] = [];
  for (const r of run.results) {
    for (const n of run.nodes) {
      const m = r.values[n.id];
      const note = m?.failed !== undefined ? `failed: ${m.failed}` : m?.note;
      if (note !== undefined) lines.push(`- ${r.workload.id}, ${n.label}: ${note}`);
    }
  }
  return lines.join('\n');
}

export function machine(): Record<string, string> {
  const model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    cpus: String(os.availableParallelism()),
    model,
    ram: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
  };
}

export function writeResults(run: Run): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = {
    date: run.date,
    quick: run.quick,
    sizes: run.sizes,
    machine: machine(),
    versions: run.versions,
    workloads: run.results.map((r) => ({
      id: r.workload.id,
      label: r.workload.label(run.sizes),
      unit: r.workload.unit,
      higherIsBetter: r.workload.higherIsBetter,
      target: targetText(r.workload),
      values: r.values,
      met: Object.fromEntries(RSK_ROWS.map((id) => [id, targetMet(r, r.values[id])])),
    })),
  };
  writeFileSync(join(RESULTS_DIR, 'latest.json'), JSON.stringify(json, null, 2) + '\n');
  writeFileSync(join(RESULTS_DIR, 'latest.md'), `# Bench results, ${run.date}${run.quick ? ' (--quick)' : ''}\n\n${markdownTable(run)}\n${LEGEND}\n\n${notes(run)}\n`);
}

export function writeDocs(run: Run): void {
  const m = machine();
  const versions = Object.entries(run.versions).map(([name, v]) => `${name} ${v}`).join(', ');
  const doc = `# Benchmarks

rsk-devnode side by side with the nodes a user would pick instead, measured in one run by
\`npm run bench\` (scripts/bench; issue 11). Absolute numbers move from run to run on a shared
machine; what counts is the ratio to the peers measured in the same run. Where the time goes, and
what was tried for each target not met: docs/performance.md.

Run on ${run.date.slice(0, 10)}${run.quick ? ' with --quick (smaller counts)' : ''}: ${m.cpus} CPUs (${m.model}), ${m.ram} RAM, Node ${m.node}.
Versions: ${versions}.

${markdownTable(run)}
${LEGEND}

${notes(run)}

## How it is measured

- Every node runs as a child process with its defaults (rsk-devnode: \`node dist/bin/rsk-devnode.js --in-memory\`, the bin,
  an operator key given by \`--api-key\`); the bench is the only client. Workloads run one at a
  time, each on every node before the next (interleaved), in the order of the table.
- Client: node:http with a keep-alive Agent, one JSON-RPC request per round trip; the read rows
  keep ${READ_CONNECTIONS} requests in flight over ${READ_CONNECTIONS} connections for ${run.sizes.readMs / 1000} s after a warm-up.
- Every node gets the same ERC20 (test/fixtures Token) and the same legacy (type 0) transactions,
  signed by the bench for the node's chain id from keys funded by the node's first account.
  "send → receipt" is eth_sendRawTransaction, then eth_getTransactionReceipt until it is mined.
- Cold start: spawn the node's bin (rsk-devnode: \`node dist/bin/rsk-devnode.js\`) until the first answer to
  eth_blockNumber, median of ${run.sizes.coldStarts}. evm_snapshot/revert: mean of ${run.sizes.snapshotCycles} cycles.
  eth_getLogs: median of ${run.sizes.getLogsRuns} queries by address over the event blocks.
  Memory: VmRSS of the node's process after the write rows.

## How to run

\`\`\`
npm run bench                    # a few minutes; installs the peers into scripts/bench/peers once
npm run bench -- --quick         # smaller counts, about a minute
npm run bench -- --only rsk,anvil  # some nodes only (anvil, hardhat, ganache, rsk, rsk-user)
npm run bench -- --docs          # also rewrite this file
\`\`\`

Results go to scripts/bench/results/latest.{json,md}, the nodes' output to results/<node>.log.
`;
  writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), doc);
}
