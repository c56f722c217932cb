/**
 * JSON-RPC over HTTP to the node a fork reads from (rskj, the hosted gateway, another rsk-devnode),
 * with node's own fetch: single calls and batches (rskj refuses batches over 50), retries with
 * backoff on rate limits (HTTP 429, -32005 and the messages alloy treats as retryable, honouring
 * Retry-After), and a count of the HTTP requests sent (the hosted gateway allows 25,000 a day).
 * A call that still fails after the retries throws RemoteError: a failed read never becomes a value.
 */
import { ChainError } from '../base/errors.js';

/** rskj's rpc.providers.web.max_batch_requests_size: a larger batch is refused whole. */
export const MAX_REMOTE_BATCH = 50;
/** Retries after the first attempt (anvil's default is 8; a test suite should fail rather than hang). */
export const DEFAULT_RETRIES = 5;
/** The first backoff; each retry doubles it (anvil starts at 800 ms; RSK blocks are 30 s apart anyway). */
export const DEFAULT_BACKOFF_MS = 500;
/** The longest wait between attempts, Retry-After included: a gateway asking for hours is an error now. */
export const MAX_BACKOFF_MS = 30_000;
/** One HTTP exchange's time limit (anvil's is 45 s). */
export const REQUEST_TIMEOUT_MS = 45_000;

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** A remote read that failed: the remote refused it, or could not be reached after the retries. */
export class RemoteError extends ChainError {
  constructor(
    message: string,
    /** The remote's JSON-RPC error code, when it answered one. */
    readonly code?: number,
  ) {
    super('remoteFailed', message);
    this.name = 'RemoteError';
  }
}

/**
 * A remote URL as messages show it: `https://host/…` when it has a path or query (where a
 * gateway keeps its API key), else the origin. Errors reach RPC callers and the status page.
 */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.length > 1 || parsed.search !== '' ? `${parsed.origin}/…` : parsed.origin;
  } catch {
    return '(unparsable URL)';
  }
}

export interface RemoteClientOptions {
  retries?: number;
  backoffMs?: number;
  /** Injectable for tests: waits `ms` milliseconds. */
  sleep?: (ms: number) => Promise<void>;
}

interface JsonRpcError {
  code?: number;
  message?: string;
}

interface JsonRpcResponse {
  id?: unknown;
  result?: unknown;
  error?: JsonRpcError;
}

/** Message fragments alloy's ErrorPayload::is_retry_err treats as a rate limit (reference fork-and-dump.md 1.1). */
const RETRY_MESSAGES = ['rate limit', 'rate exceeded', 'too many requests', 'credits limited', 'request limit', 'header not found', 'daily request count exceeded'];

/** alloy's list: 429, -32005 always, and the rate-limit messages (with or without their codes). */
export function isRetryableRpcError(error: JsonRpcError): boolean {
  if (error.code === 429 || error.code === -32005) return true;
  const message = (error.message ?? '').toLowerCase();
  return RETRY_MESSAGES.some((fragment) => message.includes(fragment));
}

/** Retry-After in milliseconds (seconds or an HTTP date), undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Thrown inside an attempt: retry after `waitMs` (undefined: the usual backoff). */
class Retryable extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
    /** No HTTP answer at all (refused, reset, timed out). */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

export class RemoteClient {
  /** HTTP requests sent, retries included (a batch is one). */
  requests = 0;
  private nextId = 1;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The URL as messages show it. */
  readonly label: string;

  constructor(
    readonly url: string,
    options: RemoteClientOptions = {},
  ) {
    this.retries = options.retries ?? DEFAULT_RETRIES;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.label = redactedUrl(url);
  }

  /**
   * One call's result; RemoteError if the remote answers an error or cannot be reached.
   * `retryUnreachable` false: a remote that cannot be reached fails at once (start-up checks say
   * so at once), while rate limits are still retried.
   */
  async call(method: string, params: unknown[], retryUnreachable = true): Promise<unknown> {
    const [result] = await this.withRetries([{ method, params }], retryUnreachable);
    return result;
  }

  /**
   * The results of `calls` in order, sent as batches of at most MAX_REMOTE_BATCH (one call goes
   * alone, not as a batch). Any call answering an error fails the whole: RemoteError.
   */
  async batch(calls: RpcCall[]): Promise<unknown[]> {
    const results: unknown[] = [];
    for (let start = 0; start < calls.length; start += MAX_REMOTE_BATCH) {
      results.push(...(await this.withRetries(calls.slice(start, start + MAX_REMOTE_BATCH), true)));
    }
    return results;
  }

  private async withRetries(calls: RpcCall[], retryUnreachable: boolean): Promise<unknown[]> {
    const what = calls.length === 1 ? calls[0]!.method : `a batch of ${calls.length} calls`;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(calls);
      } catch (err) {
        if (!(err instanceof Retryable)) throw err;
        const retries = err.unreachable && !retryUnreachable ? 0 : this.retries;
        if (attempt >= retries) {
          throw new RemoteError(`fork: ${what} to ${this.label} failed${retries > 0 ? ` after ${retries} retries` : ''}: ${err.message}`);
        }
        const backoff = this.backoffMs * 2 ** attempt;
        await this.sleep(Math.min(MAX_BACKOFF_MS, Math.max(backoff, err.waitMs ?? 0)));
      }
    }
  }

  /** One HTTP exchange: the results, Retryable on a rate limit or a network failure, RemoteError on any other error. */
  private async send(calls: RpcCall[]): Promise<unknown[]> {
    const requests = calls.map(({ method, params }) => ({ jsonrpc: '2.0', id: this.nextId++, method, params }));
    const body = JSON.stringify(requests.length === 1 ? requests[0] : requests);
    this.requests++;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new Retryable(`cannot reach the remote (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`, undefined, true);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 429) throw new Retryable('HTTP 429 Too Many Requests', retryAfterMs(response.headers.get('retry-after'), Date.now()));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (response.status >= 500) throw new Retryable(`HTTP ${response.status}`);
      throw new RemoteError(`fork: ${this.label} answered HTTP ${response.status} without JSON-RPC: ${text.slice(0, 200)}`);
    }
    // A batch refused whole (rskj over its limit, a gateway's rate limit) comes back as one error
    // object, which answers every call of it; otherwise each call has its answer by id.
    const byId = new Map(Array.isArray(parsed) ? (parsed as JsonRpcResponse[]).map((answer) => [answer?.id, answer]) : []);
    const answerTo = (id: number): JsonRpcResponse | undefined => {
      if (Array.isArray(parsed)) return byId.get(id);
      const single = (parsed ?? undefined) as JsonRpcResponse | undefined;
      return requests.length === 1 || single?.error != null ? single : undefined;
    };
    return requests.map((request) => {
      const answer = answerTo(request.id);
      const error = answer?.error;
      if (error !== undefined && error !== null) {
        if (isRetryableRpcError(error)) throw new Retryable(`${error.code ?? ''} ${error.message ?? ''}`.trim(), retryAfterMs(response.headers.get('retry-after'), Date.now()));
        throw new RemoteError(`fork: ${request.method} failed on ${this.label}: ${error.message ?? 'error'} (code ${error.code ?? '?'})`, error.code);
      }
      if (answer === undefined || !('result' in answer)) throw new RemoteError(`fork: ${this.label} gave no answer to ${request.method}`);
      return answer.result;
    });
  }
}
