/**
 * WebSocket on the RPC path (`ws://host:port/<API_KEY>`), same key check as HTTP. Each message is
 * a JSON-RPC request or batch through the dispatcher; each connection has its own subscriptions,
 * which end when it closes.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { MAX_BODY_BYTES, apiKeyOf } from './http.js';

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

export function attachWebSocket(server: Server, route: WebSocketRoute): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
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
      const connection = route.open(key, (message) => client.send(message), remote, (code, reason) => client.close(code, reason));
      client.on('message', (data, isBinary) => {
        if (isBinary) return;
        connection.handle(data.toString()).then(
          (reply) => client.send(reply),
          () => client.close(1011, 'internal error'),
        );
      });
      client.on('close', () => connection.close());
      client.on('error', () => client.terminate());
    });
  });
  return wss;
}
