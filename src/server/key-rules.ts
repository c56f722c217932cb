/**
 * A dashboard key's options, judged for the gate (rpc-route.ts) on HTTP requests, WebSocket
 * upgrades and WebSocket messages: its JWT keys (401 when the token is missing or refused), then
 * its allow lists (403): client IP ranges, origins, and per call the methods and contracts. A batch
 * is judged whole: one refused call refuses the batch and nothing in it runs
 * (docs/decisions.md says why).
 */
import type { AllowRule, AllowRules } from '../gateway/allowlist.js';
import type { KeyPolicy } from '../gateway/gateway.js';
import { bearerToken } from '../gateway/jwt-keys.js';
import { callAddresses } from '../rpc/call-addresses.js';
import type { RpcRequestHeaders } from './http.js';

/** A request the key's options refuse: HTTP status, the JSON-RPC error's message and data. */
export interface KeyRefusal {
  status: 401 | 403;
  message: string;
  data?: Record<string, unknown>;
}

/** The rules as a refusal names them. */
const RULE_NAMES: Record<AllowRule, string> = {
  origins: 'allowed origins',
  ipRanges: 'allowed IP ranges',
  contracts: 'allowed contracts',
  methods: 'allowed methods',
};

function forbidden(rule: AllowRule, detail: string, call?: number): KeyRefusal {
  const where = call === undefined ? '' : ` (call ${call} of the batch; nothing in the batch was run)`;
  return {
    status: 403,
    message: `Forbidden by this key's ${RULE_NAMES[rule]}: ${detail}${where}`,
    data: call === undefined ? { rule } : { rule, call },
  };
}

/** The checks that need no body: the JWT, the client's address, the Origin header. */
export async function judgeRequest(policy: KeyPolicy, remote: string | undefined, headers: RpcRequestHeaders): Promise<KeyRefusal | undefined> {
  if (policy.jwt !== undefined) {
    const result = await policy.jwt.check(bearerToken(headers.authorization));
    if ('reason' in result) return { status: 401, message: result.message, data: { rule: 'jwt', reason: result.reason } };
  }
  const allow = policy.allow;
  if (allow === undefined) return undefined;
  const ip = allow.ipRefusal(remote);
  if (ip !== undefined) return forbidden('ipRanges', ip);
  const origin = allow.originRefusal(headers.origin);
  if (origin !== undefined) return forbidden('origins', origin);
  return undefined;
}

/**
 * The per-call rules over a parsed body (one call or a batch). Entries that are no call object,
 * or have no string method, are left to the dispatcher, which refuses them without running anything.
 */
export function judgeCalls(allow: AllowRules, parsed: unknown): KeyRefusal | undefined {
  if (allow.methods === undefined && allow.contracts === undefined) return undefined;
  const batch = Array.isArray(parsed);
  const calls: unknown[] = batch ? parsed : [parsed];
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (typeof call !== 'object' || call === null) continue;
    const { method, params } = call as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') continue;
    const index = batch ? i : undefined;
    if (allow.methods !== undefined && !allow.methods.has(method)) {
      return forbidden('methods', `${shownName(method)} is not in this key's allowed methods`, index);
    }
    if (allow.contracts === undefined) continue;
    const touched = callAddresses(method, params);
    if (touched === undefined) continue;
    if ('unreadable' in touched) return forbidden('contracts', touched.unreadable, index);
    const outside = touched.addresses.find((address) => !allow.contracts!.has(address));
    if (outside !== undefined) return forbidden('contracts', `${method} touches ${outside}, which is not in this key's allowed contracts`, index);
  }
  return undefined;
}

/** A method name as a message repeats it: cut (a 1 MB name must not come back whole). */
function shownName(method: string): string {
  return method.length > 80 ? `${method.slice(0, 80)}...` : method;
}
