/** Shared JSON-RPC types. */
import type { CallParams } from '../chain/index.js';

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/**
 * A decoded block selector. Hash selectors come from a bare 32-byte hash string
 * (`requireCanonical: false`) or an EIP-1898 `{ blockHash, requireCanonical? }` object.
 */
export type BlockSelector =
  | { tag: BlockTag }
  | { number: bigint }
  | { hash: Uint8Array; requireCanonical: boolean };

/**
 * A decoded call object (eth_call, eth_estimateGas, eth_sendTransaction): the chain's call
 * parameters plus a nonce. Absent fields are not set; no `to` means contract creation.
 */
export type CallRequest = CallParams & { nonce?: bigint };

export type JsonRpcId = string | number | null;

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/**
 * One JSON-RPC method. `decode` turns the raw positional params into `P` (throwing `InvalidParams`);
 * `handler` may be sync or async and must return JSON-ready values (hex strings, never bigint).
 */
export interface MethodSpec<Ctx, P = any> {
  name: string;
  doc: string;
  decode: (raw: unknown[]) => P;
  handler: (ctx: Ctx, params: P) => unknown;
  /** Known but refused (methods/unsupported.ts): listed by no module. */
  unsupported?: true;
}
