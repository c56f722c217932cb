/**
 * Automine that batches: a transaction admitted while the previous block is being mined goes into
 * the next block together with every other one admitted meanwhile. One transaction at a time still
 * gets one block each (what Hardhat and rskj's autoMine do); transactions in flight together share
 * blocks, as anvil mines them, instead of queueing one block build per transaction.
 */
import type { PoolTx } from '../pool/mempool.js';
import type { ReceiptRecord } from '../records/receipt.js';

/** Runs a task after every earlier chain mutation (the chain's SerialLock). */
type Serialize = <T>(task: () => Promise<T>) => Promise<T>;

/** What became of an admitted transaction: dropped (with the reason), or mined and failed (its receipt). */
export interface AutomineOutcome {
  dropped?: string;
  failed?: ReceiptRecord;
}

/** Mines the block(s) for these admitted transactions; answers the ones dropped or failed. */
type MineAdmitted = (admitted: ReadonlySet<PoolTx>) => Promise<Map<PoolTx, AutomineOutcome>>;

export class AutomineBatch {
  private admitted = new Set<PoolTx>();
  private next: Promise<Map<PoolTx, AutomineOutcome>> | undefined;

  constructor(
    private readonly serialize: Serialize,
    private readonly mineAdmitted: MineAdmitted,
  ) {}

  /** Waits for the block that takes `entry`; whether it was dropped instead, or failed. */
  async mined(entry: PoolTx): Promise<AutomineOutcome | undefined> {
    this.admitted.add(entry);
    // One turn of the event loop first: requests already read from their sockets are admitted
    // before this block starts (an in-memory chain would otherwise mine without ever yielding).
    this.next ??= new Promise((resolve) => setImmediate(resolve)).then(() =>
      this.serialize(() => {
        const admitted = this.admitted;
        this.admitted = new Set();
        this.next = undefined;
        return this.mineAdmitted(admitted);
      }),
    );
    const outcomes = await this.next;
    return outcomes.get(entry);
  }
}
