/** Account state at a block: balance, nonce, code, storage; and execution without a transaction. */
import { type Account, type Address, bytesToHex, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { method } from '../context.js';
import { QuantityMemo, quantity } from '../format.js';
import { revertError } from '../map-error.js';
import { prefixedHex } from '../../util/hex.js';
import { address, blockSelector, callRequest, params, storageSlot } from '../params.js';
import { resolveBlock, stateTarget, targetOf } from '../resolve.js';
import type { BlockSelector } from '../types.js';
import type { RpcContext } from '../context.js';
import type { StateReader } from '../../chain/index.js';

const LATEST: BlockSelector = { tag: 'latest' };
const optionalBlock = blockSelector.orDefault(LATEST);

/**
 * Account reads at a block. On a fork, a block below the fork block (by number, `earliest`, or
 * a remote block's hash) reads the remote's state at that block; so do eth_call and eth_estimateGas.
 */
async function stateAt(ctx: RpcContext, block: BlockSelector): Promise<StateReader> {
  const below = await belowFork(ctx, block);
  if (below !== undefined) return ctx.chain.stateBelowFork(below);
  const target = await stateTarget(ctx.chain, block);
  return ctx.chain.stateReader(target.header.stateRoot, target.db);
}

/** The number of a block the selector names below a fork's fork block, else undefined. */
async function belowFork(ctx: RpcContext, block: BlockSelector): Promise<bigint | undefined> {
  const fork = ctx.chain.fork;
  if (fork === undefined) return undefined;
  let number: bigint | undefined;
  if ('number' in block) number = block.number;
  else if ('tag' in block) number = block.tag === 'earliest' ? 0n : undefined;
  else if ((await ctx.chain.blockByHash(block.hash)) === undefined) {
    const remote = await fork.blockByHash(block.hash, false);
    number = typeof remote?.number === 'string' ? BigInt(remote.number) : undefined;
  }
  return number !== undefined && number < fork.blockNumber ? number : undefined;
}


/**
 * An account at `latest` that the head's flat view already holds (null: absent), else undefined:
 * the answer then needs no read and no promise (the dispatcher answers a plain value at once).
 * Wallets and dapps poll balances and nonces at latest; this is the bench's eth_getBalance row.
 */
function knownAtLatest(ctx: RpcContext, account: Address, block: BlockSelector): Account | null | undefined {
  return 'tag' in block && block.tag === 'latest' ? ctx.chain.knownLatestAccount(account) : undefined;
}

async function accountAt(ctx: RpcContext, account: Address, block: BlockSelector): Promise<Account | undefined> {
  return (await stateAt(ctx, block)).getAccount(account);
}

/** Each polled quantity's last text (format.ts): the head's number, a balance, a nonce. */
const blockNumberText = new QuantityMemo();
const balanceText = new QuantityMemo();
const nonceText = new QuantityMemo();

export const ethStateMethods = [
  method('eth_blockNumber', 'Number of the most recent block.', params([]), (ctx) => blockNumberText.of(ctx.chain.head.header.number)),
  method('eth_getBalance', 'Balance in wei at a block (default latest).', params([address, optionalBlock]), (ctx, [account, block]) => {
    const known = knownAtLatest(ctx, account, block);
    if (known !== undefined) return balanceText.of(known?.balance ?? 0n);
    return accountAt(ctx, account, block).then((read) => quantity(read?.balance ?? 0n));
  }),
  method(
    'eth_getTransactionCount',
    'Number of transactions sent from an address (its nonce) at a block (default latest).',
    params([address, optionalBlock]),
    (ctx, [account, block]) => {
      const known = knownAtLatest(ctx, account, block);
      if (known !== undefined) return nonceText.of(known?.nonce ?? 0n);
      return accountAt(ctx, account, block).then((read) => quantity(read?.nonce ?? 0n));
    },
  ),
  method('eth_getCode', 'Code at an address at a block; null for an unknown block (as rskj).', params([address, optionalBlock]), async (ctx, [account, block]) => {
    const below = await belowFork(ctx, block);
    if (below !== undefined) return bytesToHex(await ctx.chain.stateBelowFork(below).getCode(account));
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
      const value = await (await stateAt(ctx, block)).getStorage(account, setLengthLeft(bigIntToBytes(position), 32));
      return bytesToHex(setLengthLeft(value, 32));
    },
  ),
  method(
    'eth_call',
    'Executes a call against a block without creating a transaction; a REVERT answers -32015 with the revert data.',
    params([callRequest, optionalBlock]),
    async (ctx, [request, block]) => {
      const result = await ctx.chain.call(request, (await belowFork(ctx, block)) ?? (await stateTarget(ctx.chain, block)), ctx.deadline);
      if (result.reverted) throw revertError(result.returnValue);
      return prefixedHex(result.returnValue);
    },
  ),
  method(
    'eth_estimateGas',
    'Least gas with which the transaction succeeds (searched up to 6,800,000 whatever `gas` says); a REVERT answers -32015.',
    params([callRequest, optionalBlock]),
    async (ctx, [request, block]) => quantity(await ctx.chain.estimateGas(request, (await belowFork(ctx, block)) ?? (await stateTarget(ctx.chain, block)), ctx.deadline)),
  ),
];
