/**
 * The unspent outputs of the mined chain, and the view of the next block (the pool's spends and
 * outputs on top). Rebuilt from the blocks after a revert: the chain is small and kept in memory.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import type { BtcBlock } from './block.js';
import type { BtcTransaction } from './transaction.js';

export interface Utxo {
  /** Internal byte order. */
  txid: Uint8Array;
  vout: number;
  amount: bigint;
  script: Uint8Array;
  /** The block that mined it; undefined while it is an output of a pooled transaction. */
  height: number | undefined;
  coinbase: boolean;
}

const OP_RETURN = 0x6a;

export const outpointKey = (txid: Uint8Array, vout: number) => `${bytesToHex(txid)}:${vout}`;

/** Outputs a transaction adds (provably unspendable OP_RETURN outputs never enter the set, as in Bitcoin Core). */
export function outputsOf(tx: BtcTransaction, height: number | undefined, coinbase: boolean): Utxo[] {
  return tx.outputs.flatMap((o, vout) => (o.script[0] === OP_RETURN ? [] : [{ txid: tx.txid, vout, amount: o.amount, script: o.script, height, coinbase }]));
}

export class UtxoSet {
  private readonly mined = new Map<string, Utxo>();
  /** Outputs of pooled transactions, and outpoints the pool spends (to the spender's txid). */
  private readonly pooled = new Map<string, Utxo>();
  private readonly poolSpends = new Map<string, string>();

  /** Applies a mined block (genesis included: its coinbase is unspendable in Bitcoin, so it is skipped). */
  applyBlock(block: BtcBlock): void {
    block.transactions.forEach((tx, index) => {
      if (index > 0) for (const input of tx.inputs) this.mined.delete(outpointKey(input.txid, input.vout));
      if (block.height === 0) return;
      for (const utxo of outputsOf(tx, block.height, index === 0)) this.mined.set(outpointKey(utxo.txid, utxo.vout), utxo);
    });
  }

  /** Adds a pooled transaction on top of the mined set (already validated). */
  applyPooled(tx: BtcTransaction): void {
    const spender = bytesToHex(tx.txid);
    for (const input of tx.inputs) this.poolSpends.set(outpointKey(input.txid, input.vout), spender);
    for (const utxo of outputsOf(tx, undefined, false)) this.pooled.set(outpointKey(utxo.txid, utxo.vout), utxo);
  }

  clearPool(): void {
    this.pooled.clear();
    this.poolSpends.clear();
  }

  clear(): void {
    this.mined.clear();
    this.clearPool();
  }

  /** An output the next block can spend: mined or pooled, and not spent by the pool. */
  spendable(key: string): Utxo | undefined {
    if (this.poolSpends.has(key)) return undefined;
    return this.mined.get(key) ?? this.pooled.get(key);
  }

  /** The pooled transaction (txid hex, internal order) that spends an outpoint. */
  spentInPool(key: string): string | undefined {
    return this.poolSpends.get(key);
  }

  /** Mined outputs paying `script`, oldest first; `free` leaves out those the pool spends. */
  minedTo(script: Uint8Array, free = false): Utxo[] {
    const hex = bytesToHex(script);
    return [...this.mined.entries()].filter(([key, u]) => bytesToHex(u.script) === hex && !(free && this.poolSpends.has(key))).map(([, u]) => u);
  }

  /** Pooled outputs paying `script` that the pool does not spend. */
  pooledTo(script: Uint8Array): Utxo[] {
    const hex = bytesToHex(script);
    return [...this.pooled.entries()].filter(([key, u]) => bytesToHex(u.script) === hex && !this.poolSpends.has(key)).map(([, u]) => u);
  }
}
