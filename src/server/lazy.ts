/**
 * What the RPC path never needs loads on first use, to keep the node's start-up short: Express (the
 * status page, the dashboard and its API) on the first request it serves, `ws` on the first
 * WebSocket upgrade. Loading them at start cost about 15% of the CPU time to the first answer.
 */
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { StatusInfo } from './app.js';
import type { Gateway } from '../gateway/gateway.js';
import type { WebSocketLimits, WebSocketRoute } from './websocket.js';

/** The Express app as a request listener; the first request loads and builds it. */
export function lazyApp(status: StatusInfo, gateway: Gateway): RequestListener {
  let app: Promise<RequestListener> | undefined;
  return (req, res) => {
    // The request stream stays paused (and buffers its body) until Express reads it.
    app ??= import('./app.js').then(({ createApp }) => createApp(status, gateway) as RequestListener);
    app.then(
      (listener) => listener(req, res),
      () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Internal server error: the dashboard could not be loaded' }));
      },
    );
  };
}

/**
 * WebSocket support on `server`: the first upgrade loads websocket.ts (and `ws`), which takes over
 * the 'upgrade' event; the upgrades that arrived meanwhile are handed to it in order.
 */
export function attachWebSocketLazily(server: Server, route: WebSocketRoute, limits?: WebSocketLimits): void {
  let loading: Promise<void> | undefined;
  const first = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Without a listener, a peer reset while `ws` loads would crash the process.
    socket.on('error', () => socket.destroy());
    loading ??= import('./websocket.js').then(({ attachWebSocket }) => {
      server.off('upgrade', first);
      attachWebSocket(server, route, limits);
    });
    loading.then(
      () => server.emit('upgrade', req, socket, head),
      () => socket.destroy(),
    );
  };
  // An 'upgrade' listener must exist from the start: without one Node closes upgrade requests.
  server.on('upgrade', first);
}
