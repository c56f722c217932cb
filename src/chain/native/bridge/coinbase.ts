/**
 * Where the Bridge keeps a Bitcoin block's coinbase information (RSKIP143): what
 * registerBtcCoinbaseTransaction stores and hasBtcBlockCoinbaseTransactionInformation reads.
 * rskj BridgeStorageProvider.getStorageKeyForCoinbaseInformation: the compound key
 * "coinbaseInformation-" + Sha256Hash.toString(), i.e. the block hash as 64 lower-case hex digits
 * in display (byte-reversed) order, the order bitcoinj's Sha256Hash.wrap(bytes32 argument) keeps.
 * The value is the coinbase information itself; any non-empty value means "registered".
 */
import { bytesToHex } from '@noble/hashes/utils.js';

/** rskj BridgeStorageIndexKey.COINBASE_INFORMATION. */
const COINBASE_INFORMATION_PREFIX = 'coinbaseInformation-';

/** The storage name (storage.ts) of the coinbase information of the block `displayHash` (32 bytes, display order). */
export function coinbaseInformationKey(displayHash: Uint8Array): string {
  if (displayHash.length !== 32) throw new Error('a Bitcoin block hash takes 32 bytes');
  return COINBASE_INFORMATION_PREFIX + bytesToHex(displayHash);
}
