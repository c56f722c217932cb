/** Transactions by hash, receipts, and submission. */
import { bytesToHex } from '@ethereumjs/util';
import { InvalidParams } from '../errors.js';
import { method } from '../context.js';
import { formatReceipt, formatTransaction } from '../format.js';
import { callRequest, data, hash32, params } from '../params.js';

const txHash = hash32.as('transactionHash');

export const ethTransactionMethods = [
  method('eth_getTransactionByHash', 'A mined or pending transaction, or null.', params([txHash]), async (ctx, [hash]) => {
    const found = await ctx.chain.transaction(hash);
    if (found !== undefined) {
      if (ctx.options.skipRemasc && found.tx.isRemasc) return null;
      return formatTransaction(found.tx, { blockHash: found.block.hash, blockNumber: found.block.header.number, index: found.index });
    }
    const pooled = ctx.chain.pooledTransaction(hash);
    return pooled === undefined ? null : formatTransaction(pooled, undefined);
  }),
  method('eth_getTransactionReceipt', 'Receipt of a mined transaction, or null.', params([txHash]), async (ctx, [hash]) => {
    const found = await ctx.chain.transaction(hash);
    if (found === undefined || (ctx.options.skipRemasc && found.tx.isRemasc)) return null;
    const receipts = await ctx.chain.receipts(found.block);
    const receipt = receipts[found.index];
    if (receipt === undefined) return null;
    let logIndexStart = 0;
    for (let i = 0; i < found.index; i++) logIndexStart += receipts[i]!.logs.length;
    return formatReceipt(receipt, found.tx, found.block, found.index, logIndexStart);
  }),
  method('eth_sendRawTransaction', 'Submits a signed legacy transaction; returns its hash.', params([data.as('transaction')]), async (ctx, [raw]) =>
    bytesToHex(await ctx.chain.sendRawTransaction(raw)),
  ),
  method(
    'eth_sendTransaction',
    'Signs with a node key and submits (defaults: gas 90000, gasPrice the minimum gas price, nonce the pending nonce).',
    params([callRequest.as('transaction')]),
    async (ctx, [request]) => {
      if (request.from === undefined) throw new InvalidParams('from is null');
      return bytesToHex(await ctx.chain.sendTransaction({ ...request, from: request.from }));
    },
  ),
  method(
    'eth_pendingTransactions',
    "Pending pool transactions sent from the node's own accounts (the spec: submitted by the node operator).",
    params([]),
    async (ctx) => {
      const own = new Set(ctx.chain.accounts.map((a) => a.address));
      const { pending } = await ctx.chain.poolContent();
      return pending.filter((entry) => own.has(entry.sender)).map((entry) => formatTransaction(entry.record, undefined));
    },
  ),
];
