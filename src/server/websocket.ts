/**
 * WebSocket on the RPC path (`ws://host:port/<API_KEY>`), same key check as HTTP. Each message is
 * a JSON-RPC request or batch through the dispatcher; each connection has its own subscriptions,
 * which end when it closes. Slow clients are dropped: one that leaves more than maxBufferedBytes
 * unread (a subscriber that stopped reading), or that has not answered the previous ping when the
 * next one is due.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { MAX_BODY_BYTES, apiKeyOf } from './http.js';

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

export interface WebSocketRoute {
  /** `remote`: the socket's remote address (for the ban list and client reputation). */
  accepts(key: string, remote?: string): boolean;
  /** `disconnect` closes the socket (the gate uses it when the client's address gets banned). */
  open(key: string, send: (message: string) => void, remote?: string, disconnect?: (code: number, reason: string) => void): WebSocketConnection;
  /** Body of the 401 answer to an upgrade with an unknown key. */
  unauthorizedBody(): string;
  /** Body of the 403 answer to an upgrade from a banned address; undefined when not banned. */
  forbidden?(remote: string | undefined): string | undefined;
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
    const key = apiKeyOf(req.url);
    const remote = req.socket.remoteAddress;
    const forbidden = key === undefined ? undefined : route.forbidden?.(remote);
    if (forbidden !== undefined) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${forbidden}`);
      return;
    }
    if (key === undefined || !route.accepts(key, remote)) {
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${route.unauthorizedBody()}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      answered.add(client);
      client.on('pong', () => answered.add(client));
      const connection = route.open(key, (message) => sendTo(client, message), remote, (code, reason) => client.close(code, reason));
      client.on('message', (data, isBinary) => {
        if (isBinary) return;
        connection.handle(data.toString()).then(
          (reply) => sendTo(client, reply),
          () => client.close(1011, 'internal error'),
        );
      });
      client.on('close', () => connection.close());
      client.on('error', () => client.terminate());
    });
  });
  return wss;
}
