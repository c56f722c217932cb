/**
 * trace_* (reference 10.6): Parity-style traces as rskj's TraceModuleImpl builds them, with its
 * limits, messages and quirks (see chain/tracing/parity.ts). Blocks are re-executed on their parent
 * state; nothing is written.
 */
import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util';
import {
  type RskBlock,
  type ParityTrace,
  parityTraces,
  type TraceTarget,
  type TxRecord,
  blockTarget,
  pendingTarget,
  trace,
  traceWithStateDiff,
  type Deadline,
  isTimeout,
} from '../../chain/index.js';
import { type RpcContext, method, requestDeadline } from '../context.js';
import { InvalidParams } from '../errors.js';
import { ParamError, address, declareParams, describe, hash32, makeDecoder, params, shortened, shown } from '../params.js';

/** rskj rpc.trace.maxTracesPerRequest (reference.conf): the most traces one trace_filter returns or skips. */
export const MAX_TRACES_PER_REQUEST = 10_000;
/** rskj's trace_block: an argument of at least this many characters is a block hash. */
const HASH_ARGUMENT_MIN_LENGTH = 20;

const txHash = hash32.as('transactionHash');

async function blockTraces(
  ctx: RpcContext,
  target: TraceTarget | undefined,
  wanted: (tx: TxRecord) => boolean = () => true,
  deadline: Deadline | undefined = ctx.deadline,
): Promise<ParityTrace[]> {
  if (target === undefined) return [];
  const positions = new Set<number>();
  target.transactions.forEach((tx, i) => wanted(tx) && positions.add(i));
  // Nothing passes the filter: skip the replay altogether.
  if (positions.size === 0) return [];
  const traced = await trace(ctx.chain, target, { record: (i) => positions.has(i), deadline });
  return traced.flatMap((t) => parityTraces(t, { hash: target.hash, number: target.header.number }));
}

// ---- trace_block --------------------------------------------------------------------------------

type BlockArgument = { tag: 'earliest' | 'latest' | 'pending' } | { number: bigint } | { hash: Uint8Array | undefined };

/** rskj's getByJsonArgument: a string of 20 characters or more is a hash, anything shorter a tag or hex number. */
const blockArgument = makeDecoder<BlockArgument>('block', (v) => {
  if (typeof v !== 'string') throw new ParamError(`expected a block hash, number or tag, got ${describe(v)}`);
  if (v.length >= HASH_ARGUMENT_MIN_LENGTH) {
    // A string that is no 32-byte hash names no block.
    return { hash: /^0x[0-9a-fA-F]{64}$/.test(v) ? hexToBytes(v as `0x${string}`) : undefined };
  }
  const tag = v.toLowerCase();
  if (tag === 'earliest' || tag === 'latest' || tag === 'pending') return { tag };
  if (!/^0x[0-9a-fA-F]+$/.test(v)) throw new InvalidParams(`invalid blocknumber ${v}`);
  return { number: BigInt(v) };
});

async function targetOfArgument(ctx: RpcContext, arg: BlockArgument): Promise<TraceTarget | undefined | null> {
  const chain = ctx.chain;
  let block: RskBlock | undefined;
  if ('tag' in arg) {
    if (arg.tag === 'pending') return pendingTarget(await chain.pending());
    block = arg.tag === 'earliest' ? await chain.blockByNumber(0n) : chain.head;
  } else if ('number' in arg) {
    block = await chain.blockByNumber(arg.number);
  } else {
    block = arg.hash === undefined ? undefined : await chain.blockByHash(arg.hash);
  }
  if (block === undefined) return null;
  return blockTarget(chain, block);
}

// ---- trace_filter -------------------------------------------------------------------------------

export interface TraceFilter {
  fromBlock: string;
  toBlock: string;
  fromAddress: string[] | undefined;
  toAddress: string[] | undefined;
  after: number | undefined;
  count: number | undefined;
}

const invalidFilter = () => new InvalidParams('Invalid trace_filter parameters.');

/** A JSON integer, or a decimal string (Jackson's coercion into rskj's Integer fields). */
function integerField(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?[0-9]{1,15}$/.test(v)) return Number(v);
  throw new InvalidParams(`Invalid trace_filter parameters: ${name} must be an integer`);
}

function addressList(v: unknown, name: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new InvalidParams(`Invalid trace_filter parameters: ${name} must be an array of addresses`);
  return v.map((a, i) => address(a, `${name}[${i}]`).toString());
}

function blockField(v: unknown, fallback: string, name: string): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') throw new InvalidParams(`Invalid trace_filter parameters: ${name} must be a block number or tag`);
  return v;
}

