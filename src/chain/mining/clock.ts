/**
 * The clock blocks are mined by (rskj's MinerClock, plus the time travel Hardhat and anvil users
 * expect): max(now + offsets, parent + 1), where an explicit timestamp (evm_mine's argument,
 * evm_setNextBlockTimestamp) wins but never goes back to or before the parent.
 */
import { ChainError } from '../base/errors.js';

/** Header timestamps are 64-bit in RSK and Ethereum headers. */
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

/** What a snapshot keeps of the clock. */
export interface ClockSettings {
  /** evm_increaseTime: seconds added to the next block's clock, then cleared (rskj). */
  timeOffset: bigint;
  /**
   * Seconds the node's clock runs ahead of (or behind) the wall clock. A block mined at an explicit
   * timestamp or with an evm_increaseTime offset sets it, so the clock continues from that block.
   */
  clockOffset: bigint;
  /** evm_setNextBlockTimestamp: the exact timestamp of the next block. */
  nextTimestamp: bigint | undefined;
}

export class MinerClock {
  private settings: ClockSettings = { timeOffset: 0n, clockOffset: 0n, nextTimestamp: undefined };

  /** `now`: wall clock in milliseconds. */
  constructor(private readonly now: () => number) {}

  nowSeconds(): bigint {
    return BigInt(Math.floor(this.now() / 1000));
  }

  /** The next block's timestamp on a parent at `parentTimestamp` (`explicit` from evm_mine / hardhat_mine). */
  timestampFor(parentTimestamp: bigint, now: bigint, explicit?: bigint): bigint {
    const wanted = explicit ?? this.settings.nextTimestamp ?? this.clock(now);
    const timestamp = wanted > parentTimestamp ? wanted : parentTimestamp + 1n;
    // Entry points refuse what would pass this; the check keeps any path from sealing a bad header.
    if (timestamp > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(timestamp));
    return timestamp;
  }

  /** Refuses `count` blocks `interval` seconds apart that would pass MAX_TIMESTAMP (before any is mined). */
  checkRun(parentTimestamp: bigint, count: bigint, interval: bigint): void {
    const first = this.settings.nextTimestamp ?? maxBigInt(this.clock(this.nowSeconds()), parentTimestamp + 1n);
    const last = first + (count > 0n ? count - 1n : 0n) * interval;
    if (last > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(last));
  }

  /** Whether the next block travels in time: an explicit timestamp or a pending offset. */
  travels(explicit?: bigint): boolean {
    return explicit !== undefined || this.settings.nextTimestamp !== undefined || this.settings.timeOffset !== 0n;
  }

  /**
   * After a block at `timestamp` (mined at wall time `now`): the pending settings are used up. A
   * block that travelled, or that was bumped to its parent + 1 past the clock (blocks mined faster
   * than one a second), moves the clock offset to it, as Hardhat does: the clock then continues
   * from the latest block, so evm_increaseTime(n) lands the next block at least n seconds after it.
   */
  blockMined(timestamp: bigint, now: bigint, travelled: boolean): void {
    if (travelled || timestamp > this.clock(now)) this.settings.clockOffset = timestamp - now;
    this.clearPending();
  }

  /** A clock setting that cannot be mined must not wedge every later block. */
  clearPending(): void {
    this.settings.timeOffset = 0n;
    this.settings.nextTimestamp = undefined;
  }

  /** rskj: positive values add to the offset the next block consumes; returns the offset. */
  increase(seconds: bigint): bigint {
    const clock = this.clock(this.nowSeconds()) + seconds;
    if (clock > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(clock));
    if (seconds > 0n) this.settings.timeOffset += seconds;
    return this.settings.timeOffset;
  }

  setNext(timestamp: bigint, latest: bigint): void {
    if (timestamp <= latest) {
      throw new ChainError('invalidArgument', `Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${latest}`);
    }
    if (timestamp > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(timestamp));
    this.settings.nextTimestamp = timestamp;
  }

  /** A copy of the settings (snapshots, merged-mining work). */
  save(): ClockSettings {
    return { ...this.settings };
  }

  restore(settings: ClockSettings): void {
    this.settings = { ...settings };
  }

  reset(): void {
    this.settings = { timeOffset: 0n, clockOffset: 0n, nextTimestamp: undefined };
  }

  /** The clock the next block reads: wall clock, the clock offset and the pending evm_increaseTime offset. */
  private clock(now: bigint): bigint {
    return now + this.settings.clockOffset + this.settings.timeOffset;
  }
}

export function timestampTooLarge(timestamp: bigint): string {
  return `the next block's timestamp would be ${timestamp}, past 2^64-1 seconds, the largest a block header holds`;
}

function maxBigInt(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
