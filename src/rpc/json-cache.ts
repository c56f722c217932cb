/**
 * JSON of mined blocks, their transactions and receipts, encoded once and kept: a mined block never
 * changes, and clients re-read the newest blocks constantly. One cache per chain, keyed by block
 * hash; the blocks a rewind (evm_revert, hardhat_reset) drops leave it at once, so a block mined
 * later at the same height is always formatted afresh. The pending block is never cached.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { RskBlock, Chain, LogMatch } from '../chain/index.js';
import { Lru } from '../util/lru.js';
import { formatBlock, formatLog, formatReceipt, formatTransaction } from './format.js';
import { RawJson, rawJsonArray } from './raw-json.js';

/** Blocks whose JSON is kept per chain (a 1-transaction block's four variants take about 10 KB). */
export const FORMATTED_BLOCKS_CACHED = 256;

interface BlockJson {
  /** By variant: fullTransactions × skipRemasc. */
  block: (RawJson | undefined)[];
  /** By position in the block. */
  transactions: (RawJson | undefined)[];
  receipts: (RawJson | undefined)[];
}

const caches = new WeakMap<Chain, Lru<string, BlockJson>>();

function cacheOf(chain: Chain): Lru<string, BlockJson> {
  let cache = caches.get(chain);
  if (cache === undefined) {
    const created = new Lru<string, BlockJson>(FORMATTED_BLOCKS_CACHED);
    chain.events.on('rewind', (removed) => {
      for (const { block } of removed) created.delete(bytesToHex(block.hash));
    });
    caches.set(chain, (cache = created));
  }
  return cache;
}

function entryOf(chain: Chain, block: RskBlock): BlockJson {
  const cache = cacheOf(chain);
  const key = bytesToHex(block.hash);
  let entry = cache.get(key);
  if (entry === undefined) cache.set(key, (entry = { block: [], transactions: [], receipts: [] }));
  return entry;
}

export function blockJson(chain: Chain, block: RskBlock, fullTransactions: boolean, skipRemasc: boolean): RawJson {
  const entry = entryOf(chain, block);
  const variant = (fullTransactions ? 2 : 0) + (skipRemasc ? 1 : 0);
  return (entry.block[variant] ??= new RawJson(JSON.stringify(formatBlock(block, fullTransactions, skipRemasc))));
}

/** The transaction at `index` in `block`, with its position. */
export function minedTransactionJson(chain: Chain, block: RskBlock, index: number): RawJson {
  const entry = entryOf(chain, block);
  return (entry.transactions[index] ??= new RawJson(
    JSON.stringify(formatTransaction(block.transactions[index]!, { blockHash: block.hash, blockNumber: block.header.number, index })),
  ));
}

/** The receipt of the transaction at `index` in `block`; undefined when it has none. */
export async function receiptJson(chain: Chain, block: RskBlock, index: number): Promise<RawJson | undefined> {
  const entry = entryOf(chain, block);
  const cached = entry.receipts[index];
  if (cached !== undefined) return cached;
  const receipts = await chain.receipts(block);
  const receipt = receipts[index];
  const tx = block.transactions[index];
  if (receipt === undefined || tx === undefined) return undefined;
  let logIndexStart = 0;
  for (let i = 0; i < index; i++) logIndexStart += receipts[i]!.logs.length;
  return (entry.receipts[index] = new RawJson(JSON.stringify(formatReceipt(receipt, tx, block, index, logIndexStart))));
}

/**
 * A log's JSON (not removed) as UTF-8 bytes, kept as long as the log object lives: the store keeps
 * the logs of recent blocks (RECENT_LOGS) and hands the same objects to every query, so this is
 * bounded by it. Bytes, not text: an answer of thousands of logs is copied once into the response.
 */
const logJsonCache = new WeakMap<LogMatch, Buffer>();

export function logsJson(matches: LogMatch[]): RawJson {
  const items = new Array<Buffer>(matches.length);
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i]!;
    let json = logJsonCache.get(match);
    if (json === undefined) logJsonCache.set(match, (json = Buffer.from(JSON.stringify(formatLog(match)))));
    items[i] = json;
  }
  return rawJsonArray(items);
}
