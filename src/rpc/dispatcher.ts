/**
 * JSON-RPC 2.0 envelope handling: parsing, batches, request validation, method lookup, parameter
 * decoding, error shaping and safe serialization. Transports call `handleBody`, `handleParsed` or
 * `handleRequest` (WebSocket, the in-process EIP-1193 provider), or `dispatch` (the HTTP path: it
 * answers without a promise when no call needs one, issue 25).
 *
 * Choices:
 *  - `jsonrpc`: a missing member is accepted (some hand-written clients and scripts omit it, and
 *    being strict buys nothing); a present member that is not exactly "2.0" is -32600.
 *  - Notifications (no `id`) are still answered, with `id: null`: over HTTP every request needs a
 *    response body anyway, and the EIP-1193 provider awaits a result for every call.
 *  - Check order: envelope (-32600) → unknown method (-32601, before any params checks) →
 *    params shape (-32602 for a by-name object) → `decode` → handler.
 *  - Batches run sequentially in request order so state-changing calls apply in order; each
 *    element is answered and serialized independently, so one failure never loses the others.
 *  - A result that cannot be serialized (a bigint leaking out of a handler, a cycle) becomes
 *    -32603 for that response only.
 *  - Params nested deeper than MAX_PARAMS_DEPTH are -32602 before any decoder sees them, so no
 *    decoder, handler or error message can overflow the stack walking them.
 *  - An id that JSON.parse changed (a number beyond 2^53, a fraction) is echoed as the client wrote
 *    it when the raw body is at hand (raw-id.ts).
 */
import { ErrorCode, InternalError, InvalidParams, InvalidRequest, MethodNotFound, ParseError, RpcError, httpStatusFor } from './errors.js';
import { echoRawId, idNeedsRawText, rawIds } from './raw-id.js';
import { RawJson, rawSuccessBytes, rawSuccessText } from './raw-json.js';
import type { JsonRpcFailure, JsonRpcId, JsonRpcResponse, MethodSpec } from './types.js';

export interface DispatcherOptions {
  /** Largest accepted batch (rskj: 50). */
  maxBatch: number;
  /** Turns a non-`RpcError` thrown by a handler or decoder into an `RpcError`. */
  mapError: (err: unknown, method: string) => RpcError;
}

export interface HttpResult {
  status: number;
  body: string;
}

/**
 * `dispatch`'s answer, for the HTTP responder: a big result held as bytes (raw-json.ts) stays
 * bytes, in chunks written one after the other; every other caller gets text from `handleParsed`.
 */
export interface HttpAnswer {
  status: number;
  body: string | readonly Buffer[];
}

const PARAMS_OBJECT_MESSAGE = 'params must be an array: RSK methods take positional params';
const EMPTY: unknown[] = [];

const BATCH_YIELD_EVERY = 50;

/**
 * Deepest nesting accepted inside `params`: no method takes more than 4 levels (eth_getLogs topics,
 * call objects), and a bound keeps every recursive walk (decoders, JSON.stringify in messages) far
 * from the stack limit, which params about 4,100 levels deep used to overflow (-32603).
 */
export const MAX_PARAMS_DEPTH = 100;
/**
 * The shortest JSON text nested deeper than MAX_PARAMS_DEPTH: as many opening brackets as closing
 * ones, one level past the limit. A shorter body (a read's ~60-120 characters) needs no depth scan.
 */
const SHORTEST_TOO_DEEP = 2 * (MAX_PARAMS_DEPTH + 1);

/**
 * The deepest nesting of arrays and objects in a JSON text, brackets inside strings aside: one pass
 * over the characters, far cheaper than walking what JSON.parse built (a wide 300 KB body of small
 * arrays took ~25 ms to walk). A body no deeper than MAX_PARAMS_DEPTH needs no walk of its params.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Whether `value` nests arrays/objects more than `max` levels deep (iterative: never overflows). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // The common case, flat params of strings and numbers, allocates nothing.
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return max < 1;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** What `parseJsonBody` answers for a body that is not JSON. */
export const INVALID_JSON: unique symbol = Symbol('invalid JSON');

export function parseJsonBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return INVALID_JSON;
  }
}

export class Dispatcher<Ctx> {
  private readonly methods = new Map<string, MethodSpec<Ctx>>();

  constructor(
    methods: readonly MethodSpec<Ctx>[],
    private readonly options: DispatcherOptions,
  ) {
    for (const m of methods) {
      if (this.methods.has(m.name)) throw new Error(`duplicate RPC method ${m.name}`);
      this.methods.set(m.name, m);
    }
  }

