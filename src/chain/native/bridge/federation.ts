/**
 * The Bridge's active federation on a fresh regtest: rskj's genesis federation
 * (federation/FederationSupportImpl.getGenesisFederation), a P2SH-P2WSH ERP federation
 * (FederationRegTestConstants.genesisFederationType) of the three regtest keys.
 *
 * Redeem script (bitcoin/P2shErpRedeemScriptBuilder.java):
 *   OP_NOTIF <2-of-3 multisig of the members> OP_ELSE <csv 500> OP_CHECKSEQUENCEVERIFY OP_DROP
 *   <3-of-4 multisig of the ERP keys> OP_ENDIF
 * Each multisig is bitcoinj's ScriptBuilder.createRedeemScript (keys sorted as unsigned bytes).
 * Address (federation/ErpFederation.getOutputScript): P2SH of the P2WSH script OP_0 <sha256(redeem)>.
 * Hashes and base58check from @noble/hashes and @scure/base; only the script layout is ours.
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { equalBytes } from '@noble/curves/utils.js';
import { concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { compareBytes } from '../../base/bytes.js';
import {
  BTC_REGTEST_P2SH_VERSION,
  ERP_FEDERATION_ACTIVATION_DELAY,
  ERP_FEDERATION_PUBLIC_KEYS,
  GENESIS_FEDERATION_CREATION_BLOCK_NUMBER,
  GENESIS_FEDERATION_CREATION_TIME_SECONDS,
  GENESIS_FEDERATION_PUBLIC_KEYS,
} from './constants.js';

const OP_0 = 0x00;
const OP_NOTIF = 0x64;
const OP_ELSE = 0x67;
const OP_ENDIF = 0x68;
const OP_DROP = 0x75;
const OP_CHECKMULTISIG = 0xae;
const OP_CHECKSEQUENCEVERIFY = 0xb2;
const OP_HASH160 = 0xa9;
const OP_EQUAL = 0x87;

export type FederationKeyType = 'btc' | 'rsk' | 'mst';

export interface Federation {
  /** Member public keys (compressed), in rskj's member order (sorted by BTC key, then RSK, then MST). */
  members: Uint8Array[];
  threshold: number;
  redeemScript: Uint8Array;
  address: string;
  creationTimeSeconds: bigint;
  creationBlockNumber: bigint;
}

/** OP_1..OP_16 for small numbers (bitcoinj ScriptBuilder.smallNum). */
function smallNum(n: number): number {
  if (n < 1 || n > 16) throw new Error('small number out of range');
  return 0x50 + n;
}

function pushData(data: Uint8Array): Uint8Array {
  if (data.length >= 0x4c) throw new Error('push longer than 75 bytes is not needed here');
  return concatBytes(Uint8Array.of(data.length), data);
}

/** bitcoinj ScriptBuilder.createRedeemScript: OP_m <sorted keys> OP_n OP_CHECKMULTISIG. */
export function multisigScript(threshold: number, keys: readonly Uint8Array[]): Uint8Array {
  const sorted = [...keys].sort(compareBytes);
  return concatBytes(
    Uint8Array.of(smallNum(threshold)),
    ...sorted.map(pushData),
    Uint8Array.of(smallNum(sorted.length), OP_CHECKMULTISIG),
  );
}

/** bitcoinj Utils.signedLongToByteArrayLE: minimal little-endian, with a sign byte if the top bit is set. */
export function signedLongToByteArrayLE(value: number): Uint8Array {
  const out: number[] = [];
  let v = Math.abs(value);
  while (v > 0) {
    out.push(v & 0xff);
    v = Math.floor(v / 256);
  }
  if (out.length > 0 && (out[out.length - 1]! & 0x80) !== 0) out.push(value < 0 ? 0x80 : 0);
  else if (value < 0) out[out.length - 1]! |= 0x80;
  return Uint8Array.from(out);
}

export function erpRedeemScript(
  keys: readonly Uint8Array[],
  erpKeys: readonly Uint8Array[],
  csvValue: number,
): Uint8Array {
  const threshold = Math.floor(keys.length / 2) + 1; // Federation.getNumberOfSignaturesRequired
  const erpThreshold = Math.floor(erpKeys.length / 2) + 1; // ErpFederation.getNumberOfEmergencySignaturesRequired
  return concatBytes(
    Uint8Array.of(OP_NOTIF),
    multisigScript(threshold, keys),
    Uint8Array.of(OP_ELSE),
    pushData(signedLongToByteArrayLE(csvValue)),
    Uint8Array.of(OP_CHECKSEQUENCEVERIFY, OP_DROP),
    multisigScript(erpThreshold, erpKeys),
    Uint8Array.of(OP_ENDIF),
  );
}

