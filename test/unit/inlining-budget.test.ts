import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { limitInlining } from '../../src/inlining-budget.js';

describe('limitInlining', () => {
  it('leaves a process alone that was given its own --max-inlined-bytecode-size-cumulative, on the command line or in NODE_OPTIONS', () => {
    expect(limitInlining({ execArgv: ['--max-inlined-bytecode-size-cumulative=920'], nodeOptions: '' })).toBe(false);
    expect(limitInlining({ execArgv: [], nodeOptions: '--trace-gc --max_inlined_bytecode_size_cumulative=920' })).toBe(false);
  });

  it('sets the budget in a process without one, and the process keeps running optimized code', () => {
    const env = { ...process.env, NODE_OPTIONS: '' };
    const script = `
      import { limitInlining } from './src/inlining-budget.ts';
      const set = limitInlining();
      let sum = 0;
      const add = (a, b) => a + b;
      for (let i = 0; i < 2e6; i++) sum = add(sum, i & 7);
      console.log(set, sum);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe(`true ${3.5 * 2e6}`);
  });
});
