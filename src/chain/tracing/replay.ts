/**
 * Re-executes a block's transactions on its parent's state to trace them, as rskj's
 * BlockExecutor.traceBlock does. Nothing reaches the state store: the state manager works over a
 * throwaway OverlayDb (needed: @ethereumjs/statemanager 10 writes SSTOREs straight into the storage
 * trie even with caches on, see `putStorage`), and one outer checkpoint that is never committed
 * keeps account changes in its caches, so no trie is rehashed between transactions. The REMASC
 * transaction that closes every block is not run by the EVM here (block-builder.ts); its trace is
 * built from the transaction alone.
 */
import { RLP } from '@ethereumjs/rlp';
import { type LegacyTx, createLegacyTxFromBytesArray } from '@ethereumjs/tx';
import { Address, type DB, bytesToHex } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';
import type { StateManagerInterface } from '@ethereumjs/common';
import { rskTxOptions } from '../evm/rsk-common.js';
import type { ExecutionContext } from '../exec/context.js';
import type { RskHeader } from '../records/header.js';
import { Lru } from '../../util/lru.js';
import { OverlayDb } from '../storage/state-db.js';
import { runTxAs } from '../exec/impersonated-run.js';
import { type Deadline, withDeadline } from '../evm/deadline.js';
import type { TxRecord } from '../records/transaction.js';
import { type StructLogOptions, TxRecorder } from './recorder.js';
import { type PrestateJson, PrestateRecorder, emptyPrestate } from './prestate.js';
import { REMASC_ADDRESS } from '../base/addresses.js';

/** A block to trace: its header and transactions (REMASC last), and the state it was built on. */
export interface TraceTarget {
  header: RskHeader;
  /** undefined for the pending block, which has no hash yet. */
  hash: Uint8Array | undefined;
  transactions: readonly TxRecord[];
  parentStateRoot: Uint8Array;
}

export interface TracedTx {
  index: number;
  tx: TxRecord;
  /** undefined for REMASC, which runs no EVM code. */
  recorder: TxRecorder | undefined;
  /** Gas the transaction used, as its receipt says (after refunds). */
  gasUsed: bigint;
  /** Logs emitted by the block's earlier transactions (block-wide log index of this one's first log). */
  logIndexStart: number;
  /** prestateTracer's result, when asked for (then `recorder` is undefined: no call tree is kept). */
  prestate?: PrestateJson;
}

/** prestateTracer's option: geth's tracerConfig.diffMode. */
export interface PrestateOptions {
  diffMode: boolean;
}

/** Where RSK's transaction fees go (the EVM's coinbase, execution.ts): geth's prestate looks up the coinbase. */
export const FEE_RECIPIENT = new Address(REMASC_ADDRESS);

export interface ReplayOptions {
  /** Positions to record; the others only run (to reach the state the recorded ones saw). */
  record: (index: number) => boolean;
  /** Struct logs (rskTracer) or only the call tree. */
  structLogs?: StructLogOptions;
  /** The request's time limit (evm/deadline.ts); a new one with the node's limit when absent. */
  deadline?: Deadline;
  /** prestateTracer instead of the call tree. */
  prestate?: PrestateOptions;
  /** Called with the EVM before each recorded transaction runs; what it returns, after it ran. */
  observe?: (evm: EVM) => () => void;
  /** Called with the state once the last recorded transaction ran (reads only). */
  inspect?: (state: StateManagerInterface) => Promise<void>;
}

/** `db` holds the state trie nodes (read only: writes go to an overlay dropped afterwards). */
export async function replayBlock(
  execution: ExecutionContext,
  db: DB<string, Uint8Array>,
  target: TraceTarget,
  options: ReplayOptions,
): Promise<TracedTx[]> {
  const { header, transactions } = target;
  let last = -1;
  for (let i = 0; i < transactions.length; i++) if (options.record(i)) last = i;
  const traced: TracedTx[] = [];
  if (last < 0) return traced;

  const state = execution.stateManager(new OverlayDb(db), target.parentStateRoot);
  // Never committed: see the file comment.
  await state.checkpoint();
  const vm = await execution.vm(state);
  const evm = vm.evm as EVM;
  // One time limit for the whole replay, and the request's other executions.
  const deadline = options.deadline ?? execution.deadline();
  let gasUsed = 0n;
  let logIndex = 0;
  for (let i = 0; i <= last; i++) {
    const record = transactions[i]!;
    const wanted = options.record(i);
    if (record.isRemasc) {
      if (wanted) {
        const prestate = options.prestate === undefined ? undefined : emptyPrestate(options.prestate.diffMode);
        traced.push({ index: i, tx: record, recorder: undefined, gasUsed: 0n, logIndexStart: logIndex, prestate });
      }
      continue;
    }
    const tx = legacyTx(execution, record);
    const prestate = wanted && options.prestate !== undefined ? new PrestateRecorder(evm, options.prestate.diffMode) : undefined;
    await prestate?.start(tx.getSenderAddress(), tx.to, FEE_RECIPIENT);
    const recorder = wanted && prestate === undefined ? new TxRecorder(evm, options.structLogs) : undefined;
    recorder?.attach();
    prestate?.attach();
    const unobserve = wanted ? options.observe?.(evm) : undefined;
    let result;
    try {
      result = await withDeadline(evm, deadline, () =>
        runTxAs(vm, { tx, block: execution.headerBlock(header, gasUsed, false), blockGasUsed: gasUsed, skipHardForkValidation: true }, tx.getSenderAddress()),
      );
    } finally {
      recorder?.detach();
      unobserve?.();
      prestate?.detach();
    }
    if (wanted) traced.push({ index: i, tx: record, recorder, gasUsed: result.totalGasSpent, logIndexStart: logIndex, prestate: await prestate?.result() });
    gasUsed += result.totalGasSpent;
    logIndex += result.execResult.logs?.length ?? 0;
  }
  await options.inspect?.(state);
  return traced;
}

/**
 * The stored transaction as ethereumjs runs it. The sender comes from the block (stored beside the
 * RLP), not from signature recovery: that is faster, and impersonated transactions carry no real
 * signature (impersonation.ts).
 */
function legacyTx(execution: ExecutionContext, record: TxRecord) {
  const key = bytesToHex(record.hash);
  const cached = txCache.get(key);
  if (cached !== undefined && cached.common === execution.common) return cached.tx;
  const tx = createLegacyTxFromBytesArray(RLP.decode(record.raw) as Uint8Array[], {
    ...rskTxOptions(execution.common),
    freeze: false,
  });
  const sender = new Address(record.from);
  tx.getSenderAddress = () => sender;
  txCache.set(key, { tx, common: execution.common });
  return tx;
}

/** Transactions already rebuilt, by hash: tracing the same block again skips decoding them. */
const TX_CACHE_ENTRIES = 4096;
const txCache = new Lru<string, { tx: LegacyTx; common: ExecutionContext['common'] }>(TX_CACHE_ENTRIES);
