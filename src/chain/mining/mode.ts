/**
 * Who mines and when: the miner mode (`--miner`), automine (a switch the transaction intake
 * reads) and interval mining (interval.ts). With `--miner external` the node never mines by
 * itself: both are refused, and evm_mine stays the operator's override.
 */
import { ChainError } from '../base/errors.js';
import { MiningTimer } from './interval.js';

export type MinerMode = 'internal' | 'external';

/** Where the automine switch lives (the chain's transaction intake). */
export interface AutomineSwitch {
  automine: boolean;
}

export class MiningMode {
  private readonly timer: MiningTimer;

  /** `mine`: mines one block (the chain's evm_mine path); `onError`: where an interval tick's failure goes. */
  constructor(
    readonly minerMode: MinerMode,
    private readonly intake: AutomineSwitch,
    mine: () => Promise<unknown>,
    onError: (err: unknown) => void,
  ) {
    if (minerMode === 'external') intake.automine = false;
    this.timer = new MiningTimer(mine, onError);
  }

  get isAutomine(): boolean {
    return this.intake.automine;
  }

  setAutomine(on: boolean): void {
    if (on) this.refuseSelfMining('automine');
    this.intake.automine = on;
  }

  /** Mines a block every `ms` milliseconds; 0 turns interval mining off (interval.ts). */
  setIntervalMining(ms: number): void {
    MiningTimer.check(ms);
    if (ms > 0) this.refuseSelfMining('interval mining');
    this.timer.set(ms);
  }

  /** With `--miner external` the node never mines by itself; evm_mine stays the operator's override. */
  private refuseSelfMining(what: string): void {
    if (this.minerMode !== 'external') return;
    throw new ChainError(
      'invalidArgument',
      `${what} is off on a node started with --miner external: blocks come from merged miners (mnr_submitBitcoinBlock*); mine one by hand with evm_mine`,
    );
  }
}
