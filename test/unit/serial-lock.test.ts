/**
 * SerialLock (src/util/lock.ts), the chain's one mutation lock (docs/adr/0006-one-lock.md): tasks
 * run one at a time in the order given, and a failed task neither blocks nor fails the next.
 */
import { describe, expect, it } from 'vitest';
import { SerialLock } from '../../src/util/lock.js';

/** A promise and the function that settles it, to hold a task open until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('SerialLock', () => {
  it('starts a task only after every earlier one has finished, in the order given', async () => {
    const lock = new SerialLock();
    const events: string[] = [];
    const first = gate();
    const a = lock.run(async () => {
      events.push('a start');
      await first.opened;
      events.push('a end');
      return 'a';
    });
    const b = lock.run(async () => {
      events.push('b start');
      return 'b';
    });
    const c = lock.run(async () => {
      events.push('c start');
      return 'c';
    });
    // Let every queued callback run: b and c must still wait for a.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['a start']);
    first.open();
    expect(await Promise.all([a, b, c])).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'c start']);
  });

  it('hands a failure to its caller only, and runs the next task anyway', async () => {
    const lock = new SerialLock();
    const failed = lock.run(async () => {
      throw new Error('task failed');
    });
    const next = lock.run(async () => 42);
    await expect(failed).rejects.toThrow('task failed');
    expect(await next).toBe(42);
    expect(await lock.run(async () => 'after')).toBe('after');
  });

  it('runs a task that throws synchronously as a rejection, and keeps going', async () => {
    const lock = new SerialLock();
    const thrown = lock.run((() => {
      throw new Error('sync throw');
    }) as () => Promise<never>);
    await expect(thrown).rejects.toThrow('sync throw');
    expect(await lock.run(async () => 'still runs')).toBe('still runs');
  });
});
