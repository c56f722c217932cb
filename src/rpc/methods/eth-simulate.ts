/**
 * eth_simulateV1 (execution-apis; rskj has none, geth, Nethermind and reth do): blocks of calls
 * simulated on a block's state (chain/exec/simulate.ts), answered as the spec shapes them: per
 * block, the block as eth_getBlockByNumber prints an RSK block, and `calls` with returnData, logs,
 * gasUsed, status and error. A refusal of the whole request gets the spec's code (-380xx).
 */
import { bytesToHex } from '@ethereumjs/util';
import {
  ChainError,
  MAX_SIMULATED_BLOCKS,
  SimulationRefused,
  errorString,
  type SimulatedBlock,
  type SimulatedBlockRequest,
  type SimulationRefusalKind,
} from '../../chain/index.js';
import { method } from '../context.js';
import { RpcError } from '../errors.js';
import { formatBlock, formatLog, quantity } from '../format.js';
import { blockOverrides, stateOverrides } from '../overrides.js';
import { ParamError, blockSelector, bool, callRequest, describe, field, makeDecoder, params } from '../params.js';
import { resolveBlock, describeSelector } from '../resolve.js';
import type { BlockSelector } from '../types.js';

/** The spec's error codes for a refused simulation. */
const REFUSAL_CODES: Record<SimulationRefusalKind, number> = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  gasPriceTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimit: -38015,
  blockNumberOrder: -38020,
  blockTimestampOrder: -38021,
  senderNotEoa: -38024,
  maxInitCodeSize: -38025,
  clientLimit: -38026,
};
/** The spec's per-call error codes: a REVERT (with its data), and any other EVM failure. */
const CALL_REVERTED = 3;
const CALL_VM_ERROR = -32015;

const PAYLOAD_FIELDS = new Set(['blockStateCalls', 'traceTransfers', 'validation', 'returnFullTransactions']);
const BLOCK_FIELDS = new Set(['blockOverrides', 'stateOverrides', 'calls']);

interface SimulationPayload {
  blocks: SimulatedBlockRequest[];
  validation: boolean;
  traceTransfers: boolean;
  returnFullTransactions: boolean;
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamError(`expected ${what} object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

function blockStateCall(v: unknown): SimulatedBlockRequest {
  const o = object(v, 'a blockStateCalls');
  for (const key of Object.keys(o)) if (!BLOCK_FIELDS.has(key)) throw new ParamError(`unknown field "${key}"`);
  const rawCalls = o.calls ?? [];
  if (!Array.isArray(rawCalls)) throw new ParamError(`field "calls": expected an array, got ${describe(rawCalls)}`);
  const calls = rawCalls.map((call, i) => {
    try {
      return callRequest.parse(call);
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`calls[${i}]: ${err.message}`);
      throw err;
    }
  });
  const request: SimulatedBlockRequest = { calls };
  const block = field(o, 'blockOverrides', blockOverrides);
  if (block !== undefined) request.blockOverrides = block;
  const state = field(o, 'stateOverrides', stateOverrides);
  if (state !== undefined) request.stateOverrides = state;
  return request;
}

/** `{ blockStateCalls: [{ blockOverrides?, stateOverrides?, calls? }], validation?, returnFullTransactions?, traceTransfers? }`. */
const payload = makeDecoder('payload', (v): SimulationPayload => {
  const o = object(v, 'a simulation payload');
  for (const key of Object.keys(o)) if (!PAYLOAD_FIELDS.has(key)) throw new ParamError(`unknown field "${key}"`);
  const raw = o.blockStateCalls;
  if (!Array.isArray(raw)) throw new ParamError(`field "blockStateCalls": expected an array, got ${describe(raw)}`);
  if (raw.length > MAX_SIMULATED_BLOCKS) throw new RpcError(REFUSAL_CODES.clientLimit, `too many blocks: ${raw.length} > ${MAX_SIMULATED_BLOCKS}`);
  const blocks = raw.map((b, i) => {
    try {
      return blockStateCall(b);
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`blockStateCalls[${i}]: ${err.message}`);
      throw err;
    }
  });
  return {
    blocks,
    validation: field(o, 'validation', bool) ?? false,
    traceTransfers: field(o, 'traceTransfers', bool) ?? false,
    returnFullTransactions: field(o, 'returnFullTransactions', bool) ?? false,
  };
});

const LATEST: BlockSelector = { tag: 'latest' };

function callError(error: string, returnData: Uint8Array): Record<string, unknown> {
  if (error === 'revert') {
    const reason = errorString(returnData);
    return { code: CALL_REVERTED, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: bytesToHex(returnData) };
  }
  return { code: CALL_VM_ERROR, message: error };
}

function blockJson({ block, calls }: SimulatedBlock, fullTransactions: boolean): Record<string, unknown> {
  let logIndex = 0;
  const callsJson = calls.map((call, txIndex) => {
    const tx = block.transactions[txIndex]!;
    const json: Record<string, unknown> = {
      returnData: bytesToHex(call.returnData),
      logs: call.logs.map((log) =>
        formatLog({ log, blockHash: block.hash, blockNumber: block.header.number, txHash: tx.hash, txIndex, logIndex: logIndex++ }),
      ),
      gasUsed: quantity(call.gasUsed),
      status: call.error === undefined ? '0x1' : '0x0',
    };
    if (call.error !== undefined) json.error = callError(call.error, call.returnData);
    return json;
  });
  return { ...formatBlock(block, fullTransactions, false), calls: callsJson };
}

export const ethSimulateMethods = [
  method(
    'eth_simulateV1',
    'Simulates blocks of calls on a block (default latest) with per-block state and block overrides: per block the block and each call’s returnData, logs, gasUsed, status, error.',
    params([payload, blockSelector.orDefault(LATEST)]),
    async (ctx, [request, selector]) => {
      const resolved = await resolveBlock(ctx.chain, selector);
      if (resolved === undefined) throw new ChainError('blockNotFound', `Block ${describeSelector(selector)} not found`);
      const base = resolved.pending
        ? { header: resolved.view.header, hash: undefined, totalDifficulty: resolved.view.totalDifficulty, db: resolved.view.db }
        : { header: ctx.chain.targetOf(resolved.block).header, hash: resolved.block.hash, totalDifficulty: resolved.block.totalDifficulty };
      let simulated: SimulatedBlock[];
      try {
        simulated = await ctx.chain.simulate(base, request.blocks, { validation: request.validation, traceTransfers: request.traceTransfers, deadline: ctx.deadline });
      } catch (err) {
        if (err instanceof SimulationRefused) throw new RpcError(REFUSAL_CODES[err.refusal], err.message);
        throw err;
      }
      return simulated.map((b) => blockJson(b, request.returnFullTransactions));
    },
  ),
];
