/**
 * Two of the Bridge's peg-in records, one named value per entry in its storage (storage.ts):
 * - the Bitcoin transactions it has processed and the RSK block that processed each (rskj
 *   BridgeStorageProvider get/setHeightBtcTxhashAlreadyProcessed, "btcTxHashesAP"), read by
 *   registerBtcTransaction, isBtcTxHashAlreadyProcessed and getBtcTxHashProcessedHeight;
 * - the witness merkle root of each Bitcoin block whose coinbase was registered (rskj
 *   get/setCoinbaseInformation, registerBtcCoinbaseTransaction), which segwit peg-ins prove against.
 * One value per entry (not one map) so a lookup reads one slot, however many peg-ins there were.
 */
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { BridgeStorage } from './storage.js';

/**
 * rskj BridgeStorageIndexKey.getCompoundKey("-", id) as BridgeStorageProvider names these entries
 * (getStorageKeyForBtcTxHashAlreadyProcessed, getStorageKeyForCoinbaseInformation): the index
 * key's name, "-", then the hash as Sha256Hash.toString() prints it (display hex).
 */
const compoundKey = (name: string, hash: string) => `${name}-${hash}`;
/** A processed transaction's entry: compoundKey(BTC_TX_HASH_AP, txid). */
export const processedKey = (displayHexTxid: string) => compoundKey('btcTxHashesAP', displayHexTxid);
/** A block's coinbase information: compoundKey(COINBASE_INFORMATION, block hash). */
export const coinbaseInformationKey = (displayHexBlockHash: string) => compoundKey('coinbaseInformation', displayHexBlockHash);
/** A height is stored as 8 bytes (a Java long), so block 0 is not the empty value. */
const HEIGHT_BYTES = 8;

const displayHex = (internal: Uint8Array) => bytesToHex(Uint8Array.from(internal).reverse());

/** The RSK block that processed `txid` (internal order), or undefined. */
export async function processedHeight(storage: BridgeStorage, txid: Uint8Array): Promise<bigint | undefined> {
  return processedHeightByDisplayHex(storage, displayHex(txid));
}

/** The same by the display-order hex the getters take (64 lower-case digits). */
export async function processedHeightByDisplayHex(storage: BridgeStorage, hash: string): Promise<bigint | undefined> {
  const value = await storage.get(processedKey(hash));
  return value.length === 0 ? undefined : bytesToBigInt(value);
}

/** BridgeSupport.markTxAsProcessed: `txid` (internal order, without witness) processed at RSK block `rskHeight`. */
export async function markProcessed(storage: BridgeStorage, txid: Uint8Array, rskHeight: bigint): Promise<void> {
  await storage.set(processedKey(displayHex(txid)), setLengthLeft(bigIntToBytes(rskHeight), HEIGHT_BYTES));
}

/** The registered witness merkle root (internal order) of block `blockHash` (internal order), or undefined. */
export async function coinbaseWitnessRoot(storage: BridgeStorage, blockHash: Uint8Array): Promise<Uint8Array | undefined> {
  const value = await storage.get(coinbaseInformationKey(displayHex(blockHash)));
  return value.length === 0 ? undefined : value;
}

export async function setCoinbaseWitnessRoot(storage: BridgeStorage, blockHash: Uint8Array, witnessRoot: Uint8Array): Promise<void> {
  await storage.set(coinbaseInformationKey(displayHex(blockHash)), witnessRoot);
}
