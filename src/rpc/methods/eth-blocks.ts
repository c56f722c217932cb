/** Blocks, uncles and transactions read by block. */
import { method } from '../context.js';
import { type BlockView, formatBlock, formatTransaction, quantity } from '../format.js';
import { blockSelector, bool, hash32, params, quantity as quantityParam } from '../params.js';
import { type Resolved, describeSelector, resolveBlock, toBlockView } from '../resolve.js';
import { blockJson, minedTransactionJson } from '../json-cache.js';
import { ChainError, type RemoteJson } from '../../chain/index.js';
import type { BlockSelector } from '../types.js';
import type { RpcContext } from '../context.js';

const fullFlag = bool.as('fullTransactions').orDefault(false);
const blockHash = hash32.as('blockHash');
const blockId = blockSelector.as('block');
const index = quantityParam.as('index');

async function byHash(ctx: RpcContext, hash: Uint8Array): Promise<Resolved | undefined> {
  return resolveBlock(ctx.chain, { hash, requireCanonical: false });
}

function visibleTransactions(ctx: RpcContext, view: BlockView) {
  return ctx.options.skipRemasc ? view.transactions.filter((tx) => !tx.isRemasc) : view.transactions;
}

function transactionAt(ctx: RpcContext, resolved: Resolved | undefined, i: bigint) {
  if (resolved === undefined) return null;
  const view = toBlockView(resolved);
  const tx = visibleTransactions(ctx, view)[Number(i)];
  if (tx === undefined || i > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  if (!resolved.pending) return minedTransactionJson(ctx.chain, resolved.block, Number(i));
  return formatTransaction(tx, undefined);
}

function block(ctx: RpcContext, resolved: Resolved | undefined, full: boolean) {
  if (resolved === undefined) return null;
  if (resolved.pending) return formatBlock(toBlockView(resolved), full, ctx.options.skipRemasc);
  return blockJson(ctx.chain, resolved.block, full, ctx.options.skipRemasc);
}

/** The pending block's count is the pool's (rskj): its REMASC transaction is not there yet. */
function txCount(ctx: RpcContext, resolved: Resolved | undefined): string | null {
  if (resolved === undefined) return null;
  const transactions = visibleTransactions(ctx, toBlockView(resolved));
  return quantity(resolved.pending ? transactions.filter((tx) => !tx.isRemasc).length : transactions.length);
}

/** A single-node chain has no uncles: 0x0 for a known block; rskj answers -32600 for an unknown one. */
function uncleCount(resolved: Resolved | undefined, selector: BlockSelector): string {
  if (resolved === undefined) throw new ChainError('blockNotFound', `Block ${describeSelector(selector)} not found`);
  return '0x0';
}

/**
 * On a fork, a block at or below the fork block is the remote's, as the remote answers it (with
 * its hashes, which cannot be recomputed here); undefined when the chain answers itself.
 */
async function remoteBlock(ctx: RpcContext, resolved: Resolved | undefined, selector: BlockSelector, full: boolean) {
  const fork = ctx.chain.fork;
  if (fork === undefined || resolved?.pending === true) return undefined;
  if (resolved !== undefined) return resolved.block.header.number <= fork.blockNumber ? fork.blockByNumber(resolved.block.header.number, full) : undefined;
  if ('hash' in selector) return fork.blockByHash(selector.hash, full);
  const number = 'number' in selector ? selector.number : selector.tag === 'earliest' ? 0n : undefined;
  return number === undefined ? undefined : fork.blockByNumber(number, full);
}

/** The length of a remote block's list field as a quantity; null for no block, undefined when the chain answers itself. */
function remoteField(remote: RemoteJson | null | undefined, field: 'transactions' | 'uncles'): string | null | undefined {
  if (remote === undefined) return undefined;
  if (remote === null) return null;
  const list = remote[field];
  return quantity(Array.isArray(list) ? list.length : 0);
}

/** A remote block's transaction by position, as the remote gave it. */
function remoteTransactionAt(remote: RemoteJson | null, i: bigint): unknown {
  const list = remote?.transactions;
  return Array.isArray(list) && i < BigInt(list.length) ? list[Number(i)] : null;
}

export const ethBlockMethods = [
  method('eth_getBlockByHash', 'Block by hash, or null.', params([blockHash, fullFlag]), async (ctx, [hash, full]) => {
    const resolved = await byHash(ctx, hash);
    return (await remoteBlock(ctx, resolved, { hash, requireCanonical: false }, full)) ?? block(ctx, resolved, full);
  }),
  method('eth_getBlockByNumber', 'Block by number or tag (pending included), or null.', params([blockId, fullFlag]), async (ctx, [id, full]) => {
    const resolved = await resolveBlock(ctx.chain, id);
    return (await remoteBlock(ctx, resolved, id, full)) ?? block(ctx, resolved, full);
  }),
  method('eth_getBlockTransactionCountByHash', 'Transactions in a block (REMASC included), or null.', params([blockHash]), async (ctx, [hash]) => {
    const resolved = await byHash(ctx, hash);
    return remoteField(await remoteBlock(ctx, resolved, { hash, requireCanonical: false }, false), 'transactions') ?? txCount(ctx, resolved);
  }),
  method('eth_getBlockTransactionCountByNumber', 'Transactions in a block (REMASC included), or null.', params([blockId]), async (ctx, [id]) => {
    const resolved = await resolveBlock(ctx.chain, id);
    return remoteField(await remoteBlock(ctx, resolved, id, false), 'transactions') ?? txCount(ctx, resolved);
  }),
  method('eth_getUncleCountByBlockHash', 'Uncles of a block: always 0x0 here.', params([blockHash]), async (ctx, [hash]) => {
    const resolved = await byHash(ctx, hash);
    return remoteField(await remoteBlock(ctx, resolved, { hash, requireCanonical: false }, false), 'uncles') ?? uncleCount(resolved, { hash, requireCanonical: false });
  }),
  method('eth_getUncleCountByBlockNumber', 'Uncles of a block: always 0x0 here.', params([blockId]), async (ctx, [id]) => {
    const resolved = await resolveBlock(ctx.chain, id);
    return remoteField(await remoteBlock(ctx, resolved, id, false), 'uncles') ?? uncleCount(resolved, id);
  }),
  method('eth_getUncleByBlockHashAndIndex', 'Uncle by index: always null (no uncles).', params([blockHash, index]), () => null),
  method('eth_getUncleByBlockNumberAndIndex', 'Uncle by index: always null (no uncles).', params([blockId, index]), () => null),
  method(
    'eth_getTransactionByBlockHashAndIndex',
    'Transaction by block hash and position, or null.',
    params([blockHash, index]),
    async (ctx, [hash, i]) => {
      const resolved = await byHash(ctx, hash);
      const remote = await remoteBlock(ctx, resolved, { hash, requireCanonical: false }, true);
      return remote === undefined ? transactionAt(ctx, resolved, i) : remoteTransactionAt(remote, i);
    },
  ),
  method(
    'eth_getTransactionByBlockNumberAndIndex',
    'Transaction by block number or tag and position, or null.',
    params([blockId, index]),
    async (ctx, [id, i]: [BlockSelector, bigint]) => {
      const resolved = await resolveBlock(ctx.chain, id);
      const remote = await remoteBlock(ctx, resolved, id, true);
      return remote === undefined ? transactionAt(ctx, resolved, i) : remoteTransactionAt(remote, i);
    },
  ),
];