  methodNames(): string[] {
    return [...this.methods.keys()];
  }

  has(name: string): boolean {
    return this.methods.has(name);
  }

  /** Handles a raw HTTP body: one request or a batch. */
  handleBody(body: string, ctx: Ctx): Promise<HttpResult> {
    return this.handleParsed(parseJsonBody(body), ctx, body);
  }

  /**
   * Handles a body already parsed by `parseJsonBody` (the gateway counts calls first). With `body`,
   * the text it was parsed from, ids JSON.parse changed are echoed as sent.
   */
  async handleParsed(parsed: unknown, ctx: Ctx, body?: string): Promise<HttpResult> {
    const answer = await this.dispatch(parsed, ctx, body);
    return typeof answer.body === 'string' ? (answer as HttpResult) : { status: answer.status, body: Buffer.concat(answer.body).toString('utf8') };
  }

  /**
   * `handleParsed` without a promise when the call needs none (an unknown method, bad params, a
   * synchronous handler such as eth_blockNumber): the HTTP path answers those in the same tick.
   * Never throws.
   */
  dispatch(parsed: unknown, ctx: Ctx, body?: string): HttpAnswer | Promise<HttpAnswer> {
    if (parsed === INVALID_JSON) return single(failure(null, new ParseError()));
    const shallow = body !== undefined && (body.length <= SHORTEST_TOO_DEEP - 1 || jsonTextDepth(body) <= MAX_PARAMS_DEPTH);
    if (Array.isArray(parsed)) return this.dispatchBatch(parsed, ctx, shallow, body);
    const res = this.answer(parsed, ctx, shallow);
    return res instanceof Promise ? res.then((r) => httpResult(r, body)) : httpResult(res, body);
  }

