/**
 * Live subscriptions of one WebSocket connection (eth_subscribe: newHeads, logs,
 * newPendingTransactions), pushed as `eth_subscription` notifications. They last while the
 * socket is open (unlike Hardhat's, which expire after 5 minutes).
 */
import { randomBytes } from 'node:crypto';
import {
  type RskBlock,
  type Chain,
  type ChainEvents,
  matchesInBlock,
  type BlockReceipts,
  type TxRecord,
} from '../chain/index.js';
import { formatBlock, formatLog, hex } from './format.js';

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

export interface LogSubscriptionFilter {
  addresses: Uint8Array[] | undefined;
  topics: (Uint8Array[] | null)[];
}

type Listener<E extends keyof ChainEvents> = (...args: ChainEvents[E]) => void;

/**
 * Subscriptions one connection may hold (--max-subscriptions; rskj and geth have no cap): each is
 * a listener on the chain's events, run for every block or pending transaction.
 */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;

export class SubscriptionHost {
  private readonly active = new Map<string, () => void>();

  constructor(
    private readonly chain: Chain,
    private readonly send: (message: string) => void,
    private readonly skipRemasc: boolean,
  ) {}

  subscribe(kind: SubscriptionKind, filter: LogSubscriptionFilter | undefined): string {
    // A QUANTITY, like filter ids: clients send it back through strict quantity decoding.
    const id = `0x${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(16)}`;
    const pushJson = (resultJson: string) => this.send(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultJson}}}`);
    const push = (result: unknown) => pushJson(JSON.stringify(result));
    switch (kind) {
      case 'newHeads':
        this.listen(id, 'block', (block: RskBlock) => pushJson(headJson(block, this.skipRemasc)));
        break;
      case 'newPendingTransactions':
        this.listen(id, 'pendingTransaction', (tx: TxRecord) => push(hex(tx.hash)));
        break;
      case 'logs': {
        const criteria = filter ?? { addresses: undefined, topics: [] };
        /** Only blocks mined since subscribing were pushed, so only their logs can come back removed. */
        let firstBlock = this.chain.head.header.number + 1n;
        this.listen(id, 'block', (_block: RskBlock, receipts: BlockReceipts) => {
          for (const match of matchesInBlock(receipts, criteria)) push(formatLog(match));
        });
        // A revert removes blocks: their logs come again with removed: true (as geth does on a reorg).
        this.listen(id, 'rewind', (removed, head) => {
          for (const { receipts } of removed) {
            if (receipts.blockNumber < firstBlock) continue;
            for (const match of matchesInBlock(receipts, criteria)) push(formatLog(match, true));
          }
          if (firstBlock > head.header.number + 1n) firstBlock = head.header.number + 1n;
        });
        break;
      }
    }
    return id;
  }

  get size(): number {
    return this.active.size;
  }

  unsubscribe(id: string): boolean {
    const stop = this.active.get(id);
    if (stop === undefined) return false;
    stop();
    this.active.delete(id);
    return true;
  }

  close(): void {
    for (const stop of this.active.values()) stop();
    this.active.clear();
  }

  private listen<E extends keyof ChainEvents>(id: string, event: E, listener: Listener<E>): void {
    const events = this.chain.events as unknown as { on(e: E, l: Listener<E>): void; off(e: E, l: Listener<E>): void };
    events.on(event, listener);
    const previous = this.active.get(id);
    this.active.set(id, () => {
      previous?.();
      events.off(event, listener);
    });
  }
}

/** The last newHeads JSON: every subscriber of every connection gets the same text for a block. */
let lastHead: { block: RskBlock; skipRemasc: boolean; json: string } | undefined;

/** The block's header fields as JSON (newHeads carries no transaction list). */
function headJson(block: RskBlock, skipRemasc: boolean): string {
  if (lastHead?.block === block && lastHead.skipRemasc === skipRemasc) return lastHead.json;
  const { transactions: _transactions, uncles: _uncles, ...head } = formatBlock(block, false, skipRemasc);
  lastHead = { block, skipRemasc, json: JSON.stringify(head) };
  return lastHead.json;
}
