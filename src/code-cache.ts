/**
 * Asks the bin's loader (scripts/bin-loader.cjs, dist/bin/rsk-devnode.js) to write its V8 code cache,
 * once the node has started and answered. The loader compiles the bundled CLI with the cache when it
 * has a valid one; when it has none (a new build, another Node version, a rejected cache) it leaves
 * a save function under SAVE_CODE_CACHE. The save waits CODE_CACHE_DELAY_MS, so the cache also
 * holds the functions compiled by start-up and the first requests, not only the top-level code, and
 * runs under the flags the process started with (v8-flags.ts), as V8 requires of the next start.
 * Run as a library or through tsx, no loader is there and nothing happens.
 */
import { withStartFlags } from './v8-flags.js';

/** Where the loader leaves its save function (a global: the loader is outside the bundle it loads). */
export const SAVE_CODE_CACHE = Symbol.for('rsk-devnode.save-code-cache');

/**
 * After start-up: long enough for the first requests and the warm-up (server/warm-up.ts) to have
 * compiled what they use, short enough that a node started for one test run has written it.
 */
export const CODE_CACHE_DELAY_MS = 1_000;

/** Schedules the save, when the loader asked for one; the timer does not keep the process alive. */
export function saveCodeCacheSoon(delayMs = CODE_CACHE_DELAY_MS): void {
  const holder = globalThis as Record<symbol, unknown>;
  const save = holder[SAVE_CODE_CACHE];
  if (typeof save !== 'function') return;
  delete holder[SAVE_CODE_CACHE];
  setTimeout(() => withStartFlags(save as () => void), delayMs).unref();
}
