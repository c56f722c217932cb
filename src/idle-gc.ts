/**
 * One full garbage collection when the CLI's node falls idle after work, as browsers collect in
 * idle time. V8 collects only as its heap grows, so what a burst of transactions left behind stays
 * resident until the next burst: after a soak, two full collections took RSS from 318 to 221 MB.
 * Idle is judged by the event loop's utilization, so the node needs no hook in any request path;
 * the collection (tens of milliseconds) runs only after IDLE_CHECKS_BEFORE_GC quiet checks in a
 * row, once per busy period. Only the CLI sets it up: a library user's process keeps its own GC.
 */
import { performance } from 'node:perf_hooks';
import { setV8Flag } from './v8-flags.js';
import { runInNewContext } from 'node:vm';

/** How often the event loop's utilization is looked at. */
export const IDLE_CHECK_MS = 1_000;
/** Utilization over a check above which the node counts as busy (work that leaves garbage). */
export const BUSY_UTILIZATION = 0.05;
/** Quiet checks in a row (below BUSY_UTILIZATION) after a busy one before the collection. */
export const IDLE_CHECKS_BEFORE_GC = 2;

/** A full collection; --expose-gc set now reaches a fresh context, not the main one. */
export function fullGc(): () => void {
  setV8Flag('--expose-gc', '--no-expose-gc');
  return runInNewContext('gc') as () => void;
}

let gc: (() => void) | undefined;
/** fullGc, made on first use (a new context costs start-up time). */
const collectFully = () => (gc ??= fullGc())();

/** Starts watching; returns a function that stops it. `checkMs` and `collect` are for tests. */
export function collectWhenIdle({ checkMs = IDLE_CHECK_MS, collect = collectFully }: { checkMs?: number; collect?: () => void } = {}): () => void {
  let busySinceCollection = false;
  let quietChecks = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization > BUSY_UTILIZATION) {
      busySinceCollection = true;
      quietChecks = 0;
    } else if (busySinceCollection && ++quietChecks >= IDLE_CHECKS_BEFORE_GC) {
      busySinceCollection = false;
      quietChecks = 0;
      collect();
    }
  }, checkMs).unref();
  return () => clearInterval(timer);
}
