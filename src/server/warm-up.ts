/**
 * Background work a server starts once it is ready: what the node no longer loads at start-up but
 * the first transaction or call needs (node.ts: the chains' EVM side, the secp256k1 binding). It
 * starts when the first response is sent, so the first request (eth_blockNumber, eth_chainId, ...)
 * does not wait behind it, or after WARM_UP_DELAY_MS without one (WebSocket clients send none over
 * HTTP), so the first transaction or call mostly finds it loaded.
 */
import type { Server } from 'node:http';

export const WARM_UP_DELAY_MS = 200;

/** `delayMs`: for tests (a loaded machine may take longer than WARM_UP_DELAY_MS to send a first request). */
export function warmUpWhenReady(server: Server, warmUp: () => void, delayMs = WARM_UP_DELAY_MS): void {
  let settled = false;
  const settle = (run: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    server.off('request', onRequest);
    if (run) warmUp();
  };
  const onRequest = (_req: unknown, res: NodeJS.EventEmitter) => res.once('finish', () => settle(true));
  const timer = setTimeout(() => settle(true), delayMs).unref();
  server.on('request', onRequest);
  server.once('close', () => settle(false));
}
