import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_CAP_MIB, capYoungGeneration } from '../../src/young-generation.js';

const MIB = 2 ** 20;
/** A fresh Node (no flags) that churns its young generation, capped or not; returns its semi-space bytes. */
function semiSpaceAfterChurn(mode: 'cap' | 'none'): number {
  const env = { ...process.env, NODE_OPTIONS: '' };
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/young-generation-churn.ts', mode], { encoding: 'utf8', env });
  expect(child.stderr).toBe('');
  return Number(child.stdout.trim());
}

describe('capYoungGeneration', () => {
  it('stops the semi-space at the cap, where V8 alone grows it past (the bin started without --max-semi-space-size)', () => {
    const uncapped = semiSpaceAfterChurn('none');
    const capped = semiSpaceAfterChurn('cap');
    expect(uncapped).toBeGreaterThan(SEMI_SPACE_CAP_MIB * MIB);
    expect(capped).toBeLessThanOrEqual(SEMI_SPACE_CAP_MIB * MIB);
    expect(capped).toBeGreaterThan((SEMI_SPACE_CAP_MIB / 2) * MIB);
  });

  it('leaves a process alone that was given its own --max-semi-space-size, on the command line or in NODE_OPTIONS', () => {
    expect(capYoungGeneration({ execArgv: ['--max-semi-space-size=4'], nodeOptions: '' })).toBeUndefined();
    expect(capYoungGeneration({ execArgv: [], nodeOptions: '--trace-gc --max_semi_space_size=4' })).toBeUndefined();
  });
});
