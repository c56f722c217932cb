/**
 * secp256k1 through the native `secp256k1` binding: about 20x faster than the pure-JS curve for
 * signature recovery (measured in DESIGN.md), which every incoming transaction needs.
 */
import secp256k1 from 'secp256k1';
import { setLengthLeft } from '@ethereumjs/util';

/** ethereumjs' `ecrecover` contract: returns the 64-byte uncompressed public key without the 0x04 prefix. */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = chainId === undefined ? v - 27n : v - (2n * chainId + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  const signature = new Uint8Array(64);
  signature.set(setLengthLeft(r, 32), 0);
  signature.set(setLengthLeft(s, 32), 32);
  const publicKey = secp256k1.ecdsaRecover(signature, Number(recovery), msgHash, false);
  return publicKey.subarray(1);
}

export interface RecoverableSignature {
  r: Uint8Array;
  s: Uint8Array;
  recovery: number;
}

export function sign(msgHash: Uint8Array, privateKey: Uint8Array): RecoverableSignature {
  const { signature, recid } = secp256k1.ecdsaSign(msgHash, privateKey);
  return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recid };
}
