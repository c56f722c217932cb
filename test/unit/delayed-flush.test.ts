/** The quota's and the key usage's shared delayed write (src/gateway/delayed-flush.ts), on fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COUNTS_FLUSH_DELAY_MS, DelayedFlush } from '../../src/gateway/delayed-flush.js';

describe('DelayedFlush', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('flushes once COUNTS_FLUSH_DELAY_MS after the first change, however many changes come meanwhile', async () => {
    const flush = vi.fn(async () => undefined);
    const delayed = new DelayedFlush(flush);
    delayed.schedule();
    delayed.schedule();
    await vi.advanceTimersByTimeAsync(COUNTS_FLUSH_DELAY_MS - 1);
    expect(flush).toHaveBeenCalledTimes(0);
    delayed.schedule();
    await vi.advanceTimersByTimeAsync(1);
    expect(flush).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(COUNTS_FLUSH_DELAY_MS * 5);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('schedules again after a flush, also after a failed one', async () => {
    const flush = vi.fn(async () => {
      throw new Error('disk full');
    });
    const delayed = new DelayedFlush(flush);
    delayed.schedule();
    await vi.advanceTimersByTimeAsync(COUNTS_FLUSH_DELAY_MS);
    delayed.schedule();
    await vi.advanceTimersByTimeAsync(COUNTS_FLUSH_DELAY_MS);
    expect(flush).toHaveBeenCalledTimes(2);
  });
});
