/**
 * The federation's Bitcoin UTXOs as the Bridge records them (rskj BridgeStorageProvider
 * getNewFederationBtcUTXOs, key "newFederationBtcUTXOs"): added by each registered peg-in, by a
 * Flyover peg-in (flyover.ts) and by a peg-out's change, spent by the peg-out batches. The Bridge
 * never looks at the Bitcoin chain's own UTXO set for these; it knows only what was registered
 * with it, as on RSK.
 *
 * Each UTXO carries the redeem script its input must be signed and witnessed with: the
 * federation's, or for a Flyover peg-in's output the flyover redeem script (<derivation hash>
 * OP_DROP + the federation's). rskj finds that script when it builds the release, from the
 * output's script hash (FlyoverCompatibleBtcWallet.findRedeemDataFromScriptHash); we keep it with
 * the UTXO, so building and signing need no second lookup.
 *
 * Stored as one RLP list of [txid, vout, value, height, script(, redeemScript)] (storage.ts); txid
 * in display (byte-reversed) order, as bitcoinj's Sha256Hash and @scure/btc-signer's inputs take
 * it. The redeem script is written only when it is not the federation's, so UTXOs stored before
 * Flyover existed (five fields) read as the federation's: the genesis federation's, the only one
 * a devnode's Bridge has (getters.ts activeFederation).
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, equalsBytes, intToUnpaddedBytes, bytesToInt } from '@ethereumjs/util';
import { GENESIS_FEDERATION } from './federation.js';
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
  /** The output script (the federation's P2SH, or a flyover federation's). */
  script: Uint8Array;
  /** The redeem script an input spending it is signed and witnessed with. */
  redeemScript: Uint8Array;
}

export async function readFederationUtxos(storage: BridgeStorage): Promise<FederationUtxo[]> {
  const raw = await storage.get(ACTIVE_FEDERATION_UTXOS_KEY);
  if (raw.length === 0) return [];
  const federationScript = GENESIS_FEDERATION.redeemScript;
  return (RLP.decode(raw) as Uint8Array[][]).map(([txid, vout, value, height, script, redeemScript]) => ({
    txid: txid!,
    vout: bytesToInt(vout!),
    value: bytesToBigInt(value!),
    height: bytesToInt(height!),
    script: script!,
    redeemScript: redeemScript ?? federationScript,
  }));
}

export async function writeFederationUtxos(storage: BridgeStorage, utxos: readonly FederationUtxo[]): Promise<void> {
  if (utxos.length === 0) return storage.set(ACTIVE_FEDERATION_UTXOS_KEY, new Uint8Array(0));
  const federationScript = GENESIS_FEDERATION.redeemScript;
  const encoded = RLP.encode(
    utxos.map((u) => {
      const fields = [u.txid, intToUnpaddedBytes(u.vout), bigIntToUnpaddedBytes(u.value), intToUnpaddedBytes(u.height), u.script];
      return equalsBytes(u.redeemScript, federationScript) ? fields : [...fields, u.redeemScript];
    }),
  );
  await storage.set(ACTIVE_FEDERATION_UTXOS_KEY, encoded);
}
