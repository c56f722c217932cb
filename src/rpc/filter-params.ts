/** The spec's log filter object (eth_getLogs, eth_newFilter), decoded. */
import { InvalidParams } from './errors.js';
import { ParamError, address, blockSelector, describe, hash32, makeDecoder } from './params.js';
import type { BlockTag } from './types.js';

/** A filter block bound as given: a number or a tag (hashes are not bounds). */
export type BoundParam = { tag: BlockTag } | { number: bigint };

export interface FilterParam {
  fromBlock: BoundParam | undefined;
  toBlock: BoundParam | undefined;
  blockHash: Uint8Array | undefined;
  addresses: Uint8Array[] | undefined;
  topics: (Uint8Array[] | null)[];
}

/** The spec's topic positions; a log has at most four topics. */
export const MAX_TOPICS = 4;
/** Addresses one log filter may list (geth's maxAddresses): matching cost grows with each. */
export const MAX_FILTER_ADDRESSES = 1_000;
/** Alternatives one topic position may list (geth's maxSubTopics). */
export const MAX_FILTER_TOPICS = 1_000;

export interface FilterSizeLimits {
  maxAddresses: number;
  maxTopics: number;
}

/** Refuses a filter (eth_getLogs, eth_newFilter, eth_subscribe logs) listing more than the node's limits allow. */
export function checkFilterSize(filter: Pick<FilterParam, 'addresses' | 'topics'>, limits: FilterSizeLimits): void {
  const addresses = filter.addresses?.length ?? 0;
  if (addresses > limits.maxAddresses) {
    throw new InvalidParams(`field "address": ${addresses} addresses, want at most ${limits.maxAddresses} (--filter-max-addresses)`);
  }
  filter.topics.forEach((position, i) => {
    if (position !== null && position.length > limits.maxTopics) {
      throw new InvalidParams(`field "topics"[${i}]: ${position.length} topics, want at most ${limits.maxTopics} per position (--filter-max-topics)`);
    }
  });
}

function bound(name: string, v: unknown): BoundParam | undefined {
  if (v === undefined || v === null) return undefined;
  const selector = blockSelector.parse(v);
  if ('hash' in selector) throw new ParamError(`field "${name}": expected a block number or tag, got a block hash (use "blockHash")`);
  return selector;
}

function addresses(v: unknown): Uint8Array[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = Array.isArray(v) ? v : [v];
  // An empty list restricts nothing (geth, rskj).
  if (list.length === 0) return undefined;
  return list.map((item, i) => {
    try {
      return address.parse(item).bytes;
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`field "address"${Array.isArray(v) ? `[${i}]` : ''}: ${err.message}`);
      throw err;
    }
  });
}

function topics(v: unknown): (Uint8Array[] | null)[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ParamError(`field "topics": expected an array, got ${describe(v)}`);
  if (v.length > MAX_TOPICS) throw new ParamError(`field "topics": ${v.length} positions, want at most ${MAX_TOPICS}`);
  return v.map((position, i) => {
    const where = `field "topics"[${i}]`;
    try {
      if (position === null) return null;
      if (Array.isArray(position)) return position.length === 0 ? null : position.map((t) => hash32.parse(t));
      return [hash32.parse(position)];
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`${where}: ${err.message}`);
      throw err;
    }
  });
}

export const filterParam = makeDecoder('filter', (v): FilterParam => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamError(`expected a filter object, got ${describe(v)}`);
  const o = v as Record<string, unknown>;
  const fromBlock = bound('fromBlock', o.fromBlock);
  const toBlock = bound('toBlock', o.toBlock);
  const blockHash = o.blockHash === undefined || o.blockHash === null ? undefined : hash32.parse(o.blockHash);
  if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
    // rskj's message, as a whole-request error rather than one argument's.
    throw new InvalidParams('Cannot specify both blockHash and fromBlock/toBlock');
  }
  return { fromBlock, toBlock, blockHash, addresses: addresses(o.address), topics: topics(o.topics) };
});
