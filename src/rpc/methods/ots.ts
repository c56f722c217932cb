/**
 * Otterscan's API (ots_*, API level 8, as erigon and anvil answer it) and erigon_getHeaderByNumber,
 * so the Otterscan explorer can run against this node. Address pages come from the chain's address
 * index, never a scan. RSK has no block reward (miners are paid from fees through REMASC), so a
 * block's issuance is always zero. Shapes: otterscan/otterscan docs/custom-jsonrpc.md, alloy's
 * rpc-types-trace otterscan.rs.
 */
import { bytesToHex } from '@ethereumjs/util';
import { type Chain, ChainError, type RskBlock, type TracedTx, blockTarget, internalOperations, otsTraceEntries, trace } from '../../chain/index.js';
import { type RpcContext, method } from '../context.js';
import { formatBlock, formatTransaction, quantity } from '../format.js';
import { receiptJson, minedTransactionJson } from '../json-cache.js';
import { ParamError, address, atMost, blockSelector, hash32, makeDecoder, params, quantityOrDecimal } from '../params.js';
import { type RawJson, resultValue } from '../raw-json.js';
import { describeSelector, resolveBlock, toBlockView } from '../resolve.js';
import type { BlockSelector } from '../types.js';

/** The level Otterscan 2.x requires (its src/params.ts MIN_API_LEVEL). */
const API_LEVEL = 8;
/**
 * The most transactions one page may ask for: a page's transactions and receipts are one JSON
 * answer. Otterscan asks for 25; erigon sets no cap, 1,000 keeps an answer in the megabytes.
 */
const MAX_PAGE_SIZE = 1_000;

/** Block numbers and nonces are stored as 8 bytes (storage/keys.ts): larger ones name nothing. */
const MAX_UINT64 = 2n ** 64n - 1n;

const txHash = hash32.as('transactionHash');
const pageSizeUpToMax = atMost(quantityOrDecimal, BigInt(MAX_PAGE_SIZE), `the page size limit ${MAX_PAGE_SIZE}`);
const pageSize = makeDecoder('pageSize', (v) => {
  const n = pageSizeUpToMax.parse(v);
  if (n === 0n) throw new ParamError('expected a page size of at least 1, got 0');
  return Number(n);
});
const pageNumber = quantityOrDecimal.as('pageNumber');
const searchBlock = atMost(quantityOrDecimal, MAX_UINT64, '2^64-1').as('blockNumber');
const nonceParam = atMost(quantityOrDecimal, MAX_UINT64, '2^64-1').as('nonce');

/** A block as Otterscan sends it: a JSON number (erigon's rpc.BlockNumber), or any block selector. */
const blockNumberOrTag = makeDecoder<BlockSelector>('blockNumber', (v) => {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new ParamError(`expected a block number, got ${v}`);
    return { number: BigInt(v) };
  }
  return blockSelector.parse(v);
});

async function minedBlock(ctx: RpcContext, selector: BlockSelector): Promise<RskBlock | undefined> {
  const resolved = await resolveBlock(ctx.chain, selector);
  // The pending block has no hash yet: Otterscan never asks for it, and erigon has none.
  return resolved === undefined || resolved.pending ? undefined : resolved.block;
}

/** A mined transaction's replay on its block's parent state; undefined when unknown (or genesis). */
async function tracedTransaction(ctx: RpcContext, hash: Uint8Array): Promise<TracedTx | undefined> {
  const found = await ctx.chain.transaction(hash);
  if (found === undefined) return undefined;
  const target = await blockTarget(ctx.chain, found.block);
  if (target === undefined) return undefined;
  const [traced] = await trace(ctx.chain, target, { record: (i) => i === found.index, deadline: ctx.deadline });
  return traced;
}

function visible(ctx: RpcContext, block: RskBlock) {
  return ctx.options.skipRemasc ? block.transactions.filter((tx) => !tx.isRemasc) : block.transactions;
}

/** Sum over the block's transactions of gas used × gas price: what senders paid (RSK's paidFees). */
async function totalFees(chain: Chain, block: RskBlock): Promise<bigint> {
  const receipts = await chain.receipts(block);
  return block.transactions.reduce((sum, tx, i) => sum + (receipts[i]?.gasUsed ?? 0n) * tx.gasPrice, 0n);
}

