/**
 * Reproduces issue 12's memory finding in one process: snapshot / transaction / revert cycles over
 * HTTP against a node on a temporary data dir, the live heap measured after full GCs, and heap
 * snapshots compared to name what grows.
 * Run: node --expose-gc --import tsx scripts/soak/memory-repro.ts [--cycles 5000] [--fresh-ids] [--in-memory] [--heap-snapshots]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { createNode } from '../../src/index.js';
import { call as rpcCall } from '../crash-test/rpc.js';
import { heapGrowth } from './heap-diff.js';

const KEY = 'memory-repro-key';
const COW = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const SAMPLE_EVERY = 250;

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '5000' },
    'fresh-ids': { type: 'boolean', default: false },
    'heap-snapshots': { type: 'boolean', default: false },
    'in-memory': { type: 'boolean', default: false },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const cycles = Number(values.cycles);
const dataDir = mkdtempSync(join(tmpdir(), 'rsk-devnode-memory-'));
const node = await createNode({ dataDir, inMemory: values['in-memory'], logLevel: 'silent', apiKeys: [{ key: KEY, network: 'testnet' }] });
const server = await node.server(0);
const url = `${server.url}/${KEY}`;

/** One retry: a heap snapshot blocks this process long enough for a kept-alive socket to close. */
const call = (url: string, method: string, params?: unknown[]) => rpcCall(url, method, params).catch(() => rpcCall(url, method, params));

const liveHeapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const snapshots: string[] = [];
const takeHeapSnapshot = () => {
  if (values['heap-snapshots']) snapshots.push(writeHeapSnapshot(join(dataDir, `cycle-${snapshots.length}.heapsnapshot`)));
};

const reusedId = values['fresh-ids'] ? undefined : await call(url, 'evm_snapshot');
console.log(`cycles ${cycles}, ${reusedId === undefined ? 'a new snapshot id each cycle' : 'one reused snapshot id'}, ${values['in-memory'] ? 'in memory' : 'on disk'}`);
console.log('cycle  rss MB  live heap MB');
for (let i = 0; i <= cycles; i++) {
  if (i % SAMPLE_EVERY === 0) {
    console.log(`${String(i).padStart(5)}  ${rssMb().toFixed(0).padStart(6)}  ${liveHeapMb().toFixed(1).padStart(12)}`);
    if (i === SAMPLE_EVERY || i === cycles) takeHeapSnapshot();
  }
  if (i === cycles) break;
  const id = reusedId ?? (await call(url, 'evm_snapshot'));
  await call(url, 'eth_sendTransaction', [{ from: COW, to: `0x${(i + 1).toString(16).padStart(40, '0')}`, value: '0x1' }]);
  if ((await call(url, 'evm_revert', [id])) !== true) throw new Error(`evm_revert ${id} failed`);
}
if (snapshots.length === 2) {
  console.log(`\nheap growth from cycle ${SAMPLE_EVERY} to ${cycles} (self sizes, by type and constructor):`);
  for (const g of heapGrowth(snapshots[0]!, snapshots[1]!)) console.log(`${(g.bytes / 2 ** 20).toFixed(2).padStart(8)} MB  ${String(g.count).padStart(8)}  ${g.key}`);
}
await node.close();
rmSync(dataDir, { recursive: true, force: true });
