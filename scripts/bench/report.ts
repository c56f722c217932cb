/**
 * The bench's output: one table (values with p50/p99 latency, rsk-devnode's ratio to each peer, the
 * target and whether each rsk-devnode row meets it) and the client's CPU per request on the read
 * rows, printed and written as results/latest.{json,md}; with --docs also docs/benchmarks.md with
 * the machine and the versions.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { NODES, RESULTS_DIR, ROOT, type NodeSpec } from './peers.js';
import { READ_CONNECTIONS } from './load.js';
import { TARGETS, type Target } from './targets.js';
import type { Measurement, Sizes, Workload } from './workloads.js';

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
  const targets = TARGETS[w.id];
  if (targets === undefined) return '—';
  const cmp = w.higherIsBetter ? '≥' : '≤';
  const one = (t: Target) => {
    if ('bound' in t) return `${cmp} ${t.bound} ${w.unit}`;
    const label = NODES.find((n) => n.id === t.peer)!.label;
    return t.factor === 1 ? `${cmp} ${label}` : `${cmp} ${t.factor} × ${label}`;
  };
  return targets.map(one).join(' and ');
}

/** Whether `m` meets every target of its row; undefined without a target or a value to judge by. */
export function targetMet(r: WorkloadResult, m: Measurement | undefined): boolean | undefined {
  const targets = TARGETS[r.workload.id];
  if (targets === undefined || m === undefined || m.failed !== undefined) return undefined;
  let met = true;
  for (const t of targets) {
    const peer = 'bound' in t ? undefined : r.values[t.peer];
    const bound = 'bound' in t ? t.bound : peer === undefined || peer.failed !== undefined ? undefined : peer.value * t.factor;
    if (bound === undefined) return undefined;
    met &&= r.workload.higherIsBetter ? m.value >= bound : m.value <= bound;
  }
  return met;
}

const metText = (met: boolean | undefined) => (met === undefined ? '—' : met ? 'pass' : 'FAIL');

/** Header and rows of the results table. */
export function table(run: Run): string[][] {
  const peers = run.nodes.filter((n) => n.kind === 'peer');
  const rsk = run.nodes.filter((n) => n.kind === 'rsk');
  const header = [
    'workload',
    ...run.nodes.map((n) => n.label),
    ...(run.nodes.some((n) => n.id === 'rsk') ? peers.map((p) => `disk ÷ ${p.label}`) : []),
    'target',
    ...rsk.map((n) => `${n.label.replace('rsk-devnode ', '')} meets`),
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
  '"disk": rsk-devnode as `npm start` runs it, its chain in LevelDB in a fresh data directory; "--in-memory": the same with nothing on disk. ' +
  '"disk ÷ peer" is the disk row\'s speed relative to the peer: above 1 is faster, or less memory. ' +
  '"user key": the disk node through a dashboard user\'s key with quota counting, so the gateway\'s cost shows. ' +
  '"bare node:http": the calibration row, a trivial node:http server answering one fixed result (read rows only): ' +
  'the fastest node:http answers on this machine with this client; a node close to it is held back by node:http itself. ' +
  'The target columns are issue 25\'s targets (scripts/bench/targets.ts): pass, FAIL, or — (no target, or no peer value).';

/** The client's own CPU per request on the read rows, µs, by node: it must stay well under the nodes' cost. */
export function clientCostTable(run: Run): string {
  const reads = run.results.filter((r) => r.workload.read === true);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rows = reads.map((r) =>
    line([
      r.workload.label(run.sizes),
      ...run.nodes.map((n) => {
        const m = r.values[n.id];
        if (m?.clientCpuUs === undefined || m.failed !== undefined) return '—';
        return `${m.clientCpuUs.toFixed(1)} (${((m.clientCpuUs * m.value) / 1e6).toFixed(2)})`;
      }),
    ]),
  );
  const header = line(['client CPU per request, µs (cores used)', ...run.nodes.map((n) => n.label)]);
  return [header, line(['---', ...run.nodes.map(() => '---')]), ...rows].join('\n') + '\n';
}

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
      met: Object.fromEntries(run.nodes.filter((n) => n.kind === 'rsk').map((n) => [n.id, targetMet(r, r.values[n.id])])),
    })),
  };
  writeFileSync(join(RESULTS_DIR, 'latest.json'), JSON.stringify(json, null, 2) + '\n');
  writeFileSync(join(RESULTS_DIR, 'latest.md'), `# Bench results, ${run.date}${run.quick ? ' (--quick)' : ''}\n\n${markdownTable(run)}\n${LEGEND}\n\n${clientCostTable(run)}\n${notes(run)}\n`);
}

