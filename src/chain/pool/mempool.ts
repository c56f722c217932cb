/**
 * Transactions waiting for a block. Per sender they are kept by nonce; a transaction is
 * "pending" when every lower nonce down to the sender's state nonce is present, else "queued"
 * (rskj's terms). Validation against state lives in ../intake.ts and validation.ts; this is the
 * bookkeeping.
 */
import type { LegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';
import type { TxRecord } from '../records/transaction.js';

export interface PoolTx {
  tx: LegacyTx;
  record: TxRecord;
  /** Sender as 0x lower-case hex, the pool's key. */
  sender: string;
  /** Arrival order, to break gas-price ties first-come first-served. */
  sequence: number;
}

/**
 * A pooled transaction as a snapshot keeps it: its bytes (as submitted, and as hashed), sender and
 * arrival order, about a tenth of a pooled entry (decoded transaction and record). rskj keeps no
 * pool in a snapshot at all; these are rebuilt when a revert needs one the pool no longer holds.
 */
export interface SavedPoolTx {
  raw: Uint8Array;
  sender: string;
  sequence: number;
}

export class Mempool {
  private readonly bySender = new Map<string, Map<bigint, PoolTx>>();
  private readonly byHash = new Map<string, PoolTx>();
  private nextSequence = 0;

  get size(): number {
    return this.byHash.size;
  }

  get(hash: Uint8Array): PoolTx | undefined {
    return this.byHash.get(bytesToHex(hash));
  }

  /** The transaction a new one with the same sender and nonce would replace. */
  sameNonce(sender: string, nonce: bigint): PoolTx | undefined {
    return this.bySender.get(sender)?.get(nonce);
  }

  /** Adds a transaction (replacing one with the same sender and nonce, if any). */
  add(tx: LegacyTx, record: TxRecord): PoolTx {
    const sender = bytesToHex(record.from);
    const entry: PoolTx = { tx, record, sender, sequence: this.nextSequence++ };
    let nonces = this.bySender.get(sender);
    if (nonces === undefined) this.bySender.set(sender, (nonces = new Map()));
    const replaced = nonces.get(record.nonce);
    if (replaced !== undefined) this.byHash.delete(bytesToHex(replaced.record.hash));
    nonces.set(record.nonce, entry);
    this.byHash.set(bytesToHex(record.hash), entry);
    return entry;
  }

  /** Every entry as a snapshot keeps it; `restore` puts them back as they were. */
  saved(): SavedPoolTx[] {
    return [...this.byHash.values()].map(({ record, sender, sequence }) => ({ raw: record.raw, sender, sequence }));
  }

  /**
   * Puts back saved entries: one the pool still holds stays as it is, `rebuild` makes the others
   * (pooled entries are keyed by hash, the keccak of the bytes).
   */
  restore(saved: readonly SavedPoolTx[], rebuild: (saved: SavedPoolTx) => PoolTx): void {
    const held = new Map(this.byHash);
    this.clear();
    for (const item of saved) {
      const still = held.get(bytesToHex(keccak256(item.raw)));
      const entry = still !== undefined && still.sequence === item.sequence ? still : rebuild(item);
      let nonces = this.bySender.get(entry.sender);
      if (nonces === undefined) this.bySender.set(entry.sender, (nonces = new Map()));
      nonces.set(entry.record.nonce, entry);
      this.byHash.set(bytesToHex(entry.record.hash), entry);
    }
  }

  remove(entry: PoolTx): void {
    this.byHash.delete(bytesToHex(entry.record.hash));
    const nonces = this.bySender.get(entry.sender);
    nonces?.delete(entry.record.nonce);
    if (nonces?.size === 0) this.bySender.delete(entry.sender);
  }

  clear(): void {
    this.bySender.clear();
    this.byHash.clear();
  }

  senderKeys(): Iterable<string> {
    return this.bySender.keys();
  }

  /** One sender's transactions, in no particular order. */
  forSender(sender: string): Iterable<PoolTx> {
    return this.bySender.get(sender)?.values() ?? [];
  }

  /** Every sender's transactions, in nonce order. */
  *senders(): Iterable<[string, PoolTx[]]> {
    for (const [sender, nonces] of this.bySender) {
      yield [sender, [...nonces.values()].sort((a, b) => (a.record.nonce < b.record.nonce ? -1 : 1))];
    }
  }

  /** Transactions that can run now: per sender the unbroken nonce run from its state nonce. */
  pendingBySender(stateNonce: (sender: string) => bigint): Map<string, PoolTx[]> {
    const result = new Map<string, PoolTx[]>();
    for (const [sender, txs] of this.senders()) {
      const run: PoolTx[] = [];
      let expected = stateNonce(sender);
      for (const entry of txs) {
        if (entry.record.nonce < expected) continue;
        if (entry.record.nonce !== expected) break;
        run.push(entry);
        expected++;
      }
      if (run.length > 0) result.set(sender, run);
    }
    return result;
  }
}

/**
 * Block order: repeatedly take the highest-priced next transaction among senders, keeping each
 * sender's nonce order (rskj sorts by gas price; nonce order is what makes the block valid).
 */
export function orderForBlock(pending: Map<string, PoolTx[]>): PoolTx[] {
  const queues = [...pending.values()].map((txs) => ({ txs, next: 0 }));
  const ordered: PoolTx[] = [];
  for (;;) {
    let best: (typeof queues)[number] | undefined;
    for (const queue of queues) {
      const head = queue.txs[queue.next];
      if (head === undefined) continue;
      const bestHead = best?.txs[best.next];
      if (
        bestHead === undefined ||
        head.record.gasPrice > bestHead.record.gasPrice ||
        (head.record.gasPrice === bestHead.record.gasPrice && head.sequence < bestHead.sequence)
      ) {
        best = queue;
      }
    }
    if (best === undefined) return ordered;
    ordered.push(best.txs[best.next++]!);
  }
}
