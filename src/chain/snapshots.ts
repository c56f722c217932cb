/**
 * evm_snapshot bookkeeping with rskj's semantics (reference 10.2): ids count from 1; reverting to
 * an id keeps that snapshot usable and drops every later one.
 */
import type { BtcSnapshot } from './btc-chain/btc-chain.js';
import type { ClockSettings } from './mining/clock.js';
import type { SavedPoolTx } from './pool/mempool.js';

export interface ChainSnapshot {
  headNumber: bigint;
  /** The latest state root, which differs from the head header's after a state override. */
  stateRoot: Uint8Array;
  clock: ClockSettings;
  pool: SavedPoolTx[];
  /** The Bitcoin chain's tip and pool. */
  btc: BtcSnapshot;
}

export class Snapshots {
  private list: ChainSnapshot[] = [];

  take(snapshot: ChainSnapshot): bigint {
    this.list.push(snapshot);
    return BigInt(this.list.length);
  }

  /** The snapshot with this id, dropping every later one; undefined for an unknown id. */
  revertTo(id: bigint): ChainSnapshot | undefined {
    if (id < 1n || id > BigInt(this.list.length)) return undefined;
    this.list.length = Number(id);
    return this.list[Number(id) - 1];
  }

  /** Every live snapshot with its id, oldest first. */
  entries(): Array<{ id: bigint; snapshot: ChainSnapshot }> {
    return this.list.map((snapshot, i) => ({ id: BigInt(i + 1), snapshot }));
  }

  clear(): void {
    this.list = [];
  }
}
