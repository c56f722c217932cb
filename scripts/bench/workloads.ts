/**
 * The workloads of issues 11 and 25, in the order of issue 25's table. Each runs against one
 * prepared node; index.ts runs a workload on every node before going to the next one. The read
 * rows also run on the calibration node (a bare node:http server), the others on real nodes only.
 */
import { READ_CONNECTIONS, median, post, quantile, readLoad, rpc, rpcBody, type RpcError } from './load.js';
import { NODES, residentMiB, startNode, type NodeSpec } from './peers.js';
import { RECIPIENT, SENDERS, balanceOfData, prepare, sendAndWait, signTransfers, waitReceipt, type BenchTarget } from './setup.js';

export interface Sizes {
  /** Timed window of each read workload, after a warm-up. */
  readMs: number;
  warmupMs: number;
  coldStarts: number;
  transfersOneByOne: number;
  transfersPerSender: number;
  snapshotCycles: number;
  eventBlocks: number;
  getLogsRuns: number;
  /** Transfers in the traced block (issue 25: 100). */
  tracedTransfers: number;
  /** Tests in the Hardhat-style suite (issue 25: 1,000). */
  suiteTests: number;
}

export const FULL: Sizes = {
  readMs: 3_000,
  warmupMs: 500,
  coldStarts: 5,
  transfersOneByOne: 300,
  transfersPerSender: 50,
  snapshotCycles: 100,
  eventBlocks: 2_000,
  getLogsRuns: 20,
  tracedTransfers: 100,
  suiteTests: 1_000,
};

export const QUICK: Sizes = {
  readMs: 1_000,
  warmupMs: 200,
  coldStarts: 2,
  transfersOneByOne: 50,
  transfersPerSender: 10,
  snapshotCycles: 20,
  eventBlocks: 200,
  getLogsRuns: 5,
  tracedTransfers: 50,
  suiteTests: 100,
};

export type Unit = 'ms' | 's' | 'req/s' | 'tx/s' | 'blocks/s' | 'MiB';

export interface Measurement {
  value: number;
  /** Latency of one request or operation, ms. */
  p50?: number;
  p99?: number;
  /** Read rows: the bench process's CPU per request, µs (the client's own cost). */
  clientCpuUs?: number;
  note?: string;
  /** Why the node could not run the workload (value is then NaN). */
  failed?: string;
}

export interface Workload {
  id: string;
  label: (sizes: Sizes) => string;
  unit: Unit;
  /** Whether a higher value is better (throughput) or a lower one (time, memory). */
  higherIsBetter: boolean;
  /** A read row: runs on the calibration node too (any answer without an error will do). */
  read?: boolean;
  /** Cold start measures fresh processes; the others a prepared node. */
  run: (target: BenchTarget, sizes: Sizes, state: Map<string, unknown>) => Promise<Measurement | undefined>;
}

/** State one workload leaves for a later one on the same node (the event blocks for eth_getLogs). */
interface EventRange {
  from: string;
  to: string;
  logs: number;
}

/** How long a send refused as a replacement is retried (anvil's pool race below). */
const RESEND_TIMEOUT_MS = 1_000;

/**
 * Sends `raw` and waits for its receipt; answers how many times it had to be sent again. anvil
 * drops a mined transaction from its pool a moment after the receipt is out: a same-nonce send
 * right after evm_revert can find it still pooled and be refused as an underpriced replacement.
 * Such a send is repeated (the wait counts in the cycle) instead of failing the workload.
 */
