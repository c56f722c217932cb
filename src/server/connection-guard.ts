/**
 * Who may hold a socket, decided when the connection is accepted, before a byte is read:
 *  - a banned address (sco_banAddress) is cut at once. Checked only per request, its half-sent
 *    requests held sockets until the header timeout, and 530 of them filled the node-wide cap
 *    (MAX_CONNECTIONS) so that other clients were turned away;
 *  - one address may hold only its share of the cap (ADDRESS_SHARE_OF_CONNECTIONS), so a single
 *    client cannot fill it either. The operator's own 127.0.0.1 and ::1, which the ban list also
 *    never refuses, may use the whole cap: test suites and load tests run there.
 * Connections open when their address gets banned get 403 on their next HTTP request: from the
 * gate on the RPC path (server/rpc-route.ts, which also closes a WebSocket with 1008), from
 * `refuseBanned` on the dashboard and its API.
 */
import type { RequestListener, Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressOf, isProtectedAddress } from '../gateway/ban-list.js';
import type { NodeClients } from '../rpc/context.js';

/**
 * The part of the connection cap one client address may hold: a quarter, so at least four
 * addresses are needed to fill the node. A browser opens 6 connections to a host and a load test
 * 32-64, well inside 128 of the default 512.
 */
export const ADDRESS_SHARE_OF_CONNECTIONS = 0.25;

/** Connections one address may hold under a node-wide cap of `maxConnections` (at least one). */
export function maxConnectionsPerAddress(maxConnections: number): number {
  return Math.max(1, Math.floor(maxConnections * ADDRESS_SHARE_OF_CONNECTIONS));
}

/** Refuses banned addresses and an address's connections past `perAddress` as they are accepted. */
export function guardConnections(server: Server, clients: NodeClients, perAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = clientAddressOf(socket.remoteAddress);
    // A peer gone before this event has no address left to judge; its socket is closed already.
    if (client === undefined) return;
    if (clients.bans.isBanned(client)) {
      clients.reputation.record(client, 'failedHandshakes');
      socket.destroy();
      return;
    }
    if (isProtectedAddress(client)) return;
    const count = open.get(client) ?? 0;
    if (count >= perAddress) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = open.get(client)! - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}

/** `listener` (the dashboard and its API) answering 403 to a banned client on a connection it opened before its ban. */
export function refuseBanned(listener: RequestListener, clients: NodeClients): RequestListener {
  return (req, res) => {
    const client = clientAddressOf(req.socket.remoteAddress);
    if (client === undefined || !clients.bans.isBanned(client)) {
      listener(req, res);
      return;
    }
    clients.reputation.record(client, 'failedHandshakes');
    res.writeHead(403, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ error: `Forbidden: requests from ${client} are banned on this node (sco_banAddress)` }));
  };
}