export function writeDocs(run: Run): void {
  const m = machine();
  const versions = Object.entries(run.versions).map(([name, v]) => `${name} ${v}`).join(', ');
  const doc = `# Benchmarks

rsk-devnode side by side with the nodes a user would pick instead, measured in one run by
\`npm run bench\` (scripts/bench; issues 11 and 25). Absolute numbers move from run to run on a shared
machine; what counts is the ratio to the peers measured in the same run. Where the time goes, and
what was tried for each target not met: docs/performance.md.

Run on ${run.date.slice(0, 10)}${run.quick ? ' with --quick (smaller counts)' : ''}: ${m.cpus} CPUs (${m.model}), ${m.ram} RAM, Node ${m.node}.
Versions: ${versions}.

${markdownTable(run)}
${LEGEND}

${clientCostTable(run)}
${notes(run)}

## How it is measured

Every node is a child process of the bench, started with its defaults; the bench is its only
client. Workloads run one at a time, each on every node before the next (interleaved), in the
order of the table. Why the bench is built this way (its client, disk and in-memory rows, anvil's
trace flag): [performance.md](performance.md#the-benchs-instrument-issue-25).

| column | what runs |
|---|---|
| bare node:http | calibration: \`node scripts/bench/bare-server.mjs <port>\`, a trivial node:http server answering every POST with \`{"jsonrpc":"2.0","id":1,"result":"0x1"}\`; read rows only |
| anvil | \`anvil --port <port>\` (the struct-log trace row: a second anvil with \`--steps-tracing\`) |
| Hardhat | \`hardhat node --port <port>\` (Hardhat 2) |
| ganache | \`ganache --port <port>\` |
| rsk-devnode (disk) | \`node dist/bin/rsk-devnode.js --data-dir <fresh dir> --port <port> --api-key bench-operator --daily-limit 1000000000\`: the bin as \`npm start\` runs it, its chain in LevelDB. **The targets are judged on this row.** |
| rsk-devnode (--in-memory) | the same with \`--in-memory\` instead of \`--data-dir\` |
| rsk-devnode (disk, user key) | the disk node through a dashboard user's key (quota counting on), so the gateway's cost shows |

- Client (scripts/bench/client.ts): raw keep-alive TCP sockets (node:net, Nagle off), at most one
  request in flight per connection, the next sent as soon as the answer is in. A request is one
  pre-built HTTP/1.1 string (\`POST /bench-operator HTTP/1.1\`, Host, \`Content-Type: application/json\`,
  Content-Length, the body), built once per row; the "new address/holder per request" rows splice
  a new address into a body built once with a placeholder (two string joins, no JSON or ABI
  encoding per request). Answers are framed by Content-Length (chunked is read too). The read rows
  check only that the status is 200 and the body has no \`"error"\` member; JSON is parsed only where
  a value is needed (receipts, the snapshot id, block numbers). A kept-alive socket the server closed
  while idle is noticed at the next request, which is sent once more on a new socket; any other
  close before the answer fails the request.
- Read rows: ${READ_CONNECTIONS} connections busy (or 1) for ${run.sizes.readMs / 1000} s after a ${run.sizes.warmupMs} ms warm-up; \`eth_getBalance\`
  of the bench key at \`latest\`, or of a never-used address per request; \`eth_call\` balanceOf of
  the same holder, or of a never-used holder per request.
- Calibration: "bare node:http" is the fastest a node:http server answers on this machine with this
  client. The client table gives the bench's own CPU per request (process.cpuUsage over the timed
  window, µs) and the share of a core that makes (µs × requests per second). The client is not the
  limit while a node can read faster than the bare row (then the client drives more than the
  calibration row asks of it) and the client's share stays well under one core. A node close to the
  bare row is held back by node:http itself (every Node-based node is, rsk-devnode included); its
  gap to the bare row is its own per-request cost above node:http's.
- Every node gets the same ERC20 (test/fixtures Token) and the same legacy (type 0) transactions,
  signed by the bench for the node's chain id from keys funded by the node's first account.
  "send → receipt" is eth_sendRawTransaction, then eth_getTransactionReceipt until it is mined:
  ${run.sizes.transfersOneByOne.toLocaleString('en-US')} one at a time, and 8 senders each sending ${run.sizes.transfersPerSender} one after the other.
- Cold start: spawn the node's executable directly (no npm, no shell; rsk-devnode: \`node dist/bin/rsk-devnode.js\`,
  disk: a new empty data directory each time) until the first answer to eth_blockNumber, median of ${run.sizes.coldStarts}.
  evm_snapshot + 1 ERC20 tx + evm_revert: mean of ${run.sizes.snapshotCycles} cycles. Event blocks: ${run.sizes.eventBlocks.toLocaleString('en-US')} transfers to their receipts,
  automine. eth_getLogs: median of ${run.sizes.getLogsRuns} queries by the token's address over the event blocks.
- Tracing: one block of ${run.sizes.tracedTransfers} ERC20 transfers from the 9 bench keys (automine off, evm_mine), then
  debug_traceTransaction of each of its transactions one after the other, with callTracer and with
  the node's default struct logs; the total time. A node answering an empty structLogs (anvil
  without --steps-tracing) fails the row; the answers' sizes are in the row's notes. Hardhat 2
  refuses any tracer but the default (its callTracer cell reads \`failed\`); ganache does not run
  the trace rows (no evm_setAutomine).
- Suite: ${run.sizes.suiteTests.toLocaleString('en-US')} tests as Hardhat's loadFixture runs them: evm_revert to the fixture's
  snapshot and a new evm_snapshot, one ERC20 transfer to its receipt, one eth_call balanceOf; the wall time.
  A same-nonce send refused right after evm_revert (anvil: "replacement transaction underpriced")
  is sent again, the wait counted, and noted.
- Memory: VmRSS of the node's process after the write rows.
- Targets: issue 25's, one table in the code (\`TARGETS\`, scripts/bench/targets.ts), printed as the
  target column and one "meets" column per rsk-devnode row. A row with two targets (the ERC20
  transfers, against Hardhat and anvil) passes only when it meets both; a target whose peer did not
  run in the same run (\`--only\` without it) or failed reads —.

## How to run

\`\`\`
npm run bench                      # every node, full counts: estimated 10-15 minutes on 2 quiet cores
npm run bench -- --quick           # smaller counts: about 4 minutes for all 7 columns on a shared 2-core machine
npm run bench -- --only bare,anvil,rsk   # some nodes only
npm run bench -- --docs            # also rewrite this file
\`\`\`

\`--only\` takes node ids separated by commas: \`bare\` (the calibration row), \`anvil\`, \`hardhat\`,
\`ganache\`, \`rsk\` (all three rsk-devnode rows), or one rsk-devnode row by its own id (\`rsk-mem\`,
\`rsk-user\`). The peers are installed on first use with \`npm ci\` inside scripts/bench/peers (its own
package.json and lock file, so the project's install stays lean). rsk-devnode is measured from
dist/, built first when a source changed.

Results go to scripts/bench/results/latest.{json,md}, each node's output to results/<node>.log.
The disk rows' data directories are made under scripts/bench/results/data-* (the project's file
system, as chain-data is, not the system temp directory, which may be a tmpfs) and removed when the
node stops.
`;
  writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), doc);
}
