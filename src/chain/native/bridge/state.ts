/**
 * The Bridge's (0x0000000000000000000000000000000001000006) emulated state: the one source that
 * both the Bridge's read methods (src/chain/native/bridge) and eth_bridgeState read.
 *
 * The Bridge's BTC header chain is the network's Bitcoin regtest chain (btc-chain/), followed
 * block for block as a federation that feeds every header at once would keep it. What the peg
 * writes lives in the Bridge's storage (storage.ts: processed peg-ins in processed.ts, federation
 * UTXOs in utxos.ts, the peg-out's collections in pegout-store.ts, which eth_bridgeState reads).
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { genesisBlock } from '../../btc-chain/block.js';
import type { NativeBtcChain } from '../types.js';
import { readWaitingForSignatures } from './pegout-store.js';
import { BridgeStorage, type BridgeStateAccess } from './storage.js';

/**
 * rskj regtest: the Bridge's BTC block store starts at the lowest stored block, which is the BTC
 * regtest genesis (height 0) because no `rskbitcoincheckpoints/org.bitcoin.regtest.checkpoints`
 * ships (BridgeSupport.getLowestBlock; only production and test checkpoints exist). The local
 * Bitcoin chain starts at the same genesis, so every one of its blocks is in the Bridge's chain.
 */
export const BRIDGE_BTC_INITIAL_HEIGHT = 0;

/** What the Bridge reads of the network's Bitcoin chain. */
export type BridgeBtcSource = NativeBtcChain;

/** Where no Bitcoin chain is given (a native contract called alone, in unit tests): the genesis only. */
export const GENESIS_ONLY_BTC: BridgeBtcSource = {
  get tip() {
    return genesisBlock();
  },
  blockAt: (height) => (height === 0 ? genesisBlock() : undefined),
  blockByHash: (hash) => (genesisBlock().hash.every((b, i) => b === hash[i]) && hash.length === 32 ? genesisBlock() : undefined),
};

/** rskj BridgeState.stateToMap: the two fields eth_bridgeState returns. */
export interface BridgeStateView {
  /** RSK transaction hashes whose BTC peg-out awaits signatures, hex without 0x (rskj Keccak256.toHexString). */
  rskTxsWaitingForSignatures: string[];
  /** A JSON integer. */
  btcBlockchainBestChainHeight: number;
}

/** eth_bridgeState of the Bridge in `state` (a block's state), its Bitcoin chain's best block at `btcBestHeight`. */
export async function bridgeStateView(state: BridgeStateAccess, btcBestHeight: number): Promise<BridgeStateView> {
  const waiting = await readWaitingForSignatures(new BridgeStorage(state));
  return {
    rskTxsWaitingForSignatures: waiting.map((entry) => bytesToHex(entry.rskTxHash)),
    btcBlockchainBestChainHeight: btcBestHeight,
  };
}
