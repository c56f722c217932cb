/**
 * What a dashboard key may call. The node's own keys (the cow accounts, the miner, personal_
 * accounts) serve the operator's keys only: a dashboard sign-up is open to whoever reaches the
 * page, so it must never sign with, list or dump them. On a --hosted node a dashboard key also
 * loses test control: it behaves like the hosted endpoint, which holds no keys (spec rule 6) and
 * whose tenants must not rewrite a shared chain.
 */
import type { RpcContext } from './context.js';
import { MethodNotFound } from './errors.js';
import type { MethodSpec } from './types.js';

/** Methods that sign with a key held by the node (every personal_ method works on those keys too). */
const SIGNING = new Set(['eth_sendTransaction', 'eth_sign', 'personal_sign', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4']);
/** A development node's self-descriptions: tools that get one treat the endpoint as Hardhat or anvil. */
const DEV_NODE_INFO = new Set(['hardhat_metadata', 'anvil_metadata', 'anvil_nodeInfo']);
/** Test-control prefixes (btc_ mines and pays on the network's Bitcoin chain): they rewrite the chain for everyone on it. */
const OPERATOR_PREFIXES = ['evm_', 'hardhat_', 'anvil_', 'sco_', 'btc_'];
/** Answers that list the node's keys or what they sent: empty for a caller who may not use them. */
const NODE_KEY_LISTS = new Set(['eth_accounts', 'eth_pendingTransactions']);

const usesNodeKeys = (name: string): boolean => SIGNING.has(name) || name.startsWith('personal_');

function noNodeKeys(name: string, ctx: RpcContext): string {
  if (ctx.restricted) return `${name} is not available: the hosted endpoint holds no keys. Sign locally and send with eth_sendRawTransaction`;
  return `${name} is not available to dashboard keys: the node's own keys serve only the operator's keys (the URLs printed at start-up). Sign locally and send with eth_sendRawTransaction`;
}

/** Wraps a method so that a dashboard key (and on --hosted, a restricted one) gets its refusal. */
export function withAccessRules(spec: MethodSpec<RpcContext>): MethodSpec<RpcContext> {
  const name = spec.name;
  if (NODE_KEY_LISTS.has(name)) {
    return { ...spec, handler: (ctx, params) => (ctx.dashboard ? [] : spec.handler(ctx, params)) };
  }
  if (usesNodeKeys(name)) {
    return {
      ...spec,
      handler: (ctx, params) => {
        if (ctx.dashboard) throw new MethodNotFound(name, noNodeKeys(name, ctx));
        return spec.handler(ctx, params);
      },
    };
  }
  if (DEV_NODE_INFO.has(name)) {
    return {
      ...spec,
      handler: (ctx, params) => {
        if (ctx.restricted) throw new MethodNotFound(name, `${name} is not available on the hosted endpoint: it is no Hardhat or anvil development node`);
        return spec.handler(ctx, params);
      },
    };
  }
  if (OPERATOR_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    return {
      ...spec,
      handler: (ctx, params) => {
        if (ctx.restricted) throw new MethodNotFound(name, `${name} is not available to dashboard keys on the hosted endpoint: it would rewrite a chain other tenants share`);
        return spec.handler(ctx, params);
      },
    };
  }
  return spec;
}
