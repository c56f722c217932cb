/**
 * The workloads of issue 11's table, in its order. Each runs against one prepared node; index.ts
 * runs a workload on every node before going to the next one.
 */
import { READ_CONNECTIONS, median, post, quantile, readOp, rpc, rpcBody, runLoad } from './load.js';
import { residentMiB, startNode, type NodeSpec } from './peers.js';
import { SENDERS, balanceOfData, sendAndWait, signTransfers, type BenchTarget } from './setup.js';

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
}

export const FULL: Sizes = {
  readMs: 3_000,
  warmupMs: 500,
  coldStarts: 3,
  transfersOneByOne: 300,
  transfersPerSender: 50,
  snapshotCycles: 100,
  eventBlocks: 2_000,
  getLogsRuns: 20,
};

export const QUICK: Sizes = {
  readMs: 1_000,
  warmupMs: 200,
  coldStarts: 1,
  transfersOneByOne: 50,
  transfersPerSender: 10,
  snapshotCycles: 20,
  eventBlocks: 200,
  getLogsRuns: 5,
};

export type Unit = 'ms' | 'req/s' | 'tx/s' | 'blocks/s' | 'MiB';

export interface Measurement {
  value: number;
  /** Latency of one request or operation, ms. */
  p50?: number;
  p99?: number;
  note?: string;
  /** Why the node could not run the workload (value is then NaN). */
  failed?: string;
}

/** How rsk-devnode's value is judged: against a peer's value times a factor, or a fixed bound. */
export type Target = { peer: NodeSpec['id']; factor: number } | { bound: number };

export interface Workload {
  id: string;
  label: (sizes: Sizes) => string;
  unit: Unit;
  /** Whether a higher value is better (throughput) or a lower one (time, memory). */
  higherIsBetter: boolean;
  target: Target;
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

const throughput = async (target: BenchTarget, sizes: Sizes, body: (i: number) => string): Promise<Measurement> => {
  const r = await runLoad({ concurrency: READ_CONNECTIONS, durationMs: sizes.readMs, warmupMs: sizes.warmupMs, op: readOp(target.url, body) });
  return { value: r.perSecond, p50: r.p50, p99: r.p99 };
};

/** A distinct, never-used address per request index. */
const freshAddress = (i: number) => `0x${(0xbe1c0000000000 + i).toString(16).padStart(40, '0')}`;

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

export const WORKLOADS: Workload[] = [
  {
    id: 'cold-start',
    label: () => 'cold start: spawn → first eth_blockNumber answer',
    unit: 'ms',
    higherIsBetter: false,
    target: { bound: 250 },
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
    id: 'blockNumber',
    label: () => `eth_blockNumber, ${READ_CONNECTIONS} connections`,
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'anvil', factor: 0.9 },
    run: (target, sizes) => {
      const body = rpcBody('eth_blockNumber', []);
      return throughput(target, sizes, () => body);
    },
  },
  {
    id: 'getBalance',
    label: () => `eth_getBalance, ${READ_CONNECTIONS} connections`,
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'anvil', factor: 0.8 },
    run: (target, sizes) => {
      const body = rpcBody('eth_getBalance', [target.main.address, 'latest']);
      return throughput(target, sizes, () => body);
    },
  },
  {
    id: 'getBalance-new',
    label: () => 'eth_getBalance, a new address per request',
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'anvil', factor: 0.8 },
    run: (target, sizes) => throughput(target, sizes, (i) => rpcBody('eth_getBalance', [freshAddress(i), 'latest'])),
  },
  {
    id: 'getBlock',
    label: () => 'eth_getBlockByNumber(the block of 10 transfers, true)',
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'ganache', factor: 1 },
    run: async (target, sizes) => {
      // By number, not `latest`: ganache's miner_start leaves an empty block on top of the rich one,
      // and its `latest` answered 1.5 KB where the others answered the ten transfers (8-10 KB).
      const { number, txs } = target.richBlock;
      const body = rpcBody('eth_getBlockByNumber', [number, true]);
      const block = JSON.parse(await post(target.url, body)) as { result: { transactions: unknown[] } };
      if (block.result.transactions.length !== txs) throw new Error(`block ${number} answered ${block.result.transactions.length} transactions, not ${txs}`);
      const m = await throughput(target, sizes, () => body);
      return { ...m, note: `block ${Number(number)} holds ${txs} txs` };
    },
  },
  {
    id: 'call',
    label: () => 'eth_call ERC20 balanceOf',
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'anvil', factor: 0.5 },
    run: (target, sizes) => {
      const body = rpcBody('eth_call', [{ to: target.token, data: balanceOfData(target.main.address) }, 'latest']);
      return throughput(target, sizes, () => body);
    },
  },
  {
    id: 'call-new',
    label: () => 'eth_call balanceOf, a new holder per request',
    unit: 'req/s',
    higherIsBetter: true,
    target: { peer: 'anvil', factor: 0.5 },
    run: (target, sizes) => throughput(target, sizes, (i) => rpcBody('eth_call', [{ to: target.token, data: balanceOfData(freshAddress(i)) }, 'latest'])),
  },
  {
    id: 'transfer-serial',
    label: (s) => `ERC20 transfer, send → receipt, one at a time (${s.transfersOneByOne})`,
    unit: 'tx/s',
    higherIsBetter: true,
    target: { peer: 'hardhat', factor: 1 },
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
    target: { peer: 'hardhat', factor: 1 },
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
    target: { peer: 'anvil', factor: 1 },
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
    target: { peer: 'hardhat', factor: 1 },
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
    target: { peer: 'anvil', factor: 1 },
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
    id: 'memory',
    label: () => 'resident memory after the write workloads',
    unit: 'MiB',
    higherIsBetter: false,
    target: { bound: 120 },
    run: async (target) => ({ value: residentMiB(target.node.pid) }),
  },
];
