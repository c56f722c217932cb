import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { IDLE_CHECKS_BEFORE_GC, IDLE_CHECKS_BEFORE_SECOND_GC, collectWhenIdle, fullGc } from '../../src/idle-gc.js';

const CHECK_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The schedule on fake timers and a fake event-loop clock: `busy(ms)` is active time the loop
 * spent, `checks(n)` lets n checks run. Real time would make the test depend on the machine's load.
 */
function fakeLoop(collectCost = 0) {
  let active = 0;
  let collections = 0;
  vi.useFakeTimers();
  const stopWatching = collectWhenIdle({
    checkMs: CHECK_MS,
    activeMs: () => active,
    collect: () => {
      collections++;
      active += collectCost;
    },
  });
  return {
    busy: (ms: number) => (active += ms),
    checks: (n: number) => vi.advanceTimersByTime(CHECK_MS * n),
    collections: () => collections,
    stop: () => {
      stopWatching();
      vi.useRealTimers();
    },
  };
}

describe('collectWhenIdle', () => {
  it('collects after a busy period, when the loop has been quiet for the given checks, once more a few checks later, and not while idle on', () => {
    const loop = fakeLoop();
    try {
      loop.checks(4);
      expect(loop.collections()).toBe(0); // never busy yet: nothing to collect

      loop.busy(CHECK_MS * 1.5);
      loop.checks(1 + IDLE_CHECKS_BEFORE_GC - 1);
      expect(loop.collections()).toBe(0); // one quiet check short
      loop.checks(1);
      expect(loop.collections()).toBe(1);
      loop.checks(IDLE_CHECKS_BEFORE_SECOND_GC);
      expect(loop.collections()).toBe(2); // the second, for V8 to shrink its young generation
      loop.checks(20);
      expect(loop.collections()).toBe(2); // idle on: no more

      loop.busy(CHECK_MS * 1.5);
      loop.checks(1 + IDLE_CHECKS_BEFORE_GC + IDLE_CHECKS_BEFORE_SECOND_GC);
      expect(loop.collections()).toBe(4);
    } finally {
      loop.stop();
    }
  });

  it('waits for quiet again when work comes back between the collection and the second one', () => {
    const loop = fakeLoop();
    try {
      loop.busy(CHECK_MS);
      loop.checks(1 + IDLE_CHECKS_BEFORE_GC);
      expect(loop.collections()).toBe(1);
      loop.busy(CHECK_MS);
      loop.checks(1 + IDLE_CHECKS_BEFORE_GC - 1);
      expect(loop.collections()).toBe(1); // busy again: the count starts over
      loop.checks(1);
      expect(loop.collections()).toBe(2);
    } finally {
      loop.stop();
    }
  });

  it('does not count its own collection as busy: a slow collection is not repeated while the node stays idle', () => {
    // A collection as long as a busy check (the compacting one took ~100 ms on a loaded machine).
    const loop = fakeLoop(CHECK_MS * 1.5);
    try {
      loop.busy(CHECK_MS * 1.5);
      loop.checks(1 + IDLE_CHECKS_BEFORE_GC + IDLE_CHECKS_BEFORE_SECOND_GC);
      expect(loop.collections()).toBe(2);
      loop.checks(50);
      expect(loop.collections()).toBe(2);
    } finally {
      loop.stop();
    }
  });

  it('collects for real without --expose-gc on the command line', async () => {
    const collect = fullGc();
    let target: object | undefined = { payload: new Uint8Array(1024) };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef keeps its target until the job that made it ends.
    await sleep(0);
    collect();
    expect(ref.deref()).toBeUndefined();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });

  it('gives back old-space pages a burst left sparse (the collection compacts), so RSS after idle drops', () => {
    const collect = fullGc();
    const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_size;
    collect();
    const before = oldSpace();
    // Objects that survive into old space, then all but one in eight dropped: every page keeps a few.
    let burst: Array<{ fields: unknown[] }> = Array.from({ length: 300_000 }, () => ({ fields: new Array(10) }));
    collect();
    const grown = oldSpace() - before;
    burst = burst.filter((_, i) => i % 8 === 0);
    collect();
    expect(burst.length).toBe(37_500);
    // Without compaction the space stays near its grown size (checked: 94 of 98 MB); compacted, the
    // survivors fit in about an eighth of it.
    expect(oldSpace() - before).toBeLessThan(grown / 2);
  });
});