async function blockDetails(ctx: RpcContext, block: RskBlock | undefined) {
  if (block === undefined) return null;
  const { transactions: _omitted, ...rest } = formatBlock(toBlockView({ pending: false, block }), false, ctx.options.skipRemasc);
  return {
    block: { ...rest, logsBloom: null, transactionCount: visible(ctx, block).length },
    // RSK mints nothing per block: miners are paid from fees, through REMASC, blocks later.
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: quantity(await totalFees(ctx.chain, block)),
  };
}

/** A receipt as ots_ pages show it: Otterscan reads the block's timestamp from it. */
async function pageReceipt(ctx: RpcContext, block: RskBlock, index: number, slim: boolean): Promise<Record<string, unknown>> {
  const receipt = resultValue(await receiptJson(ctx.chain, block, index)) as Record<string, unknown>;
  const out = { ...receipt, timestamp: quantity(block.header.timestamp) };
  if (slim) Object.assign(out, { logs: null, logsBloom: null });
  return out;
}

async function searchResult(ctx: RpcContext, found: Array<{ block: RskBlock; index: number }>, firstPage: boolean, lastPage: boolean) {
  const txs: RawJson[] = [];
  const receipts: Record<string, unknown>[] = [];
  for (const { block, index } of found) {
    txs.push(minedTransactionJson(ctx.chain, block, index));
    receipts.push(await pageReceipt(ctx, block, index, false));
  }
  return { txs, receipts, firstPage, lastPage };
}

