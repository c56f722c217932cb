/**
 * One full garbage collection when the CLI's node falls idle after work, as browsers collect in
 * idle time. V8 collects only as its heap grows, so what a burst of transactions left behind stays
 * resident until the next burst: after a soak, two full collections took RSS from 318 to 221 MB.
 * Idle is judged by the event loop's utilization, so the node needs no hook in any request path;
 * the collection (tens of milliseconds) runs only after IDLE_CHECKS_BEFORE_GC quiet checks in a
 * row, and once more IDLE_CHECKS_BEFORE_SECOND_GC checks later (V8 then shrinks its young generation),
 * once per busy period. It compacts (fullGc): at the bench's memory sample that took V8's old
 * space from 41.7 MiB (33.6 live) to 34.2 (33.4 live), issue 25. Only the CLI sets it up: a library
 * user's process keeps its own GC.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setV8Flag } from './v8-flags.js';

/** How often the event loop's utilization is looked at. */
export const IDLE_CHECK_MS = 1_000;
/** Utilization over a check above which the node counts as busy (work that leaves garbage). */
export const BUSY_UTILIZATION = 0.05;
/** Quiet checks in a row (below BUSY_UTILIZATION) after a busy one before the collection. */
export const IDLE_CHECKS_BEFORE_GC = 2;
/**
 * Quiet checks after that collection before one more. V8 gives the young generation's pages back
 * (shrinks its semi-spaces) only at a full collection that finds little allocation over its last
 * 5 s, which the first one, 2 s after the burst, does not: the second, about 5 s after the burst,
 * does (bench sample: new space 8 → 1 MiB, issue 25).
 */
export const IDLE_CHECKS_BEFORE_SECOND_GC = 3;

/**
 * A full collection that also compacts: V8's own full collections move objects only off pages its
 * heuristics pick, so pages left sparse by a burst stay resident, each holding a few live objects.
 * --expose-gc set now reaches a fresh context, not the main one; the compaction flag is V8's, read at
 * each full collection, and set only around this one.
 */
export function fullGc(): () => void {
  setV8Flag('--expose-gc', '--no-expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

let gc: (() => void) | undefined;
/** fullGc, made on first use (a new context costs start-up time). */
const collectFully = () => (gc ??= fullGc())();

/** The event loop's active time so far, in ms (what a check's utilization is computed from). */
const loopActiveMs = () => performance.eventLoopUtilization().active;

/**
 * Starts watching; returns a function that stops it. `checkMs`, `collect` and `activeMs` are for
 * tests (a fake clock makes the schedule deterministic on a loaded machine).
 */
export function collectWhenIdle({
  checkMs = IDLE_CHECK_MS,
  collect = collectFully,
  activeMs = loopActiveMs,
}: { checkMs?: number; collect?: () => void; activeMs?: () => number } = {}): () => void {
  let busySinceCollection = false;
  let secondPending = false;
  let quietChecks = 0;
  let last = activeMs();
  const collectNow = () => {
    quietChecks = 0;
    collect();
    // The collection itself is not work: counted, a slow one would read as busy and repeat forever.
    last = activeMs();
  };
  const timer = setInterval(() => {
    const now = activeMs();
    // Active time over the check's nominal length, not the window's: a window that a late timer
    // made short (right after a slow collection) must not read as busy for its few active ms.
    const utilization = (now - last) / checkMs;
    last = now;
    if (utilization > BUSY_UTILIZATION) {
      busySinceCollection = true;
      secondPending = false;
      quietChecks = 0;
    } else if (busySinceCollection && ++quietChecks >= IDLE_CHECKS_BEFORE_GC) {
      busySinceCollection = false;
      secondPending = true;
      collectNow();
    } else if (secondPending && ++quietChecks >= IDLE_CHECKS_BEFORE_SECOND_GC) {
      secondPending = false;
      collectNow();
    }
  }, checkMs).unref();
  return () => clearInterval(timer);
}
