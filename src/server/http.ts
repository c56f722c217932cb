/**
 * One node:http server. RPC POSTs to `/<apiKey>` take a lean path (read body -> auth ->
 * dispatcher) measured at about 48k req/s against Express's 5.6k when chosen
 * (docs/decisions.md#json-rpc-envelope-and-http); everything else
 * goes to `other`, the Express app (server/lazy.ts).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALT_PATH_PREFIX } from '../gateway/gateway.js';

/** Largest request body accepted: room for a 1,000-call batch of large raw transactions. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Request line and headers must arrive within this: a slow-loris client otherwise holds a socket (Node: 60 s). */
export const HTTP_HEADER_TIMEOUT_MS = 10_000;
/** The whole request, body included: 16 MB takes well under a second locally; an unfinished body was held about 325 s. */
export const HTTP_REQUEST_TIMEOUT_MS = 30_000;
/** A keep-alive connection idle this long between requests is closed; above undici's 4 s so clients close first. */
export const HTTP_IDLE_TIMEOUT_MS = 5_000;
/** Open connections (HTTP and WebSocket): leaves the databases room under a default 1,024 file-descriptor limit. */
export const MAX_CONNECTIONS = 512;

/** Slow-client protection of the HTTP server (and of WebSocket upgrades on it). */
export interface HttpLimits {
  /** Time to receive the request line and headers (HTTP_HEADER_TIMEOUT_MS). */
  headerTimeoutMs?: number;
  /** Time to receive the whole request, body included (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Keep-alive idle time between requests (HTTP_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** Open connections at once; more are closed as they arrive (MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Open connections of one client address (default its share of maxConnections: server/connection-guard.ts). */
  maxConnectionsPerAddress?: number;
}

export interface RpcResult {
  status: number;
  /** Text, or the chunks of a big answer assembled as bytes (rpc/raw-json.ts), written in order. */
  body: string | readonly Buffer[];
  /** Extra response headers as name, value pairs (the flat form writeHead takes). */
  headers?: readonly string[];
}

/** The request headers a key's options judge (gateway/allowlist.ts, gateway/jwt-keys.ts). */
export interface RpcRequestHeaders {
  origin?: string;
  authorization?: string;
}

export interface RpcRoute {
  /**
   * Answers the RPC call posted to `/<key>` or `/v2/<key>`; `remote` is the client's address (ban
   * list, reputation, allowed IP ranges). A promise only when the answer must wait for one (an
   * asynchronous method, a JWT check, a quota): the rest are answered in the same tick.
   */
  handle(key: string, body: string, remote?: string, headers?: RpcRequestHeaders): RpcResult | Promise<RpcResult>;
  /** Body of an error response for a request rejected before dispatch (e.g. too large). */
  errorBody(code: number, message: string): string;
}

/** The RPC path serves dApps in browsers: any origin may call it (the dashboard API is not CORS-open). */
const JSON_HEADERS = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
/** JSON_HEADERS as name, value pairs (writeHead takes a flat array). */
const JSON_HEADER_PAIRS = Object.entries(JSON_HEADERS).flat();
/**
 * JSON_HEADER_PAIRS and the content length, whose value `respond` sets before each writeHead:
 * writeHead reads the array once, synchronously, and keeps nothing of it, so one array serves
 * every answer without extra headers (issue 25: no array built per request).
 */
const ANSWER_HEADERS: (string | number)[] = [...JSON_HEADER_PAIRS, 'content-length', 0];
const ANSWER_LENGTH_INDEX = ANSWER_HEADERS.length - 1;
const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-max-age': '86400',
};
/**
 * `/<key>`, or the alternative provider's `/v2/<key>` (ALT_PATH_PREFIX; the same keys answer at
 * both). An empty key, plain `/`, is still an RPC call: it gets the 401 answer.
 */
const RPC_PATH = new RegExp(`^(?:${ALT_PATH_PREFIX}(?=/))?/([^/?#]*)/?(?:\\?.*)?$`);

