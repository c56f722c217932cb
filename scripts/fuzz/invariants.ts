/**
 * What every answer must satisfy. Each check returns the broken invariants' names with a detail
 * (empty when all hold); a name makes a failure's signature, so one bug is reported once.
 */
import { RpcError } from '../../src/rpc/errors.js';
import { MAX_PARAMS_DEPTH, nestedDeeperThan } from '../../src/rpc/dispatcher.js';
import type { MethodSpec } from '../../src/rpc/types.js';

export interface Violation {
  invariant: string;
  detail: string;
}

/** Longest error message accepted: a 15 MB param must never come back whole. */
export const MAX_ERROR_MESSAGE_CHARS = 1_000;
export const INTERNAL_ERROR = -32603;
/** The node's batch limit (rskj's is 50; ours takes 1,000-call batches, docs/decisions.md#json-rpc-envelope-and-http). */
export { MAX_BATCH_SIZE as MAX_BATCH } from '../../src/node.js';

type Answer = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };

/** The well-formedness of one JSON-RPC answer object, and that it carries `expectedId`. */
export function checkAnswer(answer: unknown, expectedId: unknown): Violation[] {
  const out: Violation[] = [];
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return [{ invariant: 'answer-shape', detail: `not an object: ${short(answer)}` }];
  const a = answer as Answer;
  if (a.jsonrpc !== '2.0') out.push({ invariant: 'answer-shape', detail: `jsonrpc ${short(a.jsonrpc)}` });
  const hasResult = 'result' in a;
  const hasError = 'error' in a;
  if (hasResult === hasError) out.push({ invariant: 'answer-shape', detail: 'want exactly one of result and error' });
  if (!sameId(a.id, expectedId)) out.push({ invariant: 'answer-id', detail: `id ${short(a.id)}, sent ${short(expectedId)}` });
  if (hasError) {
    const e = a.error;
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      out.push({ invariant: 'error-shape', detail: short(e) });
    } else {
      if (e.code === INTERNAL_ERROR) out.push({ invariant: 'no-internal-error', detail: `-32603 ${short(e.message)}` });
      if ((e.message as string).length > MAX_ERROR_MESSAGE_CHARS) out.push({ invariant: 'short-message', detail: `message of ${(e.message as string).length} chars` });
    }
  }
  return out;
}

/** Ids compare as JSON values: NaN-free numbers by value, strings exactly, everything else null. */
function sameId(got: unknown, want: unknown): boolean {
  if (typeof want !== 'string' && typeof want !== 'number') want = null;
  return Object.is(got, want) || (typeof got === 'number' && got === want);
}

export function codeOf(answer: unknown): number | undefined {
  const e = (answer as Answer | null)?.error;
  return typeof e?.code === 'number' ? e.code : undefined;
}

/**
 * What the method's own decoder says of `params`: 'valid', or the RpcError a correct dispatcher
 * answers (envelope rules first, as the dispatcher applies them).
 */
export function expectedForParams(spec: MethodSpec<unknown> | undefined, params: unknown): 'valid' | 'unknown' | RpcError {
  if (spec === undefined) return new RpcError(-32601, 'method not found');
  let raw: unknown[];
  if (params === undefined || params === null) raw = [];
  else if (Array.isArray(params)) raw = params;
  else if (typeof params === 'object') return new RpcError(-32602, 'params must be an array');
  else return new RpcError(-32600, 'params must be an array');
  if (spec.unsupported === true) return new RpcError(-32601, 'unsupported');
  if (nestedDeeperThan(raw, MAX_PARAMS_DEPTH)) return new RpcError(-32602, 'too deep');
  try {
    spec.decode(raw);
    return 'valid';
  } catch (err) {
    if (err instanceof RpcError) return err;
    // A decoder that throws anything else is itself a finding (it reaches the client as -32603).
    return 'unknown';
  }
}

/** A value in a message: at most 120 characters. */
export function short(v: unknown): string {
  let text: string;
  try {
    text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    text = String(v);
  }
  return text.length > 120 ? `${text.slice(0, 120)}...(${text.length} chars)` : text;
}
