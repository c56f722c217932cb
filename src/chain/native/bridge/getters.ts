/**
 * The Bridge's read methods, answered from the emulated state (./state.ts) and the regtest
 * genesis federation (./federation.ts). Each returns the values to ABI-encode, or `undefined` where
 * rskj throws (VMException / IndexOutOfBoundsException), which makes the call fail.
 */
import { BRIDGE_BTC_INITIAL_HEIGHT, type BridgeBtcSource } from './state.js';
import {
  MINIMUM_PEGIN_TX_VALUE_SATOSHIS,
  PEGOUT_SIGNATURE_SIZE,
  SEGWIT_COMPATIBLE_SCRIPT_SIG_SIZE,
} from './constants.js';
import { GENESIS_FEDERATION, federatorPublicKey, type Federation, type FederationKeyType } from './federation.js';
import type { AbiValue } from '../abi.js';
import { javaInt } from '../../base/bytes.js';
import { reversed } from '../../bitcoin/encoding.js';
import type { BtcBlock } from '../../btc-chain/block.js';
import { btcTransactionConfirmations } from './confirmations.js';
import { coinbaseWitnessRoot } from './processed.js';
import type { BridgeStorage } from './storage.js';

/** The active federation: the genesis one, since no federation change is emulated. */
export function activeFederation(): Federation {
  return GENESIS_FEDERATION;
}

function varIntSize(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

/**
 * BridgeUtils.calculatePegoutTxSize for a P2SH-P2WSH federation (calculateSegwitTxSize): the
 * serialized size of a tx with `outputs` P2SH outputs and no inputs, plus 36 bytes per input, plus
 * threshold x inputs x 72 signature bytes and the redeem script per input; weight = total + 3 x base.
 */
export function segwitPegoutTxSize(federation: Federation, inputs: number, outputs: number): number {
  const p2shOutputSize = 8 + 1 + 23; // value, script length, OP_HASH160 <20> OP_EQUAL
  const serialized = 4 + varIntSize(0) + varIntSize(outputs) + outputs * p2shOutputSize + 4;
  const baseSize = serialized + inputs * SEGWIT_COMPATIBLE_SCRIPT_SIG_SIZE;
  const signingSize = federation.threshold * inputs * PEGOUT_SIGNATURE_SIZE;
  const totalSize = baseSize + signingSize + inputs * federation.redeemScript.length;
  return Math.floor((totalSize + 3 * baseSize) / 4);
}

/**
 * BridgeSupport.getEstimatedFeesFromInputsAndOutputsCount, getEstimatedFeesForNextPegOutEvent's
 * fallback when the federation's UTXOs cannot pay the simulated batch (pegout.ts):
 * (queued + 2) outputs, 2 inputs, feePerKb x size / 1000.
 */
export function estimatedFeesForNextPegOutEvent(queuedPegouts: number, feePerKb: bigint, federation: Federation): bigint {
  const size = segwitPegoutTxSize(federation, 2, queuedPegouts + 2);
  return (feePerKb * BigInt(size)) / 1000n;
}

/** A read method: its arguments and the network's Bitcoin chain, which the Bridge's BTC header chain follows. */
/** BtcBlockStore.get(Sha256Hash.wrap(hash)): the hash in display order, as bitcoinj's getBytes() has it. */
function storedBlock(btc: BridgeBtcSource, displayHash: Uint8Array): BtcBlock | undefined {
  return btc.blockByHash(reversed(displayHash));
}

/** BridgeSupport.serializeBlockHeader: the 80-byte header, or empty bytes for no block. */
function headerOf(block: BtcBlock | undefined): Uint8Array {
  return block === undefined ? new Uint8Array(0) : block.header;
}

/** A read method: its arguments, the Bitcoin chain the Bridge follows and the Bridge's storage (read only). */
type Getter = (args: AbiValue[], btc: BridgeBtcSource, storage: BridgeStorage) => AbiValue[] | undefined | Promise<AbiValue[] | undefined>;

export const GETTERS: Record<string, Getter> = {
  getFederationAddress: () => [activeFederation().address],
  getFederationSize: () => [BigInt(activeFederation().members.length)],
  getFederationThreshold: () => [BigInt(activeFederation().threshold)],
  getFederationCreationTime: () => [activeFederation().creationTimeSeconds],
  getFederationCreationBlockNumber: () => [activeFederation().creationBlockNumber],
  getFederatorPublicKeyOfType: ([index, type]) => {
    const keyType = type as string;
    if (keyType !== 'btc' && keyType !== 'rsk' && keyType !== 'mst') return undefined; // KeyType.byValue throws
    const key = federatorPublicKey(activeFederation(), BigInt(javaInt(index as bigint)), keyType as FederationKeyType);
    return key ? [key] : undefined;
  },
  getMinimumLockTxValue: () => [MINIMUM_PEGIN_TX_VALUE_SATOSHIS],
  getBtcBlockchainBestChainHeight: (_, btc) => [BigInt(btc.tip.height)],
  getBtcBlockchainInitialBlockHeight: () => [BigInt(BRIDGE_BTC_INITIAL_HEIGHT)],
  getBtcBlockchainBlockHashAtDepth: ([depth], btc) => {
    const d = javaInt(depth as bigint);
    const maxDepth = btc.tip.height - BRIDGE_BTC_INITIAL_HEIGHT;
    if (d < 0 || d > maxDepth) return undefined; // IndexOutOfBoundsException "Depth must be between 0 and N"
    // Sha256Hash.getBytes(): the display order, as block explorers show it.
    return [reversed(btc.blockAt(btc.tip.height - d)!.hash)];
  },
  getBtcBlockchainBestBlockHeader: (_, btc) => [btc.tip.header],
  // BridgeSupport.getBtcBlockchainBlockHeaderByHash: btcBlockStore.get(Sha256Hash.wrap(hash)), any
  // stored block (here: the chain's blocks); serializeBlockHeader(null) is empty bytes.
  getBtcBlockchainBlockHeaderByHash: ([hash], btc) => [headerOf(storedBlock(btc, hash as Uint8Array))],
  // getStoredBlockAtMainChainHeight(BigInteger.intValue()): above the head or below the initial
  // block it throws, which Bridge.getBtcBlockchainBlockHeaderByHeight answers as empty bytes.
  getBtcBlockchainBlockHeaderByHeight: ([height], btc) => {
    const h = javaInt(height as bigint);
    return [headerOf(h >= BRIDGE_BTC_INITIAL_HEIGHT && h <= btc.tip.height ? btc.blockAt(h) : undefined)];
  },
  // The stored block's parent (header bytes 4..36, internal order); genesis has none: empty bytes.
  getBtcBlockchainParentBlockHeaderByHash: ([hash], btc) => {
    const block = storedBlock(btc, hash as Uint8Array);
    return [headerOf(block && btc.blockByHash(block.header.subarray(4, 36)))];
  },
  getBtcTransactionConfirmations: async (args, btc, storage) => {
    const answer = await btcTransactionConfirmations(args, btc, (blockHash) => coinbaseWitnessRoot(storage, blockHash));
    return answer === undefined ? undefined : [answer];
  },
  getActivePowpegRedeemScript: () => [activeFederation().redeemScript],
};
