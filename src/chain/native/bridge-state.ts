/**
 * The simulated Bridge (0x0000000000000000000000000000000001000006) as eth_bridgeState shows it,
 * until the Bridge itself is emulated: no peg-out waiting for federation signatures, and the
 * Bitcoin chain the Bridge knows at its starting point. Whoever emulates the Bridge should answer
 * getBtcBlockchainBestChainHeight from the same constant (and this module from the Bridge's state).
 */

/**
 * rskj regtest: the Bridge's BTC block store starts at the lowest stored block, which is the BTC
 * regtest genesis (height 0) because no `rskbitcoincheckpoints/org.bitcoin.regtest.checkpoints`
 * ships (BridgeSupport.getLowestBlock; only production and test checkpoints exist), and nothing
 * feeds it BTC headers on a devnode.
 */
export const BRIDGE_BTC_BEST_CHAIN_HEIGHT = 0;

/** rskj BridgeState.stateToMap: the two fields eth_bridgeState returns. */
export interface BridgeStateView {
  /** RSK transaction hashes whose BTC peg-out awaits signatures, hex without 0x (rskj Keccak256.toHexString). */
  rskTxsWaitingForSignatures: string[];
  /** A JSON integer. */
  btcBlockchainBestChainHeight: number;
}

export function simulatedBridgeState(): BridgeStateView {
  return { rskTxsWaitingForSignatures: [], btcBlockchainBestChainHeight: BRIDGE_BTC_BEST_CHAIN_HEIGHT };
}
