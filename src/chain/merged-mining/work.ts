/**
 * Merged-mining work, rskj's MinerServer side (reference 6.5): the unsealed block the node hands
 * to merged miners, and the last few of them, so that a solution for a block handed out a moment
 * ago still finds it (rskj's `blocksWaitingForPoW`). The chain builds the work
 * (`chain.merged.currentWork()`) and imports solved blocks (`chain.merged.import()`, both in
 * chain/merged.ts); this file keeps the book.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { PendingView } from '../exec/block-builder.js';
import type { ClockSettings } from '../mining/clock.js';
import type { RskBlock } from '../records/block.js';
import { powTarget } from './proof.js';

/** rskj MinerServerImpl.CACHE_SIZE: templates kept for late solutions. */
export const WORK_CACHE_SIZE = 20;
/** rskj rebuilds its template every minute (DELAY_BETWEEN_BUILD_BLOCKS_MS), so its timestamp stays fresh. */
export const WORK_REFRESH_MS = 60_000;
/** rskj RskMiningConstants.NOTIFY_FEES_PERCENTAGE_INCREASE: same parent, fees up more than this → notify. */
const NOTIFY_FEES_PERCENTAGE_INCREASE = 10n;
/** Miners whose eth_submitHashrate reports are kept (random ids would otherwise grow the map forever). */
export const MAX_HASHRATE_REPORTERS = 256;

/**
 * How long an eth_submitHashrate report counts towards eth_hashrate. geth keeps remote reports for
 * 10 s of a miner that reports every few seconds; a minute tolerates slow reporters on a devnode.
 */
export const HASHRATE_REPORT_TTL_MS = 60_000;

export interface MiningWork {
  /** The unsealed block (header without merged-mining fields), its receipts and its state overlay. */
  view: PendingView;
  /** What the miner commits to after `RSKBLOCK:` (RSKIP110 fork detection data included). */
  hashForMergedMining: Uint8Array;
  /** State root of the parent the block was built on (the head's may be overridden by test control). */
  parentStateRoot: Uint8Array;
  /** The clock settings the template read (pending offset, next timestamp); importing uses them up. */
  clock: ClockSettings;
  /** Wall-clock milliseconds when the work was first handed out. */
  handedOutAt: number;
}

interface Entry {
  work: MiningWork;
  /** rskj's notify flag: true until the first mnr_getWork that returns this work. */
  notify: boolean;
}

/** rskj's DifficultyUtils target as 32 big-endian bytes, the form mnr_getWork and eth_getWork send. */
export function workTarget(work: MiningWork): string {
  return `0x${powTarget(work.view.header.difficulty).toString(16).padStart(64, '0')}`;
}

/** What importing a merged-mined block did (MergedBlocks.import). */
export type MergedMiningImport =
  | { status: 'imported' | 'exist' | 'stale'; block: RskBlock }
  | { status: 'invalid'; block: RskBlock; reason: string };

export class WorkBook {
  /** Insertion order is age: the oldest is dropped first, as rskj's LinkedHashMap does. */
  private readonly entries = new Map<string, Entry>();
  private latestEntry: Entry | undefined;
  private latestParent: string | undefined;
  private latestNotifiedFees = 0n;
  private readonly hashrates = new Map<string, { rate: bigint; at: number }>();

  /** The work handed out last. */
  get latest(): MiningWork | undefined {
    return this.latestEntry?.work;
  }

  /**
   * Keeps `work` for its solution. A work with a hash already kept is the same block: the kept
   * one is returned. rskj's notify rule decides the new work's flag: its parent differs from the
   * previous work's, or (same parent) its fees exceed by more than 10% those of the last work that
   * notified (rskj also asks for a minimum in dollars, 0 by default).
   */
  register(work: MiningWork): MiningWork {
    const key = bytesToHex(work.hashForMergedMining);
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.latestEntry = kept;
      return kept.work;
    }
    const parent = bytesToHex(work.view.header.parentHash);
    const fees = work.view.header.paidFees;
    const notify =
      parent !== this.latestParent || fees > (this.latestNotifiedFees * (100n + NOTIFY_FEES_PERCENTAGE_INCREASE)) / 100n;
    if (notify) this.latestNotifiedFees = fees;
    this.latestParent = parent;
    const entry = { work, notify };
    this.entries.set(key, entry);
    if (this.entries.size > WORK_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.latestEntry = entry;
    return work;
  }

  /** rskj's getWork: the notify flag is true on the first return of a work, false on repeats. */
  takeNotify(work: MiningWork): boolean {
    const entry = this.entries.get(bytesToHex(work.hashForMergedMining));
    if (entry === undefined) return false;
    const notify = entry.notify;
    entry.notify = false;
    return notify;
  }

  /** The work handed out for `hashForMergedMining`, if it is still kept. */
  find(hashForMergedMining: Uint8Array): MiningWork | undefined {
    return this.entries.get(bytesToHex(hashForMergedMining))?.work;
  }

  /** eth_submitHashrate: the latest rate a miner (by its id) reported. */
  reportHashrate(id: Uint8Array, rate: bigint, now: number): void {
    const key = bytesToHex(id);
    // Every new id is an entry: keep at most MAX_HASHRATE_REPORTERS, dropping the oldest report.
    this.hashrates.delete(key);
    if (this.hashrates.size >= MAX_HASHRATE_REPORTERS) this.hashrates.delete(this.hashrates.keys().next().value!);
    this.hashrates.set(key, { rate, at: now });
  }

  /** Sum of the rates reported within HASHRATE_REPORT_TTL_MS; older reports are dropped. */
  reportedHashrate(now: number): bigint {
    let sum = 0n;
    for (const [id, report] of this.hashrates) {
      if (now - report.at > HASHRATE_REPORT_TTL_MS) this.hashrates.delete(id);
      else sum += report.rate;
    }
    return sum;
  }
}
