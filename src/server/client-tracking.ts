/**
 * How the RPC traffic of a client address maps onto rskj's peer-scoring counters
 * (gateway/client-reputation.ts). rskj scores peers of the p2p protocol; a devnode's peers are its
 * RPC clients, so (docs/decisions.md#client-bans-and-reputation-sco_-bridge-state-module-list):
 *  - successfulHandshakes: an HTTP request or WebSocket upgrade let through by the gate;
 *  - failedHandshakes: one the gate refused (unknown or revoked key, banned address, quota);
 *  - validTransactions / invalidTransactions: eth_sendRawTransaction, eth_sendTransaction or
 *    personal_sendTransaction answered with a result / with an error;
 *  - validBlocks / invalidBlocks: a merged-mining solution (mnr_submitBitcoinBlock*) accepted / refused;
 *  - invalidMessages: a body that is not JSON or not a JSON-RPC request (an empty or oversized
 *    batch, an element without a method name, a bad id or jsonrpc member);
 *  - unexpectedMessages: a well-formed call to an unknown or unsupported method, or with params the
 *    method refuses (-32601, -32602);
 *  - invalidNetworks, repeatedMessages, timeoutMessages, invalidHeader: nothing on RPC matches; 0.
 * Other calls, answered or not, count only through their request's handshake.
 */
import type { NodeClients, RpcContext } from '../rpc/context.js';
import { Dispatcher } from '../rpc/dispatcher.js';
import { ErrorCode } from '../rpc/errors.js';
import type { JsonRpcResponse } from '../rpc/types.js';
import type { ClientEvent } from '../gateway/client-reputation.js';

const TRANSACTION_METHODS: ReadonlySet<string> = new Set(['eth_sendRawTransaction', 'eth_sendTransaction', 'personal_sendTransaction']);
const BLOCK_METHODS: ReadonlySet<string> = new Set(['mnr_submitBitcoinBlock', 'mnr_submitBitcoinBlockTransactions', 'mnr_submitBitcoinBlockPartialMerkle']);

/** Whether a batch element passes the dispatcher's envelope checks (dispatcher.ts, same order). */
function isWellFormed(request: unknown): request is { method: string } {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return false;
  const r = request as Record<string, unknown>;
  if (r.id !== undefined && r.id !== null && typeof r.id !== 'string' && typeof r.id !== 'number') return false;
  if (r.jsonrpc !== undefined && r.jsonrpc !== '2.0') return false;
  if (typeof r.method !== 'string' || r.method.length === 0) return false;
  return r.params === undefined || r.params === null || typeof r.params === 'object';
}

/** The counter one answered call adds to, if any. */
export function classifyCall(request: unknown, response: JsonRpcResponse): ClientEvent | undefined {
  // A call answered with a result passed the dispatcher's envelope checks (most calls: one look).
  if (!('error' in response)) {
    const method = (request as { method: string }).method;
    return TRANSACTION_METHODS.has(method) ? 'validTransactions' : BLOCK_METHODS.has(method) ? 'validBlocks' : undefined;
  }
  if (!isWellFormed(request)) return 'invalidMessages';
  const code = response.error.code;
  if (code === ErrorCode.MethodNotFound) return 'unexpectedMessages';
  if (TRANSACTION_METHODS.has(request.method)) return 'invalidTransactions';
  if (BLOCK_METHODS.has(request.method)) return 'invalidBlocks';
  return code === ErrorCode.InvalidParams ? 'unexpectedMessages' : undefined;
}

/**
 * The dispatcher, telling each call's outcome to the caller's reputation record. Calls without a
 * client address (the in-process provider, `DevNode.handle`) are not tracked.
 */
export class ClientTrackingDispatcher extends Dispatcher<RpcContext> {
  protected override answer(request: unknown, ctx: RpcContext, shallow: boolean): JsonRpcResponse | Promise<JsonRpcResponse> {
    const response = super.answer(request, ctx, shallow);
    const { client, clients } = ctx;
    if (client === undefined || clients === undefined) return response;
    return response instanceof Promise ? response.then((answered) => tracked(request, answered, client, clients)) : tracked(request, response, client, clients);
  }
}

/** `response`, once its call's outcome is told to the client's reputation record. */
function tracked(request: unknown, response: JsonRpcResponse, client: string, clients: NodeClients): JsonRpcResponse {
  const event = classifyCall(request, response);
  if (event !== undefined) clients.reputation.record(client, event);
  return response;
}
