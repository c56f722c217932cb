/**
 * `npx tsx scripts/profile/ots-search-measure.ts [--blocks N] [--every K] [--data-dir DIR]`: how long
 * Otterscan's address page (ots_searchTransactionsBefore/After, 25 a page) takes on an N-block chain
 * (default 100,000) built as: one transfer to a watched address every K blocks (default 100), one
 * transfer to a lone address in block 1, empty blocks (REMASC only) between. Measured through the
 * in-process provider (the dispatcher, no HTTP), median of RUNS calls each, for the watched
 * address, the lone address (a scan would read every block) and REMASC (an entry in every block),
 * with the first call's time (nothing cached) and the blocks it read from the store (ChainStore.getBlock
 * calls: a number that the machine's load cannot change) beside.
 * In memory by default, into LevelDB with --data-dir. Numbers for docs; never part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { ChainStore } from '../../src/chain/storage/store.js';
import { buildTransferChain } from './harness.js';

const REMASC = '0x0000000000000000000000000000000001000008';
const PAGE = 25;
/** Calls per measurement; the median is reported. */
const RUNS = 21;

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '100000' }, every: { type: 'string', default: '100' }, 'data-dir': { type: 'string' } } });
const blocks = Number(values.blocks);
const every = Number(values.every);

const node = await createNode({ inMemory: values['data-dir'] === undefined, dataDir: values['data-dir'], logLevel: 'silent' });
const request = (method: string, params: unknown[]) => node.provider.request({ method, params });
const watched = Wallet.createRandom().address.toLowerCase();
const lone = Wallet.createRandom().address.toLowerCase();
const { seconds: buildSeconds } = await buildTransferChain(request, { blocks, every, watched, lone });

/** Counts ChainStore.getBlock calls, every block read of a query (cached or not). */
let blockReads = 0;
const getBlock = ChainStore.prototype.getBlock;
ChainStore.prototype.getBlock = function (this: ChainStore, number: bigint) {
  blockReads++;
  return getBlock.call(this, number);
};

/** The first call (blocks and receipts read from the store, JSON not cached yet) and the median of RUNS. */
async function median(method: string, params: unknown[]): Promise<{ firstMs: number; ms: number; txs: number; reads: number }> {
  const times: number[] = [];
  let txs = 0;
  let reads = 0;
  for (let i = 0; i < RUNS; i++) {
    if (i === 0) blockReads = 0;
    const started = performance.now();
    const result = (await request(method, params)) as { txs: unknown[] };
    times.push(performance.now() - started);
    if (i === 0) reads = blockReads;
    txs = result.txs.length;
  }
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const firstMs = round(times[0]!);
  times.sort((a, b) => a - b);
  return { firstMs, ms: round(times[Math.floor(RUNS / 2)]!), txs, reads };
}

const tip = Number(await request('eth_blockNumber', []));
const middle = Math.floor(tip / 2);
const rows: Array<[string, { firstMs: number; ms: number; txs: number; reads: number }]> = [
  [`watched, newest page (Before 0)`, await median('ots_searchTransactionsBefore', [watched, 0, PAGE])],
  [`watched, page below block ${middle}`, await median('ots_searchTransactionsBefore', [watched, middle, PAGE])],
  [`watched, oldest page (After 0)`, await median('ots_searchTransactionsAfter', [watched, 0, PAGE])],
  [`lone address, its one tx in block 1 (Before 0)`, await median('ots_searchTransactionsBefore', [lone, 0, PAGE])],
  [`REMASC, newest page (Before 0)`, await median('ots_searchTransactionsBefore', [REMASC, 0, PAGE])],
  [`REMASC, page below block ${middle}`, await median('ots_searchTransactionsBefore', [REMASC, middle, PAGE])],
];
console.log(`${tip} blocks (${values['data-dir'] === undefined ? 'in memory' : 'LevelDB'}), built in ${buildSeconds.toFixed(0)} s; ${PAGE} a page, median of ${RUNS}`);
console.log('| Query | Transactions | Blocks read | First call ms | Median ms |\n|---|---|---|---|---|');
for (const [name, { firstMs, ms, txs, reads }] of rows) console.log(`| ${name} | ${txs} | ${reads} | ${firstMs} | ${ms} |`);
await node.close();
