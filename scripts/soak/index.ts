/**
 * Soak (`npm run soak -- [--quick] [--scale F] [--no-build] [--from-source] [--probe]`): 100,000
 * transactions, 10,000 snapshot/revert cycles, thousands of filters created and abandoned and
 * WebSocket subscribers (newHeads, logs) connecting and dropping, against the real CLI in a child
 * process, its resident memory (/proc/<pid>/status VmRSS) sampled throughout. Writes the curve to
 * docs/soak-memory.svg and the samples to test-output/soak-memory.json, and says whether memory
 * levels off: the last third's slope against the first third's. --probe starts the node with an
 * inspector on a local port and adds its V8 heap and external memory to the samples, and the live
 * heap after full GCs at the end: what of the RSS is JavaScript and what is native.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { OPERATOR_KEY, REPO_ROOT, build, spawnNode, stop } from '../crash-test/node-process.js';
import { RpcFailure, call } from '../crash-test/rpc.js';
import { EMITTER_INIT_CODE, sleep } from '../crash-test/workload.js';
import { type Sample, memoryChart, slopePerKiloOp } from './chart.js';
import { type MemoryUsage, heapSummary, inspector } from './inspector.js';

/** The full run (issue 12); --quick divides every count by QUICK_DIVISOR. */
export const FULL = { txs: 100_000, cycles: 10_000, filters: 5_000, subscribers: 2_000 };
const QUICK_DIVISOR = 20;
const SAMPLE_INTERVAL_MS = 1_000;
/** With --probe, every this many samples also reads the node's heap figures. */
const PROBE_EVERY_SAMPLES = 5;
/** With --probe, the largest heap groups (type and constructor) reported at the end. */
const HEAP_GROUPS_SHOWN = 15;
/** Concurrent senders: enough to keep the node busy without queueing behind its chain lock. */
const SENDERS = 4;
/** Memory levels off when the last third grows at most this share of the first third's slope... */
const LEVEL_OFF_RATIO = 0.2;
/** ...or by less than this many MB per 1,000 operations. */
const FLAT_SLOPE_MB = 0.05;

export interface SoakCounts {
  txs: number;
  cycles: number;
  filters: number;
  subscribers: number;
}

export interface SoakResult {
  counts: SoakCounts;
  done: SoakCounts;
  /** Filters and subscriptions the node refused (its per-key limits), not failures. */
  refused: number;
  samples: Sample[];
  firstSlope: number;
  lastSlope: number;
  levelsOff: boolean;
  seconds: number;
  /** With --probe: the node's memory after two full GCs at the end of the run, and its largest heap groups. */
  afterGc?: MemoryUsage;
  heapGroups?: Array<{ key: string; count: number; bytes: number }>;
}

export function readRssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]) / 1024;
}

const mb = (bytes: number) => bytes / 2 ** 20;

