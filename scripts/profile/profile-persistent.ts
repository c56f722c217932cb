/**
 * `npx tsx --expose-gc scripts/profile/profile-persistent.ts [--in-memory] [--cycles N] [--blocks N] [--cpu-prof PHASE]`:
 * the persistent path in one process, through the in-process provider (no HTTP, so the numbers are
 * the chain's own): evm_snapshot + 1 ERC20 transfer + evm_revert cycles, N blocks with one token
 * Transfer each (transactions signed beforehand, sent raw, as scripts/bench does), eth_getLogs over them (warm, then after a restart over the same data directory), and
 * memory by phase. Medians of CPU time (process.cpuUsage) and wall time per operation: on a machine
 * shared with other work the CPU time is the steadier number. `--cpu-prof snapshot|events|logs`
 * writes a V8 CPU profile of that phase to /tmp. Numbers for docs/performance.md;
 * never part of `npm test`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Level } from 'level';
import { Interface, Wallet } from 'ethers';
import { createNode, type DevNode } from '../../src/index.js';
import { contracts } from '../../test/fixtures/contracts.js';

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    cycles: { type: 'string', default: '300' },
    blocks: { type: 'string', default: '2000' },
    queries: { type: 'string', default: '30' },
    'cpu-prof': { type: 'string' },
  },
});
const TOKEN = new Interface(contracts.Token.abi);
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
/** A genesis account of the testnet chain (its key is public, as every dev account's). */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const GAS_PRICE = 70_000_000n;
const wallet = new Wallet(COW_KEY);
const sign = (nonce: number, to: string | null, data: string) =>
  wallet.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: GAS_PRICE, gasLimit: 200_000n, to, data, value: 0n });

/**
 * LevelDB operations by phase: classic-level's (`level`'s) private batch, getMany and getSync, counted (every data
 * directory's database goes through them; an in-memory chain does not).
 */
const leveldb = { batches: 0, ops: 0, getMany: 0, getManyKeys: 0, getSync: 0 };
type Private = { _batch(ops: unknown[], options: unknown): Promise<void>; _getMany(keys: unknown[], options: unknown): Promise<unknown[]>; _getSync(key: unknown, options: unknown): unknown };
const levelProto = Level.prototype as unknown as Private;
const [batch, getMany, getSync] = [levelProto._batch, levelProto._getMany, levelProto._getSync];
levelProto._batch = function (ops, options) {
  leveldb.batches++;
  leveldb.ops += ops.length;
  return batch.call(this, ops, options);
};
levelProto._getMany = function (keys, options) {
  leveldb.getMany++;
  leveldb.getManyKeys += keys.length;
  return getMany.call(this, keys, options);
};
levelProto._getSync = function (key, options) {
  leveldb.getSync++;
  return getSync.call(this, key, options);
};
function countOps(phase: string, per: number, unit: string): void {
  const f = (n: number) => (n / per).toFixed(1);
  console.log(`  LevelDB per ${unit} (${phase}): ${f(leveldb.batches)} batches, ${f(leveldb.ops)} ops, ${f(leveldb.getMany)} getMany (${f(leveldb.getManyKeys)} keys), ${f(leveldb.getSync)} getSync`);
  Object.assign(leveldb, { batches: 0, ops: 0, getMany: 0, getManyKeys: 0, getSync: 0 });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function timed<T>(runs: number, op: () => Promise<T>): Promise<{ cpuMs: number; wallMs: number; last: T }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = await op();
    wall.push(performance.now() - t0);
    const { user, system } = process.cpuUsage(c0);
    cpu.push((user + system) / 1000);
  }
  return { cpuMs: median(cpu), wallMs: median(wall), last };
}

async function profiled<T>(phase: string, body: () => Promise<T>): Promise<T> {
  if (values['cpu-prof'] !== phase) return body();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    return await body();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const file = join(tmpdir(), `profile-persistent-${phase}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  CPU profile of ${phase}: ${file}`);
    session.disconnect();
  }
}

