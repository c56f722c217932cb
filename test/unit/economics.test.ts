import { describe, expect, it } from 'vitest';
import { nextGasLimit, nextMinimumGasPrice, suggestedGasPrice } from '../../src/chain/mining/economics.js';

describe('nextMinimumGasPrice', () => {
  it('moves up or down by at most 1% of the parent', () => {
    expect(nextMinimumGasPrice(60_000_000n, 70_000_000n)).toBe(60_600_000n);
    expect(nextMinimumGasPrice(60_000_000n, 50_000_000n)).toBe(59_400_000n);
    expect(nextMinimumGasPrice(60_000_000n, 10n ** 18n)).toBe(60_600_000n);
    expect(nextMinimumGasPrice(60_000_000n, 0n)).toBe(59_400_000n);
    // 1% of 12345 is 123 (integer division).
    expect(nextMinimumGasPrice(12_345n, 20_000n)).toBe(12_468n);
    expect(nextMinimumGasPrice(12_345n, 0n)).toBe(12_222n);
  });

  it('takes the target when it is within 1%', () => {
    expect(nextMinimumGasPrice(60_000_000n, 60_000_000n)).toBe(60_000_000n);
    expect(nextMinimumGasPrice(60_000_000n, 60_600_000n)).toBe(60_600_000n);
    expect(nextMinimumGasPrice(60_000_000n, 59_400_000n)).toBe(59_400_000n);
    expect(nextMinimumGasPrice(60_000_000n, 60_123_456n)).toBe(60_123_456n);
  });

  it('steps by at least 1 wei when 1% of the parent is below 1 wei', () => {
    expect(nextMinimumGasPrice(0n, 1000n)).toBe(1n);
    expect(nextMinimumGasPrice(50n, 1000n)).toBe(51n);
    expect(nextMinimumGasPrice(50n, 0n)).toBe(49n);
    expect(nextMinimumGasPrice(99n, 1000n)).toBe(100n);
    expect(nextMinimumGasPrice(1n, 1000n)).toBe(2n);
    // From 100 on, 1% is at least 1 wei by itself; 2 wei from 200.
    expect(nextMinimumGasPrice(100n, 1000n)).toBe(101n);
    expect(nextMinimumGasPrice(199n, 1000n)).toBe(200n);
    expect(nextMinimumGasPrice(200n, 1000n)).toBe(202n);
    expect(nextMinimumGasPrice(200n, 0n)).toBe(198n);
  });

  it('never goes below zero', () => {
    expect(nextMinimumGasPrice(0n, 0n)).toBe(0n);
    expect(nextMinimumGasPrice(1n, 0n)).toBe(0n);
    expect(nextMinimumGasPrice(0n, -10n)).toBe(0n);
    expect(nextMinimumGasPrice(1n, -10n)).toBe(0n);
  });

  it('reaches a target exactly, one clamped step a block', () => {
    const walk = (from: bigint, target: bigint) => {
      const steps: bigint[] = [from];
      let current = from;
      while (current !== target) {
        const next = nextMinimumGasPrice(current, target);
        const limit = current / 100n === 0n ? 1n : current / 100n;
        const step = next > current ? next - current : current - next;
        expect(step).toBeGreaterThan(0n);
        expect(step).toBeLessThanOrEqual(limit);
        // Never overshoots the target.
        expect(from < target ? next <= target : next >= target).toBe(true);
        current = next;
        steps.push(current);
        if (steps.length > 5000) throw new Error('did not converge');
      }
      return steps;
    };
    const down = walk(60_000_000n, 59_000_000n);
    expect(down.slice(0, 3)).toEqual([60_000_000n, 59_400_000n, 59_000_000n]);
    const up = walk(0n, 1000n);
    // 1 wei a block up to 100, then 1% a block.
    expect(up.slice(0, 5)).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(up[100]).toBe(100n);
    expect(up[101]).toBe(101n);
    expect(up.at(-1)).toBe(1000n);
    expect(up.length - 1).toBe(384);
    const longWay = walk(60_000_000n, 0n);
    expect(longWay.at(-1)).toBe(0n);
  });
});

describe('nextGasLimit', () => {
  it('steps toward the target by at most parent / 1024', () => {
    // 6,800,000 / 1024 = 6640 (integer division).
    expect(nextGasLimit(6_800_000n, 10_000_000n)).toBe(6_806_640n);
    expect(nextGasLimit(6_800_000n, 1_000_000n)).toBe(6_793_360n);
    expect(nextGasLimit(6_800_000n, 6_800_000n)).toBe(6_800_000n);
    expect(nextGasLimit(6_800_000n, 6_806_640n)).toBe(6_806_640n);
    expect(nextGasLimit(6_800_000n, 6_795_000n)).toBe(6_795_000n);
  });

  it('reaches a target', () => {
    let current = 6_800_000n;
    let blocks = 0;
    while (current !== 8_000_000n) {
      const next = nextGasLimit(current, 8_000_000n);
      expect(next - current).toBeLessThanOrEqual(current / 1024n);
      expect(next).toBeGreaterThan(current);
      current = next;
      if (++blocks > 1000) throw new Error('did not converge');
    }
    expect(blocks).toBe(167);
    expect(nextGasLimit(current, 8_000_000n)).toBe(8_000_000n);
  });
});

describe('suggestedGasPrice', () => {
  it('is the minimum gas price times 1.1', () => {
    expect(suggestedGasPrice(60_000_000n)).toBe(66_000_000n);
    expect(suggestedGasPrice(0n)).toBe(0n);
    expect(suggestedGasPrice(10n)).toBe(11n);
    expect(suggestedGasPrice(1n)).toBe(1n);
    expect(suggestedGasPrice(59_400_000n)).toBe(65_340_000n);
  });
});
