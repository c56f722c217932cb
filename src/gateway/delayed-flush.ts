/**
 * The delayed write of counts that the quota (quota.ts) and the key usage (key-usage.ts) share:
 * the first change after a write schedules one flush COUNTS_FLUSH_DELAY_MS later; changes until
 * then ride along. Both kept the same ten lines of timer code before (issue 25's duplicate hygiene).
 */

/**
 * How long changed counts wait before they are written (quota and key usage alike). Written on
 * the next tick, a loaded node wrote the database every few requests (a LevelDB batch, and for the
 * usage a read too); this bounds it to ten writes a second, and a killed process loses at most a
 * tenth of a second of counts (a close writes them all).
 */
export const COUNTS_FLUSH_DELAY_MS = 100;

export class DelayedFlush {
  private scheduled = false;

  /** flush: writes what changed. A failed write is dropped here, not thrown from a timer (the next change schedules again). */
  constructor(private readonly flush: () => Promise<void>) {}

  /** Schedules a flush unless one already is. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Unref'd: a pending write never keeps the process alive (close writes what is left).
    setTimeout(() => {
      this.scheduled = false;
      this.flush().catch(() => undefined);
    }, COUNTS_FLUSH_DELAY_MS).unref();
  }
}
