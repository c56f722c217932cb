/** eth_bridgeState: rskj's view of the Bridge contract's state (reference 10.1). */
import { bridgeStateView } from '../../chain/index.js';
import { method } from '../context.js';
import { noParams } from '../params.js';
import { stateTarget } from '../resolve.js';

export const ethBridgeMethods = [
  method(
    'eth_bridgeState',
    'The Bridge\'s state: {rskTxsWaitingForSignatures: [the peg-outs awaiting federation signatures, by the hash of the transaction that built them, without 0x], btcBlockchainBestChainHeight: JSON integer}, read from the Bridge\'s storage at the latest block.',
    noParams,
    async (ctx) => {
      const target = await stateTarget(ctx.chain, { tag: 'latest' });
      return bridgeStateView(ctx.chain.stateReader(target.header.stateRoot, target.db), ctx.chain.btc.tip.height);
    },
  ),
];
