/**
 * What the node has acknowledged, across every kill: each answer received here is a promise the
 * node made, so it must still hold after any later restart.
 */

export interface AckedTx {
  /** From the receipt, when one was read before the kill. */
  blockHash?: string;
}

/** Transactions mined inside an evm_snapshot ... evm_revert section whose revert was sent. */
export interface RevertGroup {
  snapshotHead: number;
  hashes: string[];
  /** The revert was answered: the transactions must be gone. Else either all or none remain. */
  answered: boolean;
}

export interface AckedKey {
  id: string;
  key: string;
  revoked: boolean;
  /** The revocation was sent; until it is answered, either state is right. */
  revoking: boolean;
}

export interface AckedUser {
  email: string;
  password: string;
  keys: Map<string, AckedKey>;
  /** The kill that followed this user's sign-up (recent users are checked after every restart). */
  life: number;
}

export class Ledger {
  readonly txs = new Map<string, AckedTx>();
  /** Transactions acknowledged and then reverted by an answered evm_revert: must be absent. */
  readonly reverted = new Set<string>();
  readonly revertGroups: RevertGroup[] = [];
  readonly users = new Map<string, AckedUser>();
  /** hardhat_setBalance answers on addresses nothing else touches. */
  readonly balances = new Map<string, bigint>();
  /** Log-emitting contracts whose deployment receipt was read. */
  readonly emitters: string[] = [];
  /** Counts of acknowledged operations, for the summary. */
  readonly counts = { txs: 0, mines: 0, reverts: 0, setBalances: 0, signups: 0, keysCreated: 0, keysRevoked: 0 };

  /** How many answers were acknowledged in all. */
  acknowledged(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }

  ackTx(hash: string): void {
    this.txs.set(hash, {});
    this.counts.txs++;
  }

  ackReceipt(hash: string, blockHash: string): void {
    const tx = this.txs.get(hash);
    if (tx !== undefined) tx.blockHash = blockHash;
  }
}
