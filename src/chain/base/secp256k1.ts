/**
 * secp256k1 through the native `secp256k1` binding: about 20x faster than the pure-JS curve for
 * signature recovery (measured when chosen, docs/decisions.md#execution), which every incoming transaction needs.
 */
import { createRequire } from 'node:module';
import type Secp256k1 from 'secp256k1';
import { setLengthLeft } from '@ethereumjs/util';

let binding: typeof Secp256k1 | undefined;

/**
 * The binding, loaded on first use: loading the native addon was a noticeable part of the node's
 * start-up, which verifies no signature. A synchronous require, since ecrecover (a Common's
 * customCrypto) must be synchronous; the server's warm-up (node.ts) calls it early.
 */
export function secp256k1(): typeof Secp256k1 {
  binding ??= createRequire(import.meta.url)('secp256k1') as typeof Secp256k1;
  return binding;
}

/** ethereumjs' `ecrecover` contract: returns the 64-byte uncompressed public key without the 0x04 prefix. */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = chainId === undefined ? v - 27n : v - (2n * chainId + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  const signature = new Uint8Array(64);
  signature.set(setLengthLeft(r, 32), 0);
  signature.set(setLengthLeft(s, 32), 32);
  const publicKey = secp256k1().ecdsaRecover(signature, Number(recovery), msgHash, false);
  return publicKey.subarray(1);
}

export interface RecoverableSignature {
  r: Uint8Array;
  s: Uint8Array;
  recovery: number;
}

export function sign(msgHash: Uint8Array, privateKey: Uint8Array): RecoverableSignature {
  const { signature, recid } = secp256k1().ecdsaSign(msgHash, privateKey);
  return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recid };
}
