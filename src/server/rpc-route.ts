/**
 * The gate in front of the dispatcher, for HTTP and WebSocket alike: which key, which network,
 * which rights (an operator key, or a dashboard key: rpc/access.ts), the key's options (its JWT
 * keys and allow lists: key-rules.ts), and (for dashboard keys) the daily quota with its headers
 * and the count of calls by method (key-usage.ts).
 */
import type { Deadline, NetworkName } from '../chain/index.js';
import type { ApiKeyRecord, Gateway, KeyPolicy } from '../gateway/gateway.js';
import type { QuotaDecision } from '../gateway/quota.js';
import type { RpcCallLog } from '../log/rpc-log.js';
import type { NodeClients, RpcContext } from '../rpc/context.js';
import { clientAddressOf } from '../gateway/ban-list.js';
import type { ClientEvent } from '../gateway/client-reputation.js';
import { type Dispatcher, INVALID_JSON, parseJsonBody, serializeResponse } from '../rpc/dispatcher.js';
import { ErrorCode } from '../rpc/errors.js';
import { echoRawId } from '../rpc/raw-id.js';
import { SubscriptionHost } from '../rpc/subscriptions.js';
import type { RpcRequestHeaders, RpcResult, RpcRoute } from './http.js';
import { type KeyRefusal, judgeCalls, judgeRequest } from './key-rules.js';
import type { WebSocketRoute } from './websocket.js';

/** Our code for a missing, unknown or revoked API key (HTTP 401); see docs/decisions.md#keys-and-access. */
export const UNAUTHORIZED_CODE = -32001;
/**
 * A banned client address (sco_banAddress) gets HTTP 403 with the gate's refusal code: the HTTP
 * status tells a ban (403) from a bad key (401); see docs/decisions.md#client-bans-and-reputation-sco_-bridge-state-module-list.
 */
export const BANNED_CODE = UNAUTHORIZED_CODE;
/** WebSocket close code for a socket whose address gets banned: RFC 6455 "policy violation". */
export const WS_BANNED_CLOSE_CODE = 1008;
/** Per-client contexts kept for reuse (a request otherwise copies one); past this many the cache starts over. */
const MAX_CACHED_CONTEXTS = 1024;

/** The headers of a request that brought none the gate reads. */
const NO_HEADERS: RpcRequestHeaders = {};

/** A URL without a key, on a node serving no keyless network: say both ways out (cast and forge default to `/`). */
const NO_KEY_MESSAGE =
  'Unauthorized: no API key in the URL. Use the key-bearing URL printed at start-up (POST /<API_KEY>), ' +
  'or start the node with --keyless-network testnet to serve tools that default to http://localhost:8545';

function bannedMessage(client: string): string {
  return `Forbidden: requests from ${client} are banned on this node (sco_banAddress); the operator can lift the ban with sco_unbanAddress`;
}

type Access = { network: NetworkName; userId: string | undefined; record?: ApiKeyRecord } | { denied: string };

export interface RpcGateOptions {
  dispatcher: Dispatcher<RpcContext>;
  operatorKeys: Map<string, NetworkName>;
  /** The network served at `/` (an empty key) with an operator's rights, for local tools (keyless.ts). */
  keylessNetwork?: NetworkName;
  gateway: Gateway;
  contexts: Record<NetworkName, RpcContext>;
  /** --hosted: dashboard keys also lose test control, as on the hosted endpoint (rpc/access.ts). */
  hosted: boolean;
  /** The dispatcher's batch limit, to count a refused batch once. */
  maxBatch: number;
  /** Told of each call let through (debug log); never given the key. */
  logCalls: RpcCallLog;
  /** Ban list and client reputation: banned addresses are refused here, every client is scored. */
  clients?: NodeClients;
}

