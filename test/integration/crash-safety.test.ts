/**
 * The short version of `npm run crash-test` (issue 12): the real CLI killed with SIGKILL under
 * traffic a few times; every restart must open a whole, consistent chain that kept everything it
 * acknowledged. The full run is `npm run crash-test` (100 kills).
 */
import { describe, expect, it } from 'vitest';
import { runCrashTest } from '../../scripts/crash-test/index.js';

const KILLS = 5;

describe('crash safety', () => {
  it(`loses nothing acknowledged over ${KILLS} SIGKILLs under traffic`, async () => {
    const result = await runCrashTest({ kills: KILLS, seed: 12, fromSource: true, keepDataDir: false, maxMinutes: Infinity, log: () => undefined });
    expect(result.problems).toEqual([]);
    expect(result.kills).toBe(KILLS);
    // The chain grew across the kills and the final restart saw it whole.
    expect(result.counts.txs).toBeGreaterThan(0);
    expect(result.head).toBeGreaterThan(0);
  }, 600_000);
});
