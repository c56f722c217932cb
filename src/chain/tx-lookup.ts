/**
 * Mined transactions found through the store's indexes (by hash, by address, by sender and
 * nonce) and read from their blocks through the head (fork-aware, cached). An index entry whose
 * block is gone (evm_revert since it was read) finds nothing.
 */
import type { ChainHead } from './head.js';
import type { RskBlock } from './records/block.js';
import type { TxRecord } from './records/transaction.js';
import type { ChainStore } from './storage/store.js';

export interface TxLookup {
  tx: TxRecord;
  block: RskBlock;
  index: number;
}

export class TxLookups {
  constructor(
    private readonly store: ChainStore,
    private readonly head: ChainHead,
  ) {}

  async transaction(hash: Uint8Array): Promise<TxLookup | undefined> {
    const location = await this.store.getTxLocation(hash);
    if (location === undefined) return undefined;
    return this.at(location.blockNumber, location.index);
  }

  /**
   * A page of the address's mined transactions from the address index (storage/address-index.ts):
   * newest first below block `before`, or oldest first above block `after`. Reads only the page's
   * blocks. A block dropped since the index was read (evm_revert) is left out.
   */
  async addressHistory(address: Uint8Array, direction: { before: bigint } | { after: bigint }, pageSize: number): Promise<{ txs: TxLookup[]; more: boolean }> {
    const page = await this.store.addressHistory(address, direction, pageSize);
    const txs: TxLookup[] = [];
    for (const { blockNumber, index } of page.positions) {
      const found = await this.at(blockNumber, index);
      if (found !== undefined) txs.push(found);
    }
    return { txs, more: page.more };
  }

  /** The mined transaction `sender` sent with `nonce` (the newest, should test control have repeated a nonce). */
  async transactionBySenderAndNonce(sender: Uint8Array, nonce: bigint): Promise<TxLookup | undefined> {
    const at = await this.store.senderNonceTx(sender, nonce);
    if (at === undefined) return undefined;
    return this.at(at.blockNumber, at.index);
  }

  /** The transaction at `index` of block `blockNumber`, if both still exist. */
  private async at(blockNumber: bigint, index: number): Promise<TxLookup | undefined> {
    const block = await this.head.blockByNumber(blockNumber);
    const tx = block?.transactions[index];
    return block === undefined || tx === undefined ? undefined : { tx, block, index };
  }
}
