/**
 * `npm run fuzz [-- --seed N] [--runs N | --minutes M]`: fuzzes the JSON-RPC server (run.ts) and
 * prints cases tried by class, failures with a minimal reproduction and the longest event-loop
 * stall. Exits 1 on any invariant failure.
 */
import { parseArgs } from 'node:util';
import { runFuzz, STALL_LIMIT_MS, type FuzzReport } from './run.js';

const { values } = parseArgs({
  options: { seed: { type: 'string' }, runs: { type: 'string' }, minutes: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log('usage: npm run fuzz -- [--seed N] [--runs N | --minutes M]   (default: a random seed, 1,000 cases)');
  process.exit(0);
}
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const runs = values.runs === undefined ? undefined : Number(values.runs);
const minutes = values.minutes === undefined ? undefined : Number(values.minutes);
for (const [name, v] of [['seed', seed], ['runs', runs], ['minutes', minutes]] as const) {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
    console.error(`--${name}: expected a non-negative number`);
    process.exit(2);
  }
}

console.log(`fuzzing with seed ${seed}, ${minutes !== undefined ? `${minutes} minutes` : `${runs ?? 1_000} cases`}`);
const report = await runFuzz({ seed, runs, minutes, log: (line) => console.log(line) });
print(report);
process.exit(report.failures.length > 0 ? 1 : 0);

function print(r: FuzzReport): void {
  const classes = Object.entries(r.byClass).sort(([a], [b]) => a.localeCompare(b));
  const grouped = new Map<string, number>();
  for (const [cls, n] of classes) {
    const group = cls.split(':')[0]!;
    grouped.set(group, (grouped.get(group) ?? 0) + n);
  }
  console.log(`\n${r.cases} cases in ${(r.durationMs / 1000).toFixed(0)} s (seed ${r.seed}); ${r.skippedValid} valid calls of mining/scrypt/ban methods left to the side-effect phase`);
  console.log('by class:', [...grouped].map(([g, n]) => `${g} ${n}`).join(', '));
  console.log(`methods fuzzed: ${classes.filter(([c]) => c.startsWith('params:')).length}`);
  console.log('error codes answered:', Object.entries(r.codes).map(([c, n]) => `${c}×${n}`).join(', '));
  console.log(`max event-loop stall ${r.maxStallMs.toFixed(0)} ms (limit ${STALL_LIMIT_MS}) during: ${r.maxStallCase}`);
  console.log(`max eth_blockNumber probe wait ${r.maxProbeMs.toFixed(0)} ms`);
  if (r.failures.length === 0) {
    console.log('no invariant failures');
    return;
  }
  console.log(`\n${r.failures.length} invariant failures:`);
  for (const f of r.failures) console.log(`- ${f.signature}: ${f.detail}\n    ${f.reproduction}`);
}
