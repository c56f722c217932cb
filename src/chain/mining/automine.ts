/**
 * Automine that batches: a transaction admitted while the previous block is being mined goes into
 * the next block together with every other one admitted meanwhile. One transaction at a time still
 * gets one block each (what Hardhat and rskj's autoMine do); transactions in flight together share
 * blocks, as anvil mines them, instead of queueing one block build per transaction.
 */
import type { PoolTx } from '../pool/mempool.js';

/** Runs a task after every earlier chain mutation (the chain's SerialLock). */
type Serialize = <T>(task: () => Promise<T>) => Promise<T>;
/** Mines the block(s) for these admitted transactions; answers the ones dropped, with the reason. */
type MineAdmitted = (admitted: ReadonlySet<PoolTx>) => Promise<Map<PoolTx, string>>;

export class AutomineBatch {
  private admitted = new Set<PoolTx>();
  private next: Promise<Map<PoolTx, string>> | undefined;

  constructor(
    private readonly serialize: Serialize,
    private readonly mineAdmitted: MineAdmitted,
  ) {}

  /** Waits for the block that takes `entry`; the reason it was dropped instead, if it was. */
  async mined(entry: PoolTx): Promise<string | undefined> {
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
    const dropped = await this.next;
    return dropped.get(entry);
  }
}
