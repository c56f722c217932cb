/**
 * What a dashboard key may call on a node started with --hosted, which behaves like the hosted
 * endpoint: it holds no keys (spec rule 6), and one tenant must not rewrite a shared chain.
 */
import type { RpcContext } from './context.js';
import { MethodNotFound } from './errors.js';
import type { MethodSpec } from './types.js';

/** Methods that sign with a key held by the node. */
const SIGNING = new Set(['eth_sendTransaction', 'eth_sign', 'personal_sign', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4']);
/** A development node's self-descriptions: tools that get one treat the endpoint as Hardhat or anvil. */
const DEV_NODE_INFO = new Set(['hardhat_metadata', 'anvil_metadata', 'anvil_nodeInfo']);
/** Test-control prefixes: they rewrite the chain for everyone on it. */
const OPERATOR_PREFIXES = ['evm_', 'hardhat_', 'anvil_', 'sco_'];

function refusal(name: string): string | undefined {
  if (SIGNING.has(name) || name.startsWith('personal_')) {
    return `${name} is not available: the hosted endpoint holds no keys. Sign locally and send with eth_sendRawTransaction`;
  }
  if (DEV_NODE_INFO.has(name)) return `${name} is not available on the hosted endpoint: it is no Hardhat or anvil development node`;
  if (OPERATOR_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    return `${name} is not available to dashboard keys on the hosted endpoint: it would rewrite a chain other tenants share`;
  }
  return undefined;
}

/** Wraps a method so that a restricted caller gets the hosted endpoint's answer. */
export function withHostedAccess(spec: MethodSpec<RpcContext>): MethodSpec<RpcContext> {
  // The hosted endpoint holds no keys, so it lists no accounts and no operator's pending transactions.
  if (spec.name === 'eth_accounts' || spec.name === 'eth_pendingTransactions') {
    return { ...spec, handler: (ctx, params) => (ctx.restricted ? [] : spec.handler(ctx, params)) };
  }
  const message = refusal(spec.name);
  if (message === undefined) return spec;
  return {
    ...spec,
    handler: (ctx, params) => {
      if (ctx.restricted) throw new MethodNotFound(spec.name, message);
      return spec.handler(ctx, params);
    },
  };
}
