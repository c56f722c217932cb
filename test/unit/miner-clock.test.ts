/** The miner's clock (miner-clock.ts) on a frozen wall clock: what a bumped block does to the offset. */
import { describe, expect, it } from 'vitest';
import { MinerClock } from '../../src/chain/mining/clock.js';

const WALL = 1_700_000_000n;

/** Mines `count` blocks on `clock` without the wall clock moving; returns the last timestamp. */
function mineFrozen(clock: MinerClock, parent: bigint, count: number): bigint {
  let latest = parent;
  for (let i = 0; i < count; i++) {
    const travelled = clock.travels();
    latest = clock.timestampFor(latest, WALL);
    clock.blockMined(latest, WALL, travelled);
  }
  return latest;
}

describe('MinerClock', () => {
  it('evm_increaseTime after blocks mined faster than one a second moves the next block the full offset past the latest', () => {
    const clock = new MinerClock(() => Number(WALL) * 1000);
    const latest = mineFrozen(clock, WALL - 1n, 100);
    expect(latest).toBe(WALL + 99n); // each block its parent + 1: 99 s ahead of the wall clock
    clock.increase(3600n);
    const next = clock.timestampFor(latest, WALL);
    expect(next - latest).toBe(3600n);
  });

  it('blocks mined on the wall clock leave the offset alone', () => {
    let wall = WALL;
    const clock = new MinerClock(() => Number(wall) * 1000);
    let latest = WALL - 10n;
    for (let i = 0; i < 5; i++) {
      wall += 2n;
      latest = clock.timestampFor(latest, wall);
      clock.blockMined(latest, wall, false);
      expect(latest).toBe(wall);
    }
    expect(clock.save().clockOffset).toBe(0n);
  });
});
