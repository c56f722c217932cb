/**
 * WebSocket on the RPC path (`ws://host:port/<API_KEY>` or `/v2/<API_KEY>`), same key check as
 * HTTP, and the same key options judged on the upgrade request (its Origin, its address, its JWT
 * from the Authorization header or, for browsers, which cannot set headers on a WebSocket, the
 * `access_token` query parameter of RFC 6750). Each message is
 * a JSON-RPC request or batch through the dispatcher; each connection has its own subscriptions,
 * which end when it closes. Slow clients are dropped: one that leaves more than maxBufferedBytes
 * unread (a subscriber that stopped reading), or that has not answered the previous ping when the
 * next one is due. Beside the RPC paths, side sockets with rules of their own (the explorer's
 * live updates, explorer-socket.ts) are served by the same server.
 */
import { type IncomingMessage, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { MAX_BODY_BYTES, type RpcRequestHeaders, apiKeyOf } from './http.js';

/** The query parameter that may carry the JWT on an upgrade (RFC 6750 section 2.3's name). */
export const WS_TOKEN_PARAM = 'access_token';

/** Bytes a client may leave unread before it is dropped: what it does not read stays in our memory. */
export const WS_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** A ping to every client this often; one that has not answered the previous ping is dropped. */
export const WS_PING_INTERVAL_MS = 30_000;

export interface WebSocketLimits {
  /** Default WS_MAX_BUFFERED_BYTES (--ws-max-buffered). */
  maxBufferedBytes?: number;
  /** Default WS_PING_INTERVAL_MS (--ws-ping-interval). */
  pingIntervalMs?: number;
}

export interface WebSocketConnection {
  handle(message: string): Promise<string>;
  close(): void;
}

/** An upgrade refused: the HTTP status and JSON body it is answered with. */
export interface UpgradeRefusal {
  status: number;
  body: string;
}

export interface WebSocketRoute {
  /**
   * Judges an upgrade: undefined lets it through, else its refusal (an unknown key: 401; a key's
   * options: 401 or 403). `remote`: the socket's remote address (ban list, reputation, IP ranges).
   */
  admit(key: string, remote: string | undefined, headers: RpcRequestHeaders): Promise<UpgradeRefusal | undefined>;
  /** `disconnect` closes the socket (the gate uses it when the client's address gets banned). */
  open(key: string, send: (message: string) => void, remote?: string, disconnect?: (code: number, reason: string) => void, headers?: RpcRequestHeaders): WebSocketConnection;
  /** Body of the 401 answer to an upgrade on a path that is no RPC path. */
  unauthorizedBody(): string;
  /** Body of the 403 answer to an upgrade from a banned address; undefined when not banned. */
  forbidden?(remote: string | undefined): string | undefined;
  /** Paths served beside the RPC paths, judged by their own rules instead of a key's. */
  sideSockets?: SideSocket[];
}

/** A socket on a path of its own beside the RPC paths, with rules of its own (the explorer's: explorer-socket.ts). */
export interface SideSocket {
  matches(url: string | undefined): boolean;
  /** Undefined lets the upgrade through, else its refusal. */
  admit(url: string | undefined, remote: string | undefined): UpgradeRefusal | undefined;
  open(url: string | undefined, send: (message: string) => void): WebSocketConnection;
}

export function attachWebSocket(server: Server, route: WebSocketRoute, limits: WebSocketLimits = {}): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const maxBuffered = limits.maxBufferedBytes ?? WS_MAX_BUFFERED_BYTES;
  const answered = new WeakSet<WebSocket>();
  const pings = setInterval(() => {
    for (const client of wss.clients) {
      if (!answered.has(client)) {
        client.terminate();
        continue;
      }
      answered.delete(client);
      client.ping();
    }
  }, limits.pingIntervalMs ?? WS_PING_INTERVAL_MS);
  pings.unref();
  server.on('close', () => clearInterval(pings));
  /** Sends unless the client is gone; drops it when it reads too slowly. */
  const sendTo = (client: WebSocket, message: string) => {
    if (client.readyState !== WebSocket.OPEN) return;
    client.send(message);
    // A close frame would wait behind what the client does not read: cut the connection.
    if (client.bufferedAmount > maxBuffered) client.terminate();
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the raw socket over without its error handler: a peer reset must not crash us.
    socket.on('error', () => socket.destroy());
    const remote = req.socket.remoteAddress;
    const side = route.sideSockets?.find((candidate) => candidate.matches(req.url));
    const key = side === undefined ? apiKeyOf(req.url) : undefined;
    // A banned address (on a connection opened before its ban: new ones are cut at accept) gets 403 on every socket path.
    const forbidden = side === undefined && key === undefined ? undefined : route.forbidden?.(remote);
    if (forbidden !== undefined) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${forbidden}`);
      return;
    }
    if (side !== undefined) {
      const refusal = side.admit(req.url, remote);
      if (refusal !== undefined) {
        socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${refusal.body}`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (client) => serveConnection(client, side.open(req.url, (message) => sendTo(client, message))));
      return;
    }
    if (key === undefined) {
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${route.unauthorizedBody()}`);
      return;
    }
    const headers = upgradeHeaders(req);
    route.admit(key, remote, headers).then(
      (refusal) => {
        if (refusal !== undefined) {
          socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${refusal.body}`);
          return;
        }
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (client) => serve(client, key, remote, headers));
      },
      () => socket.destroy(),
    );
  });
  const serve = (client: WebSocket, key: string, remote: string | undefined, headers: RpcRequestHeaders) => {
    serveConnection(client, route.open(key, (message) => sendTo(client, message), remote, (code, reason) => client.close(code, reason), headers));
  };
  const serveConnection = (client: WebSocket, connection: WebSocketConnection) => {
    answered.add(client);
    client.on('pong', () => answered.add(client));
    client.on('message', (data, isBinary) => {
      if (isBinary) return;
      connection.handle(data.toString()).then(
        (reply) => sendTo(client, reply),
        () => client.close(1011, 'internal error'),
      );
    });
    client.on('close', () => connection.close());
    client.on('error', () => client.terminate());
  };
  return wss;
}

/** The headers the gate judges, the JWT taken from the query when no Authorization header came. */
function upgradeHeaders(req: IncomingMessage): RpcRequestHeaders {
  const { origin, authorization } = req.headers;
  if (authorization !== undefined) return { origin, authorization };
  const query = (req.url ?? '').indexOf('?');
  const token = query < 0 ? null : new URLSearchParams(req.url!.slice(query + 1)).get(WS_TOKEN_PARAM);
  return { origin, authorization: token === null ? undefined : `Bearer ${token}` };
}
