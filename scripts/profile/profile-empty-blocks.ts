/**
 * `npx tsx --expose-gc scripts/profile/profile-empty-blocks.ts [--in-memory] [--snapshot] [--blocks N] [--rounds R] [--cpu-prof]`:
 * CPU per empty block mined in bulk (hardhat_mine of N blocks, R times, through the in-process
 * provider; `--snapshot` mines with an evm_snapshot live, as after Hardhat's loadFixture). Medians of process CPU time over the rounds: the machine is shared, so wall time is
 * printed but not to be trusted. `--cpu-prof` writes a V8 CPU profile of all rounds to /tmp.
 * Numbers for docs/performance.md ("One batch per chunk of empty blocks"); never part of `npm test`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createNode } from '../../src/index.js';

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    blocks: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    'cpu-prof': { type: 'boolean', default: false },
    snapshot: { type: 'boolean', default: false },
  },
});
const blocks = Number(values.blocks);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'profile-empty-blocks-'));
const node = await createNode({ inMemory: values['in-memory'], dataDir: dir, logLevel: 'silent' });
const rpc = <T>(method: string, params: unknown[] = []) => node.provider.request({ method, params }) as Promise<T>;
if (values.snapshot) await rpc('evm_snapshot');
const session = new Session();
if (values['cpu-prof']) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const cpu: number[] = [];
const wall: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await rpc('hardhat_mine', [`0x${blocks.toString(16)}`]);
  wall.push((performance.now() - t0) / blocks);
  const { user, system } = process.cpuUsage(c0);
  cpu.push((user + system) / 1000 / blocks);
}
if (values['cpu-prof']) {
  const { profile } = await session.post('Profiler.stop');
  const file = join(tmpdir(), 'profile-empty-blocks.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  console.log(`CPU profile: ${file}`);
  session.disconnect();
}
const head = BigInt(await rpc<string>('eth_blockNumber'));
console.log(`${values['in-memory'] ? 'in memory' : 'persistent'}${values.snapshot ? ', a snapshot live' : ''}: ${blocks} empty blocks x ${values.rounds}, head ${head}`);
console.log(`  per block: CPU ${median(cpu).toFixed(3)} ms (rounds ${cpu.map((c) => c.toFixed(3)).join(' ')}), wall ${median(wall).toFixed(3)} ms`);
await node.close();
rmSync(dir, { recursive: true, force: true });
