/**
 * Slows repeated failed logins per account and per client address: the first few failures cost
 * nothing, then each one doubles the wait before the next attempt is accepted, up to a cap. Never
 * a permanent lock-out, and a success clears the count. The gateway's subjects are an account
 * from one address, and an address: a stranger's failures slow the stranger, not the account's owner
 * elsewhere, whose right password always works after at most MAX_DELAY_MS of her own failures.
 */

/** Failures after which attempts must wait: a developer who mistypes twice still gets in at once. */
export const FREE_LOGIN_FAILURES = 3;
const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;

interface Record {
  failures: number;
  retryAt: number;
}

export class LoginThrottle {
  private readonly records = new Map<string, Record>();

  constructor(private readonly now: () => number) {}

  /** Milliseconds until these subjects may try again (0: now). */
  waitFor(subjects: string[]): number {
    const now = this.now();
    return Math.max(0, ...subjects.map((s) => (this.records.get(s)?.retryAt ?? 0) - now));
  }

  failed(subjects: string[]): void {
    const now = this.now();
    for (const subject of subjects) {
      const record = this.records.get(subject) ?? { failures: 0, retryAt: 0 };
      record.failures++;
      // From the FREE_LOGIN_FAILURES-th failure on, the next attempt waits 1 s, 2 s, 4 s, ...
      const over = record.failures - FREE_LOGIN_FAILURES;
      record.retryAt = over >= 0 ? now + Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** over) : 0;
      this.records.set(subject, record);
    }
  }

  succeeded(subjects: string[]): void {
    for (const subject of subjects) this.records.delete(subject);
  }
}
