/** Transactions by hash, receipts, and submission. */
import { bytesToHex } from '@ethereumjs/util';
import { InvalidParams } from '../errors.js';
import { method } from '../context.js';
import { formatTransaction } from '../format.js';
import { minedTransactionJson, receiptJson } from '../json-cache.js';
import { callRequest, data, hash32, params } from '../params.js';

const txHash = hash32.as('transactionHash');

export const ethTransactionMethods = [
  method('eth_getTransactionByHash', 'A mined or pending transaction, or null.', params([txHash]), async (ctx, [hash]) => {
    const found = await ctx.chain.transaction(hash);
    if (found !== undefined) {
      if (ctx.options.skipRemasc && found.tx.isRemasc) return null;
      return minedTransactionJson(ctx.chain, found.block, found.index);
    }
    const pooled = ctx.chain.pooledTransaction(hash);
    if (pooled !== undefined) return formatTransaction(pooled, undefined);
    // On a fork, a transaction mined up to the fork block is the remote's.
    return (await ctx.chain.fork?.transaction(hash)) ?? null;
  }),
  method('eth_getTransactionReceipt', 'Receipt of a mined transaction, or null.', params([txHash]), async (ctx, [hash]) => {
    const found = await ctx.chain.transaction(hash);
    if (found === undefined) return (await ctx.chain.fork?.receipt(hash)) ?? null;
    if (ctx.options.skipRemasc && found.tx.isRemasc) return null;
    return (await receiptJson(ctx.chain, found.block, found.index)) ?? null;
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
