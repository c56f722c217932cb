/**
 * The bench's HTTP client: node:http over a keep-alive Agent, one JSON-RPC request per round trip
 * (no batching), so every node pays the same client cost.
 */
import http from 'node:http';

/** Connections, and requests in flight, for the read workloads (as in issue 11). */
export const READ_CONNECTIONS = 32;

/** A node that holds a request open this long fails that workload instead of stalling the run. */
const REQUEST_TIMEOUT_MS = 60_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: READ_CONNECTIONS, maxFreeSockets: READ_CONNECTIONS });

export interface RpcError {
  code: number;
  message: string;
}

/**
 * POSTs `body` to `url` and resolves with the raw response text; rejects on a non-200 status.
 * A kept-alive socket the server closed while idle fails at once with ECONNRESET before the
 * request reached the node: that request is sent again (as Node's docs advise), as often as the
 * pool may hold stale sockets (after a pause longer than the server's idle timeout, all are).
 */
export async function post(url: URL, body: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(url, body);
    } catch (err) {
      if (!(err as { reusedSocketReset?: boolean }).reusedSocketReset || attempt >= READ_CONNECTIONS) throw err;
    }
  }
}

function postOnce(url: URL, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve(text);
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === 'ECONNRESET') Object.assign(err, { reusedSocketReset: true });
      reject(err);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.end(body);
  });
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

export interface LoadResult {
  /** Requests (or operations) completed per second over the timed window. */
  perSecond: number;
  count: number;
  p50: number;
  p99: number;
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

/**
 * Runs `op` from `concurrency` loops until `durationMs` has passed (or `total` ops when given),
 * after `warmupMs` of untimed load. `op(i)` gets a running index for per-request variation.
 */
export async function runLoad(options: {
  concurrency: number;
  durationMs?: number;
  total?: number;
  warmupMs?: number;
  op: (i: number, worker: number) => Promise<unknown>;
}): Promise<LoadResult> {
  const { concurrency, durationMs = Infinity, total = Infinity, warmupMs = 0, op } = options;
  let next = 0;
  if (warmupMs > 0) {
    const warmEnd = performance.now() + warmupMs;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        while (performance.now() < warmEnd) await op(next++, w);
      }),
    );
  }
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + durationMs;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (done < total && performance.now() < end) {
        const t0 = performance.now();
        done++;
        await op(next++, w);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: latencies.length / seconds, count: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** A read op for runLoad: fails the run on a JSON-RPC error (a node that errors is not fast). */
export function readOp(url: URL, body: (i: number) => string): (i: number) => Promise<void> {
  return async (i) => {
    const text = await post(url, body(i));
    if (text.includes('"error"')) throw new Error(`error answer: ${text.slice(0, 300)}`);
  };
}
