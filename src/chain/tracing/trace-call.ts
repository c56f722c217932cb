/**
 * debug_traceCall's execution: an eth_call (call.ts, on a block's state through a CallRunner, whose
 * writes are dropped after the run) with state and block overrides (overrides.ts) and a recorder
 * attached. Its gas is counted as the transaction it describes would count it: the top frame gets
 * the gas limit less the intrinsic gas, and gasUsed adds the intrinsic gas and takes off refunds,
 * so the trace has debug_traceTransaction's figures for the same transaction. As in eth_call (and
 * geth's traceCall), the sender's nonce and balance are not checked and it may be a contract.
 * The trace runs on a runner of its own over the block's state view, so a long trace does not
 * hold up the eth_calls queued on the head's runner.
 */
import type { EVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { type CallParams, callOn, intrinsicGas } from '../exec/call.js';
import { CallRunner } from '../exec/call-runner.js';
import { ChainError } from '../base/errors.js';
import { type Deadline, withDeadline } from '../evm/deadline.js';
import type { ExecutionContext } from '../exec/context.js';
import type { RskHeader } from '../records/header.js';
import { type BlockOverrides, type StateOverrides, applyStateOverrides, overriddenHeader } from '../exec/overrides.js';
import type { TxRecord } from '../records/transaction.js';
import { type StructLogOptions, TxRecorder } from './recorder.js';
import { FEE_RECIPIENT, type PrestateOptions, type TracedTx } from './replay.js';
import { PrestateRecorder } from './prestate.js';

export interface TraceCallOptions {
  stateOverrides?: StateOverrides;
  blockOverrides?: BlockOverrides;
  /** Struct logs (rskTracer) or only the call tree. */
  structLogs?: StructLogOptions;
  /** The request's time limit (evm/deadline.ts); the node's limit when absent. */
  deadline?: Deadline;
  /** prestateTracer instead of the call tree. */
  prestate?: PrestateOptions;
}

/** A call has no transaction hash; rskj's error texts name a transaction, so they show this one. */
const NO_TX_HASH = new Uint8Array(32);
const EMPTY = new Uint8Array(0);
const ZERO_ADDRESS = new Address(new Uint8Array(20));
/** RSK has no EIP-3529: refunds are capped at half the gas used (rskj's TransactionExecutor). */
const REFUND_QUOTIENT = 2n;

/** Traces `params` on the state `runner` reads (the chain's runner for the block). */
export async function traceCall(execution: ExecutionContext, runner: CallRunner, header: RskHeader, params: CallParams, options: TraceCallOptions): Promise<TracedTx> {
  const cap = execution.callGasCap;
  const gasLimit = params.gas === undefined || params.gas > cap ? cap : params.gas;
  const intrinsic = intrinsicGas(execution, params);
  if (gasLimit < intrinsic) throw new ChainError('invalidArgument', `intrinsic gas too low: have ${gasLimit}, want ${intrinsic}`);
  const from = params.from ?? ZERO_ADDRESS;
  const tx: TxRecord = {
    hash: NO_TX_HASH,
    raw: EMPTY,
    from: from.bytes,
    nonce: 0n,
    gasPrice: params.gasPrice ?? 0n,
    gasLimit,
    to: params.to?.bytes,
    value: params.value ?? 0n,
    data: params.data ?? EMPTY,
    v: 0n,
    r: 0n,
    s: 0n,
    isRemasc: false,
  };
  const blockHeader = options.blockOverrides === undefined ? header : overriddenHeader(header, options.blockOverrides);
  const deadline = options.deadline ?? execution.deadline();

  return new CallRunner(execution, runner.view).run((evm: EVM) =>
    withDeadline(evm, deadline, async () => {
      if (options.stateOverrides !== undefined) await applyStateOverrides(evm.stateManager, evm, options.stateOverrides);
      const prestate = options.prestate === undefined ? undefined : new PrestateRecorder(evm, options.prestate.diffMode);
      await prestate?.start(from, params.to, FEE_RECIPIENT);
      const recorder = prestate === undefined ? new TxRecorder(evm, options.structLogs) : undefined;
      recorder?.attach();
      prestate?.attach();
      let execResult;
      try {
        ({ execResult } = await callOn(evm, execution, blockHeader, { ...params, from }, gasLimit - intrinsic));
      } finally {
        recorder?.detach();
        prestate?.detach();
      }
      const spent = intrinsic + execResult.executionGasUsed;
      const refund = execResult.gasRefund ?? 0n;
      const gasUsed = spent - (refund < spent / REFUND_QUOTIENT ? refund : spent / REFUND_QUOTIENT);
      return { index: 0, tx, recorder, gasUsed, logIndexStart: 0, prestate: await prestate?.result() };
    }),
  );
}