const traceFilterRequest = makeDecoder<TraceFilter | undefined>('filter', (v) => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidFilter();
  const o = v as Record<string, unknown>;
  return {
    fromBlock: blockField(o.fromBlock, 'earliest', 'fromBlock'),
    toBlock: blockField(o.toBlock, 'latest', 'toBlock'),
    fromAddress: addressList(o.fromAddress, 'fromAddress'),
    toAddress: addressList(o.toAddress, 'toAddress'),
    after: integerField(o.after, 'after'),
    count: integerField(o.count, 'count'),
  };
});

/** A block bound of trace_filter as a number; 'pending' is the block after the head (never stored). */
function blockBound(ctx: RpcContext, v: string): bigint {
  const tag = v.toLowerCase();
  if (tag === 'latest') return ctx.chain.head.header.number;
  if (tag === 'earliest') return 0n;
  if (tag === 'pending') return ctx.chain.head.header.number + 1n;
  // Length before the regex and BigInt: a 15 MB string must not hold the event loop (no block number passes 2^256).
  if (v.length > 66 || !/^0x[0-9a-fA-F]+$/.test(v)) throw new InvalidParams(`invalid blocknumber ${shortened(v)}`);
  return BigInt(v);
}

export async function traceFilter(ctx: RpcContext, filter: TraceFilter | undefined): Promise<ParityTrace[]> {
  // rskj's validateTraceFilterRequest, in its order.
  if (filter === undefined) throw invalidFilter();
  const count = filter.count ?? MAX_TRACES_PER_REQUEST;
  if (count > MAX_TRACES_PER_REQUEST) throw new InvalidParams(`Count value too big. Maximum ${MAX_TRACES_PER_REQUEST} traces allowed.`);
  // rskj fails with an internal error here; say what is wrong instead.
  if (count < 0) throw new InvalidParams('Count value cannot be negative.');
  const after = filter.after ?? 0;
  if (after < 0) throw new InvalidParams('After value cannot be negative.');
  if (after > MAX_TRACES_PER_REQUEST) throw new InvalidParams(`After value too big. Maximum ${MAX_TRACES_PER_REQUEST} traces allowed.`);

  const head = ctx.chain.head.header.number;
  const from = blockBound(ctx, filter.fromBlock);
  let to = blockBound(ctx, filter.toBlock);
  // rskj compares the blocks it found: a bound past the head names no block and is not compared.
  if (from <= head && to <= head && from > to) throw new InvalidParams('fromBlock cannot be greater than toBlock');
  if (to > head) to = head;

  const fromSet = filter.fromAddress !== undefined && filter.fromAddress.length > 0 ? new Set(filter.fromAddress) : undefined;
  const toSet = filter.toAddress !== undefined && filter.toAddress.length > 0 ? new Set(filter.toAddress) : undefined;
  const wanted = (tx: TxRecord) =>
    (fromSet === undefined || fromSet.has(bytesToHex(tx.from))) && (toSet === undefined || (tx.to !== undefined && toSet.has(bytesToHex(tx.to))));

  // rskj bounds the range by time only (rpc.timeout over the whole request): one deadline for all
  // the blocks, checked between them too, so blocks without matching transactions count as well.
  const deadline = requestDeadline(ctx);
  const out: ParityTrace[] = [];
  let processed = 0;
  let n = from;
  try {
    for (; n <= to; n++) {
      await deadline.checkpoint();
      const block = await ctx.chain.blockByNumber(n);
      if (block === undefined) break;
      const built = await blockTraces(ctx, await blockTarget(ctx.chain, block), wanted, deadline);
      if (processed + built.length > after) {
        const start = Math.max(0, after - processed);
        const end = Math.min(built.length, after + count - processed);
        if (end > start) out.push(...built.slice(start, end));
      }
      processed += built.length;
      if (processed >= after + count) break;
    }
  } catch (err) {
    if (!isTimeout(err)) throw err;
    throw deadline.error(`trace_filter stopped at block ${n} of ${from} to ${to}: ask for a narrower fromBlock/toBlock range`);
  }
  return out;
}

// ---- trace_get ----------------------------------------------------------------------------------

const traceGetHash = makeDecoder<string>('transactionHash', (v) => {
  if (v === undefined || v === null || v === '') throw new InvalidParams("'transactionHash' cannot be null or empty");
  if (typeof v !== 'string') throw new ParamError(`expected a transaction hash, got ${describe(v)}`);
  return v;
});

const tracePositions = makeDecoder<number>('positions', (v) => {
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) throw new InvalidParams("'positions' cannot be null or empty");
  if (!Array.isArray(v)) throw new ParamError(`expected an array with one index, got ${describe(v)}`);
  if (v.length > 1) throw new InvalidParams("'positions' accepts only one index");
  const [position] = v;
  if (typeof position !== 'string' || !/^0x[0-9a-fA-F]{1,8}$/.test(position)) throw new ParamError(`expected a hex index, got ${shown(position)}`);
  return Number(position);
});

