/**
 * Daily quotas (gateway/quota.ts) and key usage (gateway/key-usage.ts) as the RPC path uses them:
 * a count in memory is answered without a promise, and a loaded node's counts are written in a
 * few batches rather than once per event-loop tick (issue 25: a LevelDB batch every few requests).
 */
import { setImmediate as nextTick, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { KeyUsage } from '../../src/gateway/key-usage.js';
import { COUNTS_FLUSH_DELAY_MS } from '../../src/gateway/delayed-flush.js';
import { type QuotaDecision, Quotas } from '../../src/gateway/quota.js';

/** 2025-01-15 12:00 UTC. */
const NOON = Date.UTC(2025, 0, 15, 12);
/** Requests spread over this many event-loop ticks: each tick used to write the database once. */
const TICKS = 10;

function quotasWithStore(limit: number, stored = 0) {
  const saves: Array<Array<[string, number]>> = [];
  let loads = 0;
  const quotas = new Quotas(
    limit,
    () => NOON,
    async () => {
      loads++;
      return stored;
    },
    async (entries) => {
      saves.push(entries);
    },
  );
  return { quotas, saves, loads: () => loads };
}

describe('Quotas.consume', () => {
  it('reads the stored count once (a promise), then answers from memory without one', async () => {
    const { quotas, loads } = quotasWithStore(10, 4);
    const first = quotas.consume('u1', 1);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ allowed: true, limit: 10, used: 5 });
    const second = quotas.consume('u1', 2);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second as QuotaDecision).toMatchObject({ allowed: true, used: 7, resetsAt: Date.UTC(2025, 0, 16), secondsToReset: 12 * 3600 });
    expect(quotas.consume('u1', 4) as QuotaDecision).toMatchObject({ allowed: false, used: 7 });
    expect(loads()).toBe(1);
  });

  it('concurrent first requests of a user read the database but count every call once', async () => {
    const { quotas } = quotasWithStore(3, 1);
    const answers = await Promise.all([quotas.consume('u1', 1), quotas.consume('u1', 1), quotas.consume('u1', 1)]);
    expect(answers.map((a) => [a.allowed, a.used])).toEqual([
      [true, 2],
      [true, 3],
      [false, 3],
    ]);
  });

  it('writes a burst of requests over many ticks in one or two batches, with the final count', async () => {
    const { quotas, saves } = quotasWithStore(1_000);
    await quotas.consume('u1', 1);
    for (let tick = 0; tick < TICKS; tick++) {
      for (let i = 0; i < 5; i++) quotas.consume('u1', 1);
      await nextTick();
    }
    await sleep(COUNTS_FLUSH_DELAY_MS * 3);
    // One batch when the ticks fall within the delay, two when a slow machine stretches them past it.
    expect(saves.length).toBeGreaterThanOrEqual(1);
    expect(saves.length).toBeLessThanOrEqual(2);
    expect(saves.at(-1)).toEqual([['u1:2025-01-15', 1 + TICKS * 5]]);
  });

  it('flush writes the counts not written yet at once (as the gateway does on close)', async () => {
    const { quotas, saves } = quotasWithStore(100);
    await quotas.consume('u1', 3);
    await quotas.flush();
    expect(saves).toEqual([[['u1:2025-01-15', 3]]]);
    await quotas.flush();
    expect(saves).toHaveLength(1);
  });
});

describe('KeyUsage.record', () => {
  it('writes a burst of calls over many ticks in one or two read-modify-writes, with every call counted', async () => {
    const stored = new Map<string, Array<[string, number]>>();
    let loads = 0;
    const usage = new KeyUsage(
      () => NOON,
      async (key) => {
        loads++;
        return stored.get(key);
      },
      async (entries) => {
        for (const [key, counts] of entries) stored.set(key, counts);
      },
    );
    for (let tick = 0; tick < TICKS; tick++) {
      usage.record('k1', { method: 'eth_blockNumber' }, 50);
      usage.record('k1', [{ method: 'eth_getBalance' }, { method: 'eth_blockNumber' }], 50);
      await nextTick();
    }
    await sleep(COUNTS_FLUSH_DELAY_MS * 3);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(loads).toBeLessThanOrEqual(2);
    expect(new Map(stored.get('k1:2025-01-15'))).toEqual(new Map([['eth_blockNumber', 2 * TICKS], ['eth_getBalance', TICKS]]));
  });
});
