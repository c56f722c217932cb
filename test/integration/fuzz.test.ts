/**
 * The JSON-RPC fuzzer's short run (`npm run fuzz` runs it long): a fixed seed and a bounded number
 * of cases over every method, envelopes, batches and HTTP oddities, with zero invariant failures.
 * Stalls are measured but not asserted here (no timing assertions in tests).
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../scripts/fuzz/run.js';

const CI_SEED = 20_261_124;
const CI_RUNS = 60;

describe('JSON-RPC fuzzer (issue 12)', () => {
  it(`seed ${CI_SEED}, ${CI_RUNS} cases: every answer well formed, no -32603, rejected requests change nothing`, async () => {
    const report = await runFuzz({ seed: CI_SEED, runs: CI_RUNS, checkStalls: false });
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThanOrEqual(CI_RUNS);
    // The classes all ran: params for many methods, envelopes, batches, HTTP and the side-effect phase.
    const classes = Object.keys(report.byClass);
    expect(classes.filter((c) => c.startsWith('params:')).length).toBeGreaterThan(20);
    for (const cls of ['envelope', 'batch', 'http', 'side-effects']) expect(classes.some((c) => c.startsWith(cls))).toBe(true);
    expect(report.codes['-32602']).toBeGreaterThan(0);
    expect(report.codes['-32603']).toBeUndefined();
  }, 120_000);
});