// ---- trace_replayTransaction ---------------------------------------------------------------------

type ReplayKind = 'trace' | 'stateDiff';

/** OpenEthereum's trace types; vmTrace (every opcode's effects) is not built. */
const replayKinds = makeDecoder<Set<ReplayKind>>('traceTypes', (v) => {
  if (!Array.isArray(v)) throw new ParamError(`expected an array of trace types ("trace", "stateDiff"), got ${describe(v)}`);
  const kinds = new Set<ReplayKind>();
  for (const item of v) {
    if (item === 'trace' || item === 'stateDiff') kinds.add(item);
    else if (item === 'vmTrace') throw new InvalidParams('vmTrace is not supported: ask for "trace" and/or "stateDiff"');
    else throw new ParamError(`unknown trace type ${shown(item)}: "trace" or "stateDiff"`);
  }
  return kinds;
});

/** The transaction's traces without their block fields, as a replay reports them. */
function replayTraces(traces: ParityTrace[]) {
  return traces.map(({ blockHash: _h, blockNumber: _n, transactionHash: _t, transactionPosition: _p, ...rest }) => rest);
}

export const traceMethods = [
  method(
    'trace_replayTransaction',
    'Replays a mined transaction: {output, trace (Parity-style, when asked), stateDiff (balance, nonce, code and written slots of every touched account, when asked), vmTrace: null}; null if unknown.',
    params([txHash, replayKinds]),
    async (ctx, [hash, kinds]) => {
      const found = await ctx.chain.transaction(hash);
      if (found === undefined) return null;
      const target = await blockTarget(ctx.chain, found.block);
      if (target === undefined) return null;
      // The state diff needs a second replay (the values before): only when asked.
      const { traced, stateDiff } = kinds.has('stateDiff')
        ? await traceWithStateDiff(ctx.chain, target, found.index, ctx.deadline)
        : { traced: (await trace(ctx.chain, target, { record: (i) => i === found.index, deadline: ctx.deadline }))[0]!, stateDiff: null };
      const root = traced.recorder?.root;
      return {
        output: root === undefined ? '0x' : bytesToHex(root.output),
        stateDiff,
        trace: kinds.has('trace') ? replayTraces(parityTraces(traced, { hash: target.hash, number: target.header.number })) : [],
        vmTrace: null,
      };
    },
  ),
  method(
    'trace_transaction',
    "Parity-style traces of a mined transaction (rskj's shape and quirks); null if unknown.",
    params([txHash]),
    async (ctx, [hash]) => {
      const found = await ctx.chain.transaction(hash);
      if (found === undefined) return null;
      const target = await blockTarget(ctx.chain, found.block);
      if (target === undefined) return [];
      return blockTraces(ctx, target, (tx) => equalsBytes(tx.hash, found.tx.hash));
    },
  ),
  method(
    'trace_block',
    'Parity-style traces of every transaction of a block (hash, number or tag); [] for genesis, null if unknown.',
    params([blockArgument]),
    async (ctx, [arg]) => {
      const target = await targetOfArgument(ctx, arg);
      return target === null ? null : blockTraces(ctx, target);
    },
  ),
  method(
    'trace_filter',
    `Traces of the transactions sent from/to the given addresses in a block range; after/count page through at most ${MAX_TRACES_PER_REQUEST}.`,
    declareParams([{ name: 'filter', required: false }], (raw: unknown[]) => {
      if (raw.length > 1) throw new InvalidParams('too many arguments, want at most 1');
      return [traceFilterRequest.optional(raw[0], 'argument 0 (filter)')] as const;
    }),
    async (ctx, [filter]) => traceFilter(ctx, filter),
  ),
  method(
    'trace_get',
    "One trace by position; as in rskj the position indexes the whole block's traces. null if unknown.",
    declareParams([{ name: 'transactionHash', required: true }, { name: 'positions', required: true }], (raw: unknown[]) => {
      if (raw.length > 2) throw new InvalidParams('too many arguments, want at most 2');
      const hash = traceGetHash(raw[0], 'argument 0 (transactionHash)');
      const position = tracePositions(raw[1], 'argument 1 (positions)');
      return [hash, position] as const;
    }),
    async (ctx, [hashText, position]) => {
      if (!/^0x[0-9a-fA-F]{64}$/.test(hashText)) return null;
      const found = await ctx.chain.transaction(hexToBytes(hashText as `0x${string}`));
      if (found === undefined) return null;
      const traces = await blockTraces(ctx, await blockTarget(ctx.chain, found.block));
      return traces[position] ?? null;
    },
  ),
];
