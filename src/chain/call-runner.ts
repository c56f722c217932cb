/**
 * Runs read-only executions (eth_call, eth_estimateGas attempts) on one EVM positioned at a state
 * root, undoing every change after each run. Creating an EVM per call cost more than the call
 * itself (profiled: createEVM re-merges the Common's params), so the head keeps one runner.
 * Runs are serialized: they share the EVM's journal and the state manager's checkpoints.
 */
import type { EVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { DB } from '@ethereumjs/util';
import type { Execution } from './execution.js';
import { OverlayDb } from './state-db.js';

export class CallRunner {
  private ready: Promise<{ evm: EVM; state: MerkleStateManager }>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly execution: Execution,
    private readonly db: DB<string, Uint8Array>,
    readonly stateRoot: Uint8Array,
  ) {
    this.ready = this.fresh();
  }

  /**
   * Over an overlay: the state manager flushes on its last revert, and reads must never write to
   * the store's pending buffer, which belongs to the block being built.
   */
  private fresh(): Promise<{ evm: EVM; state: MerkleStateManager }> {
    const state = this.execution.stateManager(new OverlayDb(this.db), this.stateRoot);
    return this.execution.vm(state).then((vm) => ({ evm: vm.evm as EVM, state }));
  }

  run<T>(execute: (evm: EVM) => Promise<T>): Promise<T> {
    const task = async () => {
      const { evm, state } = await this.ready;
      await evm.journal.cleanup();
      evm.transientStorage.clear();
      await state.checkpoint();
      try {
        const result = await execute(evm);
        await state.revert();
        return result;
      } catch (err) {
        // The EVM's own checkpoints may be unbalanced now: start over from the root.
        this.ready = this.fresh();
        throw err;
      }
    };
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