  private async dispatchBatch(parsed: unknown[], ctx: Ctx, shallow: boolean, body: string | undefined): Promise<HttpResult> {
    if (parsed.length === 0) return single(failure(null, new InvalidRequest('empty batch')));
    const max = this.options.maxBatch;
    if (parsed.length > max) {
      return single(
        failure(null, new InvalidRequest(`Cannot dispatch batch requests. ${max} is the max number of supported batch requests`)),
      );
    }
    const parts = new Array<string>(parsed.length);
    let ids: (string | undefined)[] | undefined;
    for (let i = 0; i < parsed.length; i++) {
      const res = await this.answer(parsed[i], ctx, shallow);
      parts[i] = serializeResponse(res);
      if (idNeedsRawText(res.id) && body !== undefined) parts[i] = echoRawId(parts[i]!, res.id, body, i, (ids ??= rawIds(body)));
      // A long batch must not starve other connections (an in-memory chain never yields by itself).
      if (i % BATCH_YIELD_EVERY === BATCH_YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return { status: 200, body: `[${parts.join(',')}]` };
  }

  /**
   * Handles one parsed request object. Never throws. `shallow`: its text is known to nest at most
   * MAX_PARAMS_DEPTH levels, so its params need no depth walk.
   */
  async handleRequest(req: unknown, ctx: Ctx, shallow = false): Promise<JsonRpcResponse> {
    return this.answer(req, ctx, shallow);
  }

  /** `handleRequest`, answered without a promise when the handler returns none. Never throws. */
  protected answer(req: unknown, ctx: Ctx, shallow: boolean): JsonRpcResponse | Promise<JsonRpcResponse> {
    if (typeof req !== 'object' || req === null || Array.isArray(req)) {
      return failure(null, new InvalidRequest('invalid request: expected a JSON object'));
    }
    const r = req as Record<string, unknown>;
    const id = r.id;
    if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
      return failure(null, new InvalidRequest('invalid request: id must be a string, a number or null'));
    }
    const rid: JsonRpcId = id === undefined ? null : id;
    if (r.jsonrpc !== undefined && r.jsonrpc !== '2.0') {
      return failure(rid, new InvalidRequest('invalid request: jsonrpc must be "2.0"'));
    }
    const name = r.method;
    if (typeof name !== 'string' || name.length === 0) {
      return failure(rid, new InvalidRequest('invalid request: method must be a non-empty string'));
    }
    const method = this.methods.get(name);
    if (method === undefined) return failure(rid, new MethodNotFound(name));

    const p = r.params;
    let raw: unknown[];
    if (p === undefined || p === null) raw = EMPTY;
    else if (Array.isArray(p)) raw = p;
    else if (typeof p === 'object') return failure(rid, new InvalidParams(PARAMS_OBJECT_MESSAGE));
    else return failure(rid, new InvalidRequest('invalid request: params must be an array'));
    // Known-but-unsupported methods answer -32601 whatever their params.
    if (method.unsupported !== true && !shallow && nestedDeeperThan(raw, MAX_PARAMS_DEPTH)) {
      return failure(rid, new InvalidParams(`invalid params: nested more than ${MAX_PARAMS_DEPTH} levels deep`));
    }

    let result: unknown;
    try {
      result = method.handler(ctx, method.decode(raw));
    } catch (err) {
      return this.failed(rid, err, name);
    }
    // A thenable that is no native promise is awaited as `await` would (Promise.resolve adopts it).
    if (result === null || (typeof result !== 'object' && typeof result !== 'function') || typeof (result as { then?: unknown }).then !== 'function') {
      return success(rid, result);
    }
    return Promise.resolve(result).then(
      (value) => success(rid, value),
      (err: unknown) => this.failed(rid, err, name),
    );
  }

  private failed(id: JsonRpcId, err: unknown, method: string): JsonRpcFailure {
    return failure(id, err instanceof RpcError ? err : this.mapError(err, method));
  }

  private mapError(err: unknown, method: string): RpcError {
    try {
      const mapped = this.options.mapError(err, method);
      return mapped instanceof RpcError ? mapped : new InternalError();
    } catch {
      return new InternalError();
    }
  }
}

function success(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

function httpResult(res: JsonRpcResponse, body: string | undefined): HttpAnswer {
  // A result held as bytes answers as bytes, unless its id must be echoed as the client wrote it.
  if ('result' in res && res.result instanceof RawJson && res.result.pieces !== undefined && !idNeedsRawText(res.id)) {
    return { status: 200, body: rawSuccessBytes(res.id, res.result.pieces) };
  }
  return { status: 'error' in res ? httpStatusFor(res.error.code) : 200, body: echoRawId(serializeResponse(res), res.id, body) };
}

function failure(id: JsonRpcId, err: RpcError): JsonRpcFailure {
  const error: JsonRpcFailure['error'] =
    err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data };
  return { jsonrpc: '2.0', id, error };
}

function single(res: JsonRpcFailure): HttpResult {
  return { status: httpStatusFor(res.error.code), body: serializeResponse(res) };
}

/**
 * JSON text of a response. If it cannot be serialized (e.g. a bigint leaked from a handler), the
 * response is replaced by a -32603 error with the same id; this never throws.
 */
export function serializeResponse(res: JsonRpcResponse): string {
  if ('result' in res) {
    const result = res.result;
    // Pre-serialised results (raw-json.ts: cached JSON of mined data) are spliced in as they are.
    if (result instanceof RawJson) return rawSuccessText(res.id, result);
    // Most reads answer a string (a quantity, a hash): the envelope around it is written as text,
    // key for key what JSON.stringify of the object gives, at a third of its cost (issue 25).
    if (typeof result === 'string') return `{"jsonrpc":"2.0","id":${idText(res.id)},"result":${resultJson(result)}}`;
  }
  try {
    return JSON.stringify(res);
  } catch {
    return JSON.stringify({
      jsonrpc: '2.0',
      id: res.id,
      error: { code: ErrorCode.Internal, message: 'Internal server error: the response could not be serialized' },
    });
  }
}

/**
 * Longest string result whose JSON text is kept for the next answer: a 256-bit quantity or a
 * 32-byte hash (66 characters) fits; a long result (code, call output) is not held on to.
 */
const REMEMBERED_RESULT_LENGTH = 80;
let rememberedResult: string | undefined;
let rememberedResultJson = '';

/**
 * A string result's JSON text; the last short one is kept, so a polled value answered as the same
 * string (format.ts, QuantityMemo) is not escaped again (issue 25).
 */
function resultJson(result: string): string {
  if (result === rememberedResult) return rememberedResultJson;
  const json = JSON.stringify(result);
  if (result.length <= REMEMBERED_RESULT_LENGTH) {
    rememberedResult = result;
    rememberedResultJson = json;
  }
  return json;
}

/** An id's JSON text (a number JSON.parse gave is finite: its String is its JSON). */
function idText(id: JsonRpcId): string {
  return typeof id === 'number' ? (Number.isFinite(id) ? String(id) : 'null') : JSON.stringify(id);
}
