/** eth_call and eth_estimateGas: execution against a block's state that creates no transaction. */
import { createLegacyTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { type EVM, EVMError, type EVMResult } from '@ethereumjs/evm';
import type { CallRunner } from './call-runner.js';
import { rskTxOptions } from '../evm/rsk-common.js';
import { ExecutionReverted } from '../base/errors.js';
import { type Deadline, withDeadline } from '../evm/deadline.js';
import type { ExecutionContext } from './context.js';
import type { RskHeader } from '../records/header.js';
import { type ConsoleCalls, NO_CALLS, takeConsoleCalls } from '../console/observer.js';

/** rskj rpc.gasEstimationCap: the highest estimate eth_estimateGas returns. */
export const GAS_ESTIMATION_CAP = 6_800_000n;

export interface CallParams {
  from?: Address;
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  value?: bigint;
  data?: Uint8Array;
}

export interface CallResult {
  returnValue: Uint8Array;
  gasUsed: bigint;
  reverted: boolean;
  /** Set when execution failed for a reason other than REVERT (rskj answers these without error). */
  error: string | undefined;
  /** The call's console.log calls (console/observer.ts). */
  consoleCalls: ConsoleCalls;
}

/** An attempt's result and its console.log calls. */
interface Executed {
  result: EVMResult;
  consoleCalls: ConsoleCalls;
}

const ZERO = new Address(new Uint8Array(20));

type CallBlock = ReturnType<ExecutionContext['headerBlock']>;
/**
 * The block environment of calls at a header, made once per header object: the EVM only reads it,
 * and a header belongs to one chain. Entries go with their headers.
 */
const callBlocks = new WeakMap<RskHeader, CallBlock>();

function callBlock(execution: ExecutionContext, header: RskHeader): CallBlock {
  let block = callBlocks.get(header);
  if (block === undefined) {
    block = execution.headerBlock(header, 0n, true);
    callBlocks.set(header, block);
  }
  return block;
}

function execute(execution: ExecutionContext, runner: CallRunner, header: RskHeader, params: CallParams, gasLimit: bigint, deadline: Deadline): Promise<Executed> {
  // The pool hands out engines with no console calls kept (call-runner.ts returnEngine).
  return runner.run(async (evm) => {
    const result = await withDeadline(evm, deadline, () => callOn(evm, execution, header, params, gasLimit));
    return { result, consoleCalls: takeConsoleCalls(evm) };
  });
}

/** One call on `evm` in the block environment of `header` (the frame gets `gasLimit`). */
export function callOn(evm: EVM, execution: ExecutionContext, header: RskHeader, params: CallParams, gasLimit: bigint): Promise<EVMResult> {
  const caller = params.from ?? ZERO;
  return evm.runCall({
    caller,
    origin: caller,
    to: params.to,
    value: params.value ?? 0n,
    data: params.data ?? new Uint8Array(0),
    gasLimit,
    gasPrice: params.gasPrice ?? 0n,
    // rskj's eth_call checks neither nonce nor balance.
    skipBalance: true,
    block: callBlock(execution, header),
  });
}

/** `deadline`: the request's (evm/deadline.ts); a new one with the node's limit when absent. */
export async function runCall(execution: ExecutionContext, runner: CallRunner, header: RskHeader, params: CallParams, deadline = execution.deadline()): Promise<CallResult> {
  const cap = execution.callGasCap;
  const gas = params.gas === undefined || params.gas > cap ? cap : params.gas;
  const { result, consoleCalls } = await execute(execution, runner, header, params, gas, deadline);
  const error = result.execResult.exceptionError;
  return {
    returnValue: result.execResult.returnValue,
    gasUsed: result.execResult.executionGasUsed,
    reverted: isRevert(error),
    error: error === undefined || isRevert(error) ? undefined : error.error,
    consoleCalls,
  };
}

/** The gas a transaction with these fields pays before its code runs. */
export function intrinsicGas(execution: ExecutionContext, params: CallParams): bigint {
  const tx = createLegacyTx({ to: params.to, data: params.data ?? new Uint8Array(0) }, rskTxOptions(execution.common));
  return tx.getIntrinsicGas();
}

/**
 * The least gas limit with which the transaction succeeds, found by binary search on our own EVM
 * (so it is exact for this node's gas rules). A REVERT is refused as in eth_call; any other
 * failure answers the cap, as rskj does. The sender's balance is not checked (the spec's rule).
 * The caller's `gas` is ignored: the search always runs up to the cap, as rskj master does since
 * PRs #3520/#3639. (Bounding it by a too-small hint answered the hint, which then ran out of gas.)
 * `onFailedConsole` gets the console.log calls of the first attempt (at the cap) when it fails, as
 * Hardhat prints them; the probes of a search that succeeds print nothing.
 */
export async function estimateGas(
  execution: ExecutionContext,
  runner: CallRunner,
  header: RskHeader,
  params: CallParams,
  deadline = execution.deadline(),
  onFailedConsole: (calls: ConsoleCalls) => void = () => undefined,
): Promise<bigint> {
  // One deadline for the whole search, not one per attempt.
  let cap = GAS_ESTIMATION_CAP < header.gasLimit ? GAS_ESTIMATION_CAP : header.gasLimit;
  if (execution.callGasCap < cap) cap = execution.callGasCap;
  const intrinsic = intrinsicGas(execution, params);
  const attempt = async (gas: bigint) =>
    gas < intrinsic ? undefined : execute(execution, runner, header, params, gas - intrinsic, deadline);
  const succeeds = async (gas: bigint) => {
    const executed = await attempt(gas);
    return executed !== undefined && executed.result.execResult.exceptionError === undefined;
  };

  const executed = await attempt(cap);
  if (executed === undefined) return cap;
  const first = executed.result;
  const error = first.execResult.exceptionError;
  if (error !== undefined && executed.consoleCalls !== NO_CALLS) onFailedConsole(executed.consoleCalls);
  if (isRevert(error)) throw new ExecutionReverted(first.execResult.returnValue);
  if (error !== undefined) return cap;

  let low = intrinsic + first.execResult.executionGasUsed;
  if (await succeeds(low)) return low;
  let high = cap;
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (await succeeds(middle)) high = middle;
    else low = middle;
  }
  return high;
}

function isRevert(error: EVMError | undefined): boolean {
  return error?.error === EVMError.errorMessages.REVERT;
}
