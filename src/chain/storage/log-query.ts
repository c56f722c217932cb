/**
 * eth_getLogs over the chain: the log index (log-index.ts) names the blocks that may match, the
 * store hands their logs (kept in memory for recent blocks, else read from receipts), and the
 * spec's matching rule picks the logs. Matches are the store's own log objects, never copies.
 */
import { ChainError } from '../base/errors.js';
import { type LogCriteria, type LogMatch, logMatches } from './log-index.js';
import type { ChainStore } from './store.js';

/** eth_getLogs caps from the spec's Limits: a query fits within this many logs... */
export const MAX_LOGS = 10_000;
/** ...or within this many blocks. */
export const MAX_LOG_BLOCK_RANGE = 2_000;

/** Blocks whose logs are read at a time, so a query refused by the cap stops reading early. */
const LOG_READ_CHUNK = 256;

export interface LogLimits {
  maxLogs: number;
  maxBlockRange: bigint;
}

/**
 * Logs matching `criteria` up to the head `head`, in chain order. A query over more than
 * `limits.maxBlockRange` blocks must stay within `limits.maxLogs` logs (the spec's two alternative caps).
 */
export async function queryLogs(store: ChainStore, head: bigint, criteria: LogCriteria, limits: LogLimits): Promise<LogMatch[]> {
  const to = criteria.toBlock > head ? head : criteria.toBlock;
  if (criteria.fromBlock > to) return [];
  const bounded = { ...criteria, toBlock: to };
  const withinRange = to - criteria.fromBlock + 1n <= limits.maxBlockRange;
  const anyLog = bounded.addresses === undefined && bounded.topics.length === 0;
  const matches: LogMatch[] = [];
  const candidates = await store.logCandidates(bounded);
  for (let i = 0; i < candidates.length; i += LOG_READ_CHUNK) {
    for (const logs of await store.getBlockLogsMany(candidates.slice(i, i + LOG_READ_CHUNK))) {
      for (const match of logs) if (anyLog || logMatches(match.log, bounded)) matches.push(match);
    }
    if (!withinRange && matches.length > limits.maxLogs) {
      throw new ChainError(
        'limitExceeded',
        `Query returned more than ${limits.maxLogs} logs over more than ${limits.maxBlockRange} blocks: a query must stay within ${limits.maxLogs} logs or within a ${limits.maxBlockRange}-block range. Try a smaller block range.`,
      );
    }
  }
  return matches;
}
