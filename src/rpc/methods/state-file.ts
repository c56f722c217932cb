/**
 * anvil_dumpState / anvil_loadState and their hardhat_ names, as viem's test client calls them
 * (`dumpState()` → hex, `loadState({ state })`): the key's network as gzip-compressed JSON in
 * hex, in this node's state file format (docs/state-file.md). A load also takes anvil's files.
 */
import { method } from '../context.js';
import { InvalidParams } from '../errors.js';
import { bool, data, params } from '../params.js';
import type { RpcContext } from '../context.js';
import type { MethodSpec } from '../types.js';
import { stateBytes } from '../../chain/index.js';

function stateFileMethods(prefix: 'anvil' | 'hardhat'): MethodSpec<RpcContext>[] {
  return [
    method(
      `${prefix}_dumpState`,
      "This network's chain (blocks, receipts, logs, every block's state) as gzip-compressed JSON in hex; history is always kept, whatever the argument.",
      params([bool.as('preserveHistoricalStates').optional]),
      async (ctx) => `0x${Buffer.from(await ctx.chain.dumpState((section) => stateBytes([section]))).toString('hex')}`,
    ),
    method(
      `${prefix}_loadState`,
      "Replaces this network's chain with the one in a dump (gzip or plain JSON hex); an anvil dump's accounts are merged into the latest state instead. Nothing changes when the dump is refused.",
      params([data.as('state')]),
      async (ctx, [bytes]) => {
        const name = `${prefix}_loadState argument`;
        const load = await ctx.chain.prepareStateLoad({ name, bytes });
        if (load === undefined) throw new InvalidParams(`state file ${name}: it holds no chain with chain id ${ctx.chain.chainId} (this network's); nothing was loaded`);
        await load();
        return true;
      },
    ),
  ];
}

export const stateMethods = [...stateFileMethods('anvil'), ...stateFileMethods('hardhat')];
