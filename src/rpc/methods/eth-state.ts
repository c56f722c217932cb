/** Account state at a block: balance, nonce, code, storage; and execution without a transaction. */
import { bytesToHex, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { method } from '../context.js';
import { quantity } from '../format.js';
import { revertError } from '../map-error.js';
import { address, blockSelector, callRequest, params, storageSlot } from '../params.js';
import { resolveBlock, stateTarget, targetOf } from '../resolve.js';
import type { BlockSelector } from '../types.js';

const LATEST: BlockSelector = { tag: 'latest' };
const optionalBlock = blockSelector.orDefault(LATEST);


export const ethStateMethods = [
  method('eth_blockNumber', 'Number of the most recent block.', params([]), (ctx) => quantity(ctx.chain.head.header.number)),
  method('eth_getBalance', 'Balance in wei at a block (default latest).', params([address, optionalBlock]), async (ctx, [account, block]) => {
    const target = await stateTarget(ctx.chain, block);
    const state = ctx.chain.stateReader(target.header.stateRoot, target.db);
    return quantity((await state.getAccount(account))?.balance ?? 0n);
  }),
  method(
    'eth_getTransactionCount',
    'Number of transactions sent from an address (its nonce) at a block (default latest).',
    params([address, optionalBlock]),
    async (ctx, [account, block]) => {
      const target = await stateTarget(ctx.chain, block);
      const state = ctx.chain.stateReader(target.header.stateRoot, target.db);
      return quantity((await state.getAccount(account))?.nonce ?? 0n);
    },
  ),
  method('eth_getCode', 'Code at an address at a block; null for an unknown block (as rskj).', params([address, optionalBlock]), async (ctx, [account, block]) => {
    const resolved = await resolveBlock(ctx.chain, block);
    if (resolved === undefined) return null;
    const target = targetOf(ctx.chain, resolved);
    return bytesToHex(await ctx.chain.stateReader(target.header.stateRoot, target.db).getCode(account));
  }),
  method(
    'eth_getStorageAt',
    'The 32-byte value of a storage slot at a block (zero for a slot never written).',
    params([address, storageSlot.as('position'), optionalBlock]),
    async (ctx, [account, position, block]) => {
      const target = await stateTarget(ctx.chain, block);
      const state = ctx.chain.stateReader(target.header.stateRoot, target.db);
      const value = await state.getStorage(account, setLengthLeft(bigIntToBytes(position), 32));
      return bytesToHex(setLengthLeft(value, 32));
    },
  ),
  method(
    'eth_call',
    'Executes a call against a block without creating a transaction; a REVERT answers -32015 with the revert data.',
    params([callRequest, optionalBlock]),
    async (ctx, [request, block]) => {
      const result = await ctx.chain.call(request, await stateTarget(ctx.chain, block), ctx.deadline);
      if (result.reverted) throw revertError(result.returnValue);
      return bytesToHex(result.returnValue);
    },
  ),
  method(
    'eth_estimateGas',
    'Least gas with which the transaction succeeds (searched up to 6,800,000 whatever `gas` says); a REVERT answers -32015.',
    params([callRequest, optionalBlock]),
    async (ctx, [request, block]) => quantity(await ctx.chain.estimateGas(request, await stateTarget(ctx.chain, block), ctx.deadline)),
  ),
];
