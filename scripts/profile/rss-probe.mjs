/**
 * Preload for scripts/profile/profile-bench-rss.ts only (`node --import <this> dist/bin/...`): the
 * node's own view of its memory, which /proc cannot give (V8's spaces, external memory, GC counts).
 * On SIGUSR2 it writes one JSON line to the file named by RSS_PROBE_OUT. Never loaded by the CLI.
 */
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

const out = process.env.RSS_PROBE_OUT;
/** GC counts and pause time by kind (perf_hooks' constants.NODE_PERFORMANCE_GC_*), and the longest full collection. */
const gcs = { count: {}, ms: 0, longestMajorMs: 0 };
const MAJOR = constants.NODE_PERFORMANCE_GC_MAJOR;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs.count[e.detail.kind] = (gcs.count[e.detail.kind] ?? 0) + 1;
    gcs.ms += e.duration;
    if (e.detail.kind === MAJOR) gcs.longestMajorMs = Math.max(gcs.longestMajorMs, e.duration);
  }
}).observe({ entryTypes: ['gc'] });

if (out !== undefined) {
  process.on('SIGUSR2', () => {
    const spaces = getHeapSpaceStatistics().map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size, physical: s.physical_space_size }));
    appendFileSync(out, `${JSON.stringify({ usage: process.memoryUsage(), heap: getHeapStatistics(), spaces, gcs })}\n`);
  });
}
