/** The method table: the single source of truth for what the node answers. */
import type { MethodSpec } from '../types.js';
import type { RpcContext } from '../context.js';
import { withAccessRules } from '../access.js';
import { ethBlockMethods } from './eth-blocks.js';
import { ethNodeMethods } from './eth-node.js';
import { signingMethods } from './signing.js';
import { ethStateMethods } from './eth-state.js';
import { ethProofMethods } from './eth-proof.js';
import { ethTransactionMethods } from './eth-transactions.js';
import { ethSimulateMethods } from './eth-simulate.js';
import { netMethods } from './net.js';
import { rskMethods } from './rsk.js';
import { web3Methods } from './web3.js';
import { testControlMethods } from './test-control.js';
import { nodeInfoMethods } from './node-info.js';
import { stateMethods } from './state-file.js';
import { txpoolMethods } from './txpool.js';
import { filterMethods } from './filters.js';
import { subscribeMethods } from './subscribe.js';
import { debugMethods } from './debug.js';
import { traceMethods } from './trace.js';
import { otsMethods } from './ots.js';
import { personalMethods } from './personal.js';
import { unsupportedMethods } from './unsupported.js';
import { scoMethods } from './sco.js';
import { rpcMethods } from './rpc.js';
import { ethBridgeMethods } from './eth-bridge.js';
import { miningMethods } from './mnr.js';
import { btcMethods } from './btc.js';

export const METHODS: readonly MethodSpec<RpcContext>[] = [
  ...web3Methods,
  ...netMethods,
  ...ethNodeMethods,
  ...signingMethods,
  ...ethStateMethods,
  ...ethProofMethods,
  ...ethBlockMethods,
  ...ethTransactionMethods,
  ...ethSimulateMethods,
  ...rskMethods,
  ...testControlMethods,
  ...nodeInfoMethods,
  ...stateMethods,
  ...txpoolMethods,
  ...filterMethods,
  ...subscribeMethods,
  ...debugMethods,
  ...traceMethods,
  ...otsMethods,
  ...personalMethods,
  ...miningMethods,
  ...scoMethods,
  ...rpcMethods(() => METHODS),
  ...ethBridgeMethods,
  ...btcMethods,
  ...unsupportedMethods,
].map(withAccessRules);
