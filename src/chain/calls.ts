/**
 * Execution without a transaction: eth_call, eth_estimateGas, debug_traceCall and eth_simulateV1
 * on a block's state (the head's pooled call runner, the pending block's overlay, or on a fork
 * the remote's state below the fork block). Nothing is written and the lock is not taken; the
 * EVM side (exec/runtime.ts, tracing, simulate) is loaded on first need.
 */
import { KECCAK256_RLP } from '@ethereumjs/util';
import { ChainError } from './base/errors.js';
import { type ConsoleCalls, consoleLines } from './console/observer.js';
import type { Deadline } from './evm/deadline.js';
import type { CallParams, CallResult } from './exec/call.js';
import { CallRunner } from './exec/call-runner.js';
import type { SimulateOptions, SimulatedBlock, SimulatedBlockRequest, SimulationBase } from './exec/simulate.js';
import type { ForkLink } from './fork-link.js';
import type { StateTarget } from './head.js';
import type { ChainParts } from './parts.js';
import type { RskHeader } from './records/header.js';
import { StateView } from './state/flat-view.js';
import type { TraceCallOptions } from './tracing/trace-call.js';
import type { TracedTx } from './tracing/replay.js';

export class ChainCalls {
  constructor(
    private readonly parts: ChainParts,
    private readonly forkLink: ForkLink,
  ) {}

  /**
   * `target`: where to run; on a fork, a block number below the fork block runs on the remote's
   * state there. `deadline`: the request's time limit (evm/deadline.ts); the node's limit when absent.
   */
  async call(params: CallParams, target: StateTarget | bigint, deadline?: Deadline): Promise<CallResult> {
    const { execution } = this.parts;
    const { runCall } = await execution.runtime();
    const { runner, header } = await this.callSite(target);
    const result = await runCall(execution, runner, header, params, deadline);
    this.emitConsoleLog('call', result.consoleCalls);
    return result;
  }

  /** console.log lines print only when the estimate fails (its attempt at the cap), as Hardhat does. */
  async estimateGas(params: CallParams, target: StateTarget | bigint, deadline?: Deadline): Promise<bigint> {
    const { execution } = this.parts;
    const { estimateGas } = await execution.runtime();
    const { runner, header } = await this.callSite(target);
    return estimateGas(execution, runner, header, params, deadline, (calls) => this.emitConsoleLog('estimateGas', calls));
  }

  private async callSite(target: StateTarget | bigint): Promise<{ runner: CallRunner; header: RskHeader }> {
    const { execution, head } = this.parts;
    if (typeof target !== 'bigint') return { runner: head.callRunner(target), header: target.header };
    const block = await execution.blocks(target);
    if (block === undefined) throw new ChainError('blockNotFound', `Block 0x${target.toString(16)} not found`);
    // A throwaway runner over the remote's state at that block (stateBelowFork checks it is below the fork block).
    return { runner: new CallRunner(execution, new StateView(KECCAK256_RLP, this.forkLink.stateBelowFork(target))), header: block.header };
  }

  /** An execution's console.log lines as a 'consoleLog' event; decoded only when someone listens. */
  private emitConsoleLog(kind: 'call' | 'estimateGas', calls: ConsoleCalls): void {
    const { events } = this.parts;
    if (calls.calls.length + calls.dropped === 0 || events.listenerCount('consoleLog') === 0) return;
    events.emit('consoleLog', { kind, lines: consoleLines(calls) });
  }

  /** A call traced as debug_traceCall runs it (tracing/trace-call.ts). */
  async traceCall(params: CallParams, target: StateTarget, options: TraceCallOptions): Promise<TracedTx> {
    // trace-call.ts runs on the EVM side: loaded with it, on the first traced call.
    const { traceCall } = await import('./tracing/trace-call.js');
    return traceCall(this.parts.execution, this.parts.head.callRunner(target), target.header, params, options);
  }

  /** eth_simulateV1's blocks of calls on `base`'s state (exec/simulate.ts); nothing is written. */
  async simulate(base: SimulationBase, blocks: SimulatedBlockRequest[], options: SimulateOptions): Promise<SimulatedBlock[]> {
    // simulate.ts runs @ethereumjs/vm's runTx: loaded with the EVM side, on first need.
    const { simulate } = await import('./exec/simulate.js');
    return simulate(this.parts.execution, this.parts.store.stateDb, base, blocks, options);
  }
}
