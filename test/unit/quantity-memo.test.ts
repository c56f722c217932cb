/** format.ts QuantityMemo: the last quantity's text kept, and never the text of another value (issue 25). */
import { describe, expect, it } from 'vitest';
import { QuantityMemo, quantity } from '../../src/rpc/format.js';

describe('QuantityMemo', () => {
  it('answers quantity() of each value asked, repeated or changed', () => {
    const memo = new QuantityMemo();
    for (const n of [0n, 0n, 1n, 1n, 0n, 2n ** 255n, 2n ** 255n, 2n ** 255n - 1n, 15n, 16n, 0n]) expect(memo.of(n)).toBe(quantity(n));
  });

  it('answers a repeated value with the same string, so the envelope can recognise it', () => {
    const memo = new QuantityMemo();
    const first = memo.of(10n ** 24n);
    expect(memo.of(10n ** 24n)).toBe(first);
    expect(memo.of(10n ** 24n + 1n)).toBe('0xd3c21bcecceda1000001');
  });
});
