/**
 * debug_* (reference 10.5): rskj's struct-log tracer ("rskTracer", the default) and callTracer
 * (geth's shape) over re-executed blocks, plus geth's prestateTracer (rskj has none; diffMode too), and debug_wireProtocolQueueSize. Unknown transactions
 * and blocks answer null. debug_traceCall (geth's; rskj has none) traces a call with the same
 * tracers and options, plus geth's stateOverrides and blockOverrides.
 */
import { bytesToHex } from '@ethereumjs/util';
import {
  MAX_STRUCT_LOG_BYTES,
  StructLogBudget,
  type StructLogOptions,
  callTrace,
  structLogTrace,
  type TraceTarget,
  type TracedTx,
  blockTarget,
  pendingTarget,
  trace,
  type TraceCallOptions,
} from '../../chain/index.js';
import { type RpcContext, method } from '../context.js';
import { ErrorCode, InvalidParams, RpcError } from '../errors.js';
import { blockOverrides, stateOverrides } from '../overrides.js';
import { ParamError, blockSelector, callRequest, field, hash32, makeDecoder, params } from '../params.js';
import { resolveBlock, stateTarget } from '../resolve.js';
import type { BlockSelector } from '../types.js';

type TracerType = 'rskTracer' | 'callTracer' | 'prestateTracer';

export interface DebugTraceOptions {
  tracer: TracerType;
  structLogs: StructLogOptions;
  onlyTopCall: boolean;
  withLog: boolean;
  /** prestateTracer's { pre, post } form. */
  diffMode: boolean;
}

/** rskj's message queue is the peer network's; this node has no peers. */
const WIRE_PROTOCOL_QUEUE_SIZE = '0x0';

const TRACERS: Record<string, TracerType> = { rsktracer: 'rskTracer', calltracer: 'callTracer', prestatetracer: 'prestateTracer' };
const DISABLE_OPTIONS: Record<string, 'memory' | 'stack' | 'storage'> = { disablememory: 'memory', disablestack: 'stack', disablestorage: 'storage' };

/** Jackson's JsonNode.asText(), which rskj's option parser reads every value through. */
function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (v === null) return 'null';
  return '';
}

/** Java's Boolean.parseBoolean. */
const parseBoolean = (v: unknown): boolean => asText(v).toLowerCase() === 'true';

/**
 * rskj's DebugTracerParam: `tracer` (case-insensitive "rskTracer" | "callTracer"), `tracerConfig`
 * whose members count as options, and the options themselves: onlyTopCall, withLog, and
 * disableStack / disableMemory / disableStorage (case-insensitive); unknown options are ignored.
 */
export function parseTraceOptions(raw: unknown): DebugTraceOptions {
  const options: DebugTraceOptions = { tracer: 'rskTracer', structLogs: { memory: true, stack: true, storage: true }, onlyTopCall: false, withLog: false, diffMode: false };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return options;
  const add = (key: string, value: unknown) => {
    if (key === 'onlyTopCall') options.onlyTopCall = parseBoolean(value);
    else if (key === 'withLog') options.withLog = parseBoolean(value);
    else if (key === 'diffMode') options.diffMode = parseBoolean(value);
    else {
      const field = DISABLE_OPTIONS[key.toLowerCase()];
      if (field !== undefined && parseBoolean(value)) options.structLogs[field] = false;
    }
  };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key.toLowerCase() === 'tracerconfig') {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) add(k, v);
    } else if (key.toLowerCase() === 'tracer') {
      const tracer = TRACERS[asText(value).toLowerCase()];
      if (tracer === undefined) throw new InvalidParams(`Invalid tracer type: ${asText(value)}`);
      options.tracer = tracer;
    } else {
      add(key, value);
    }
  }
  return options;
}

const traceOptions = makeDecoder('options', (v) => parseTraceOptions(v)).orDefault(parseTraceOptions(undefined));

type TraceCallConfig = DebugTraceOptions & Pick<TraceCallOptions, 'stateOverrides' | 'blockOverrides'>;

/** geth's TraceCallConfig: the trace options, with stateOverrides and blockOverrides beside them. */
const traceCallOptions = makeDecoder('options', (v): TraceCallConfig => {
  const config: TraceCallConfig = parseTraceOptions(v);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    if (v !== undefined && v !== null) throw new ParamError(`expected an options object, got ${Array.isArray(v) ? 'array' : typeof v}`);
    return config;
  }
  const o = v as Record<string, unknown>;
  const state = field(o, 'stateOverrides', stateOverrides);
  if (state !== undefined) config.stateOverrides = state;
  const block = field(o, 'blockOverrides', blockOverrides);
  if (block !== undefined) config.blockOverrides = block;
  return config;
}).orDefault(parseTraceOptions(undefined));
const LATEST: BlockSelector = { tag: 'latest' };
const txHash = hash32.as('transactionHash');
const blockHash = hash32.as('blockHash');

