/**
 * JSON-RPC over the bench's raw client (client.ts), one request per round trip (no batching), so
 * every node pays the same client cost: single calls for setup and the write rows, and the read
 * load (N connections, each with one request in flight) with the client's own CPU per request.
 */
import { ConnectionPool, requestHead, requestText, type Connection, type HttpResponse } from './client.js';

/** Connections, and requests in flight, for the read workloads (as in issues 11 and 25). */
export const READ_CONNECTIONS = 32;

export interface RpcError {
  code: number;
  message: string;
}

const pools = new Map<string, ConnectionPool>();
const heads = new Map<string, string>();

function poolOf(url: URL): ConnectionPool {
  let pool = pools.get(url.host);
  if (pool === undefined) {
    pool = new ConnectionPool(url.hostname, Number(url.port));
    pools.set(url.host, pool);
  }
  return pool;
}

function headOf(url: URL): string {
  let head = heads.get(url.href);
  if (head === undefined) {
    head = requestHead(url);
    heads.set(url.href, head);
  }
  return head;
}

/** Closes every kept-alive socket (a node being stopped, or the end of the run). */
export function closeConnections(url?: URL): void {
  for (const [host, pool] of pools) {
    if (url !== undefined && host !== url.host) continue;
    pool.close();
    pools.delete(host);
  }
}

const checked = (response: HttpResponse): string => {
  const text = response.body.toString('utf8');
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text;
};

/** POSTs `body` to `url` and resolves with the response text; rejects on a non-200 status. */
export async function post(url: URL, body: string): Promise<string> {
  return checked(await poolOf(url).send(requestText(headOf(url), body)));
}

export function rpcBody(method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** One JSON-RPC call; throws the node's error as an Error. */
export async function rpc<T = unknown>(url: URL, method: string, params: unknown[] = []): Promise<T> {
  const json = JSON.parse(await post(url, rpcBody(method, params))) as { result?: T; error?: RpcError };
  if (json.error) throw new Error(`${method}: ${json.error.message} (${json.error.code})`);
  return json.result as T;
}

/** The q-quantile (0..1) of unsorted latencies, in ms. */
export function quantile(samples: number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function median(samples: number[]): number {
  return quantile(samples, 0.5);
}

export interface LoadResult {
  /** Requests completed per second over the timed window. */
  perSecond: number;
  count: number;
  p50: number;
  p99: number;
  /** The bench process's CPU (user + system) per request over the timed window, µs. */
  clientCpuUs: number;
}

const ERROR_MEMBER = Buffer.from('"error"');

/**
 * Read load: `connections` connections, each sending its next request as soon as the previous
 * answer is in, for `durationMs` after `warmupMs` of untimed load. `body` is the JSON-RPC body:
 * one string for every request (the whole request is then built once), or one per request index.
 * An answer that is not 200 or holds an "error" member fails the run (a node that errors is not fast).
 */
export async function readLoad(options: {
  url: URL;
  connections: number;
  durationMs: number;
  warmupMs: number;
  body: string | ((i: number) => string);
}): Promise<LoadResult> {
  const { url, connections, durationMs, warmupMs, body } = options;
  const head = headOf(url);
  const fixed = typeof body === 'string' ? requestText(head, body) : undefined;
  const request = fixed !== undefined ? () => fixed : (i: number) => requestText(head, (body as (i: number) => string)(i));
  const pool = new ConnectionPool(url.hostname, Number(url.port));
  const open = Array.from({ length: connections }, () => pool.create());
  let next = 0;
  const latencies: number[] = [];
  const loop = async (connection: Connection, until: number, record: boolean) => {
    for (;;) {
      const t0 = performance.now();
      if (t0 >= until) return;
      const response = await connection.send(request(next++));
      if (response.status !== 200 || response.body.indexOf(ERROR_MEMBER) >= 0) {
        throw new Error(`error answer: HTTP ${response.status} ${response.body.toString('utf8', 0, 300)}`);
      }
      if (record) latencies.push(performance.now() - t0);
    }
  };
  try {
    const warmEnd = performance.now() + warmupMs;
    await Promise.all(open.map((c) => loop(c, warmEnd, false)));
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    await Promise.all(open.map((c) => loop(c, started + durationMs, true)));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const count = latencies.length;
    return {
      perSecond: count / seconds,
      count,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      clientCpuUs: (cpu.user + cpu.system) / count,
    };
  } finally {
    pool.close();
  }
}
