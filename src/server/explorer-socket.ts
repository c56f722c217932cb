/**
 * The explorer's live updates: a WebSocket at /explorer/ws/<network> on which the home page takes
 * the node's own newHeads subscription (eth_subscribe) instead of polling. Its rules are the
 * explorer's (explorer.ts): loopback clients only, never on a --hosted node, and read-only: the
 * socket takes eth_subscribe("newHeads") and eth_unsubscribe, and refuses every other call before
 * the dispatcher. Kept apart from explorer.ts so that a WebSocket upgrade never loads Express.
 */
import type { NetworkName } from '../chain/index.js';
import type { Dispatcher } from '../rpc/dispatcher.js';
import { INVALID_JSON, parseJsonBody } from '../rpc/dispatcher.js';
import type { RpcContext } from '../rpc/context.js';
import { SubscriptionHost } from '../rpc/subscriptions.js';
import type { SideSocket } from './websocket.js';

const PATH = /^\/explorer\/ws\/(testnet|mainnet)\/?(?:\?.*)?$/;
/** The one subscription the pages take. */
const SUBSCRIPTION = 'newHeads';
/** Which filterOwner the explorer's subscriptions run as: no key, and no key can name it (keys never hold a space). */
const OWNER = 'explorer socket';

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** The reason the explorer refuses a client, or undefined when it serves it (its pages and its socket alike). */
export function explorerRefusal(hosted: boolean, remote: string | undefined): string | undefined {
  if (hosted) return 'The explorer is off on a --hosted node.';
  return isLoopbackAddress(remote) ? undefined : 'The explorer answers only on the machine the node runs on (a loopback address).';
}

export interface ExplorerSocketOptions {
  dispatcher: Dispatcher<RpcContext>;
  /** The node's per-network contexts (node.ts); each socket adds its own subscriptions. */
  contexts: Record<NetworkName, RpcContext>;
  hosted: boolean;
}

export function explorerSocket(options: ExplorerSocketOptions): SideSocket {
  const networkOf = (url: string | undefined) => PATH.exec(url ?? '')?.[1] as NetworkName | undefined;
  return {
    matches: (url) => networkOf(url) !== undefined,
    admit(_url, remote) {
      const refusal = explorerRefusal(options.hosted, remote);
      return refusal === undefined ? undefined : { status: 403, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: refusal } }) };
    },
    open(url, send) {
      const network = networkOf(url)!;
      const base = options.contexts[network];
      const subscriptions = new SubscriptionHost(base.chain, send, base.options.skipRemasc);
      const context: RpcContext = { ...base, subscriptions, filterOwner: OWNER };
      return {
        async handle(message) {
          const parsed = parseJsonBody(message);
          const refusal = refuseCalls(parsed);
          if (refusal !== undefined) return JSON.stringify(refusal);
          return (await options.dispatcher.handleParsed(parsed, { ...context, deadline: base.chain.execution.deadline(true) }, message)).body;
        },
        close: () => subscriptions.close(),
      };
    },
  };
}

/** A refusal when the message holds a call other than eth_subscribe("newHeads") or eth_unsubscribe; undefined lets the dispatcher judge it. */
function refuseCalls(parsed: unknown): unknown {
  if (parsed === INVALID_JSON) return undefined; // the dispatcher answers -32700 as for any client
  for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
    const { method, params, id } = (call ?? {}) as { method?: unknown; params?: unknown; id?: unknown };
    if (typeof method !== 'string') continue; // the dispatcher answers -32600
    const allowed = method === 'eth_unsubscribe' || (method === 'eth_subscribe' && Array.isArray(params) && params[0] === SUBSCRIPTION);
    if (!allowed) {
      const what = method === 'eth_subscribe' ? `eth_subscribe(${JSON.stringify(Array.isArray(params) ? params[0] : params)?.slice(0, 40)})` : method.slice(0, 80);
      return { jsonrpc: '2.0', id: id ?? null, error: { code: -32601, message: `the explorer's socket is read-only and offers only eth_subscribe("${SUBSCRIPTION}") and eth_unsubscribe, not ${what}` } };
    }
  }
  return undefined;
}