/** Replays `target` recording the positions `record` picks; refuses struct logs past their budget. */
async function traceWith(ctx: RpcContext, target: TraceTarget, options: DebugTraceOptions, record: (i: number) => boolean): Promise<TracedTx[]> {
  const budget = new StructLogBudget();
  const structLogs = options.tracer === 'rskTracer' ? { ...options.structLogs, budget } : undefined;
  const traced = await trace(ctx.chain, target, { record, structLogs, deadline: ctx.deadline, prestate: prestateOf(options) });
  refuseOverBudget(budget);
  return traced;
}

function refuseOverBudget(budget: StructLogBudget): void {
  if (budget.exhausted) {
    throw new RpcError(
      ErrorCode.ResourceLimit,
      `the struct-log trace would exceed ${MAX_STRUCT_LOG_BYTES / 1024 / 1024} MiB: trace with disableMemory, disableStack or disableStorage, or with { "tracer": "callTracer" }`,
    );
  }
}

const prestateOf = (options: DebugTraceOptions) => (options.tracer === 'prestateTracer' ? { diffMode: options.diffMode } : undefined);

function format(traced: TracedTx, options: DebugTraceOptions): unknown {
  if (options.tracer === 'prestateTracer') return traced.prestate;
  return options.tracer === 'rskTracer' ? structLogTrace(traced) : callTrace(traced, options);
}

async function traceBlockWith(ctx: RpcContext, target: TraceTarget | undefined, options: DebugTraceOptions): Promise<unknown[]> {
  if (target === undefined) return [];
  const traced = await traceWith(ctx, target, options, () => true);
  if (options.tracer === 'rskTracer') return traced.map((t) => structLogTrace(t));
  return traced.map((t) => ({ txHash: bytesToHex(t.tx.hash), result: format(t, options) }));
}

export const debugMethods = [
  method('debug_wireProtocolQueueSize', 'Peer message queue size: always 0x0 (no peers).', params([]), () => WIRE_PROTOCOL_QUEUE_SIZE),
  method(
    'debug_traceTransaction',
    'Re-executes a mined transaction on its parent state: rskTracer struct logs (default), callTracer or prestateTracer; null if unknown.',
    params([txHash, traceOptions]),
    async (ctx, [hash, options]) => {
      const found = await ctx.chain.transaction(hash);
      if (found === undefined) return null;
      const target = await blockTarget(ctx.chain, found.block);
      if (target === undefined) return null;
      const [traced] = await traceWith(ctx, target, options, (i) => i === found.index);
      return traced === undefined ? null : format(traced, options);
    },
  ),
  method(
    'debug_traceCall',
    "Traces a call (eth_call's call object) at a block (default latest), with geth's stateOverrides and blockOverrides: rskTracer, callTracer or prestateTracer.",
    params([callRequest, blockSelector.orDefault(LATEST), traceCallOptions]),
    async (ctx, [request, block, options]) => {
      const target = await stateTarget(ctx.chain, block);
      const budget = new StructLogBudget();
      const structLogs = options.tracer === 'rskTracer' ? { ...options.structLogs, budget } : undefined;
      const traced = await ctx.chain.traceCall(request, target, { structLogs, stateOverrides: options.stateOverrides, blockOverrides: options.blockOverrides, deadline: ctx.deadline, prestate: prestateOf(options) });
      refuseOverBudget(budget);
      return format(traced, options);
    },
  ),
  method(
    'debug_traceBlockByHash',
    "Traces every transaction of a block (REMASC included); callTracer gives [{txHash, result}]; null if unknown.",
    params([blockHash, traceOptions]),
    async (ctx, [hash, options]) => {
      const block = await ctx.chain.blockByHash(hash);
      return block === undefined ? null : traceBlockWith(ctx, await blockTarget(ctx.chain, block), options);
    },
  ),
  method(
    'debug_traceBlockByNumber',
    'Traces every transaction of a block by number or tag (pending included); null if unknown.',
    params([blockSelector.as('block'), traceOptions]),
    async (ctx, [selector, options]) => {
      const resolved = await resolveBlock(ctx.chain, selector);
      if (resolved === undefined) return null;
      const target = resolved.pending ? pendingTarget(resolved.view) : await blockTarget(ctx.chain, resolved.block);
      return traceBlockWith(ctx, target, options);
    },
  ),
];
