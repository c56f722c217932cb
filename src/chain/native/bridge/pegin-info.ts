/**
 * Who a peg-in pays and who can be refunded, read from the Bitcoin transaction as rskj reads it:
 * the sender of input 0 (rskj co/rsk/peg/btcLockSender/*: BtcLockSenderProvider tries P2PKH,
 * P2SH-P2WPKH, P2SH multisig, P2SH-P2WSH in that order) and the RSKT OP_RETURN payload
 * (co/rsk/peg/pegininstructions/PeginInstructionsProvider, PeginInstructionsVersion1), combined
 * as co/rsk/peg/PeginInformation.parse does. Pure functions: pegin.ts applies them.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256 } from '../../base/bytes.js';
import type { BtcTransaction } from '../../btc-chain/transaction.js';

/** bitcoinj's ScriptException or an invalid key outside rskj's try blocks: rskj's call throws. */
export class PeginParseError extends Error {}

export type SenderType = 'P2PKH' | 'P2SHP2WPKH' | 'P2SHMULTISIG' | 'P2SHP2WSH';

/** A Bitcoin address as rskj keeps it: the version byte and the 20-byte hash. */
export interface BtcAddressHash {
  kind: 'p2pkh' | 'p2sh';
  hash: Uint8Array;
}

export interface LockSender {
  type: SenderType;
  address: BtcAddressHash;
  /** The RSK address of the sender's key (P2PKH, P2SH-P2WPKH only). */
  rskAddress?: Uint8Array;
}

const OP_0 = 0x00;
const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_RETURN = 0x6a;
const OP_CHECKMULTISIG = 0xae;

/** One element of a script as bitcoinj's Script.getChunks gives it: an opcode and its pushed data, if any. */
interface Chunk {
  opcode: number;
  data?: Uint8Array;
}

/** bitcoinj Script.parse: PeginParseError on a push that runs past the end. */
export function scriptChunks(script: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  for (let i = 0; i < script.length; ) {
    const opcode = script[i++]!;
    let length = -1;
    if (opcode >= 0 && opcode < OP_PUSHDATA1) length = opcode;
    else if (opcode === OP_PUSHDATA1 || opcode === OP_PUSHDATA2 || opcode === OP_PUSHDATA4) {
      const width = opcode === OP_PUSHDATA1 ? 1 : opcode === OP_PUSHDATA2 ? 2 : 4;
      if (i + width > script.length) throw new PeginParseError('Unexpected end of script');
      length = 0;
      for (let b = width - 1; b >= 0; b--) length = length * 256 + script[i + b]!;
      i += width;
    }
    if (length < 0) {
      chunks.push({ opcode });
      continue;
    }
    if (i + length > script.length) throw new PeginParseError('Push of data element that is larger than remaining data');
    chunks.push({ opcode, data: script.slice(i, i + length) });
    i += length;
  }
  return chunks;
}

const hash160 = (data: Uint8Array) => ripemd160(sha256(data));

/** org.ethereum.crypto.ECKey.getAddress: keccak256 of the uncompressed key without its prefix, last 20 bytes. */
export function rskAddressOfPublicKey(publicKey: Uint8Array): Uint8Array {
  const point = secp256k1.Point.fromBytes(publicKey);
  return keccak_256(point.toBytes(false).subarray(1)).slice(12);
}

