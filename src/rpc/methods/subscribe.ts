/** eth_subscribe / eth_unsubscribe: WebSocket only (beyond the spec; every anchor has them). */
import { ErrorCode, MethodNotFound, RpcError } from '../errors.js';
import { type RpcContext, method } from '../context.js';
import { checkFilterSize, filterParam } from '../filter-params.js';
import { ParamError, makeDecoder, params, quantity, shown } from '../params.js';
import type { SubscriptionHost, SubscriptionKind } from '../subscriptions.js';

const KINDS: readonly SubscriptionKind[] = ['newHeads', 'logs', 'newPendingTransactions'];

const kind = makeDecoder('subscription', (v) => {
  if (typeof v !== 'string' || !KINDS.includes(v as SubscriptionKind)) {
    throw new ParamError(`unknown subscription ${shown(v)}: expected one of ${KINDS.join(', ')}`);
  }
  return v as SubscriptionKind;
});

function host(ctx: RpcContext, name: string): SubscriptionHost {
  if (ctx.subscriptions === undefined) throw new MethodNotFound(name, `${name} needs a WebSocket connection (ws://host:port/<API_KEY>): notifications are not supported over HTTP`);
  return ctx.subscriptions;
}

export const subscribeMethods = [
  method('eth_subscribe', 'Pushes newHeads, logs (with an address/topics filter) or newPendingTransactions over the WebSocket.', params([kind, filterParam.optional]), (ctx, [what, filter]) => {
    const subscriptions = host(ctx, 'eth_subscribe');
    if (filter !== undefined) checkFilterSize(filter, ctx.options.filterLimits);
    if (subscriptions.size >= ctx.options.maxSubscriptions) {
      throw new RpcError(
        ErrorCode.ResourceLimit,
        `too many subscriptions: this connection holds ${subscriptions.size}, the most allowed (--max-subscriptions); end some with eth_unsubscribe`,
      );
    }
    return subscriptions.subscribe(what, filter === undefined ? undefined : { addresses: filter.addresses, topics: filter.topics });
  }),
  method('eth_unsubscribe', 'Ends a subscription: true, or false when there was none.', params([quantity.as('subscriptionId')]), (ctx, [id]) =>
    host(ctx, 'eth_unsubscribe').unsubscribe(`0x${id.toString(16)}`),
  ),
];
