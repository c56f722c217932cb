/** What a method handler gets: the network's chain and the node-wide RPC options. */
import type { Chain, Deadline } from '../chain/index.js';
import type { FilterManager } from './filter-manager.js';
import type { SubscriptionHost } from './subscriptions.js';
import type { BanList } from '../gateway/ban-list.js';
import type { ClientReputation } from '../gateway/client-reputation.js';
import type { MethodSpec } from './types.js';
import type { FilterSizeLimits } from './filter-params.js';

export interface RpcOptions {
  /** rskj rpc.skipRemasc: hide the REMASC transaction from block results. */
  skipRemasc: boolean;
  clientVersion: string;
  /** --profile hardhat: the node answers as HardhatNetwork (and hardhat_metadata, node-info.ts). */
  hardhatProfile?: boolean;
  /** eth_getLogs caps: a query fits within maxLogs logs OR within maxBlockRange blocks. */
  logLimits: { maxLogs: number; maxBlockRange: bigint };
  /** Addresses, and topics per position, one log filter may list (filter-params.ts). */
  filterLimits: FilterSizeLimits;
  /** Subscriptions one WebSocket connection may hold (subscribe.ts). */
  maxSubscriptions: number;
}

export interface RpcContext {
  chain: Chain;
  filters: FilterManager;
  options: RpcOptions;
  /** Present on a WebSocket connection: eth_subscribe needs somewhere to push. */
  subscriptions?: SubscriptionHost;
  /** A dashboard key (not the operator's): the node's own keys are not its to use (access.ts). */
  dashboard?: boolean;
  /** A dashboard key on a --hosted node: no test control either (access.ts). */
  restricted?: boolean;
  /** The node-wide ban list and client reputation (sco_ methods, the gate). */
  clients?: NodeClients;
  /** The caller's address in rskj's text form, when the call came over HTTP or WebSocket. */
  client?: string;
  /** The API key the call came with, whose filters count against MAX_FILTERS_PER_KEY; undefined in-process. */
  filterOwner?: string;
  /**
   * The time limit of the request's executions, one per request body (a batch's calls share it);
   * absent, each execution gets the node's limit (requestDeadline).
   */
  deadline?: Deadline;
}

/** The request's deadline, or one with the node's limit for this execution alone. */
export function requestDeadline(ctx: RpcContext): Deadline {
  return ctx.deadline ?? ctx.chain.execution.deadline();
}

/** Node-wide, shared by both networks. */
export interface NodeClients {
  bans: BanList;
  reputation: ClientReputation;
}

/**
 * Declares a method of our RPC table. Positional arguments let TypeScript infer the params tuple
 * from `decode` before it types the handler (an object literal defeats that inference).
 */
export function method<P>(
  name: string,
  doc: string,
  decode: (raw: unknown[]) => P,
  handler: (ctx: RpcContext, params: P) => unknown,
): MethodSpec<RpcContext, P> {
  return { name, doc, decode, handler };
}
