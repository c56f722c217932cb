import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/util/lru.js';

describe('Lru (two generations)', () => {
  it('never holds more than its capacity, whatever the order of reads and writes', () => {
    for (const capacity of [1, 2, 3, 10, 101]) {
      const lru = new Lru<number, number>(capacity);
      for (let i = 0; i < 1_000; i++) {
        lru.set(i % 37, i);
        lru.get((i * 7) % 37);
        if (i % 5 === 0) lru.set(1_000 + i, i);
        expect(lru.size, `capacity ${capacity}, step ${i}`).toBeLessThanOrEqual(capacity);
      }
    }
  });

  it('keeps an entry that is read while others come and go, and drops one that is not', () => {
    const lru = new Lru<string, number>(100);
    lru.set('kept', 1);
    lru.set('unread', 2);
    for (let i = 0; i < 1_000; i++) {
      lru.set(`filler ${i}`, i);
      expect(lru.get('kept')).toBe(1);
    }
    expect(lru.get('unread')).toBeUndefined();
    expect(lru.get('filler 999')).toBe(999);
  });

  it('answers the latest value written, and nothing once deleted or cleared', () => {
    const lru = new Lru<string, string>(4);
    lru.set('a', 'first');
    for (const key of ['b', 'c', 'd']) lru.set(key, key);
    lru.set('a', 'second');
    expect(lru.get('a')).toBe('second');
    lru.delete('a');
    expect(lru.get('a')).toBeUndefined();
    lru.clear();
    expect([lru.size, lru.get('b')]).toEqual([0, undefined]);
  });

  it('with a weight per value, never holds more weight than its capacity', () => {
    const lru = new Lru<number, Uint8Array>(1_000, (value) => value.length);
    for (let i = 0; i < 500; i++) {
      lru.set(i, new Uint8Array(1 + ((i * 37) % 120)));
      lru.get(i - 3);
      expect(lru.weight, `step ${i}`).toBeLessThanOrEqual(1_000);
    }
    expect(lru.get(499)).toBeDefined();
    expect(lru.has(0)).toBe(false);
    lru.delete(499);
    expect(lru.weight).toBe([...Array(500).keys()].filter((i) => lru.has(i)).reduce((sum, i) => sum + 1 + ((i * 37) % 120), 0));
  });
});
