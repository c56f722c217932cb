/**
 * Installed filters of one network (spec: Filter, lifecycles, Events): log, block and
 * pending-transaction filters, polled with eth_getFilterChanges. They follow the chain's events;
 * when evm_revert/evm_reset drops blocks whose logs a filter already returned, the next poll
 * returns those logs again with `removed: true`.
 *
 * A filter id is no bearer token: a filter answers only the API key that installed it (in-process
 * callers have their own, undefined owner). Another key is told "filter not found", as if it did
 * not exist, so one tenant can neither read nor remove another's filter by guessing or seeing its id.
 */
import { randomBytes } from 'node:crypto';
import {
  type RskBlock,
  type Chain,
  ChainError,
  type LogMatch,
  matchesInBlock,
  type BlockReceipts,
  type TxRecord,
} from '../chain/index.js';

/** A filter not polled for this long is removed (rskj: 5 minutes). */
export const FILTER_IDLE_TIMEOUT_MS = 5 * 60_000;
/**
 * Filters one API key may have installed on a network at once (--max-filters; rskj and geth have
 * no cap): each costs memory and work on every block, and abandoned ones live until they expire.
 */
export const MAX_FILTERS_PER_KEY = 1_000;

/** A filter's block bound: a number, or `latest`, which follows the head. */
export type FilterBound = bigint | 'latest';

export interface LogFilterSpec {
  fromBlock: FilterBound;
  toBlock: FilterBound;
  addresses: Uint8Array[] | undefined;
  topics: (Uint8Array[] | null)[];
}

export interface LogChange {
  match: LogMatch;
  removed: boolean;
}

type Filter =
  | {
      kind: 'log';
      spec: LogFilterSpec;
      changes: LogChange[];
      /** The first block whose logs this filter reports: blocks mined after it was installed. */
      firstBlock: bigint;
      deliveredUpTo: bigint;
      lastPoll: number;
    }
  | { kind: 'block'; hashes: Uint8Array[]; lastPoll: number }
  | { kind: 'pendingTransaction'; hashes: Uint8Array[]; lastPoll: number };

/** Who installed a filter, the only caller it answers (and MAX_FILTERS_PER_KEY's count): an API key, or undefined in-process. */
export type FilterOwner = string | undefined;

export type FilterChanges = { kind: 'log'; changes: LogChange[] } | { kind: 'block' | 'pendingTransaction'; hashes: Uint8Array[] };

export class FilterManager {
  private readonly filters = new Map<string, Filter>();
  private readonly owners = new Map<string, FilterOwner>();

  constructor(
    private readonly chain: Chain,
    private readonly idleTimeoutMs: number = FILTER_IDLE_TIMEOUT_MS,
    private readonly now: () => number = Date.now,
    private readonly maxPerOwner: number = MAX_FILTERS_PER_KEY,
  ) {
    chain.events.on('block', (block, receipts) => this.onBlock(block, receipts));
    chain.events.on('rewind', (removed, head) => this.onRewind(removed, head));
    chain.events.on('pendingTransaction', (tx) => this.onPendingTransaction(tx));
  }

  newLogFilter(spec: LogFilterSpec, owner?: FilterOwner): string {
    const firstBlock = this.chain.head.header.number + 1n;
    return this.install({ kind: 'log', spec, changes: [], firstBlock, deliveredUpTo: -1n, lastPoll: this.now() }, owner);
  }

  newBlockFilter(owner?: FilterOwner): string {
    return this.install({ kind: 'block', hashes: [], lastPoll: this.now() }, owner);
  }

  newPendingTransactionFilter(owner?: FilterOwner): string {
    return this.install({ kind: 'pendingTransaction', hashes: [], lastPoll: this.now() }, owner);
  }

  /** Removes `owner`'s filter: false when it has none by that id (another key's filter stays). */
  uninstall(id: string, owner?: FilterOwner): boolean {
    this.sweep();
    return this.ownedBy(id, owner) && this.remove(id);
  }

