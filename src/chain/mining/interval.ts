/**
 * Interval mining (`--block-time`, evm_setIntervalMining): a block every so many milliseconds, a
 * tick skipped while the previous block is still being mined. Failures go to the chain's
 * background error handler; nothing waits for a tick.
 */
import { ChainError } from '../base/errors.js';

/** Node's timers wait at most 2^31 - 1 ms; longer intervals would fire every millisecond. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class MiningTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly mine: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Checks an interval before anything changes: a refused one leaves the timer as it was. */
  static check(ms: number): void {
    if (!Number.isFinite(ms) || ms > MAX_TIMER_MS) {
      throw new ChainError('invalidArgument', `interval of ${ms} ms is longer than the ${MAX_TIMER_MS} ms a timer can wait`);
    }
  }

  /** Mines every `ms` milliseconds from now on; 0 or less stops. */
  set(ms: number): void {
    MiningTimer.check(ms);
    clearInterval(this.timer);
    this.timer = undefined;
    if (ms <= 0) return;
    let mining = false;
    this.timer = setInterval(() => {
      if (mining) return;
      mining = true;
      this.mine()
        .catch(this.onError)
        .finally(() => (mining = false));
    }, ms);
    this.timer.unref();
  }
}
