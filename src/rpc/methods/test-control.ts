/**
 * Test control: rskj's evm_ module (reference 10.2) and the helpers other ecosystems' tools call
 * (Hardhat's hardhat_*, anvil's anvil_*), so viem's test client, Hardhat network helpers and
 * Foundry scripts work unchanged.
 */
import { setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { method } from '../context.js';
import { InvalidParams } from '../errors.js';
import { redactedUrl } from '../../chain/index.js';
import type { RpcContext } from '../context.js';
import { quantity } from '../format.js';
import { ParamError, address, atMost, shortened, shown, bool, data, hash32, makeDecoder, params, quantity as quantityParam, quantityOrDecimal, storageSlot } from '../params.js';
import type { MethodSpec } from '../types.js';

/** rskj: a snapshot id is a 0x-hex string, anything else is "invalid snapshot id X". */
const snapshotId = makeDecoder('snapshotId', (v) => {
  // Length first (ids are small counters): a 15 MB string must not reach the regex or BigInt.
  if (typeof v !== 'string' || v.length > 66 || !/^0x[0-9a-fA-F]+$/.test(v)) {
    throw new ParamError(`invalid snapshot id ${typeof v === 'string' ? shortened(v) : shown(v)}`);
  }
  return BigInt(v);
});
/** Block headers hold 64-bit timestamps, so no clock value may pass 2^64-1. */
const UINT64_MAX = 2n ** 64n - 1n;
const seconds = atMost(quantityOrDecimal.as('seconds'), UINT64_MAX, '2^64-1, the largest timestamp a block header holds');
const timestamp = atMost(quantityOrDecimal.as('timestamp'), UINT64_MAX, '2^64-1, the largest timestamp a block header holds');
const nonce = atMost(quantityParam.as('nonce'), UINT64_MAX - 1n, '2^64-2: an account nonce stays below 2^64-1 (EIP-2681)');
/** rskj's minimum block gas limit (Constants, GasLimitRule): a smaller block is invalid on RSK. */
const MIN_BLOCK_GAS_LIMIT = 3_000_000n;
/** rskj reads a block's gas limit into a Java long. */
const MAX_BLOCK_GAS_LIMIT = 2n ** 63n - 1n;
const gasLimitAtMost = atMost(quantityOrDecimal.as('gasLimit'), MAX_BLOCK_GAS_LIMIT, "2^63-1: rskj reads a block's gas limit as a Java long");
const blockGasLimit = makeDecoder('gasLimit', (v) => {
  const limit = gasLimitAtMost.parse(v);
  if (limit < MIN_BLOCK_GAS_LIMIT) throw new ParamError(`block gas limit ${limit} is below ${MIN_BLOCK_GAS_LIMIT}, RSK's minimum block gas limit`);
  return limit;
});
const slotValue = makeDecoder('value', (v) => {
  const bytes = data.parse(v);
  if (bytes.length > 32) throw new ParamError(`storage value has ${bytes.length} bytes, want at most 32`);
  return setLengthLeft(bytes, 32);
});

const evmMethods = [
  method('evm_snapshot', 'Records the chain (blocks, state, pool, clock, the Bitcoin chain); returns its id "0x1", "0x2", ...', params([]), async (ctx) =>
    quantity(await ctx.chain.control.snapshot()),
  ),
  method(
    'evm_revert',
    'Restores a snapshot (which stays usable; later ones are dropped); false for an unknown id.',
    params([snapshotId]),
    (ctx, [id]) => ctx.chain.control.revert(id),
  ),
  method('evm_reset', 'Back to genesis: drops every block, snapshot and pooled transaction; the Bitcoin chain goes back to its premine.', params([]), async (ctx) => {
    await ctx.chain.control.reset();
    return null;
  }),
  method('evm_mine', 'Mines one block, optionally at the given timestamp.', params([timestamp.optional]), async (ctx, [at]) => {
    await ctx.chain.mine(at);
    return null;
  }),
  method(
    'evm_increaseTime',
    'Adds seconds (decimal or hex) to the clock of the next block; returns the pending offset.',
    params([seconds]),
    async (ctx, [s]) => quantity(await ctx.chain.control.increaseTime(s)),
  ),
  method('evm_setNextBlockTimestamp', 'The exact timestamp of the next block.', params([timestamp]), async (ctx, [at]) => {
    await ctx.chain.control.setNextBlockTimestamp(at);
    return null;
  }),
  method('evm_startMining', 'Turns automine back on (a block per transaction).', params([]), (ctx) => {
    ctx.chain.setAutomine(true);
    return null;
  }),
  method('evm_stopMining', 'Manual mining: transactions wait in the pool until a block is mined.', params([]), (ctx) => {
    ctx.chain.setAutomine(false);
    ctx.chain.setIntervalMining(0);
    return null;
  }),
  method('evm_setAutomine', 'Turns automine on or off.', params([bool.as('enabled')]), (ctx, [on]) => {
    ctx.chain.setAutomine(on);
    return true;
  }),
  method(
    'evm_setIntervalMining',
    'Mines a block every N milliseconds (Hardhat); 0 turns interval mining off.',
    params([quantityOrDecimal.as('milliseconds')]),
    (ctx, [ms]) => {
      ctx.chain.setIntervalMining(Number(ms));
      return true;
    },
  ),
  method(
    'evm_setBlockGasLimit',
    "Every block mined from now on has this gas limit, at once (not by rskj's parent/1024 steps); at least 3,000,000, RSK's minimum.",
    params([blockGasLimit]),
    async (ctx, [limit]) => {
      await ctx.chain.setBlockGasLimit(limit);
      return true;
    },
  ),
  method('anvil_setIntervalMining', 'Mines a block every N seconds (anvil); 0 turns interval mining off.', params([seconds]), (ctx, [s]) => {
    ctx.chain.setIntervalMining(Number(s) * 1000);
    return null;
  }),
];

/** The upstream URL of a hardhat_/anvil_reset `forking` option, when one is given. */
function forkingUrl(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const forking = (options as { forking?: unknown }).forking;
  if (typeof forking !== 'object' || forking === null) return undefined;
  const url = (forking as { jsonRpcUrl?: unknown }).jsonRpcUrl;
  return typeof url === 'string' && url.length > 0 ? url : undefined;
}

/** The block of a hardhat_/anvil_reset `forking` option: a number or a hex string; undefined when absent (NaN, null). */
function forkingBlock(options: unknown): bigint | undefined {
  const block = (options as { forking?: { blockNumber?: unknown } }).forking?.blockNumber;
  if (typeof block === 'number' && Number.isSafeInteger(block) && block >= 0) return BigInt(block);
  if (typeof block === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(block)) return BigInt(block);
  return undefined;
}

/**
 * A reset with `forking` (viem's testClient.reset({ jsonRpcUrl, blockNumber })): naming this
 * node's own fork (what a test suite's beforeEach sends) it is a reset to the fork block; naming
 * another block of the remote, or another remote of this network, it moves the fork there in
 * place (Chain.refork). A chain started without a fork cannot become one.
 */
async function resetForking(ctx: RpcContext, prefix: string, url: string, block: bigint | undefined): Promise<void> {
  const fork = ctx.chain.fork;
  if (fork === undefined) throw new InvalidParams(`${prefix}_reset: forking is not supported on a chain started without --fork-url; start the node with --fork-url ${redactedUrl(url)}`);
  if (url === fork.url && (block === undefined || block === fork.blockNumber)) await ctx.chain.control.reset();
  else await ctx.chain.refork(url, block);
}

/** The methods Hardhat and anvil both have, under each prefix. */
function stateHelpers(prefix: 'hardhat' | 'anvil'): MethodSpec<RpcContext>[] {
  return [
    method(`${prefix}_mine`, 'Mines N blocks (default 1), interval seconds apart (default 1).', params([quantityOrDecimal.as('blocks').optional, seconds.optional]), async (ctx, [blocks, interval]) => {
      await ctx.chain.mineMany(blocks ?? 1n, interval ?? 1n);
      return null;
    }),
    method(`${prefix}_setBalance`, "Sets an account's balance in the latest state.", params([address, quantityParam.as('balance')]), async (ctx, [account, balance]) => {
      await ctx.chain.control.setBalance(account, balance);
      return true;
    }),
    method(`${prefix}_setNonce`, "Sets an account's nonce in the latest state.", params([address, nonce]), async (ctx, [account, nonce]) => {
      await ctx.chain.control.setNonce(account, nonce);
      return true;
    }),
    method(`${prefix}_setCode`, "Sets an account's code in the latest state.", params([address, data.as('code')]), async (ctx, [account, code]) => {
      await ctx.chain.control.setCode(account, code);
      return true;
    }),
    method(
      `${prefix}_setStorageAt`,
      'Sets a storage slot in the latest state.',
      params([address, storageSlot, slotValue]),
      async (ctx, [account, slot, value]) => {
        await ctx.chain.control.setStorageAt(account, setLengthLeft(bigIntToBytes(slot), 32), value);
        return true;
      },
    ),
    method(`${prefix}_getAutomine`, 'Whether automine is on.', params([]), (ctx) => ctx.chain.isAutomine),
    method(
      `${prefix}_reset`,
      'Back to genesis (a fork: its fork block), like evm_reset; with forking { jsonRpcUrl, blockNumber } on a fork, forks that remote (of this network) at that block (default: its latest) in place.',
      params([makeDecoder('options', (v) => v).optional]),
      async (ctx, [options]) => {
        // viem's reset() sends { forking: { jsonRpcUrl: undefined, blockNumber: NaN } }: without a URL it is a plain reset.
        const url = forkingUrl(options);
        if (url !== undefined) await resetForking(ctx, prefix, url, forkingBlock(options));
        else await ctx.chain.control.reset();
        return true;
      },
    ),
    method(`${prefix}_dropTransaction`, 'Removes a transaction from the pool; false when it is not there.', params([hash32.as('transactionHash')]), (ctx, [hash]) =>
      ctx.chain.control.dropTransaction(hash),
    ),
    method(`${prefix}_setCoinbase`, "The coinbase (miner field) of every block mined from now on; eth_coinbase answers it.", params([address]), async (ctx, [account]) => {
      await ctx.chain.setCoinbase(account);
      return true;
    }),
    method(`${prefix}_impersonateAccount`, 'eth_sendTransaction may send as this address without its key.', params([address]), (ctx, [account]) => {
      ctx.chain.impersonate(account);
      return true;
    }),
    method(`${prefix}_stopImpersonatingAccount`, 'Ends impersonation of an address.', params([address]), (ctx, [account]) => {
      ctx.chain.stopImpersonating(account);
      return true;
    }),
  ];
}

/** anvil's own helpers. */
const anvilMethods = [
  method(
    'anvil_autoImpersonateAccount',
    'true: eth_sendTransaction sends as any address the node holds no key for, as if impersonated; false turns it off.',
    params([bool.as('enabled')]),
    (ctx, [on]) => {
      ctx.chain.setAutoImpersonate(on);
      return true;
    },
  ),
  method('anvil_deal', "anvil's alias of anvil_setBalance.", params([address, quantityParam.as('balance')]), async (ctx, [account, balance]) => {
    await ctx.chain.control.setBalance(account, balance);
    return true;
  }),
];

/** anvil's other names for methods above (its EthRequest serde aliases), answered the same way. */
const ALIASES: Record<string, string> = {
  anvil_snapshot: 'evm_snapshot',
  anvil_revert: 'evm_revert',
  anvil_increaseTime: 'evm_increaseTime',
  anvil_setNextBlockTimestamp: 'evm_setNextBlockTimestamp',
  anvil_setAutomine: 'evm_setAutomine',
  anvil_setBlockGasLimit: 'evm_setBlockGasLimit',
  hardhat_autoImpersonateAccount: 'anvil_autoImpersonateAccount',
  evm_setAccountNonce: 'anvil_setNonce',
};

const named: MethodSpec<RpcContext>[] = [...evmMethods, ...stateHelpers('hardhat'), ...stateHelpers('anvil'), ...anvilMethods];
const aliases = Object.entries(ALIASES).map(([alias, name]) => {
  const spec = named.find((m) => m.name === name)!;
  return { ...spec, name: alias, doc: `${name} under anvil's name: ${spec.doc}` };
});

export const testControlMethods: MethodSpec<RpcContext>[] = [...named, ...aliases];
