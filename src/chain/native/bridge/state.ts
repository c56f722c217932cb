/**
 * The Bridge's (0x0000000000000000000000000000000001000006) emulated state: the one source that
 * both the Bridge's read methods (src/chain/native/bridge) and eth_bridgeState read.
 *
 * A devnode has no federation and no BTC node feeding the Bridge, so this state never changes:
 * no peg-in processed, no peg-out queued or waiting for signatures, and the Bitcoin chain the Bridge
 * knows is its starting point.
 */
import { BTC_REGTEST_GENESIS_HASH, BTC_REGTEST_GENESIS_HEADER } from './constants.js';

/**
 * rskj regtest: the Bridge's BTC block store starts at the lowest stored block, which is the BTC
 * regtest genesis (height 0) because no `rskbitcoincheckpoints/org.bitcoin.regtest.checkpoints`
 * ships (BridgeSupport.getLowestBlock; only production and test checkpoints exist), and nothing
 * feeds it BTC headers on a devnode.
 */
export const BRIDGE_BTC_BEST_CHAIN_HEIGHT = 0;

export interface BtcStoredBlock {
  height: number;
  /** Sha256Hash.getBytes() order (as block explorers show it), hex without 0x. */
  hash: string;
  /** The 80-byte header, hex without 0x. */
  header: string;
}

export interface EmulatedBridgeState {
  /** The BTC main chain the Bridge knows, lowest block first; the last one is the chain head. */
  btcChain: readonly BtcStoredBlock[];
  /** BridgeStorageProvider btcTxHashesAlreadyProcessed: BTC tx hash (display hex) -> RSK height. */
  btcTxHashesProcessed: ReadonlyMap<string, bigint>;
  /** ReleaseRequestQueue size (peg-outs waiting to be batched). */
  queuedPegouts: number;
  /** BridgeStorageProvider nextPegoutHeight (absent -> 0, BridgeSupport.getNextPegoutCreationBlockNumber). */
  nextPegoutHeight: bigint;
  /** RSK tx hashes (hex without 0x) whose BTC peg-out awaits federation signatures. */
  pegoutsWaitingForSignatures: readonly string[];
}

const EMULATED: EmulatedBridgeState = Object.freeze({
  btcChain: Object.freeze([
    { height: BRIDGE_BTC_BEST_CHAIN_HEIGHT, hash: BTC_REGTEST_GENESIS_HASH, header: BTC_REGTEST_GENESIS_HEADER },
  ]),
  btcTxHashesProcessed: new Map<string, bigint>(),
  queuedPegouts: 0,
  nextPegoutHeight: 0n,
  pegoutsWaitingForSignatures: Object.freeze([]),
});

/** The Bridge's state. Constant on a devnode (see the module note); a function so it can grow. */
export function emulatedBridgeState(): EmulatedBridgeState {
  return EMULATED;
}

export function btcChainHead(state: EmulatedBridgeState = emulatedBridgeState()): BtcStoredBlock {
  return state.btcChain[state.btcChain.length - 1]!;
}

/** rskj BridgeState.stateToMap: the two fields eth_bridgeState returns. */
export interface BridgeStateView {
  /** RSK transaction hashes whose BTC peg-out awaits signatures, hex without 0x (rskj Keccak256.toHexString). */
  rskTxsWaitingForSignatures: string[];
  /** A JSON integer. */
  btcBlockchainBestChainHeight: number;
}

export function bridgeStateView(state: EmulatedBridgeState = emulatedBridgeState()): BridgeStateView {
  return {
    rskTxsWaitingForSignatures: [...state.pegoutsWaitingForSignatures],
    btcBlockchainBestChainHeight: btcChainHead(state).height,
  };
}