export async function runSoak(counts: SoakCounts, options: { fromSource: boolean; probe?: boolean; log: (line: string) => void }): Promise<SoakResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rsk-devnode-soak-'));
  // Abandoned filters expire after a minute instead of five, so expiry runs many times in a soak
  // and the live count stays far below the per-key cap (--max-filters).
  const node = spawnNode({
    dataDir,
    fromSource: options.fromSource,
    cliArgs: ['--filter-timeout', '60'],
    nodeArgs: options.probe === true ? ['--inspect=127.0.0.1:0'] : [],
  });
  const baseUrl = await node.started;
  const cdp = options.probe === true ? await inspector(node.output()) : undefined;
  const url = `${baseUrl}/${OPERATOR_KEY}`;
  const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/${OPERATOR_KEY}`;
  const done: SoakCounts = { txs: 0, cycles: 0, filters: 0, subscribers: 0 };
  let refused = 0;
  const ops = () => done.txs + done.cycles + done.filters + done.subscribers;
  const started = Date.now();
  const samples: Sample[] = [];
  const sample = () => {
    const s: Sample = { t: (Date.now() - started) / 1000, ops: ops(), rssMb: readRssMb(node.pid) };
    samples.push(s);
    if (cdp !== undefined && samples.length % PROBE_EVERY_SAMPLES === 1) {
      void cdp.memoryUsage().then((m) => Object.assign(s, { heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external) }));
    }
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_INTERVAL_MS);
  let lastLog = 0;
  const progress = () => {
    if (Date.now() - lastLog < 10_000) return;
    lastLog = Date.now();
    const probed = samples.findLast((s) => s.heapTotalMb !== undefined);
    const heap = probed === undefined ? '' : `, heap ${probed.heapUsedMb!.toFixed(0)} of ${probed.heapTotalMb!.toFixed(0)} MB, external ${probed.externalMb!.toFixed(0)} MB`;
    options.log(`${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(done)}, RSS ${samples.at(-1)!.rssMb.toFixed(0)} MB${heap}`);
  };
  const [from, ...others] = (await call(url, 'eth_accounts')) as string[];
  const deploy = await call(url, 'eth_sendTransaction', [{ from, data: EMITTER_INIT_CODE, gas: '0x30d40' }]);
  const emitter = (await call(url, 'eth_getTransactionReceipt', [deploy])).contractAddress as string;
  const total = counts.txs + counts.cycles + counts.filters + counts.subscribers;
  // Each stream advances in proportion to the others, so every third of the run has the same mix.
  const share = (n: number) => (done: number) => done < n && done / n <= ops() / total + 1e-9;
  const canTx = share(counts.txs);
  const canCycle = share(counts.cycles);
  const canFilter = share(counts.filters);
  const canSubscribe = share(counts.subscribers);
  const refusedByLimit = (err: unknown) => {
    if (!(err instanceof RpcFailure)) throw err;
    refused++;
  };

  const senders = Array.from({ length: SENDERS }, async (_, i) => {
    const sender = others[i % others.length] ?? from!;
    while (done.txs < counts.txs) {
      if (!canTx(done.txs)) {
        await sleep(5);
        continue;
      }
      done.txs++;
      const data = i % 2 === 0 ? `0x${(done.txs % 65536).toString(16).padStart(8, '0')}` : '0x';
      await call(url, 'eth_sendTransaction', [{ from: sender, to: i % 2 === 0 ? emitter : `0x${(done.txs + 1).toString(16).padStart(40, '0')}`, data, gas: '0x30d40' }]);
      progress();
    }
  });
  const cycles = (async () => {
    while (done.cycles < counts.cycles) {
      if (!canCycle(done.cycles)) {
        await sleep(5);
        continue;
      }
      const id = await call(url, 'evm_snapshot');
      await call(url, 'eth_sendTransaction', [{ from, to: emitter, data: '0x01', gas: '0x30d40' }]);
      if ((await call(url, 'evm_revert', [id])) !== true) throw new Error(`evm_revert ${id} answered false`);
      done.cycles++;
    }
  })();
  const filters = (async () => {
    while (done.filters < counts.filters) {
      if (!canFilter(done.filters)) {
        await sleep(5);
        continue;
      }
      // Created, polled once, then abandoned: the node must expire them on its own.
      const kind = done.filters % 3;
      const id = await (kind === 0
        ? call(url, 'eth_newFilter', [{ address: emitter }])
        : kind === 1
          ? call(url, 'eth_newBlockFilter')
          : call(url, 'eth_newPendingTransactionFilter')
      ).catch(refusedByLimit);
      if (id !== undefined) await call(url, 'eth_getFilterChanges', [id]).catch(refusedByLimit);
      done.filters++;
    }
  })();
  const subscribers = (async () => {
    const open = new Set<WebSocket>();
    while (done.subscribers < counts.subscribers) {
      if (!canSubscribe(done.subscribers)) {
        await sleep(5);
        continue;
      }
      const socket = new WebSocket(wsUrl);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: emitter }] }));
      open.add(socket);
      // A few stay connected a while; the oldest drop, some cleanly and some by a reset.
      if (open.size > 8) {
        const oldest = open.values().next().value!;
        open.delete(oldest);
        if (done.subscribers % 2 === 0) oldest.close();
        else oldest.terminate();
      }
      done.subscribers++;
    }
    for (const socket of open) socket.close();
  })();
  await Promise.all([...senders, cycles, filters, subscribers]);
  clearInterval(sampler);
  sample();
  let afterGc: MemoryUsage | undefined;
  let heapGroups: SoakResult['heapGroups'];
  if (cdp !== undefined) {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    afterGc = await cdp.memoryUsage();
    heapGroups = await heapSummary(cdp, HEAP_GROUPS_SHOWN);
    cdp.close();
  }
  const code = await stop(node);
  if (code !== 0) throw new Error(`the node exited ${code} on SIGTERM:\n${node.output()}`);
  rmSync(dataDir, { recursive: true, force: true });
  const third = Math.max(2, Math.floor(samples.length / 3));
  const firstSlope = slopePerKiloOp(samples.slice(0, third));
  const lastSlope = slopePerKiloOp(samples.slice(-third));
  return {
    counts,
    done,
    refused,
    samples,
    firstSlope,
    lastSlope,
    levelsOff: lastSlope <= FLAT_SLOPE_MB || lastSlope <= LEVEL_OFF_RATIO * firstSlope,
    seconds: (Date.now() - started) / 1000,
    afterGc,
    heapGroups,
  };
}

/** RSS at the start, middle and end of a run (the sample nearest each point). */
export function rssMilestones(samples: Sample[]): { start: number; middle: number; end: number; peak: number } {
  return {
    start: samples[0]!.rssMb,
    middle: samples[Math.floor(samples.length / 2)]!.rssMb,
    end: samples.at(-1)!.rssMb,
    peak: Math.max(...samples.map((s) => s.rssMb)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      scale: { type: 'string' },
      'from-source': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      probe: { type: 'boolean', default: false },
      svg: { type: 'string', default: join(REPO_ROOT, 'docs/soak-memory.svg') },
      json: { type: 'string', default: join(REPO_ROOT, 'test-output/soak-memory.json') },
    },
  });
  const scale = values.scale !== undefined ? Number(values.scale) : values.quick ? 1 / QUICK_DIVISOR : 1;
  const counts = Object.fromEntries(Object.entries(FULL).map(([k, v]) => [k, Math.max(1, Math.round(v * scale))])) as unknown as SoakCounts;
  if (!values['from-source'] && !values['no-build']) build();
  console.log(`soak: ${JSON.stringify(counts)}`);
  const result = await runSoak(counts, { fromSource: values['from-source'], probe: values.probe, log: (line) => console.log(line) });
  const rss = rssMilestones(result.samples);
  const title = `rsk-devnode soak: RSS over ${result.done.txs.toLocaleString('en')} txs, ${result.done.cycles.toLocaleString('en')} snapshot/revert cycles, ` +
    `${result.done.filters.toLocaleString('en')} filters, ${result.done.subscribers.toLocaleString('en')} WS subscribers`;
  writeFileSync(values.svg, memoryChart(result.samples, title));
  mkdirSync(join(values.json, '..'), { recursive: true });
  writeFileSync(values.json, JSON.stringify({ ...result, rss }, null, 1));
  console.log(
    [
      `soak done in ${result.seconds.toFixed(0)} s: ${JSON.stringify(result.done)}; refused by limits: ${result.refused}`,
      `  RSS MB: start ${rss.start.toFixed(0)}, middle ${rss.middle.toFixed(0)}, end ${rss.end.toFixed(0)}, peak ${rss.peak.toFixed(0)}`,
      `  slope MB per 1k ops: first third ${result.firstSlope.toFixed(3)}, last third ${result.lastSlope.toFixed(3)}: ${result.levelsOff ? 'levels off' : 'DOES NOT level off'}`,
      `  chart: ${values.svg}; samples: ${values.json}`,
      ...(result.afterGc === undefined
        ? []
        : [
            `  after full GCs: RSS ${mb(result.afterGc.rss).toFixed(0)} MB, heap ${mb(result.afterGc.heapUsed).toFixed(1)} of ${mb(result.afterGc.heapTotal).toFixed(1)} MB, external ${mb(result.afterGc.external).toFixed(1)} MB; largest heap groups:`,
            ...(result.heapGroups ?? []).map((g) => `    ${mb(g.bytes).toFixed(1).padStart(6)} MB ${String(g.count).padStart(8)}  ${g.key}`),
          ]),
    ].join('\n'),
  );
  process.exitCode = result.levelsOff ? 0 : 1;
}
