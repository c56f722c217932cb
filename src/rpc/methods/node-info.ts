/**
 * What a node says about itself to the tools that ask which node they talk to: Hardhat's
 * hardhat_metadata (hardhat-ethers, hardhat-viem and Ignition read it; Ignition keys deployments
 * by its instanceId) and anvil's anvil_metadata / anvil_nodeInfo (cast, viem's test client,
 * `anvil --fork-url`). Shapes as Hardhat and alloy's rpc-types-anvil serialize them; what
 * RSK has no equivalent for (a base fee, a fork) is zero or null.
 */
import { bytesToHex } from '@ethereumjs/util';
import { method, type RpcContext } from '../context.js';
import { MethodNotFound } from '../errors.js';
import { quantity } from '../format.js';
import { noParams } from '../params.js';

/**
 * anvil_nodeInfo's hardFork: an Ethereum name, since anvil parses it as one. RSK's EVM has
 * Cancun's opcodes (PUSH0, TSTORE/TLOAD, MCOPY, BASEFEE as the minimum gas price) on Petersburg
 * gas rules and no blobs; "cancun" is the name whose contracts run here.
 */
const ANVIL_HARDFORK = 'cancun';
/** anvil_nodeInfo's transactionOrder: blocks take the highest gas price first (rskj, mempool.ts). */
const TRANSACTION_ORDER = 'fees';

/**
 * Why hardhat_metadata answers only with --profile hardhat: hardhat-ethers (signers.js) gives
 * every transaction on a network named "localhost" a 16,777,216 gas limit (its
 * FUSAKA_TRANSACTION_GAS_LIMIT) when the node answers it, and RSK's block gas limit is below that.
 */
const NOT_HARDHAT =
  'hardhat_metadata is answered with --profile hardhat only: on a node that answers it, hardhat-ethers gives every transaction of a network named "localhost" a 16,777,216 gas limit, above RSK\'s block gas limit';

/** hardhat_metadata: no forkedNetwork, since the node never forks (Hardhat omits it then). */
function hardhatMetadata(ctx: RpcContext) {
  const { chain } = ctx;
  return {
    clientVersion: ctx.options.clientVersion,
    chainId: Number(chain.chainId),
    instanceId: bytesToHex(chain.control.instanceId),
    latestBlockNumber: Number(chain.head.header.number),
    latestBlockHash: bytesToHex(chain.head.hash),
  };
}

export const nodeInfoMethods = [
  method(
    'hardhat_metadata',
    "Hardhat's node metadata (with --profile hardhat only): clientVersion, chainId, instanceId (new at start and on reset), latest block.",
    noParams,
    (ctx) => {
      if (ctx.options.hardhatProfile !== true) throw new MethodNotFound('hardhat_metadata', NOT_HARDHAT);
      return hardhatMetadata(ctx);
    },
  ),
  method(
    'anvil_metadata',
    "anvil's node metadata: hardhat_metadata's fields, forkedNetwork null, and the live snapshots as { id: [blockNumber, blockHash] }.",
    noParams,
    async (ctx) => {
      const snapshots: Record<string, [number, string]> = {};
      for (const { id, number, hash } of await ctx.chain.control.snapshotHeads()) snapshots[quantity(id)] = [Number(number), bytesToHex(hash)];
      return { ...hardhatMetadata(ctx), forkedNetwork: null, snapshots };
    },
  ),
  method(
    'anvil_nodeInfo',
    "anvil's node configuration: latest block, hardFork \"cancun\" (the Ethereum fork whose opcodes RSK runs), the next block's gas limit and the gas price; no base fee (RSK has none) and no fork.",
    noParams,
    (ctx) => {
      const { chain } = ctx;
      return {
        currentBlockNumber: quantity(chain.head.header.number),
        currentBlockTimestamp: Number(chain.head.header.timestamp),
        currentBlockHash: bytesToHex(chain.head.hash),
        hardFork: ANVIL_HARDFORK,
        transactionOrder: TRANSACTION_ORDER,
        environment: {
          baseFee: quantity(0n),
          chainId: Number(chain.chainId),
          gasLimit: quantity(chain.nextGasLimit()),
          gasPrice: quantity(chain.gasPrice()),
        },
        forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
      };
    },
  ),
];