  /** Items since the previous poll; the poll position advances. */
  changes(id: string, owner?: FilterOwner): FilterChanges {
    const filter = this.get(id, owner);
    filter.lastPoll = this.now();
    if (filter.kind === 'log') {
      const changes = filter.changes;
      filter.changes = [];
      for (const change of changes) {
        if (!change.removed && change.match.blockNumber > filter.deliveredUpTo) filter.deliveredUpTo = change.match.blockNumber;
      }
      return { kind: 'log', changes };
    }
    const hashes = filter.hashes;
    filter.hashes = [];
    return { kind: filter.kind, hashes };
  }

  /** The criteria of a log filter, for eth_getFilterLogs; other kinds are refused. */
  logCriteria(id: string, owner?: FilterOwner): LogFilterSpec {
    const filter = this.get(id, owner);
    if (filter.kind !== 'log') throw new ChainError('invalidArgument', `filter ${id} is a ${filter.kind} filter: eth_getFilterLogs serves log filters only`);
    return filter.spec;
  }

  get size(): number {
    return this.filters.size;
  }

  private get(id: string, owner: FilterOwner): Filter {
    this.sweep();
    const filter = this.filters.get(id);
    if (filter === undefined || !this.ownedBy(id, owner)) throw new ChainError('filterNotFound', 'filter not found');
    return filter;
  }

  private ownedBy(id: string, owner: FilterOwner): boolean {
    return this.owners.has(id) && this.owners.get(id) === owner;
  }

  private install(filter: Filter, owner: FilterOwner): string {
    this.sweep();
    this.checkRoom(owner);
    let id: string;
    do id = `0x${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(16)}`;
    while (this.filters.has(id));
    this.filters.set(id, filter);
    this.owners.set(id, owner);
    return id;
  }

  /** Counted on install only (a linear scan), so polling stays cheap. */
  private checkRoom(owner: FilterOwner): void {
    let count = 0;
    for (const o of this.owners.values()) if (o === owner) count++;
    if (count >= this.maxPerOwner) {
      throw new ChainError(
        'limitExceeded',
        `too many filters: ${count} installed with this API key, the most allowed (--max-filters); remove some with eth_uninstallFilter or leave them unpolled to expire`,
      );
    }
  }

  private remove(id: string): boolean {
    this.owners.delete(id);
    return this.filters.delete(id);
  }

  private sweep(): void {
    const oldest = this.now() - this.idleTimeoutMs;
    for (const [id, filter] of this.filters) if (filter.lastPoll < oldest) this.remove(id);
  }

  private onBlock(block: RskBlock, receipts: BlockReceipts): void {
    this.sweep();
    for (const filter of this.filters.values()) {
      if (filter.kind === 'block') filter.hashes.push(block.hash);
      else if (filter.kind === 'log' && covers(filter.spec, block.header.number)) {
        for (const match of matchesInBlock(receipts, filter.spec)) filter.changes.push({ match, removed: false });
      }
    }
  }

  private onRewind(removed: Array<{ block: RskBlock; receipts: BlockReceipts }>, head: RskBlock): void {
    this.sweep();
    const firstRemoved = head.header.number + 1n;
    for (const filter of this.filters.values()) {
      if (filter.kind === 'block') {
        filter.hashes = [head.hash];
      } else if (filter.kind === 'log') {
        // Undelivered logs of dropped blocks are simply forgotten; delivered ones come back removed.
        filter.changes = filter.changes.filter((c) => c.removed || c.match.blockNumber < firstRemoved);
        for (const { block, receipts } of [...removed].reverse()) {
          const n = block.header.number;
          if (n < filter.firstBlock || n > filter.deliveredUpTo || !covers(filter.spec, n)) continue;
          for (const match of matchesInBlock(receipts, filter.spec)) filter.changes.push({ match, removed: true });
        }
        if (filter.deliveredUpTo >= firstRemoved) filter.deliveredUpTo = firstRemoved - 1n;
        // Blocks mined from here on are new to the filter, even below where it started.
        if (filter.firstBlock > firstRemoved) filter.firstBlock = firstRemoved;
      }
    }
  }

  private onPendingTransaction(tx: TxRecord): void {
    this.sweep();
    for (const filter of this.filters.values()) if (filter.kind === 'pendingTransaction') filter.hashes.push(tx.hash);
  }
}

function covers(spec: LogFilterSpec, number: bigint): boolean {
  return (spec.fromBlock === 'latest' || number >= spec.fromBlock) && (spec.toBlock === 'latest' || number <= spec.toBlock);
}
