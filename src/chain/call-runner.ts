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

export class CallRunner {
  private readonly ready: Promise<{ evm: EVM; state: MerkleStateManager }>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(execution: Execution, db: DB<string, Uint8Array>, readonly stateRoot: Uint8Array) {
    const state = execution.stateManager(db, stateRoot);
    this.ready = execution.vm(state).then((vm) => ({ evm: vm.evm as EVM, state }));
  }

  run<T>(execute: (evm: EVM) => Promise<T>): Promise<T> {
    const task = async () => {
      const { evm, state } = await this.ready;
      await evm.journal.cleanup();
      evm.transientStorage.clear();
      await state.checkpoint();
      try {
        return await execute(evm);
      } finally {
        await state.revert();
      }
    };
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