export function createRpcGate(options: RpcGateOptions): { http: RpcRoute; webSocket: WebSocketRoute } {
  const { dispatcher, operatorKeys, keylessNetwork, gateway, contexts, hosted, maxBatch, logCalls, clients } = options;

  /** The caller's address in rskj's form; undefined when clients are not tracked. */
  const clientOf = (remote: string | undefined): string | undefined => (clients === undefined ? undefined : clientAddressOf(remote));
  const note = (client: string | undefined, event: ClientEvent): void => {
    if (client !== undefined) clients?.reputation.record(client, event);
  };
  const isBanned = (client: string | undefined): client is string => client !== undefined && clients !== undefined && clients.bans.isBanned(client);
  /** A body the dispatcher refuses whole, before any call: not JSON, an empty or oversized batch. */
  const isMalformed = (parsed: unknown): boolean =>
    parsed === INVALID_JSON || (Array.isArray(parsed) && (parsed.length === 0 || parsed.length > maxBatch));

  /** An operator's access to each network, built once: every request with an operator key shares it. */
  const operatorAccess = Object.fromEntries(Object.keys(contexts).map((n) => [n, { network: n, userId: undefined }])) as Record<NetworkName, Access>;
  const accessOf = (key: string): Access => {
    if (key === '' && keylessNetwork !== undefined) return operatorAccess[keylessNetwork];
    const network = operatorKeys.get(key);
    if (network !== undefined) return operatorAccess[network];
    if (key === '') return { denied: NO_KEY_MESSAGE };
    const record = gateway.lookup(key);
    if (record === undefined) {
      return { denied: 'Unauthorized: unknown API key. Use the key-bearing URL printed at start-up or shown in the dashboard: POST /<API_KEY>' };
    }
    if (record.revokedAt !== null) return { denied: 'Unauthorized: this API key was revoked' };
    return { network: record.network, userId: record.userId, record };
  };

  /** A dashboard key's options; undefined (the common case) for a key without any, after one map lookup. */
  const policyOf = (access: Exclude<Access, { denied: string }>): KeyPolicy | undefined =>
    access.record === undefined ? undefined : gateway.policyOf(access.record);
  /** What a key's options say of a request (undefined: it passes); `parsed` is absent when judging a WebSocket upgrade. */
  const judge = async (policy: KeyPolicy, remote: string | undefined, headers: RpcRequestHeaders, parsed?: unknown): Promise<KeyRefusal | undefined> =>
    (await judgeRequest(policy, remote, headers)) ?? (parsed === undefined || policy.allow === undefined ? undefined : judgeCalls(policy.allow, parsed));
  const judgeUpgrade = (access: Exclude<Access, { denied: string }>, remote: string | undefined, headers: RpcRequestHeaders): Promise<KeyRefusal | undefined> | undefined => {
    const policy = policyOf(access);
    return policy === undefined ? undefined : judge(policy, remote, headers);
  };
  const refusalBody = (refusal: KeyRefusal, raw?: string): string => {
    const id = raw === undefined ? null : idOf(raw);
    return echoRawId(serializeResponse({ jsonrpc: '2.0', id, error: { code: UNAUTHORIZED_CODE, message: refusal.message, ...(refusal.data === undefined ? {} : { data: refusal.data }) } }), id, raw);
  };

  /** A dashboard key's contexts: no node keys; on --hosted no test control either (rpc/access.ts). */
  const dashboardContexts = Object.fromEntries(Object.entries(contexts).map(([n, c]) => [n, { ...c, dashboard: true, restricted: hosted }])) as Record<NetworkName, RpcContext>;
  /** Contexts of a network for one client address, by network, caller kind and address. */
  const clientContexts = new Map<string, RpcContext>();
  /** The last context given out: consecutive requests mostly come from the same client with the same key. */
  let last: { network: NetworkName; dashboard: boolean; client: string; context: RpcContext } | undefined;
  const contextFor = (network: NetworkName, userId: string | undefined, client?: string): RpcContext => {
    const dashboard = userId !== undefined;
    const base = dashboard ? dashboardContexts[network] : contexts[network];
    if (client === undefined) return base;
    if (last !== undefined && last.client === client && last.network === network && last.dashboard === dashboard) return last.context;
    const cacheKey = `${network}${dashboard ? '!' : ' '}${client}`;
    let context = clientContexts.get(cacheKey);
    if (context === undefined) {
      if (clientContexts.size >= MAX_CACHED_CONTEXTS) clientContexts.clear();
      context = { ...base, client };
      clientContexts.set(cacheKey, context);
    }
    last = { network, dashboard, client, context };
    return context;
  };

  /**
   * Counts the calls of a parsed body against a dashboard user's quota (callers skip operators,
   * never counted); a promise only when the user's count for today is not in memory yet.
   */
  const charge = (userId: string, parsed: unknown): QuotaDecision | Promise<QuotaDecision> => {
    // A batch the dispatcher refuses whole (empty, or over the size limit) runs nothing: it counts once.
    const calls = Array.isArray(parsed) && parsed.length > 0 && parsed.length <= maxBatch ? parsed.length : 1;
    return gateway.quotas.consume(userId, calls);
  };

  /** A dashboard key's calls by method, for its page (key-usage.ts); operator keys are not counted. */
  const countUsage = (access: Exclude<Access, { denied: string }>, parsed: unknown): void => {
    if (access.record !== undefined) gateway.usage.record(access.record.id, parsed, maxBatch);
  };

  /** A request let through the gate: counted, logged and dispatched (a promise only when some call needs one). */
  const dispatchAdmitted = (access: Exclude<Access, { denied: string }>, key: string, client: string | undefined, parsed: unknown, body: string, quota?: QuotaDecision): RpcResult | Promise<RpcResult> => {
    note(client, 'successfulHandshakes');
    if (isMalformed(parsed)) note(client, 'invalidMessages');
    countUsage(access, parsed);
    logCalls(access.network, parsed);
    const context = contextFor(access.network, access.userId, client);
    const result = dispatcher.dispatch(parsed, requestContext(context, key, context.chain.execution.deadline(access.userId === undefined)), body);
    if (quota === undefined) return result;
    const headers = rateLimitHeaders(quota);
    return result instanceof Promise ? result.then((r) => ({ status: r.status, body: r.body, headers })) : { status: result.status, body: result.body, headers };
  };

  /** A dashboard key's request past its options: charged to its user's quota, then dispatched or refused (429). */
  const chargeAndDispatch = (access: Exclude<Access, { denied: string }>, key: string, client: string | undefined, parsed: unknown, body: string, userId: string): RpcResult | Promise<RpcResult> => {
    const admit = (quota: QuotaDecision): RpcResult | Promise<RpcResult> => {
      if (quota.allowed) return dispatchAdmitted(access, key, client, parsed, body, quota);
      note(client, 'failedHandshakes');
      return quotaExceeded(quota, idOf(body), body);
    };
    const quota = charge(userId, parsed);
    return quota instanceof Promise ? quota.then(admit) : admit(quota);
  };

  /** The gate for a key with options: they may wait (a JWT check) before the quota is charged. */
  const judgeAndCharge = async (access: Exclude<Access, { denied: string }>, key: string, client: string | undefined, parsed: unknown, body: string, remote: string | undefined, headers: RpcRequestHeaders, policy: KeyPolicy, userId: string): Promise<RpcResult> => {
    // Refused by the key's options before the quota: a refused request runs nothing and costs nothing.
    const refusal = await judge(policy, remote, headers, parsed);
    if (refusal !== undefined) {
      note(client, 'failedHandshakes');
      return { status: refusal.status, body: refusalBody(refusal, body) };
    }
    return chargeAndDispatch(access, key, client, parsed, body, userId);
  };

  const http: RpcRoute = {
    handle(key, body, remote, headers = NO_HEADERS) {
      const client = clientOf(remote);
      if (isBanned(client)) {
        note(client, 'failedHandshakes');
        return { status: 403, body: errorBody(idOf(body), BANNED_CODE, bannedMessage(client), body) };
      }
      const access = accessOf(key);
      if ('denied' in access) {
        note(client, 'failedHandshakes');
        return { status: 401, body: errorBody(idOf(body), UNAUTHORIZED_CODE, access.denied, body) };
      }
      const parsed = parseJsonBody(body);
      // An operator key (no options, no quota) goes straight on, without a promise of its own; so
      // does a dashboard key without options whose user's count for today is in memory.
      if (access.record === undefined) return dispatchAdmitted(access, key, client, parsed, body);
      const policy = policyOf(access);
      if (policy === undefined) return chargeAndDispatch(access, key, client, parsed, body, access.record.userId);
      return judgeAndCharge(access, key, client, parsed, body, remote, headers, policy, access.record.userId);
    },
    errorBody: (code, message) => errorBody(null, code, message),
  };

  const webSocket: WebSocketRoute = {
    forbidden(remote) {
      const client = clientOf(remote);
      if (!isBanned(client)) return undefined;
      note(client, 'failedHandshakes');
      return errorBody(null, BANNED_CODE, bannedMessage(client));
    },
    async admit(key, remote, headers) {
      const access = accessOf(key);
      const refusal: KeyRefusal | undefined =
        'denied' in access ? { status: 401, message: access.denied } : await judgeUpgrade(access, remote, headers);
      if (refusal === undefined) return undefined;
      note(clientOf(remote), 'failedHandshakes');
      return { status: refusal.status, body: refusalBody(refusal) };
    },
    open(key, send, remote, disconnect, headers = {}) {
      const client = clientOf(remote);
      note(client, 'successfulHandshakes');
      const access = accessOf(key) as Exclude<Access, { denied: string }>;
      const base = contextFor(access.network, access.userId, client);
      const subscriptions = new SubscriptionHost(base.chain, send, base.options.skipRemasc);
      const context: RpcContext = { ...base, subscriptions, filterOwner: key };
      const banClose = () => disconnect?.(WS_BANNED_CLOSE_CODE, `Forbidden: ${client} is banned on this node`);
      // A socket whose address gets banned is closed at once.
      const stopWatching = client === undefined ? undefined : clients?.bans.onChange(() => {
        if (isBanned(client)) banClose();
      });
      return {
        async handle(message) {
          if (isBanned(client)) {
            note(client, 'failedHandshakes');
            banClose();
            return errorBody(idOf(message), BANNED_CODE, bannedMessage(client), message);
          }
          // A key revoked while the socket is open stops working at once.
          const now = accessOf(key);
          if ('denied' in now) {
            note(client, 'failedHandshakes');
            return errorBody(idOf(message), UNAUTHORIZED_CODE, 'Unauthorized: this API key was revoked', message);
          }
          const parsed = parseJsonBody(message);
          // Each message is judged by the key's options as they are now (edited, or the JWT expired since the upgrade).
          const policy = policyOf(now);
          const refusal = policy === undefined ? undefined : await judge(policy, remote, headers, parsed);
          if (refusal !== undefined) {
            note(client, 'failedHandshakes');
            return refusalBody(refusal, message);
          }
          const quota = access.userId === undefined ? undefined : await charge(access.userId, parsed);
          if (quota !== undefined && !quota.allowed) {
            note(client, 'failedHandshakes');
            return quotaExceeded(quota, idOf(message), message).body;
          }
          if (isMalformed(parsed)) note(client, 'invalidMessages');
          countUsage(now, parsed);
          logCalls(access.network, parsed);
          // One time limit per message (evm/deadline.ts): a batch's calls share it.
          return (await dispatcher.handleParsed(parsed, { ...context, deadline: context.chain.execution.deadline(access.userId === undefined) }, message)).body;
        },
        close: () => {
          stopWatching?.();
          subscriptions.close();
        },
      };
    },
    unauthorizedBody: () => errorBody(null, UNAUTHORIZED_CODE, 'Unauthorized: no API key in the URL (ws://host:port/<API_KEY> or /v2/<API_KEY>)'),
  };

  return { http, webSocket };
}

