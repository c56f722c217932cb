/**
 * Caps V8's young generation for the CLI process however Node was started (`npm start`, the bin's
 * shebang, `node dist/bin/rsk-devnode.js`, `npx`). Under a stream of transactions V8 doubles each
 * semi-space up to 16 MiB (3 × 16 MiB of young generation), and those pages stay resident: capped
 * at 4 MiB, RSS after 2,000 blocks is about 26 MiB lower for the same write CPU
 * (scripts/profile/profile-rss.ts). The flag that sets the cap, --max-semi-space-size, is read only when the
 * heap is set up, so `v8.setFlagsFromString` cannot set it later (checked). V8 reads --semi-space-growth-factor at every growth, though: after
 * each collection the semi-space's capacity is looked at, and growth is turned off (factor 1) once it
 * reaches the cap, back on (factor 2) if a memory-reducing collection shrank it below.
 * The check runs in a `gc` PerformanceObserver, after the collection: a single synchronous burst that
 * allocates more than twice the cap between two turns of the event loop could still grow it once.
 * Only the CLI sets it: a library user's process keeps its own V8 settings.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { setV8Flag } from './v8-flags.js';

/**
 * The semi-space size (MiB) at which growth stops. 4 rather than 8: 119 MiB of RSS after 2,000 blocks
 * instead of 127-133 (issue 25's target is 130), the same CPU for the writes, and within 3% (the
 * noise) for reads of new accounts; V8's default maximum is 16.
 */
export const SEMI_SPACE_CAP_MIB = 4;
/** V8's own growth factor, restored below the cap. */
const GROWTH_FACTOR = 2;
/** A semi-space's usable capacity is its size less page headers (7.86 of 8 MiB): this much counts as full. */
const FULL_FRACTION = 0.9;
const CAP_FLAG = /^--max[-_]semi[-_]space[-_]size\b/;

/** The young generation's usable capacity in bytes (one semi-space: used + available). */
export function semiSpaceBytes(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space === undefined ? 0 : space.space_used_size + space.space_available_size;
}

/**
 * Starts capping, unless the process was given its own --max-semi-space-size (on the command line
 * or in NODE_OPTIONS): then it returns undefined. Otherwise returns a function that stops it and
 * restores V8's growth.
 */
export function capYoungGeneration(
  { execArgv = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? '', capMiB = SEMI_SPACE_CAP_MIB } = {},
): (() => void) | undefined {
  if ([...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => CAP_FLAG.test(arg))) return undefined;
  const full = capMiB * 2 ** 20 * FULL_FRACTION;
  let factor = GROWTH_FACTOR;
  const setFactor = (next: number) => {
    if (next === factor) return;
    setV8Flag(`--semi-space-growth-factor=${next}`, `--semi-space-growth-factor=${GROWTH_FACTOR}`);
    factor = next;
  };
  const check = () => setFactor(semiSpaceBytes() >= full ? 1 : GROWTH_FACTOR);
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  check();
  return () => {
    observer.disconnect();
    setFactor(GROWTH_FACTOR);
  };
}