const base58check = createBase58check(sha256);

/** P2SH-P2WSH address: base58check(version || HASH160(OP_0 <sha256(redeemScript)>)). */
export function p2shP2wshAddress(redeemScript: Uint8Array, version = BTC_REGTEST_P2SH_VERSION): string {
  const witnessScript = concatBytes(Uint8Array.of(OP_0, 32), sha256(redeemScript));
  const scriptHash = ripemd160(sha256(witnessScript));
  return base58check.encode(concatBytes(Uint8Array.of(version), scriptHash));
}

/** FlyoverRedeemScriptBuilderImpl's prefix: the 32-byte derivation hash pushed (ScriptBuilder.data), then OP_DROP. */
const FLYOVER_PREFIX_LENGTH = 34;
const PUSH_32 = 0x20;

/** FlyoverRedeemScriptBuilderImpl.of: <derivation hash> OP_DROP, then the federation's redeem script's chunks. */
export function flyoverRedeemScript(derivationHash: Uint8Array, federationRedeemScript: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(PUSH_32), derivationHash, Uint8Array.of(OP_DROP), federationRedeemScript);
}

/** Whether `script` is the federation's redeem script or a flyover one built on it. */
export function isFederationRedeemScript(script: Uint8Array, federation: Federation): boolean {
  if (equalBytes(script, federation.redeemScript)) return true;
  return (
    script.length === FLYOVER_PREFIX_LENGTH + federation.redeemScript.length &&
    script[0] === PUSH_32 &&
    script[FLYOVER_PREFIX_LENGTH - 1] === OP_DROP &&
    equalBytes(script.subarray(FLYOVER_PREFIX_LENGTH), federation.redeemScript)
  );
}

/** bitcoinj ScriptBuilder.createP2SHP2WSHOutputScript: OP_HASH160 <HASH160(OP_0 <sha256(redeemScript)>)> OP_EQUAL. */
export function p2shP2wshOutputScript(redeemScript: Uint8Array): Uint8Array {
  const witnessScript = concatBytes(Uint8Array.of(OP_0, 32), sha256(redeemScript));
  return concatBytes(Uint8Array.of(OP_HASH160, 20), ripemd160(sha256(witnessScript)), Uint8Array.of(OP_EQUAL));
}

/** The P2SH output script paying a federation (what peg-ins pay). */
export function federationOutputScript(federation: Federation): Uint8Array {
  return p2shP2wshOutputScript(federation.redeemScript);
}

function buildGenesisFederation(): Federation {
  const members = GENESIS_FEDERATION_PUBLIC_KEYS.map((k) => hexToBytes(k)).sort(compareBytes);
  const erpKeys = ERP_FEDERATION_PUBLIC_KEYS.map((k) => hexToBytes(k));
  const redeemScript = erpRedeemScript(members, erpKeys, ERP_FEDERATION_ACTIVATION_DELAY);
  return {
    members,
    threshold: Math.floor(members.length / 2) + 1,
    redeemScript,
    address: p2shP2wshAddress(redeemScript),
    creationTimeSeconds: GENESIS_FEDERATION_CREATION_TIME_SECONDS,
    creationBlockNumber: GENESIS_FEDERATION_CREATION_BLOCK_NUMBER,
  };
}

/** rskj's regtest genesis federation: the active federation while nothing votes a new one. */
export const GENESIS_FEDERATION: Federation = buildGenesisFederation();

/**
 * FederationSupportImpl.getFederationMemberPublicKeyOfType: regtest members use one key for BTC,
 * RSK and MST (FederationMember.getFederationMemberFromKey), so every type gives the same key.
 * Returns undefined for an index out of range (rskj throws IndexOutOfBoundsException).
 */
export function federatorPublicKey(federation: Federation, index: bigint, _type: FederationKeyType): Uint8Array | undefined {
  if (index < 0n || index >= BigInt(federation.members.length)) return undefined;
  return federation.members[Number(index)];
}

/** A federator's RSK address: keccak-256 of its (uncompressed) key, last 20 bytes (regtest: RSK key = BTC key). */
export function federatorRskAddress(publicKey: Uint8Array): Uint8Array {
  return keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).subarray(1)).subarray(12);
}

/** BridgeUtils.isFromFederateMember: the index of the member whose RSK address is `address`, or -1. */
export function memberIndexOfRskAddress(federation: Federation, address: Uint8Array): number {
  return federation.members.findIndex((key) => equalBytes(federatorRskAddress(key), address));
}