function validKey(bytes: Uint8Array): boolean {
  try {
    secp256k1.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

function smallNum(opcode: number): number | undefined {
  if (opcode === OP_0) return 0;
  return opcode >= OP_1 && opcode <= OP_16 ? opcode - OP_1 + 1 : undefined;
}

/** bitcoinj Script.isSentToMultiSig: OP_m <n keys> OP_n OP_CHECKMULTISIG with m <= n. */
function isSentToMultiSig(script: Uint8Array): boolean {
  const chunks = scriptChunks(script);
  if (chunks.length < 4) return false;
  if (chunks[chunks.length - 1]!.opcode !== OP_CHECKMULTISIG) return false;
  const m = smallNum(chunks[0]!.opcode);
  const n = smallNum(chunks[chunks.length - 2]!.opcode);
  if (m === undefined || n === undefined || m < 1 || n < 1 || m > n) return false;
  if (chunks.length !== n + 3) return false;
  return chunks.slice(1, -2).every((c) => c.data !== undefined);
}

/** P2pkhBtcLockSender.tryParse: a scriptSig of two chunks, the second a public key. */
function p2pkh(tx: BtcTransaction): LockSender | undefined {
  const chunks = scriptChunks(tx.inputs[0]!.scriptSig);
  if (chunks.length !== 2) return undefined;
  const key = chunks[1]!.data;
  if (key === undefined || !validKey(key)) return undefined; // inside rskj's try: not this kind
  return { type: 'P2PKH', address: { kind: 'p2pkh', hash: hash160(key) }, rskAddress: rskAddressOfPublicKey(key) };
}

/** P2shP2wpkhBtcLockSender.tryParse: witness [signature, compressed key], scriptSig one push. */
function p2shP2wpkh(tx: BtcTransaction): LockSender | undefined {
  if (!tx.hasWitness) return undefined;
  if (scriptChunks(tx.inputs[0]!.scriptSig).length !== 1) return undefined;
  const witness = tx.inputs[0]!.witness;
  if (witness.length !== 2) return undefined;
  const key = witness[1]!;
  // BtcECKey.fromPublicOnly runs outside rskj's try block: an invalid key throws out of the Bridge.
  if (!validKey(key)) throw new PeginParseError('witness push 1 is not a public key');
  if (key.length !== 33) return undefined;
  const redeemScript = concatBytes(Uint8Array.of(0x00, 0x14), hash160(key));
  return { type: 'P2SHP2WPKH', address: { kind: 'p2sh', hash: hash160(redeemScript) }, rskAddress: rskAddressOfPublicKey(key) };
}

/** P2shMultisigBtcLockSender.tryParse: at least 3 chunks, the last a multisig redeem script. */
function p2shMultisig(tx: BtcTransaction): LockSender | undefined {
  const chunks = scriptChunks(tx.inputs[0]!.scriptSig);
  if (chunks.length < 3) return undefined;
  const redeemScript = chunks[chunks.length - 1]!.data ?? new Uint8Array(0);
  if (!isSentToMultiSig(redeemScript)) return undefined;
  return { type: 'P2SHMULTISIG', address: { kind: 'p2sh', hash: hash160(redeemScript) } };
}

/** P2shP2wshBtcLockSender.tryParse: scriptSig one push, witness of 3+ pushes ending in a multisig script. */
function p2shP2wsh(tx: BtcTransaction): LockSender | undefined {
  if (!tx.hasWitness) return undefined;
  if (scriptChunks(tx.inputs[0]!.scriptSig).length !== 1) return undefined;
  const witness = tx.inputs[0]!.witness;
  if (witness.length < 3) return undefined;
  const redeemScript = witness[witness.length - 1]!;
  if (!isSentToMultiSig(redeemScript)) return undefined;
  const program = concatBytes(Uint8Array.of(0x00, 0x20), sha256(redeemScript));
  return { type: 'P2SHP2WSH', address: { kind: 'p2sh', hash: hash160(program) } };
}

/** BtcLockSenderProvider.tryGetBtcLockSender; PeginParseError where rskj's parse throws. */
export function lockSender(tx: BtcTransaction): LockSender | undefined {
  if (tx.inputs.length === 0) return undefined;
  return p2pkh(tx) ?? p2shP2wpkh(tx) ?? p2shMultisig(tx) ?? p2shP2wsh(tx);
}

/** "RSKT": the prefix of a peg-in's OP_RETURN payload. */
const RSKT = Uint8Array.of(0x52, 0x53, 0x4b, 0x54);
/** PeginInstructionsVersion1.validateDataLength: prefix, version, RSK address; plus type and hash with a refund address. */
const V1_LENGTH = 25;
const V1_WITH_REFUND_LENGTH = 46;

export type PeginInstructions =
  | { kind: 'none' }
  /** PeginInstructionsException: the payload is there but cannot be used. */
  | { kind: 'invalid'; reason: string }
  | { kind: 'v1'; rskAddress: Uint8Array; refundAddress?: BtcAddressHash };

function rsktPayload(script: Uint8Array): Uint8Array | undefined {
  // Script.isOpReturn and hasOpReturnForRsk: OP_RETURN then a push of at least 4 bytes starting RSKT.
  if (script[0] !== OP_RETURN) return undefined;
  const chunks = scriptChunks(script);
  const data = chunks[1]?.data;
  if (data === undefined || data.length < 4 || !RSKT.every((b, i) => data[i] === b)) return undefined;
  return data;
}

/** PeginInstructionsProvider.buildPeginInstructions. */
export function peginInstructions(tx: BtcTransaction): PeginInstructions {
  const payloads: Uint8Array[] = [];
  for (const output of tx.outputs) {
    let payload: Uint8Array | undefined;
    try {
      payload = rsktPayload(output.script);
    } catch {
      return { kind: 'invalid', reason: 'invalid OP_RETURN structure' };
    }
    if (payload !== undefined) payloads.push(payload);
  }
  if (payloads.length === 0) return { kind: 'none' };
  if (payloads.length > 1) return { kind: 'invalid', reason: `Only one output with OP_RETURN for RSK is allowed. Found ${payloads.length}` };
  const data = payloads[0]!;
  if (data.length < 5) return { kind: 'invalid', reason: 'Invalid data length' };
  if (data[4] !== 1) return { kind: 'invalid', reason: 'Invalid protocol version' };
  if (data.length !== V1_LENGTH && data.length !== V1_WITH_REFUND_LENGTH) return { kind: 'invalid', reason: `Invalid data length ${data.length}` };
  const rskAddress = data.slice(5, 25);
  if (data.length === V1_LENGTH) return { kind: 'v1', rskAddress };
  const type = data[25];
  if (type !== 1 && type !== 2) return { kind: 'invalid', reason: `Invalid btc address type: ${type}` };
  return { kind: 'v1', rskAddress, refundAddress: { kind: type === 1 ? 'p2pkh' : 'p2sh', hash: data.slice(26, 46) } };
}

/** PeginInformation after parse: where the RBTC goes, where a refund could go, or why neither is known. */
export interface PeginInformation {
  protocolVersion: 0 | 1;
  sender?: LockSender;
  rskDestination?: Uint8Array;
  refundAddress?: BtcAddressHash;
  /** Set when the OP_RETURN payload was there but invalid (PeginInstructionsException). */
  invalidPayload?: string;
}

/** PeginInformation.parse (RSKIP170 and RSKIP379 active): the sender first, the payload overriding it. */
export function peginInformation(tx: BtcTransaction): PeginInformation {
  const sender = lockSender(tx);
  const info: PeginInformation = { protocolVersion: 0, sender, rskDestination: sender?.rskAddress, refundAddress: sender?.address };
  const instructions = peginInstructions(tx);
  if (instructions.kind === 'invalid') return { ...info, invalidPayload: instructions.reason };
  if (instructions.kind === 'v1') {
    return { ...info, protocolVersion: 1, rskDestination: instructions.rskAddress, refundAddress: instructions.refundAddress ?? info.refundAddress };
  }
  return info;
}