async function sendAfterRevert(url: URL, raw: string): Promise<number> {
  const deadline = performance.now() + RESEND_TIMEOUT_MS;
  for (let resent = 0; ; resent++) {
    try {
      await sendAndWait(url, raw);
      return resent;
    } catch (err) {
      if (!/replacement transaction underpriced/i.test(String(err)) || performance.now() > deadline) throw err;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const throughput = async (target: BenchTarget, sizes: Sizes, body: string | ((i: number) => string), connections = READ_CONNECTIONS): Promise<Measurement> => {
  const r = await readLoad({ url: target.url, connections, durationMs: sizes.readMs, warmupMs: sizes.warmupMs, body });
  return { value: r.perSecond, p50: r.p50, p99: r.p99, clientCpuUs: r.clientCpuUs };
};

/** Stands for the address in a body built once; each request puts a new address in its place. */
const SLOT = 'feedfacefeedfacefeedfacefeedfacefeedface';

/**
 * The bodies of a "new address each" row: `body` (built once, with SLOT as the address) with a
 * distinct, never-used address per request index: two string joins a request, no JSON or ABI work.
 */
function newAddressEach(body: string): (i: number) => string {
  const [before, after, extra] = body.split(SLOT);
  if (after === undefined || extra !== undefined) throw new Error('the body must hold the address slot once');
  return (i) => before + (0xbe1c0000000000 + i).toString(16).padStart(40, '0') + after;
}

const tx = (total: number, seconds: number, latencies: number[]): Measurement => ({
  value: total / seconds,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
});

/** Sends pre-signed transactions one after the other, each to its receipt; per-tx latencies. */
async function sendSequentially(target: BenchTarget, raws: string[], latencies: number[]): Promise<void> {
  for (const raw of raws) {
    const t0 = performance.now();
    await sendAndWait(target.url, raw);
    latencies.push(performance.now() - t0);
  }
}

/** Answers larger than this are not searched for a top-level error beyond their start. */
const ERROR_PREFIX_CHARS = 200;

/**
 * The traced block: `count` ERC20 transfers sent from all the bench's keys with automine off, then
 * one evm_mine (at most 12 per sender: under rskj's 16 pending nonces per sender). Made once per
 * node and kept in `state` for both tracer rows; answers the transactions' hashes.
 */
async function tracedBlock(target: BenchTarget, count: number, state: Map<string, unknown>): Promise<string[]> {
  const made = state.get('traced') as string[] | undefined;
  if (made !== undefined) return made;
  const { url } = target;
  const wallets = [target.main, ...target.senders];
  const raws = (await Promise.all(wallets.map((w, k) => signTransfers(target, w, Math.floor(count / wallets.length) + (k < count % wallets.length ? 1 : 0))))).flat();
  const hashes: string[] = [];
  await rpc(url, 'evm_setAutomine', [false]);
  try {
    for (const raw of raws) hashes.push(await rpc<string>(url, 'eth_sendRawTransaction', [raw]));
    await rpc(url, 'evm_mine');
  } finally {
    await rpc(url, 'evm_setAutomine', [true]);
  }
  const blocks = new Set((await Promise.all(hashes.map((h) => waitReceipt(url, h)))).map((r) => r.blockNumber));
  if (blocks.size !== 1) throw new Error(`the ${count} transfers went into ${blocks.size} blocks, not one`);
  state.set('traced', hashes);
  return hashes;
}

/** debug_traceTransaction of every transaction of the traced block, one after the other. */
async function traceAll(target: BenchTarget, sizes: Sizes, state: Map<string, unknown>, options: object | undefined): Promise<Measurement | undefined> {
  // ganache has no evm_setAutomine to build the block with (and issue 25 compares with anvil and Hardhat).
  if (target.node.spec.id === 'ganache') return undefined;
  const hashes = await tracedBlock(target, sizes.tracedTransfers, state);
  const times: number[] = [];
  let bytes = 0;
  const t0 = performance.now();
  for (const hash of hashes) {
    const t = performance.now();
    const text = await post(target.url, rpcBody('debug_traceTransaction', options === undefined ? [hash] : [hash, options]));
    times.push(performance.now() - t);
    if (text.slice(0, ERROR_PREFIX_CHARS).includes('"error"')) throw new Error((JSON.parse(text) as { error: RpcError }).error.message);
    if (text.includes('"structLogs":[]')) throw new Error('answered an empty structLogs (no steps recorded)');
    bytes += text.length;
  }
  const total = performance.now() - t0;
  return { value: total, p50: quantile(times, 0.5), p99: quantile(times, 0.99), note: `${hashes.length} traces, ${(bytes / 1e6).toFixed(2)} MB in all` };
}

/**
 * anvil records the steps a struct-log trace needs only when started with --steps-tracing, and
 * answers an empty structLogs otherwise; the flag slows every transaction, so only the struct-log
 * row gets such an anvil: started, prepared as the others, traced and stopped.
 */
async function traceOnStepsTracingAnvil(sizes: Sizes): Promise<Measurement> {
  const anvil = NODES.find((n) => n.id === 'anvil')!;
  const command = (port: number) => {
    const plain = anvil.command(port);
    return { ...plain, args: [...plain.args, '--steps-tracing'] };
  };
  const spec: NodeSpec = { ...anvil, command };
  const node = await startNode(spec, 'anvil-steps-tracing');
  try {
    const m = await traceAll(await prepare(node), sizes, new Map(), undefined);
    return { ...m!, note: `anvil started with --steps-tracing for this row; ${m!.note}` };
  } finally {
    await node.stop();
  }
}

export const WORKLOADS: Workload[] = [
  {
    id: 'cold-start',
    label: () => 'cold start: spawn → first eth_blockNumber answer',
    unit: 'ms',
    higherIsBetter: false,
    run: async (target, sizes) => {
      // rsk-user: the same process as rsk (its key exists only once the node is up).
      if (target.node.spec.id === 'rsk-user') return undefined;
      const times: number[] = [];
      for (let i = 0; i < sizes.coldStarts; i++) {
        const started = await startNode(target.node.spec, `${target.node.spec.id}-cold`);
        times.push(started.startMs);
        await started.stop();
      }
      return { value: median(times), p50: median(times), p99: Math.max(...times) };
    },
  },
  {
    id: 'blockNumber-1',
    label: () => 'eth_blockNumber, 1 connection',
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, rpcBody('eth_blockNumber', []), 1),
  },
  {
    id: 'blockNumber-32',
    label: () => `eth_blockNumber, ${READ_CONNECTIONS} connections`,
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, rpcBody('eth_blockNumber', [])),
  },
  {
    id: 'getBalance',
    label: () => `eth_getBalance, ${READ_CONNECTIONS} connections`,
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, rpcBody('eth_getBalance', [target.main.address, 'latest'])),
  },
  {
    id: 'getBalance-new',
    label: () => 'eth_getBalance, a new address per request',
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, newAddressEach(rpcBody('eth_getBalance', [`0x${SLOT}`, 'latest']))),
  },
  {
    id: 'getBlock',
    label: () => 'eth_getBlockByNumber(the block of 10 transfers, true)',
    unit: 'req/s',
    higherIsBetter: true,
    run: async (target, sizes) => {
      // By number, not `latest`: ganache's miner_start leaves an empty block on top of the rich one,
      // and its `latest` answered 1.5 KB where the others answered the ten transfers (8-10 KB).
      const { number, txs } = target.richBlock;
      const body = rpcBody('eth_getBlockByNumber', [number, true]);
      const block = JSON.parse(await post(target.url, body)) as { result: { transactions: unknown[] } };
      if (block.result.transactions.length !== txs) throw new Error(`block ${number} answered ${block.result.transactions.length} transactions, not ${txs}`);
      const m = await throughput(target, sizes, body);
      return { ...m, note: `block ${Number(number)} holds ${txs} txs` };
    },
  },
  {
    id: 'call',
    label: () => 'eth_call ERC20 balanceOf, same holder',
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, rpcBody('eth_call', [{ to: target.token, data: balanceOfData(target.main.address) }, 'latest'])),
  },
  {
    id: 'call-new',
    label: () => 'eth_call balanceOf, a new holder per request',
    unit: 'req/s',
    higherIsBetter: true,
    read: true,
    run: (target, sizes) => throughput(target, sizes, newAddressEach(rpcBody('eth_call', [{ to: target.token, data: balanceOfData(`0x${SLOT}`) }, 'latest']))),
  },
  {
    id: 'transfer-serial',
    label: (s) => `ERC20 transfer, send → receipt, one at a time (${s.transfersOneByOne})`,
    unit: 'tx/s',
    higherIsBetter: true,
    run: async (target, sizes) => {
      const raws = await signTransfers(target, target.main, sizes.transfersOneByOne);
      const latencies: number[] = [];
      const t0 = performance.now();
      await sendSequentially(target, raws, latencies);
      return tx(raws.length, (performance.now() - t0) / 1000, latencies);
    },
  },
  {
    id: 'transfer-parallel',
    label: (s) => `ERC20 transfer, ${SENDERS} senders in flight (${SENDERS * s.transfersPerSender})`,
    unit: 'tx/s',
    higherIsBetter: true,
    run: async (target, sizes) => {
      const perSender = await Promise.all(target.senders.map((w) => signTransfers(target, w, sizes.transfersPerSender)));
      const latencies: number[] = [];
      const before = Number(BigInt(await rpc<string>(target.url, 'eth_blockNumber')));
      const t0 = performance.now();
      await Promise.all(perSender.map((raws) => sendSequentially(target, raws, latencies)));
      const seconds = (performance.now() - t0) / 1000;
      const blocks = Number(BigInt(await rpc<string>(target.url, 'eth_blockNumber'))) - before;
      return { ...tx(latencies.length, seconds, latencies), note: `${latencies.length} txs in ${blocks} blocks` };
    },
  },
  {
    id: 'snapshot',
    label: () => 'evm_snapshot + 1 ERC20 tx + evm_revert',
    unit: 'ms',
    higherIsBetter: false,
    run: async (target, sizes) => {
      // After each revert the nonce is back, so every cycle's transaction takes the same nonce; the
      // amounts differ, as anvil refuses a transaction hash it has seen before the revert.
      const nonce = target.nonces.get(target.main.address)!;
      const raws = await signTransfers(target, target.main, sizes.snapshotCycles, { sameNonce: true });
      const cycles: number[] = [];
      let resent = 0;
      for (const raw of raws) {
        const t0 = performance.now();
        const id = await rpc<string>(target.url, 'evm_snapshot');
        resent += await sendAfterRevert(target.url, raw);
        const reverted = await rpc<boolean>(target.url, 'evm_revert', [id]);
        if (reverted !== true) throw new Error(`evm_revert(${id}) answered ${String(reverted)}`);
        cycles.push(performance.now() - t0);
      }
      target.nonces.set(target.main.address, nonce);
      const mean = cycles.reduce((a, b) => a + b, 0) / cycles.length;
      const note = resent === 0 ? undefined : `sends refused as "replacement transaction underpriced" and sent again: ${resent} (the wait is in the cycle's time)`;
      return { value: mean, p50: quantile(cycles, 0.5), p99: quantile(cycles, 0.99), note };
    },
  },
  {
    id: 'event-blocks',
    label: (s) => `mine ${s.eventBlocks.toLocaleString('en-US')} blocks with one event each`,
    unit: 'blocks/s',
    higherIsBetter: true,
    run: async (target, sizes, state) => {
      const raws = await signTransfers(target, target.main, sizes.eventBlocks);
      const first = Number(BigInt(await rpc<string>(target.url, 'eth_blockNumber'))) + 1;
      const latencies: number[] = [];
      const t0 = performance.now();
      await sendSequentially(target, raws, latencies);
      const seconds = (performance.now() - t0) / 1000;
      const last = Number(BigInt(await rpc<string>(target.url, 'eth_blockNumber')));
      const range: EventRange = { from: `0x${first.toString(16)}`, to: `0x${last.toString(16)}`, logs: raws.length };
      state.set('events', range);
      return { ...tx(last - first + 1, seconds, latencies), note: `${raws.length} txs in ${last - first + 1} blocks` };
    },
  },
  {
    id: 'getLogs',
    label: (s) => `eth_getLogs, ${s.eventBlocks.toLocaleString('en-US')} blocks, ${s.eventBlocks.toLocaleString('en-US')} logs`,
    unit: 'ms',
    higherIsBetter: false,
    run: async (target, sizes, state) => {
      const range = state.get('events') as EventRange | undefined;
      if (range === undefined) return undefined;
      const params = [{ fromBlock: range.from, toBlock: range.to, address: target.token }];
      const logs = await rpc<unknown[]>(target.url, 'eth_getLogs', params);
      if (logs.length !== range.logs) throw new Error(`eth_getLogs found ${logs.length} logs, expected ${range.logs}`);
      const times: number[] = [];
      for (let i = 0; i < sizes.getLogsRuns; i++) {
        const t0 = performance.now();
        await rpc(target.url, 'eth_getLogs', params);
        times.push(performance.now() - t0);
      }
      return { value: median(times), p50: median(times), p99: quantile(times, 0.99) };
    },
  },
  {
    id: 'trace-call',
    label: (s) => `debug_traceTransaction callTracer, each tx of a block of ${s.tracedTransfers} ERC20 transfers`,
    unit: 'ms',
    higherIsBetter: false,
    run: (target, sizes, state) => traceAll(target, sizes, state, { tracer: 'callTracer' }),
  },
  {
    id: 'trace-struct',
    label: (s) => `debug_traceTransaction struct logs (default), each tx of the ${s.tracedTransfers}-transfer block`,
    unit: 'ms',
    higherIsBetter: false,
    run: (target, sizes, state) => (target.node.spec.id === 'anvil' ? traceOnStepsTracingAnvil(sizes) : traceAll(target, sizes, state, undefined)),
  },
  {
    id: 'suite',
    label: (s) => `Hardhat-style suite, ${s.suiteTests.toLocaleString('en-US')} tests (revert to fixture + snapshot, 1 send, 1 read)`,
    unit: 's',
    higherIsBetter: false,
    run: async (target, sizes) => {
      // Every test starts from the fixture, so every test's transfer takes the same nonce (amounts
      // differ: anvil refuses a hash it saw before a revert), as a suite's loadFixture does.
      const { url } = target;
      const nonce = target.nonces.get(target.main.address)!;
      const raws = await signTransfers(target, target.main, sizes.suiteTests, { sameNonce: true });
      const read = [{ to: target.token, data: balanceOfData(RECIPIENT) }, 'latest'];
      let fixture = await rpc<string>(url, 'evm_snapshot');
      const tests: number[] = [];
      let resent = 0;
      const t0 = performance.now();
      for (const raw of raws) {
        const t = performance.now();
        if ((await rpc<boolean>(url, 'evm_revert', [fixture])) !== true) throw new Error(`evm_revert(${fixture}) did not revert`);
        fixture = await rpc<string>(url, 'evm_snapshot');
        resent += await sendAfterRevert(url, raw);
        await rpc<string>(url, 'eth_call', read);
        tests.push(performance.now() - t);
      }
      const seconds = (performance.now() - t0) / 1000;
      await rpc(url, 'evm_revert', [fixture]);
      target.nonces.set(target.main.address, nonce);
      const note = resent === 0 ? undefined : `sends refused as "replacement transaction underpriced" and sent again: ${resent}`;
      return { value: seconds, p50: quantile(tests, 0.5), p99: quantile(tests, 0.99), note };
    },
  },
  {
    id: 'memory',
    label: () => 'resident memory after the write workloads',
    unit: 'MiB',
    higherIsBetter: false,
    run: async (target) => ({ value: residentMiB(target.node.pid) }),
  },
];
