/** eth_getLogs and the polled filters (spec: logs and filters, Events). */
import type { Chain, LogCriteria } from '../../chain/index.js';
import type { FilterBound, LogFilterSpec } from '../filter-manager.js';
import { InvalidParams } from '../errors.js';
import { type RpcContext, method } from '../context.js';
import { formatLog, hex } from '../format.js';
import { logsJson } from '../json-cache.js';
import { type BoundParam, type FilterParam, checkFilterSize, filterParam } from '../filter-params.js';
import { params, quantity as quantityParam } from '../params.js';

const filterId = quantityParam.as('filterId');

/** A bound at query time: tags other than earliest name the head. */
function resolveBound(chain: Chain, bound: BoundParam | undefined): bigint {
  if (bound === undefined) return chain.head.header.number;
  if ('number' in bound) return bound.number;
  return bound.tag === 'earliest' ? 0n : chain.head.header.number;
}

/** A bound kept by an installed filter: `latest` follows the head. */
function filterBound(bound: BoundParam | undefined): FilterBound {
  if (bound === undefined) return 'latest';
  if ('number' in bound) return bound.number;
  return bound.tag === 'earliest' ? 0n : 'latest';
}

/** A remote block's number, if there is a block. */
function numberOf(block: { number?: unknown } | null | undefined): bigint | undefined {
  return typeof block?.number === 'string' ? BigInt(block.number) : undefined;
}

function checkOrder(from: bigint, to: bigint): void {
  if (from > to) throw new InvalidParams(`invalid block range: fromBlock ${from} is greater than toBlock ${to}`);
}

async function criteriaOf(chain: Chain, filter: FilterParam): Promise<LogCriteria | undefined> {
  if (filter.blockHash !== undefined) {
    // rskj: an unknown blockHash has no logs.
    const block = await chain.blockByHash(filter.blockHash);
    // On a fork, a block up to the fork block may be one of the remote's.
    const number = block?.header.number ?? numberOf(await chain.fork?.blockByHash(filter.blockHash, false));
    if (number === undefined) return undefined;
    return { fromBlock: number, toBlock: number, addresses: filter.addresses, topics: filter.topics };
  }
  const fromBlock = resolveBound(chain, filter.fromBlock);
  const toBlock = resolveBound(chain, filter.toBlock);
  checkOrder(fromBlock, toBlock);
  return { fromBlock, toBlock, addresses: filter.addresses, topics: filter.topics };
}

function specCriteria(chain: Chain, spec: LogFilterSpec): LogCriteria {
  const head = chain.head.header.number;
  return {
    fromBlock: spec.fromBlock === 'latest' ? head : spec.fromBlock,
    toBlock: spec.toBlock === 'latest' ? head : spec.toBlock,
    addresses: spec.addresses,
    topics: spec.topics,
  };
}


/** The logs matching `criteria`; on a fork, those up to the fork block are the remote's (its own range caps apply there). */
async function logs(ctx: RpcContext, criteria: LogCriteria) {
  const fork = ctx.chain.fork;
  if (fork === undefined || criteria.fromBlock > fork.blockNumber) return logsJson(await ctx.chain.logs(criteria, ctx.options.logLimits));
  const remote = await fork.logs({ ...criteria, toBlock: criteria.toBlock < fork.blockNumber ? criteria.toBlock : fork.blockNumber });
  if (criteria.toBlock <= fork.blockNumber) return remote;
  const local = await ctx.chain.logs({ ...criteria, fromBlock: fork.blockNumber + 1n }, ctx.options.logLimits);
  return [...remote, ...(JSON.parse(logsJson(local).json) as unknown[])];
}

export const filterMethods = [
  method('eth_getLogs', 'Logs matching a filter (by blockHash, or fromBlock/toBlock; default the latest block).', params([filterParam]), async (ctx, [filter]) => {
    checkFilterSize(filter, ctx.options.filterLimits);
    const criteria = await criteriaOf(ctx.chain, filter);
    if (criteria === undefined) return [];
    return logs(ctx, criteria);
  }),
  method('eth_newFilter', 'Installs a log filter; returns its id.', params([filterParam]), (ctx, [filter]) => {
    if (filter.blockHash !== undefined) throw new InvalidParams('blockHash is only for eth_getLogs: a filter takes fromBlock/toBlock');
    checkFilterSize(filter, ctx.options.filterLimits);
    const spec: LogFilterSpec = { fromBlock: filterBound(filter.fromBlock), toBlock: filterBound(filter.toBlock), addresses: filter.addresses, topics: filter.topics };
    if (typeof spec.fromBlock === 'bigint' && typeof spec.toBlock === 'bigint') checkOrder(spec.fromBlock, spec.toBlock);
    return ctx.filters.newLogFilter(spec, ctx.filterOwner);
  }),
  method('eth_newBlockFilter', 'Installs a filter for new block hashes.', params([]), (ctx) => ctx.filters.newBlockFilter(ctx.filterOwner)),
  method('eth_newPendingTransactionFilter', 'Installs a filter for new pending transaction hashes.', params([]), (ctx) =>
    ctx.filters.newPendingTransactionFilter(ctx.filterOwner),
  ),
  method('eth_uninstallFilter', 'Removes a filter: true, or false when there was none.', params([filterId]), (ctx, [id]) =>
    ctx.filters.uninstall(`0x${id.toString(16)}`, ctx.filterOwner),
  ),
  method('eth_getFilterChanges', 'Items since the previous poll ([] when none); removed logs come back with removed: true.', params([filterId]), (ctx, [id]) => {
    const changes = ctx.filters.changes(`0x${id.toString(16)}`, ctx.filterOwner);
    if (changes.kind === 'log') return changes.changes.map((c) => formatLog(c.match, c.removed));
    return changes.hashes.map(hex);
  }),
  method('eth_getFilterLogs', 'All logs matching a log filter.', params([filterId]), async (ctx, [id]) => {
    const criteria = specCriteria(ctx.chain, ctx.filters.logCriteria(`0x${id.toString(16)}`, ctx.filterOwner));
    if (criteria.fromBlock > criteria.toBlock) return [];
    return logs(ctx, criteria);
  }),
];