/**
 * One request's context: `context` with the key that owns its filters and its deadline. Every
 * member is named, in one order, so every request's context has the same shape and the handlers'
 * reads of it stay monomorphic (a spread's copy took a shape after its source's).
 */
function requestContext(context: RpcContext, filterOwner: string, deadline: Deadline): RpcContext {
  const members: Record<keyof RpcContext, unknown> = {
    chain: context.chain,
    filters: context.filters,
    options: context.options,
    subscriptions: context.subscriptions,
    dashboard: context.dashboard,
    restricted: context.restricted,
    clients: context.clients,
    client: context.client,
    filterOwner,
    deadline,
  };
  return members as RpcContext;
}

/** The quota's response headers, as name, value pairs (RpcResult.headers). */
function rateLimitHeaders(quota: QuotaDecision): string[] {
  return [
    'x-ratelimit-limit',
    String(quota.limit),
    'x-ratelimit-remaining',
    String(Math.max(0, quota.limit - quota.used)),
    'x-ratelimit-reset',
    String(Math.floor(quota.resetsAt / 1000)),
  ];
}

function quotaExceeded(quota: QuotaDecision, id: string | number | null, raw: string): RpcResult & { body: string } {
  const resetsAt = new Date(quota.resetsAt).toISOString();
  const body = serializeResponse({
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.ResourceLimit,
      message:
        quota.used >= quota.limit
          ? `Daily request limit of ${quota.limit} reached; it resets at ${resetsAt} (UTC midnight)`
          : `Daily request limit of ${quota.limit}: this batch needs more calls than the ${quota.limit - quota.used} left today; the count resets at ${resetsAt} (UTC midnight)`,
      data: { limit: quota.limit, used: quota.used, resetsAt },
    },
  });
  return { status: 429, body: echoRawId(body, id, raw), headers: [...rateLimitHeaders(quota), 'retry-after', String(Math.max(1, quota.secondsToReset))] };
}

/** `raw`: the request's text, to echo an id JSON.parse changed as the client sent it. */
function errorBody(id: string | number | null, code: number, message: string, raw?: string): string {
  return echoRawId(serializeResponse({ jsonrpc: '2.0', id, error: { code, message } }), id, raw);
}

/** The request id when the body is a single JSON-RPC object, for echoing in gate errors. */
function idOf(body: string): string | number | null {
  const parsed = parseJsonBody(body);
  if (parsed === INVALID_JSON || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const id = (parsed as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
