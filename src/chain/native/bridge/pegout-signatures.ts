/**
 * Bridge.addSignature (P/Bridge.java: argument checks that throw, behind
 * activeRetiringAndProposedFederationOnly) -> P/BridgeSupport.java addSignature /
 * addReleaseSignatures / processSigning / sign (checks that return silently): a federator's DER
 * signatures, one per input over its BIP143 sighash; add_signature per signer, and at the
 * threshold release_btc with the fully signed transaction, the entry removed.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { equalBytes } from '@noble/curves/utils.js';
import { bridgeLog } from './events.js';
import { federatorRskAddress, memberIndexOfRskAddress } from './federation.js';
import { activeFederation } from './getters.js';
import type { BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import { readWaitingForSignatures, writeWaitingForSignatures } from './pegout-store.js';
import { releaseSighashes, signedReleaseTx } from './release-tx.js';

const ok = (): BridgeHandlerResult => ({ values: [] });

const NOT_A_FEDERATOR = (name: string) =>
  `The sender is not a member of the active, retiring, or proposed federations and is therefore not authorized to call the function: '${name}'`;

/** BtcECKey.ECDSASignature.decodeFromDER: a parsable DER signature (S above n/2 is not refused here). */
function decodesAsDer(der: Uint8Array): boolean {
  try {
    secp256k1.Signature.fromBytes(der, 'der');
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a DER signature verifies for `digest` and `publicKey`. Low S required: our choice, so a
 * released transaction passes bitcoind's relay policy (rskj's BtcECKey.verify would take high S).
 */
function verifies(der: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(der, digest, publicKey, { prehash: false, format: 'der', lowS: true });
  } catch {
    return false;
  }
}

/**
 * Bridge.addSignature (activeRetiringAndProposedFederationOnly; argument checks that throw) ->
 * BridgeSupport.addSignature / addReleaseSignatures (checks that return silently).
 */
export const addSignatureHandler: BridgeHandler = async ({ call, args, storage, logs }) => {
  const federation = activeFederation();
  if (memberIndexOfRskAddress(federation, call.caller) < 0) return { fail: NOT_A_FEDERATOR('addSignature') };
  const [publicKey, signatures, rskTxHash] = args as [Uint8Array, Uint8Array[], Uint8Array];
  try {
    secp256k1.Point.fromBytes(publicKey);
  } catch {
    return { fail: 'Public key could not be parsed' };
  }
  if (signatures.length === 0) return { fail: 'Signatures array is empty' };
  if (!signatures.every(decodesAsDer)) return { fail: 'Signature could not be parsed' };
  if (rskTxHash.length !== 32) return { fail: 'Invalid rsk tx hash' };

  const signing = await readWaitingForSignatures(storage);
  const entry = signing.find((s) => equalBytes(s.rskTxHash, rskTxHash));
  if (entry === undefined) return ok(); // "No tx waiting for signature for hash …. Probably fully signed already."
  if (signatures.length !== entry.outpointValues.length) return ok(); // areSignaturesEnoughToSignAllTxInputs
  const compressed = secp256k1.Point.fromBytes(publicKey).toBytes(true);
  const keyIndex = federation.members.findIndex((k) => equalBytes(k, compressed));
  if (keyIndex < 0) return ok(); // "does not belong to any of the federators"
  const sighashes = releaseSighashes(entry.unsigned, entry.redeemScripts, entry.outpointValues);
  if (!signatures.every((der, i) => verifies(der, sighashes[i]!, compressed))) return ok(); // processSigning: SignatureException

  // BridgeSupport.sign: stops at the first input this federator already signed.
  let signed = false;
  for (let i = 0; i < entry.signatures.length; i++) {
    const input = entry.signatures[i]!;
    if (input.some((s) => s.keyIndex === keyIndex)) break;
    input.push({ keyIndex, der: signatures[i]! });
    input.sort((a, b) => a.keyIndex - b.keyIndex);
    signed = true;
  }
  if (signed) logs.push(bridgeLog('add_signature', [rskTxHash, federatorRskAddress(compressed)], [compressed]));

  const complete = entry.signatures.every((input) => input.length >= federation.threshold);
  if (complete) {
    const sigs = entry.signatures.map((input) => input.slice(0, federation.threshold).map((s) => s.der));
    logs.push(bridgeLog('release_btc', [rskTxHash], [signedReleaseTx(entry.unsigned, entry.redeemScripts, sigs)]));
    await writeWaitingForSignatures(storage, signing.filter((s) => s !== entry));
  } else if (signed) {
    await writeWaitingForSignatures(storage, signing);
  }
  return ok();
};
