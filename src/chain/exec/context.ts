/**
 * What the execution modules (block-builder, call, call-runner, tracing/replay) need from the
 * EVM's surroundings, as an interface: Execution (execution.ts) implements it and loads the EVM
 * side (runtime.ts) lazily, and runtime.ts imports those modules, so they must not import
 * Execution itself (that was an import cycle).
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import type { RunTxOpts, VM } from '@ethereumjs/vm';
import type { DB } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import type { RskHeader } from '../records/header.js';
import type { ChangeTrackingStateManager } from '../state/tracking-state-manager.js';
import type { Deadline } from '../evm/deadline.js';
export { LOCAL_CALL } from '../native/types.js';

export interface BlockContext {
  number: bigint;
  timestamp: bigint;
  difficulty: bigint;
  gasLimit: bigint;
  minimumGasPrice: bigint;
  /** The block's miner (its `coinbase` header field), what the COINBASE opcode pushes. */
  miner: Uint8Array;
  /** Gas used by the block's earlier transactions (receipts' cumulative gas). */
  gasUsed: bigint;
  /**
   * True for eth_call/eth_estimateGas, false for a mined (or replayed) transaction: rskj's "local
   * call" (Transaction.isLocalCallTransaction), which some Bridge methods require. Native contracts
   * see it as NativeCall.localCall.
   */
  localCall: boolean;
}

/**
 * A canonical block by number: BLOCKHASH reads its hash, the native contracts (BlockHeader, ...)
 * the whole block.
 */
export type BlockLookup = (number: bigint) => Promise<RskBlock | undefined>;

/** The block type runTx/runCall take; we hand them a plain object with the fields they read. */
export type VmBlock = NonNullable<RunTxOpts['block']>;

export interface ExecutionContext {
  readonly common: Common;
  /** Canonical blocks by number (native contracts, BLOCKHASH, and REMASC in block-builder.ts). */
  readonly blocks: BlockLookup;
  /** The first block mined here: 1, or a fork's fork block + 1 (the blocks below are the remote's). */
  readonly firstLocalBlock: bigint;
  /** eth_call's gas cap and the time limit of eth_call, eth_estimateGas and tracing (node flags). */
  readonly callGasCap: bigint;
  readonly timeoutMs: number;
  /** The time limit of one request's executions; `operator`: a request with an operator key. */
  deadline(operator?: boolean): Deadline;
  stateManager(db: DB<string, Uint8Array>, root: Uint8Array): ChangeTrackingStateManager;
  vm(stateManager: StateManagerInterface): Promise<VM>;
  evm(stateManager: StateManagerInterface): Promise<EVM>;
  headerBlock(header: RskHeader, gasUsed: bigint, localCall: boolean): VmBlock;
  contextBlock(ctx: BlockContext): VmBlock;
}
