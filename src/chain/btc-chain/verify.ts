/**
 * Signature checks of a transaction's inputs against the outputs they spend. Not a script
 * interpreter: the standard single-key spends are recognised by template (P2PKH, P2WPKH,
 * P2SH-P2WPKH, P2TR key path) and their signatures checked over the sighash @scure/btc-signer
 * computes (legacy, BIP143, BIP341), with @noble/curves (ECDSA low-S strict DER, BIP340 Schnorr).
 * The federation's output is spent too: P2SH-P2WSH of an ERP redeem script (OP_NOTIF <m-of-n
 * multisig> OP_ELSE <emergency branch> OP_ENDIF, native/bridge/federation.ts) through its multisig
 * branch, witness [empty, m signatures in key order, empty, redeem script], checked as
 * OP_CHECKMULTISIG checks them over the BIP143 sighash; and a Flyover federation's output, whose
 * redeem script is <32-byte derivation hash> OP_DROP before the same ERP script (rskj
 * FlyoverRedeemScriptBuilderImpl: the push and drop leave the stack as it was). Any other kind of
 * output cannot be spent here; the error says so.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { equalBytes } from '@noble/curves/utils.js';
import { OutScript, Script, Transaction } from '@scure/btc-signer';
import { ChainError } from '../base/errors.js';
import type { BtcTransaction } from './transaction.js';

export interface SpentOutput {
  amount: bigint;
  script: Uint8Array;
}

/** A transaction the chain refuses (rskj's pool rejections are txRejected too: -32010). */
function rejected(message: string): ChainError {
  return new ChainError('txRejected', message);
}

/** BIP341: a 64-byte key-path signature means SIGHASH_DEFAULT. */
const SIGHASH_DEFAULT = 0;
const SUPPORTED = 'P2PKH, P2WPKH, P2SH-P2WPKH, P2TR key-path and federation (P2SH-P2WSH ERP multisig branch) spends';

/** The private legacy sighash of btc-signer's Transaction (it is not exported, but signing uses it). */
interface LegacySighash {
  preimageLegacy(idx: number, prevOutScript: Uint8Array, hashType: number): Uint8Array;
}

const hash160 = (data: Uint8Array) => ripemd160(sha256(data));
/** OP_0 <32 bytes>: a P2WSH witness program. */
const isP2wshProgram = (script: Uint8Array) => script.length === 34 && script[0] === 0 && script[1] === 32;

/** The data pushes of a script; undefined when it holds anything but pushes. */
function pushes(script: Uint8Array): Uint8Array[] | undefined {
  let items;
  try {
    items = Script.decode(script);
  } catch {
    return undefined;
  }
  return items.every((item) => item instanceof Uint8Array) ? (items as Uint8Array[]) : undefined;
}

/** FlyoverRedeemScriptBuilderImpl's prefix: the derivation hash (a Keccak256) pushed, then OP_DROP. */
const FLYOVER_DERIVATION_HASH_LENGTH = 32;

/**
 * The m-of-n multisig that an ERP redeem script's OP_NOTIF branch holds, behind a flyover prefix
 * or not; undefined for any other script.
 */
function erpMultisig(script: Uint8Array): { m: number; keys: Uint8Array[] } | undefined {
  let items;
  try {
    items = Script.decode(script);
  } catch {
    return undefined;
  }
  const [first, second] = items;
  if (first instanceof Uint8Array && first.length === FLYOVER_DERIVATION_HASH_LENGTH && second === 'DROP') items = items.slice(2);
  const [notif, m] = items;
  if (notif !== 'NOTIF' || typeof m !== 'number') return undefined;
  const keys: Uint8Array[] = [];
  let i = 2;
  while (items[i] instanceof Uint8Array) keys.push(items[i++] as Uint8Array);
  const n = items[i];
  if (n !== keys.length || items[i + 1] !== 'CHECKMULTISIG' || items[i + 2] !== 'ELSE' || items[items.length - 1] !== 'ENDIF') return undefined;
  if (m < 1 || m > keys.length) return undefined;
  return { m, keys };
}

/** OP_CHECKMULTISIG: each signature verifies against a key after the previous signature's key. */
function checkMultisig(index: number, signatures: Uint8Array[], keys: Uint8Array[], digest: (hashType: number) => Uint8Array): void {
  let k = 0;
  for (const signature of signatures) {
    if (signature.length < 9) throw rejected(`input ${index}: missing signature`);
    const hashType = signature[signature.length - 1]!;
    const hash = digest(hashType);
    while (k < keys.length && !ecdsaVerifies(signature.subarray(0, -1), hash, keys[k]!)) k++;
    if (k === keys.length) throw rejected(`input ${index}: the federation's signatures do not verify against its keys in order`);
    k++;
  }
}

function ecdsaVerifies(der: Uint8Array, digest: Uint8Array, pubkey: Uint8Array): boolean {
  try {
    return secp256k1.verify(der, digest, pubkey, { prehash: false, format: 'der' });
  } catch {
    return false;
  }
}