export function createHttpServer(rpc: RpcRoute, other: RequestListener, limits: HttpLimits = {}): Server {
  const headerTimeout = Math.ceil(limits.headerTimeoutMs ?? HTTP_HEADER_TIMEOUT_MS);
  const requestTimeout = Math.ceil(limits.requestTimeoutMs ?? HTTP_REQUEST_TIMEOUT_MS);
  const server = createServer(
    {
      // Node rejects a headers timeout above the request timeout.
      headersTimeout: Math.min(headerTimeout, requestTimeout),
      requestTimeout,
      keepAliveTimeout: Math.ceil(limits.idleTimeoutMs ?? HTTP_IDLE_TIMEOUT_MS),
      // Node checks both timeouts on this interval (default 30 s): often enough to keep them.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(Math.min(headerTimeout, requestTimeout) / 4))),
    },
    (req, res) => {
      const key = req.method === 'POST' || req.method === 'OPTIONS' ? apiKeyOf(req.url) : undefined;
      if (key === undefined || key === 'api') {
        other(req, res);
        return;
      }
      if (req.method === 'OPTIONS') {
        const requested = req.headers['access-control-request-headers'];
        res.writeHead(204, { ...PREFLIGHT_HEADERS, 'access-control-allow-headers': typeof requested === 'string' ? requested : 'content-type' });
        res.end();
        return;
      }
      serveRpc(rpc, key, req, res);
    },
  );
  // Over the cap, Node closes each new socket at once (its 'drop' event); open ones go on working.
  server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
  return server;
}

/** The last path `apiKeyOf` read and its key: a client sends its requests to one URL. */
let lastUrl: string | undefined;
let lastKey: string | undefined;

/** The key in an RPC path `/<key>`; undefined when the path is not one. */
export function apiKeyOf(url: string | undefined): string | undefined {
  if (url === lastUrl && url !== undefined) return lastKey;
  const match = RPC_PATH.exec(url ?? '');
  let key: string | undefined;
  if (match === null) key = undefined;
  else {
    try {
      key = decodeURIComponent(match[1]!);
    } catch {
      // A malformed %-escape must not throw inside a request callback; it just matches no key.
      key = match[1]!;
    }
  }
  lastUrl = url;
  lastKey = key;
  return key;
}

function serveRpc(rpc: RpcRoute, key: string, req: IncomingMessage, res: ServerResponse): void {
  // A read's body arrives in one chunk: an array only for the chunks after it.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      tooLarge = true;
      res.writeHead(413, { ...JSON_HEADERS, connection: 'close' });
      res.end(rpc.errorBody(-32600, `Request body too large: the limit is ${MAX_BODY_BYTES} bytes`));
      req.resume();
      return;
    }
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return;
    const body = more !== undefined ? Buffer.concat(more).toString('utf8') : first === undefined ? '' : first.toString('utf8');
    let result: RpcResult | Promise<RpcResult>;
    try {
      // Node has built req.headers already (ServerResponse reads them): passing them costs nothing.
      result = rpc.handle(key, body, req.socket.remoteAddress, req.headers);
    } catch {
      internalError(rpc, res);
      return;
    }
    if (result instanceof Promise) result.then((answer) => respond(res, answer), () => internalError(rpc, res));
    else respond(res, result);
  });
  req.on('error', () => res.destroy());
}

function respond(res: ServerResponse, result: RpcResult): void {
  // With its length known, the answer goes out in one write instead of chunked framing.
  const { body } = result;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : byteLengthOf(body);
  let headers: (string | number)[];
  if (result.headers === undefined) {
    headers = ANSWER_HEADERS;
    headers[ANSWER_LENGTH_INDEX] = length;
  } else {
    headers = [...JSON_HEADER_PAIRS, ...result.headers, 'content-length', length];
  }
  res.writeHead(result.status, headers as string[]);
  if (typeof body === 'string') {
    res.end(body);
    return;
  }
  // Corked (end() uncorks): the chunks leave in one writev, nothing copied again.
  res.cork();
  for (const chunk of body) res.write(chunk);
  res.end();
}

function byteLengthOf(chunks: readonly Buffer[]): number {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return length;
}

function internalError(rpc: RpcRoute, res: ServerResponse): void {
  res.writeHead(500, JSON_HEADERS);
  res.end(rpc.errorBody(-32603, 'Internal server error'));
}

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
