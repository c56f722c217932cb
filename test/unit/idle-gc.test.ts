import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { IDLE_CHECKS_BEFORE_GC, IDLE_CHECKS_BEFORE_SECOND_GC, collectWhenIdle, fullGc } from '../../src/idle-gc.js';

const CHECK_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Holds the event loop for `ms`: a busy check. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('collectWhenIdle', () => {
  it('collects after a busy period, when the loop has been quiet for the given checks, once more a few checks later, and not while idle on', async () => {
    let collections = 0;
    const stop = collectWhenIdle({ checkMs: CHECK_MS, collect: () => collections++ });
    try {
      await sleep(CHECK_MS * 4);
      expect(collections).toBe(0); // never busy yet: nothing to collect

      busy(CHECK_MS * 1.5);
      await sleep(CHECK_MS * (IDLE_CHECKS_BEFORE_GC + 1.5));
      expect(collections).toBe(1);
      await sleep(CHECK_MS * IDLE_CHECKS_BEFORE_SECOND_GC);
      expect(collections).toBe(2); // the second, for V8 to shrink its young generation
      await sleep(CHECK_MS * 6);
      expect(collections).toBe(2); // idle on: no more

      busy(CHECK_MS * 1.5);
      await sleep(CHECK_MS * (IDLE_CHECKS_BEFORE_GC + IDLE_CHECKS_BEFORE_SECOND_GC + 3));
      expect(collections).toBe(4);
    } finally {
      stop();
    }
  });

  it('does not count its own collection as busy: a slow collection is not repeated while the node stays idle', async () => {
    let collections = 0;
    // A collection as long as a busy check (the compacting one took ~100 ms on a loaded machine).
    const stop = collectWhenIdle({ checkMs: CHECK_MS, collect: () => (collections++, busy(CHECK_MS * 1.5)) });
    try {
      busy(CHECK_MS * 1.5);
      await sleep(CHECK_MS * (IDLE_CHECKS_BEFORE_GC + IDLE_CHECKS_BEFORE_SECOND_GC + 3));
      expect(collections).toBe(2);
      await sleep(CHECK_MS * (IDLE_CHECKS_BEFORE_GC + IDLE_CHECKS_BEFORE_SECOND_GC + 3) * 2);
      expect(collections).toBe(2);
    } finally {
      stop();
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
