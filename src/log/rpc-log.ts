/**
 * `--log-level debug`: one line per JSON-RPC method called, with its network. Never the params:
 * they can hold passwords (personal_unlockAccount) and private keys (personal_importRawKey).
 */
import type { Logger } from '../logger.js';

/** A method name is the caller's text: cut it short and keep control characters out of the terminal. */
const MAX_METHOD_CHARS = 64;

export type RpcCallLog = (network: string, request: unknown) => void;

/** Logs the methods of a parsed request or batch (invalid entries are shown as such). */
export function rpcCallLogger(logger: Logger): RpcCallLog {
  return (network, request) => {
    if (!logger.isLevelEnabled('debug')) return;
    for (const call of Array.isArray(request) ? request : [request]) logger.debug(`${network} rpc ${methodOf(call)}`);
  };
}

function methodOf(call: unknown): string {
  const method = typeof call === 'object' && call !== null ? (call as { method?: unknown }).method : undefined;
  if (typeof method !== 'string') return '(invalid request)';
  const shown = method.length > MAX_METHOD_CHARS ? `${method.slice(0, MAX_METHOD_CHARS)}...` : method;
  return /^[\w.-]*$/.test(shown) ? shown : JSON.stringify(shown);
}
