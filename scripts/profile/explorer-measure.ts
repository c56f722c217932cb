/**
 * `npx tsx scripts/profile/explorer-measure.ts [--blocks N] [--every K]`: how long the explorer's pages
 * take to get their data on an N-block chain (default 100,000) built as: one transfer to a watched
 * address every K blocks (default 100), empty blocks (REMASC only) between. Each page's requests
 * are sent over real HTTP to the node's /explorer endpoints exactly as explorer.js sends them (in
 * parallel where it does), and the time until the last answer is measured: the first load (nothing
 * cached) and the median of RUNS loads. In memory. Numbers for docs; never part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { buildTransferChain } from './harness.js';

const PAGE = 25;
/** Loads per measurement; the median is reported. */
const RUNS = 21;

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '100000' }, every: { type: 'string', default: '100' } } });
const blocks = Number(values.blocks);
const every = Number(values.every);

const node = await createNode({ inMemory: true, logLevel: 'silent' });
const request = (method: string, params: unknown[]) => node.provider.request({ method, params });
const watched = Wallet.createRandom().address.toLowerCase();
const { lastTx, seconds: buildSeconds } = await buildTransferChain(request, { blocks, every, watched });

const server = await node.server(0);
let id = 0;
async function rpc(method: string, params: unknown[]): Promise<any> {
  const response = await fetch(`${server.url}/explorer/rpc/testnet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}
const get = async (path: string) => (await fetch(`${server.url}${path}`)).text();

const tip = Number(await rpc('eth_blockNumber', []));
const txBlock = (await rpc('eth_getTransactionByHash', [lastTx])).blockNumber as string;
const middle = Math.floor(tip / 2);

/** Each page: the shell, then its data requests as explorer.js makes them. */
const pages: Array<[string, () => Promise<unknown>]> = [
  ['home (head + 10 full blocks)', async () => {
    await get('/explorer');
    const headNumber = BigInt(await rpc('eth_blockNumber', []));
    await Promise.all(Array.from({ length: 10 }, (_, i) => rpc('eth_getBlockByNumber', [`0x${(headNumber - BigInt(i)).toString(16)}`, true])));
  }],
  [`block ${BigInt(txBlock)} with merged-mining decode`, async () => {
    await get(`/explorer/block/${BigInt(txBlock)}`);
    const block = await rpc('eth_getBlockByNumber', [txBlock, true]);
    await get(`/explorer/api/testnet/merged-mining/${block.hash as string}`);
  }],
  ['transaction with call tree', async () => {
    await get(`/explorer/tx/${lastTx}`);
    await Promise.all([rpc('eth_getTransactionByHash', [lastTx]), rpc('eth_getTransactionReceipt', [lastTx])]);
    await rpc('debug_traceTransaction', [lastTx, { tracer: 'callTracer' }]);
  }],
  ...[0, middle].map((before): [string, () => Promise<unknown>] => [`address, ${PAGE} txs ${before === 0 ? 'newest page' : `below block ${before}`}`, async () => {
    await get(`/explorer/address/${watched}${before === 0 ? '' : `?before=${before}`}`);
    const [, , , , history] = await Promise.all([
      rpc('eth_getBalance', [watched, 'latest']),
      rpc('eth_getTransactionCount', [watched, 'latest']),
      rpc('eth_getCode', [watched, 'latest']),
      rpc('ots_getContractCreator', [watched]),
      rpc('ots_searchTransactionsBefore', [watched, before, PAGE]),
    ]);
    if ((history.txs as unknown[]).length < PAGE) throw new Error('the watched address has fewer transactions than a page');
  }]),
];

const round = (ms: number) => Math.round(ms * 10) / 10;
console.log(`${tip} blocks (in memory), built in ${buildSeconds.toFixed(0)} s; a transfer to the watched address every ${every} blocks; median of ${RUNS} loads over HTTP`);
console.log('| Page | First load ms | Median ms |\n|---|---|---|');
for (const [name, load] of pages) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await load();
    times.push(performance.now() - started);
  }
  const first = times[0]!;
  times.sort((a, b) => a - b);
  console.log(`| ${name} | ${round(first)} | ${round(times[Math.floor(RUNS / 2)]!)} |`);
}
await node.close();
