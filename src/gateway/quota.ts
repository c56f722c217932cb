/**
 * Daily request quotas per user, by UTC day. The count is kept in memory and checked and
 * increased in one synchronous step, so it is exact under concurrent requests; a count already in
 * memory is answered without a promise (issue 25: the RPC path then stays synchronous). Changed
 * counts are written to the gateway database shortly after (COUNTS_FLUSH_DELAY_MS) and on close,
 * so they survive a restart.
 */
import { DelayedFlush } from './delayed-flush.js';

/** The spec's daily limit per user. */
export const DEFAULT_DAILY_LIMIT = 25_000;
const DAY_MS = 86_400_000;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  used: number;
  /** Start of the next UTC day, ms since the epoch. */
  resetsAt: number;
  /** Whole seconds from now until resetsAt (for Retry-After). */
  secondsToReset: number;
}

export class Quotas {
  private readonly counts = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | undefined;
  private readonly delayedFlush = new DelayedFlush(() => this.flush());
  /** The current UTC day's text and bounds, so a request formats no date. */
  private day = { text: '', start: 0, end: 0 };
  /** The last user and day counted, and their `<userId>:<day>` key. */
  private last = { userId: '', day: '', key: '' };

  constructor(
    readonly dailyLimit: number,
    private readonly now: () => number,
    private readonly load: (key: string) => Promise<number>,
    private readonly save: (entries: Array<[string, number]>) => Promise<void>,
  ) {}

  /**
   * Counts `calls` requests for the user if they fit in today's quota (a batch fits whole or not at
   * all). A promise only when today's count must first be read from the database.
   */
  consume(userId: string, calls: number): QuotaDecision | Promise<QuotaDecision> {
    const now = this.now();
    if (now < this.day.start || now >= this.day.end) {
      const start = Math.floor(now / DAY_MS) * DAY_MS;
      this.day = { text: utcDay(now), start, end: start + DAY_MS };
    }
    const day = this.day;
    // The same string for consecutive requests of one user: its hash is kept for the Map lookups (issue 25).
    if (userId !== this.last.userId || day.text !== this.last.day) this.last = { userId, day: day.text, key: `${userId}:${day.text}` };
    const key = this.last.key;
    if (this.counts.has(key)) return this.decide(key, calls, now, day.end);
    return this.load(key).then((stored) => {
      // Another request may have read and counted it meanwhile: its count stands.
      if (!this.counts.has(key)) this.counts.set(key, stored);
      return this.decide(key, calls, now, day.end);
    });
  }

  /** Checks and counts in one synchronous step, on a count in memory. */
  private decide(key: string, calls: number, now: number, resetsAt: number): QuotaDecision {
    const used = this.counts.get(key)!;
    const secondsToReset = Math.ceil((resetsAt - now) / 1000);
    if (used + calls > this.dailyLimit) return { allowed: false, limit: this.dailyLimit, used, resetsAt, secondsToReset };
    this.counts.set(key, used + calls);
    this.dirty.add(key);
    this.delayedFlush.schedule();
    return { allowed: true, limit: this.dailyLimit, used: used + calls, resetsAt, secondsToReset };
  }

  /** Requests per UTC day for the last `days` days, oldest first. */
  async history(userId: string, days: number): Promise<Array<{ day: string; requests: number }>> {
    const now = this.now();
    const out: Array<{ day: string; requests: number }> = [];
    for (let i = days - 1; i >= 0; i--) {
      const day = utcDay(now - i * DAY_MS);
      const key = `${userId}:${day}`;
      out.push({ day, requests: this.counts.get(key) ?? (await this.load(key)) });
    }
    return out;
  }

  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.dirty.size === 0) return;
    const entries = [...this.dirty].map((key): [string, number] => [key, this.counts.get(key)!]);
    this.dirty.clear();
    this.flushing = this.save(entries).finally(() => (this.flushing = undefined));
    await this.flushing;
  }
}
