/**
 * The federation's Bitcoin UTXOs as the Bridge records them (rskj BridgeStorageProvider
 * getNewFederationBtcUTXOs, key "newFederationBtcUTXOs"): added by each registered peg-in and by a
 * peg-out's change, spent by the peg-out batches. The Bridge never looks at the Bitcoin chain's own
 * UTXO set for these; it knows only what was registered with it, as on RSK.
 *
 * Stored as one RLP list of [txid, vout, value, height, script] (storage.ts); txid in display
 * (byte-reversed) order, as bitcoinj's Sha256Hash and @scure/btc-signer's inputs take it.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, intToUnpaddedBytes, bytesToInt } from '@ethereumjs/util';
import type { BridgeStorage } from './storage.js';

/** rskj BridgeStorageIndexKey.NEW_FEDERATION_BTC_UTXOS_KEY. */
export const ACTIVE_FEDERATION_UTXOS_KEY = 'newFederationBtcUTXOs';

export interface FederationUtxo {
  /** 32 bytes, display order. */
  txid: Uint8Array;
  vout: number;
  /** Satoshis. */
  value: bigint;
  /** The Bitcoin block height that mined it. */
  height: number;
  /** The output script (the federation's P2SH). */
  script: Uint8Array;
}

export async function readFederationUtxos(storage: BridgeStorage): Promise<FederationUtxo[]> {
  const raw = await storage.get(ACTIVE_FEDERATION_UTXOS_KEY);
  if (raw.length === 0) return [];
  return (RLP.decode(raw) as Uint8Array[][]).map(([txid, vout, value, height, script]) => ({
    txid: txid!,
    vout: bytesToInt(vout!),
    value: bytesToBigInt(value!),
    height: bytesToInt(height!),
    script: script!,
  }));
}

export async function writeFederationUtxos(storage: BridgeStorage, utxos: readonly FederationUtxo[]): Promise<void> {
  if (utxos.length === 0) return storage.set(ACTIVE_FEDERATION_UTXOS_KEY, new Uint8Array(0));
  const encoded = RLP.encode(
    utxos.map((u) => [u.txid, intToUnpaddedBytes(u.vout), bigIntToUnpaddedBytes(u.value), intToUnpaddedBytes(u.height), u.script]),
  );
  await storage.set(ACTIVE_FEDERATION_UTXOS_KEY, encoded);
}
