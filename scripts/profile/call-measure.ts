/**
 * `npx tsx scripts/profile/call-measure.ts [--in-memory] [--calls N] [--rounds N] [--cpu-prof FILE] [--heap-prof FILE]`: CPU
 * time of one eth_call (ERC20 balanceOf) in process, through the in-process provider and the
 * dispatcher (no HTTP), for the bench's two call rows: the same holder each time, and a new
 * holder each time. Rounds alternate between the rows and each prints CPU µs per call
 * (process.cpuUsage, steadier than wall time on a shared machine), the young-generation
 * collections (scavenges) per 1,000 calls: each one follows about a semi-space of allocation, so
 * they stand for the bytes a call allocates. Issue 25's call path; never part of `npm test`.
 *
 * `--callgrind DIR`: run under valgrind instead, instrumented only during one round of `--calls`
 * calls of each row, and print instructions per call (the machine's load does not change them, but
 * V8's background compiler and collector threads are counted too: compare several runs):
 *   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=DIR/callgrind.out.%p \
 *     node --import tsx scripts/profile/call-measure.ts --callgrind DIR --calls 500
 * (about two minutes: everything runs some 50 times slower there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Interface, Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { contracts } from '../../test/fixtures/contracts.js';

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    calls: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '6' },
    'cpu-prof': { type: 'string' },
    /** A sampling heap profile of the rounds, collected objects included: what the calls allocate. */
    'heap-prof': { type: 'string' },
    callgrind: { type: 'string' },
  },
});
const TOKEN = new Interface(contracts.Token.abi);
/** A genesis account of the testnet chain (its key is public, as every dev account's). */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const COW = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const GAS_PRICE = 70_000_000n;
/** Calls before the measured rounds: JIT and the head's view warm. */
const WARM_UP_CALLS = 3000;

const dir = mkdtempSync(join(tmpdir(), 'call-measure-'));
const node = await createNode({ inMemory: values['in-memory'], dataDir: dir, logLevel: 'silent' });
const rpc = <T>(method: string, params: unknown[] = []) => node.provider.request({ method, params }) as Promise<T>;
const wallet = new Wallet(COW_KEY);
const deploy = await wallet.signTransaction({ type: 0, chainId: 31, nonce: 0, gasPrice: GAS_PRICE, gasLimit: 3_000_000n, data: contracts.Token.bytecode + TOKEN.encodeDeploy([10n ** 24n]).slice(2) });
const hash = await rpc<string>('eth_sendRawTransaction', [deploy]);
const token = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash])).contractAddress;

let fresh = 0xbe1c000000;
const holder = (same: boolean) => (same ? COW : `0x${(fresh++).toString(16).padStart(40, '0')}`);
/** balanceOf(holder)'s call data, without ethers' encoder (whose checksums would fill a profile). */
const BALANCE_OF = TOKEN.getFunction('balanceOf')!.selector;
const balanceOf = (address: string) => `${BALANCE_OF}${address.slice(2).padStart(64, '0')}`;
const call = (same: boolean) => rpc<string>('eth_call', [{ to: token, data: balanceOf(holder(same)) }, 'latest']);
const expected = await call(true);
if (BigInt(expected) !== 10n ** 24n) throw new Error(`balanceOf answered ${expected}`);

let scavenges = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === 1) scavenges++;
}).observe({ entryTypes: ['gc'] });

/** The calls' data is encoded outside the measured window. */
async function round(same: boolean, calls: number): Promise<{ cpu: number; scavenges: number }> {
  const requests = Array.from({ length: calls }, () => ({ to: token, data: balanceOf(holder(same)) }));
  const gcBefore = scavenges;
  const start = process.cpuUsage();
  for (const request of requests) await rpc('eth_call', [request, 'latest']);
  const { user, system } = process.cpuUsage(start);
  // The observer's entries arrive on a later turn: let them in before counting.
  await new Promise((resolve) => setImmediate(resolve));
  return { cpu: (user + system) / calls, scavenges: ((scavenges - gcBefore) * 1000) / calls };
}

for (let i = 0; i < (values.callgrind === undefined ? WARM_UP_CALLS : WARM_UP_CALLS / 3); i++) await call(i % 2 === 0);

let session: Session | undefined;
if (values['cpu-prof'] !== undefined) {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
if (values['heap-prof'] !== undefined) {
  if (session === undefined) {
    session = new Session();
    session.connect();
  }
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
}
const calls = Number(values.calls);
if (values.callgrind !== undefined) {
  let dump = 0;
  for (const same of [true, false]) {
    const requests = Array.from({ length: calls }, () => ({ to: token, data: balanceOf(holder(same)) }));
    execFileSync('callgrind_control', ['-z', String(process.pid)]);
    execFileSync('callgrind_control', ['-i', 'on', String(process.pid)]);
    for (const request of requests) await rpc('eth_call', [request, 'latest']);
    execFileSync('callgrind_control', ['-d', String(process.pid)]);
    execFileSync('callgrind_control', ['-i', 'off', String(process.pid)]);
    const out = readFileSync(join(values.callgrind, `callgrind.out.${process.pid}.${++dump}`), 'utf8');
    const total = Number(/^summary: (\d+)/m.exec(out)![1]);
    console.log(`${same ? 'same holder' : 'new holder '}: ${Math.round(total / calls)} instructions/call (callgrind)`);
  }
  await node.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const results: Record<string, number[]> = { same: [], fresh: [] };
for (let r = 0; r < Number(values.rounds); r++) {
  for (const same of r % 2 === 0 ? [true, false] : [false, true]) {
    const { cpu, scavenges: gcs } = await round(same, calls);
    results[same ? 'same' : 'fresh']!.push(cpu);
    console.log(`round ${r} ${same ? 'same holder' : 'new holder '}: ${cpu.toFixed(1)} µs CPU/call, ${gcs.toFixed(1)} scavenges/1000 calls`);
  }
}
if (values['heap-prof'] !== undefined) {
  const { profile } = await session!.post('HeapProfiler.stopSampling');
  writeFileSync(values['heap-prof'], JSON.stringify(profile));
  console.log(`heap profile: ${values['heap-prof']}`);
} else if (session !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(values['cpu-prof']!, JSON.stringify(profile));
  console.log(`CPU profile: ${values['cpu-prof']}`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`median CPU µs/call: same holder ${median(results.same!).toFixed(1)}, new holder ${median(results.fresh!).toFixed(1)}`);
await node.close();
rmSync(dir, { recursive: true, force: true });