export const otsMethods = [
  method('ots_getApiLevel', `Otterscan API level: ${API_LEVEL}, what Otterscan 2.x requires.`, params([]), () => API_LEVEL),
  method(
    'ots_getInternalOperations',
    'Value transfers, contract creations and self-destructs inside a mined transaction (not its top call): [{type 0 transfer, 1 self-destruct, 2 create, 3 create2, from, to, value}].',
    params([txHash]),
    async (ctx, [hash]) => {
      const traced = await tracedTransaction(ctx, hash);
      return traced === undefined ? [] : internalOperations(traced);
    },
  ),
  method('ots_hasCode', 'Whether the address has code at the block (number or tag).', params([address, blockNumberOrTag.orDefault({ tag: 'latest' })]), async (ctx, [account, selector]) => {
    const block = await minedBlock(ctx, selector);
    // As eth_getBalance: rskj answers an unknown block with -32600.
    if (block === undefined) throw new ChainError('blockNotFound', `Block ${describeSelector(selector)} not found`);
    const target = ctx.chain.targetOf(block);
    return (await ctx.chain.stateReader(target.header.stateRoot, target.db).getCode(account)).length > 0;
  }),
  method(
    'ots_getTransactionError',
    "A failed transaction's raw revert data (0x when it succeeded, failed without data, or is unknown).",
    params([txHash]),
    async (ctx, [hash]) => {
      const found = await ctx.chain.transaction(hash);
      if (found === undefined) return '0x';
      const receipt = (await ctx.chain.receipts(found.block))[found.index];
      if (receipt === undefined || receipt.success) return '0x';
      const root = (await tracedTransaction(ctx, hash))?.recorder?.root;
      return root === undefined || root.error !== 'revert' ? '0x' : bytesToHex(root.output);
    },
  ),
  method(
    'ots_traceTransaction',
    'Every call, create and self-destruct of a mined transaction in order: [{type, depth, from, to, value, input, output}].',
    params([txHash]),
    async (ctx, [hash]) => {
      const traced = await tracedTransaction(ctx, hash);
      return traced === undefined ? null : otsTraceEntries(traced);
    },
  ),
  method(
    'ots_getBlockDetails',
    'A block without its transactions (transactionCount instead, logsBloom null), issuance (always 0 on RSK) and totalFees; null if unknown.',
    params([blockNumberOrTag]),
    async (ctx, [selector]) => blockDetails(ctx, await minedBlock(ctx, selector)),
  ),
  method('ots_getBlockDetailsByHash', "ots_getBlockDetails by block hash; null if unknown.", params([hash32.as('blockHash')]), async (ctx, [hash]) =>
    blockDetails(ctx, await ctx.chain.blockByHash(hash)),
  ),
  method(
    'ots_getBlockTransactions',
    `One page of a block's transactions (in block order; input cut to its 4-byte selector) with their receipts (logs and logsBloom null); at most ${MAX_PAGE_SIZE} a page.`,
    params([blockNumberOrTag, pageNumber, pageSize]),
    async (ctx, [selector, page, size]) => {
      const block = await minedBlock(ctx, selector);
      if (block === undefined) return null;
      const all = visible(ctx, block);
      const start = page * BigInt(size);
      const positions: number[] = [];
      for (let i = start; i < start + BigInt(size) && i < BigInt(all.length); i++) positions.push(block.transactions.indexOf(all[Number(i)]!));
      const formatted = formatBlock(toBlockView({ pending: false, block }), false, ctx.options.skipRemasc);
      const transactions = positions.map((index) => {
        const tx = formatTransaction(block.transactions[index]!, { blockHash: block.hash, blockNumber: block.header.number, index });
        return { ...tx, input: (tx.input as string).slice(0, 10) };
      });
      const receipts = [];
      for (const index of positions) receipts.push(await pageReceipt(ctx, block, index, true));
      return { fullblock: { ...formatted, transactions, transactionCount: all.length }, receipts };
    },
  ),
  method(
    'ots_searchTransactionsBefore',
    `An address's transactions (sent, received, contracts it created) in blocks before blockNumber (0: from the head), newest first, from the address index: at least pageSize unless none remain, whole blocks; at most ${MAX_PAGE_SIZE}.`,
    params([address, searchBlock, pageSize]),
    async (ctx, [account, before, size]) => {
      const bytes = account.bytes;
      const from = before === 0n ? ctx.chain.head.header.number + 1n : before;
      const { txs, more } = await ctx.chain.addressHistory(bytes, { before: from }, size);
      const firstPage = before === 0n || !(await ctx.chain.hasAddressHistory(bytes, { atOrAbove: from }));
      return searchResult(ctx, txs, firstPage, !more);
    },
  ),
  method(
    'ots_searchTransactionsAfter',
    `An address's transactions in blocks after blockNumber (0: from genesis), returned newest first, from the address index: at least pageSize unless none remain, whole blocks; at most ${MAX_PAGE_SIZE}.`,
    params([address, searchBlock, pageSize]),
    async (ctx, [account, after, size]) => {
      const bytes = account.bytes;
      const { txs, more } = await ctx.chain.addressHistory(bytes, { after }, size);
      const lastPage = after === 0n || !(await ctx.chain.hasAddressHistory(bytes, { atOrBelow: after }));
      return searchResult(ctx, txs.reverse(), !more, lastPage);
    },
  ),
  method(
    'ots_getTransactionBySenderAndNonce',
    "The hash of the mined transaction the sender sent with this nonce, or null (from the address index).",
    params([address.as('sender'), nonceParam]),
    async (ctx, [sender, nonce]) => {
      const found = await ctx.chain.transactionBySenderAndNonce(sender.bytes, nonce);
      return found === undefined ? null : bytesToHex(found.tx.hash);
    },
  ),
  method(
    'ots_getContractCreator',
    'The transaction that created a contract and its sender ({hash, creator}), or null; contracts created by a transaction, not by another contract.',
    params([address]),
    async (ctx, [contract]) => {
      const found = await ctx.chain.contractCreator(contract.bytes);
      return found === undefined ? null : { hash: bytesToHex(found.txHash), creator: bytesToHex(found.creator) };
    },
  ),
  method('erigon_getHeaderByNumber', "A block's header fields (eth_getBlockByNumber without transactions); null if unknown.", params([blockNumberOrTag]), async (ctx, [selector]) => {
    const block = await minedBlock(ctx, selector);
    if (block === undefined) return null;
    const { transactions: _omitted, ...header } = formatBlock(toBlockView({ pending: false, block }), false, ctx.options.skipRemasc);
    return header;
  }),
];