/** A P2SH-P2WSH spend of an ERP redeem script through its multisig branch. */
function checkFederationSpend(index: number, input: BtcTransaction['inputs'][number], program: Uint8Array, amount: bigint, signer: Transaction): void {
  const witness = input.witness;
  const script = witness[witness.length - 1];
  if (script === undefined || !equalBytes(sha256(script), program.subarray(2))) throw rejected(`input ${index}: the witness script does not hash to the output's P2WSH program`);
  const multisig = erpMultisig(script);
  if (multisig === undefined) throw rejected(`input ${index}: a P2SH-P2WSH output is spendable here only through an ERP federation redeem script`);
  const { m, keys } = multisig;
  const [dummy, ...rest] = witness;
  const branch = rest[rest.length - 2];
  if (witness.length !== m + 3 || dummy?.length !== 0 || branch?.length !== 0) {
    throw rejected(`input ${index}: the federation's spend is [empty, ${m} signatures, empty, redeem script] in the witness`);
  }
  checkMultisig(index, rest.slice(0, m), keys, (hashType) => signer.preimageWitnessV0(index, script, hashType, amount));
}

function checkEcdsa(index: number, signature: Uint8Array | undefined, pubkey: Uint8Array, digest: (hashType: number) => Uint8Array): void {
  if (signature === undefined || signature.length < 9) throw rejected(`input ${index}: missing signature`);
  const hashType = signature[signature.length - 1]!;
  let valid = false;
  try {
    valid = secp256k1.verify(signature.subarray(0, -1), digest(hashType), pubkey, { prehash: false, format: 'der' });
  } catch {
    valid = false;
  }
  if (!valid) throw rejected(`input ${index}: the signature does not verify (strict DER and low S required)`);
}

/** Throws a txRejected ChainError unless every input's signature verifies against the output it spends. */
export function verifySignatures(tx: BtcTransaction, spent: readonly SpentOutput[]): void {
  const signer = Transaction.fromRaw(tx.raw, { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true, allowUnknownVersion: true });
  const legacy = signer as unknown as LegacySighash;
  tx.inputs.forEach((input, i) => {
    const prev = spent[i]!;
    let out;
    try {
      out = OutScript.decode(prev.script);
    } catch {
      out = { type: 'unknown' as const };
    }
    const stack = pushes(input.scriptSig);
    if (out.type === 'pkh') {
      if (stack?.length !== 2 || input.witness.length > 0) throw rejected(`input ${i}: a P2PKH spend is <signature> <public key> in the scriptSig`);
      if (!equalBytes(hash160(stack[1]!), out.hash)) throw rejected(`input ${i}: the public key does not hash to the output's address`);
      checkEcdsa(i, stack[0], stack[1]!, (hashType) => legacy.preimageLegacy(i, prev.script, hashType));
      return;
    }
    if (out.type === 'sh' && stack?.length === 1 && equalBytes(hash160(stack[0]!), out.hash) && isP2wshProgram(stack[0]!)) {
      checkFederationSpend(i, input, stack[0]!, prev.amount, signer);
      return;
    }
    let keyHash: Uint8Array | undefined;
    if (out.type === 'wpkh') {
      if (input.scriptSig.length > 0) throw rejected(`input ${i}: a P2WPKH spend has an empty scriptSig`);
      keyHash = out.hash;
    } else if (out.type === 'sh' && stack?.length === 1 && equalBytes(hash160(stack[0]!), out.hash)) {
      const redeem = OutScript.decode(stack[0]!);
      if (redeem.type === 'wpkh') keyHash = redeem.hash;
    }
    if (keyHash !== undefined) {
      const [signature, pubkey] = input.witness;
      if (input.witness.length !== 2 || pubkey === undefined) throw rejected(`input ${i}: a P2WPKH spend's witness is <signature> <public key>`);
      if (pubkey.length !== 33 || !equalBytes(hash160(pubkey), keyHash)) throw rejected(`input ${i}: the witness key does not hash to the output's address (compressed keys only)`);
      const scriptCode = OutScript.encode({ type: 'pkh', hash: keyHash });
      checkEcdsa(i, signature, pubkey, (hashType) => signer.preimageWitnessV0(i, scriptCode, hashType, prev.amount));
      return;
    }
    if (out.type === 'tr') {
      const [signature] = input.witness;
      if (input.witness.length !== 1 || signature === undefined || input.scriptSig.length > 0) {
        throw rejected(`input ${i}: only key-path Taproot spends (one signature in the witness) are verified here`);
      }
      if (signature.length !== 64 && signature.length !== 65) throw rejected(`input ${i}: a Taproot signature has 64 or 65 bytes`);
      const hashType = signature.length === 65 ? signature[64]! : SIGHASH_DEFAULT;
      if (signature.length === 65 && hashType === SIGHASH_DEFAULT) throw rejected(`input ${i}: a 65-byte Taproot signature cannot carry SIGHASH_DEFAULT`);
      let valid = false;
      try {
        const digest = signer.preimageWitnessV1(i, spent.map((s) => s.script), hashType, spent.map((s) => s.amount));
        valid = schnorr.verify(signature.subarray(0, 64), digest, out.pubkey);
      } catch {
        valid = false;
      }
      if (!valid) throw rejected(`input ${i}: the Taproot signature does not verify`);
      return;
    }
    throw rejected(`input ${i} spends a ${out.type === 'unknown' ? 'non-standard' : out.type} output: this node verifies ${SUPPORTED}`);
  });
}