function memory(phase: string): void {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  console.log(`  memory ${phase.padEnd(24)} rss ${mib(m.rss)} MiB  heapUsed ${mib(m.heapUsed)}  external ${mib(m.external)}  arrayBuffers ${mib(m.arrayBuffers)}`);
}

const dir = mkdtempSync(join(tmpdir(), 'profile-persistent-'));
const open = () => createNode({ inMemory: values['in-memory'], dataDir: dir, logLevel: 'silent' });
let node: DevNode = await open();
const rpc = <T>(method: string, params: unknown[] = []) => node.provider.request({ method, params }) as Promise<T>;
console.log(values['in-memory'] ? 'in memory' : `data dir ${dir}`);
memory('started');

const deploy = await wallet.signTransaction({ type: 0, chainId: 31, nonce: 0, gasPrice: GAS_PRICE, gasLimit: 3_000_000n, data: contracts.Token.bytecode + TOKEN.encodeDeploy([10n ** 30n]).slice(2) });
const deployHash = await rpc<string>('eth_sendRawTransaction', [deploy]);
const token = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash])).contractAddress;

// Every cycle's transaction takes nonce 1 (the revert brings it back); the amounts differ.
const cycles = Number(values.cycles);
const cycleTxs = await Promise.all(Array.from({ length: cycles }, (_, i) => sign(1, token, TOKEN.encodeFunctionData('transfer', [RECIPIENT, BigInt(i + 1)]))));
let at = 0;
countOps('set-up', 1, 'set-up');
const cycle = await profiled('snapshot', () =>
  timed(cycles, async () => {
    const id = await rpc<string>('evm_snapshot');
    await rpc('eth_sendRawTransaction', [cycleTxs[at++]]);
    return rpc<boolean>('evm_revert', [id]);
  }),
);
console.log(`evm_snapshot + 1 transfer + evm_revert: CPU ${cycle.cpuMs.toFixed(3)} ms, wall ${cycle.wallMs.toFixed(3)} ms (median of ${values.cycles})`);
countOps('snapshot', cycles, 'cycle');
memory('after snapshot cycles');

const blocks = Number(values.blocks);
const first = Number(BigInt(await rpc<string>('eth_blockNumber'))) + 1;
const data = TOKEN.encodeFunctionData('transfer', [RECIPIENT, 1n]);
const eventTxs = await Promise.all(Array.from({ length: blocks }, (_, i) => sign(1 + i, token, data)));
at = 0;
const mined = await profiled('events', () => timed(blocks, () => rpc('eth_sendRawTransaction', [eventTxs[at++]])));
console.log(`${blocks} event blocks: CPU ${mined.cpuMs.toFixed(3)} ms, wall ${mined.wallMs.toFixed(3)} ms per block`);
countOps('events', blocks, 'block');
memory('after the writes');

const filter = [{ fromBlock: `0x${first.toString(16)}`, toBlock: `0x${(first + blocks - 1).toString(16)}`, address: token }];
const queries = Number(values.queries);
const warm = await profiled('logs', () => timed(queries, () => rpc<unknown[]>('eth_getLogs', filter)));
console.log(`eth_getLogs over ${blocks} blocks (${warm.last.length} logs), warm: CPU ${warm.cpuMs.toFixed(2)} ms, wall ${warm.wallMs.toFixed(2)} ms`);
memory('after getLogs');

if (!values['in-memory']) {
  await node.close();
  node = await open();
  const cold = await profiled('logs-first', () => timed(1, () => rpc<unknown[]>('eth_getLogs', filter)));
  console.log(`eth_getLogs after a restart, first query: CPU ${cold.cpuMs.toFixed(2)} ms, wall ${cold.wallMs.toFixed(2)} ms (${cold.last.length} logs)`);
  const again = await profiled('logs-restarted', () => timed(queries, () => rpc<unknown[]>('eth_getLogs', filter)));
  console.log(`eth_getLogs after a restart, then: CPU ${again.cpuMs.toFixed(2)} ms, wall ${again.wallMs.toFixed(2)} ms`);
}
await node.close();
rmSync(dir, { recursive: true, force: true });
