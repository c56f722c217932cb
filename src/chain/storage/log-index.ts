/**
 * The log index: for every block, one posting per distinct emitting address, per distinct
 * (topic position, topic), and one "has logs" mark. A query intersects the postings' block
 * ranges, so eth_getLogs touches only blocks that can match and never reads a receipt that cannot.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { BlockReceipts, LogRecord, ReceiptRecord } from '../records/receipt.js';
import { concatKey, encodeNumber, logAddressPrefix, logBlockPrefix, logTopicPrefix } from './keys.js';
import type { LogPostings } from './log-postings.js';

/** A log filter's criteria, as the spec's filter object defines them. */
export interface LogCriteria {
  fromBlock: bigint;
  toBlock: bigint;
  /** undefined: any address */
  addresses: Uint8Array[] | undefined;
  /** Per position: null = anything, else any of these topics (OR). At most 4 positions. */
  topics: (Uint8Array[] | null)[];
}

/** Index keys of a block's logs, for its commit batch (and its deletion on rewind). */
export function logIndexKeys(number: bigint, receipts: ReceiptRecord[]): Uint8Array[] {
  const keys = new Map<string, Uint8Array>();
  const suffix = encodeNumber(number);
  const add = (prefix: Uint8Array) => {
    const key = concatKey(prefix, suffix);
    keys.set(bytesToHex(key), key);
  };
  for (const receipt of receipts) {
    for (const log of receipt.logs) {
      add(logAddressPrefix(log.address));
      log.topics.forEach((topic, position) => add(logTopicPrefix(position, topic)));
    }
  }
  if (keys.size > 0) add(logBlockPrefix());
  return [...keys.values()];
}

async function union(postings: LogPostings, prefixes: Uint8Array[], from: bigint, to: bigint): Promise<Set<bigint>> {
  const result = new Set<bigint>();
  for (const prefix of prefixes) for (const n of await postings.scan(prefix, from, to)) result.add(n);
  return result;
}

/** Blocks that may hold matching logs (every block that does is included), ascending. */
export async function candidateBlocks(postings: LogPostings, criteria: LogCriteria): Promise<bigint[]> {
  const { fromBlock: from, toBlock: to } = criteria;
  const sets: Set<bigint>[] = [];
  if (criteria.addresses !== undefined) {
    // One address (the usual query): its postings are the answer, already ascending.
    if (criteria.addresses.length === 1 && criteria.topics.every((t) => t === null)) return postings.scan(logAddressPrefix(criteria.addresses[0]!), from, to);
    sets.push(await union(postings, criteria.addresses.map(logAddressPrefix), from, to));
  }
  for (const [position, alternatives] of criteria.topics.entries()) {
    if (alternatives !== null) sets.push(await union(postings, alternatives.map((t) => logTopicPrefix(position, t)), from, to));
  }
  if (sets.length === 0) return postings.scan(logBlockPrefix(), from, to);
  sets.sort((a, b) => a.size - b.size);
  const [smallest, ...others] = sets;
  return [...smallest!].filter((n) => others.every((set) => set.has(n))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The spec's matching rule: address in the list; each topic position null or one of its alternatives. */
export function logMatches(log: LogRecord, criteria: Pick<LogCriteria, 'addresses' | 'topics'>): boolean {
  if (criteria.addresses !== undefined && !anySame(criteria.addresses, log.address)) return false;
  // geth: a filter with more positions than the log has topics never matches, even with nulls.
  if (criteria.topics.length > log.topics.length) return false;
  for (let position = 0; position < criteria.topics.length; position++) {
    const alternatives = criteria.topics[position]!;
    if (alternatives !== null && !anySame(alternatives, log.topics[position]!)) return false;
  }
  return true;
}

function anySame(list: Uint8Array[], value: Uint8Array): boolean {
  for (const item of list) if (equalsBytes(item, value)) return true;
  return false;
}

export interface LogMatch {
  log: LogRecord;
  blockHash: Uint8Array;
  blockNumber: bigint;
  txHash: Uint8Array;
  txIndex: number;
  /** Position among all logs of the block. */
  logIndex: number;
}

/** Every log of the block, with its position. */
export function blockLogs(block: BlockReceipts): LogMatch[] {
  return matchesInBlock(block, ANY_LOG);
}

const ANY_LOG = { addresses: undefined, topics: [] };

/** The block's logs that match (the block range is not checked here). */
export function matchesInBlock(block: BlockReceipts, criteria: Pick<LogCriteria, 'addresses' | 'topics'>): LogMatch[] {
  const matches: LogMatch[] = [];
  let logIndex = 0;
  block.receipts.forEach((receipt, txIndex) => {
    for (const log of receipt.logs) {
      if (logMatches(log, criteria)) {
        matches.push({ log, blockHash: block.blockHash, blockNumber: block.blockNumber, txHash: block.txHashes[txIndex]!, txIndex, logIndex });
      }
      logIndex++;
    }
  });
  return matches;
}

/**
 * Blocks' logs (blockLogs) by block number, kept so that log queries over recent blocks decode no
 * receipt; bounded by the logs held, not the blocks. Entries of dropped blocks must be deleted.
 */
export class BlockLogsCache {
  private readonly map = new Map<bigint, LogMatch[]>();
  private logs = 0;

  constructor(private readonly maxLogs: number) {}

  get(number: bigint): LogMatch[] | undefined {
    return this.map.get(number);
  }

  set(number: bigint, logs: LogMatch[]): void {
    this.delete(number);
    if (logs.length === 0 || logs.length > this.maxLogs) return;
    this.map.set(number, logs);
    this.logs += logs.length;
    // Evicts the oldest insertions: new blocks are the ones queried most.
    for (const [oldest, entry] of this.map) {
      if (this.logs <= this.maxLogs) break;
      this.map.delete(oldest);
      this.logs -= entry.length;
    }
  }

  delete(number: bigint): void {
    const entry = this.map.get(number);
    if (entry === undefined) return;
    this.map.delete(number);
    this.logs -= entry.length;
  }
  clear(): void {
    this.map.clear();
    this.logs = 0;
  }
}
