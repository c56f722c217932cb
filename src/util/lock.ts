/**
 * Runs tasks one at a time, each after every earlier one has finished (ok or not). Each chain
 * holds one for its mutations (chain/parts.ts, docs/adr/0006-one-lock.md); it knows nothing of
 * the chain, so it lives with the other shared utilities.
 */
export class SerialLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
