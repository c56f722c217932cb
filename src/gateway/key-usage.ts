/**
 * Requests per dashboard key, per UTC day and per JSON-RPC method, for the key page's usage table.
 * The RPC path only adds to an in-memory map (one Map get and one set a call); the counts since the
 * last flush are added to the stored day shortly after (COUNTS_FLUSH_DELAY_MS) and on close, as the
 * quota counts are, so they survive a restart. A day keeps at most MAX_METHODS_PER_DAY method
 * names: any other method counts under OTHER_METHODS, so a client sending made-up names cannot
 * grow a day without bound.
 */
import { DelayedFlush } from './delayed-flush.js';

/**
 * Distinct method names kept per key and day. A dapp calls a dozen or two methods; rskj serves about
 * 150, so 40 keeps every real app's methods by name while a day's record stays under 2 KB.
 */
export const MAX_METHODS_PER_DAY = 40;
/** Where calls past the limit go, and calls without a usable method name (not JSON, no method). */
export const OTHER_METHODS = 'other';
/** Longer "method" strings are no method we serve: counted as other rather than stored. */
export const MAX_METHOD_NAME = 64;
const DAY_MS = 86_400_000;

export interface MethodCount {
  method: string;
  requests: number;
}

export interface UsageDay {
  day: string;
  requests: number;
  /** Busiest first. */
  methods: MethodCount[];
}

type Counts = Map<string, number>;

export class KeyUsage {
  /** Calls not yet written, by `<keyId>:<day>`. */
  private pending = new Map<string, Counts>();
  private flushing: Promise<void> | undefined;
  private readonly delayedFlush = new DelayedFlush(() => this.flush());
  /** The current UTC day's text and bounds, so a call formats no date. */
  private day = { text: '', start: 0, end: 0 };
  /** The last key and day counted, and their `<keyId>:<day>` (dayKey). */
  private last = { keyId: '', day: '', key: '' };

  constructor(
    private readonly now: () => number,
    private readonly load: (key: string) => Promise<Array<[string, number]> | undefined>,
    private readonly save: (entries: Array<[string, Array<[string, number]>]>) => Promise<void>,
  ) {}

  /**
   * Counts a parsed request body (after the gate let it through): each call of a batch by its
   * method; a body the dispatcher refuses whole (not JSON, an empty or oversized batch) once, as other.
   */
  record(keyId: string, parsed: unknown, maxBatch: number): void {
    const counts = this.today(keyId);
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.length <= maxBatch) {
      for (const call of parsed) add(counts, methodOf(call), 1);
    } else {
      add(counts, Array.isArray(parsed) ? OTHER_METHODS : methodOf(parsed), 1);
    }
    this.delayedFlush.schedule();
  }

  /** The key's last `days` UTC days, oldest first (calls counted so far are written first). */
  async history(keyId: string, days: number): Promise<UsageDay[]> {
    await this.flush();
    const now = this.now();
    const out: UsageDay[] = [];
    for (let i = days - 1; i >= 0; i--) {
      const day = new Date(now - i * DAY_MS).toISOString().slice(0, 10);
      const key = `${keyId}:${day}`;
      const counts = merge(new Map(await this.load(key)), this.pending.get(key));
      const methods = [...counts].map(([method, requests]) => ({ method, requests })).sort((a, b) => b.requests - a.requests || (a.method < b.method ? -1 : 1));
      out.push({ day, requests: methods.reduce((sum, m) => sum + m.requests, 0), methods });
    }
    return out;
  }

  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = (async () => {
      const entries: Array<[string, Array<[string, number]>]> = [];
      for (const [key, counts] of batch) entries.push([key, [...merge(new Map(await this.load(key)), counts)]]);
      await this.save(entries);
    })().finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private today(keyId: string): Counts {
    const now = this.now();
    if (now < this.day.start || now >= this.day.end) {
      const start = Math.floor(now / DAY_MS) * DAY_MS;
      this.day = { text: new Date(now).toISOString().slice(0, 10), start, end: start + DAY_MS };
    }
    const key = this.dayKey(keyId);
    let counts = this.pending.get(key);
    if (counts === undefined) {
      counts = new Map();
      this.pending.set(key, counts);
    }
    return counts;
  }

  /** `<keyId>:<day>` of today; the same string for consecutive calls of one key (its hash is kept: issue 25). */
  private dayKey(keyId: string): string {
    if (keyId !== this.last.keyId || this.day.text !== this.last.day) this.last = { keyId, day: this.day.text, key: `${keyId}:${this.day.text}` };
    return this.last.key;
  }
}

function methodOf(call: unknown): string {
  const method = typeof call === 'object' && call !== null ? (call as { method?: unknown }).method : undefined;
  return typeof method === 'string' && method.length > 0 && method.length <= MAX_METHOD_NAME ? method : OTHER_METHODS;
}

/** Adds to a day's counts, keeping at most MAX_METHODS_PER_DAY names (OTHER_METHODS among them). */
function add(counts: Counts, method: string, requests: number): void {
  const known = counts.get(method);
  if (known !== undefined) counts.set(method, known + requests);
  else if (counts.size < MAX_METHODS_PER_DAY - 1 || method === OTHER_METHODS) counts.set(method, requests);
  else counts.set(OTHER_METHODS, (counts.get(OTHER_METHODS) ?? 0) + requests);
}

/** Adds `extra` into `into` under the same bound; returns `into`. */
function merge(into: Counts, extra: Counts | undefined): Counts {
  if (extra !== undefined) for (const [method, requests] of extra) add(into, method, requests);
  return into;
}
