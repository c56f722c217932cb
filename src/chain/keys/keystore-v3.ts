/**
 * Web3 Secret Storage v3 keystores (geth's and rskj's key files) on node:crypto: scrypt or PBKDF2
 * (HMAC-SHA256) for the key, AES-128-CTR for the private key, keccak-256 for the MAC. node:crypto
 * runs scrypt and PBKDF2 on libuv's thread pool, so an encryption or unlock (tens to hundreds of
 * milliseconds of work) never holds the event loop; the pure-JS scrypt of @ethereumjs/wallet held
 * it for 180-980 ms per call.
 */
import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, scrypt } from 'node:crypto';
import { bytesToHex, concatBytes, equalsBytes, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';

const CIPHER = 'aes-128-ctr';
const DERIVED_KEY_BYTES = 32;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
/** Largest scrypt N a keystore may ask for (geth's standard is 2^18; 2^20 needs 1 GiB). */
const MAX_SCRYPT_N = 1 << 20;
/** Largest PBKDF2 iteration count a keystore may ask for (geth writes 262,144). */
const MAX_PBKDF2_ROUNDS = 10_000_000;
/** How long the JS scrypt fallback runs before it lets the event loop through. */
const NOBLE_SCRYPT_TICK_MS = 5;

export interface KeystoreV3 {
  version: 3;
  id: string;
  /** The account's address, lowercase hex without 0x (geth writes it; the spec leaves it out). */
  address: string;
  crypto: {
    ciphertext: string;
    cipherparams: { iv: string };
    cipher: string;
    kdf: string;
    kdfparams: Record<string, unknown>;
    mac: string;
  };
}

/** The MAC did not match: the passphrase is wrong (or the file was changed). */
export class KeystoreMacMismatch extends Error {}

const unprefixed = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const fromHex = (hex: unknown, what: string): Uint8Array => {
  if (typeof hex !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`keystore ${what} is not hex`);
  return hexToBytes(`0x${hex.replace(/^0x/, '')}`);
};

async function scryptKey(passphrase: string, salt: Uint8Array, n: number, r: number, p: number, dklen: number): Promise<Uint8Array> {
  const password = Buffer.from(passphrase, 'utf8');
  // node:crypto refuses more memory than maxmem: allow what N and r need (128·N·r bytes) and a margin.
  const maxmem = 129 * n * r + 1024 * 1024;
  try {
    return await new Promise((resolve, reject) => scrypt(password, salt, dklen, { N: n, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))));
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS') throw err;
    // OpenSSL wants N < 2^(16·r); rarer files (r = 1, as in the spec's own vector) take the JS
    // scrypt, which yields to the event loop every few milliseconds.
    const { scryptAsync } = await import('@noble/hashes/scrypt.js');
    return scryptAsync(password, salt, { N: n, r, p, dkLen: dklen, maxmem, asyncTick: NOBLE_SCRYPT_TICK_MS });
  }
}

/** The key derivation a keystore names, checked before any work starts. */
function deriveKey(passphrase: string, kdf: string, params: Record<string, unknown>): Promise<Uint8Array> {
  const salt = fromHex(params.salt, 'salt');
  const dklen = Number(params.dklen);
  if (!Number.isInteger(dklen) || dklen < DERIVED_KEY_BYTES || dklen > 64) throw new Error(`keystore dklen ${String(params.dklen)} is not supported`);
  if (kdf === 'scrypt') {
    const [n, r, p] = [Number(params.n), Number(params.r), Number(params.p)];
    if (!Number.isInteger(n) || n < 2 || n > MAX_SCRYPT_N || (n & (n - 1)) !== 0 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) {
      throw new Error('keystore scrypt parameters are not supported');
    }
    return scryptKey(passphrase, salt, n, r, p, dklen);
  }
  if (kdf === 'pbkdf2') {
    const rounds = Number(params.c);
    if (params.prf !== 'hmac-sha256' || !Number.isInteger(rounds) || rounds < 1 || rounds > MAX_PBKDF2_ROUNDS) throw new Error('keystore PBKDF2 parameters are not supported');
    return new Promise((resolve, reject) =>
      pbkdf2(Buffer.from(passphrase, 'utf8'), salt, rounds, dklen, 'sha256', (err, key) => (err ? reject(err) : resolve(key))),
    );
  }
  throw new Error(`keystore key derivation ${kdf} is not supported`);
}

function macOf(derivedKey: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return keccak256(concatBytes(derivedKey.subarray(16, 32), ciphertext));
}

/** Encrypts `privateKey` under `passphrase` with scrypt cost `n` (r 8, p 1), as geth writes keystores. */
export async function encryptKeystore(privateKey: Uint8Array, passphrase: string, n: number): Promise<KeystoreV3> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derivedKey = await scryptKey(passphrase, salt, n, SCRYPT_R, SCRYPT_P, DERIVED_KEY_BYTES);
  const cipher = createCipheriv(CIPHER, derivedKey.subarray(0, 16), iv);
  const ciphertext = concatBytes(cipher.update(privateKey), cipher.final());
  return {
    version: 3,
    id: randomUUID(),
    address: unprefixed(privateToAddress(privateKey)),
    crypto: {
      ciphertext: unprefixed(ciphertext),
      cipherparams: { iv: unprefixed(iv) },
      cipher: CIPHER,
      kdf: 'scrypt',
      kdfparams: { dklen: DERIVED_KEY_BYTES, n, r: SCRYPT_R, p: SCRYPT_P, salt: unprefixed(salt) },
      mac: unprefixed(macOf(derivedKey, ciphertext)),
    },
  };
}

/** The private key in `keystore`; KeystoreMacMismatch for a wrong passphrase. */
export async function decryptKeystore(keystore: KeystoreV3, passphrase: string): Promise<Uint8Array> {
  // geth reads "crypto", older writers wrote "Crypto".
  const crypto = keystore.crypto ?? (keystore as unknown as { Crypto?: KeystoreV3['crypto'] }).Crypto;
  if (keystore.version !== 3 || crypto === undefined) throw new Error('not a version 3 keystore');
  if (crypto.cipher !== CIPHER) throw new Error(`keystore cipher ${crypto.cipher} is not supported`);
  const derivedKey = await deriveKey(passphrase, crypto.kdf, crypto.kdfparams ?? {});
  const ciphertext = fromHex(crypto.ciphertext, 'ciphertext');
  if (!equalsBytes(macOf(derivedKey, ciphertext), fromHex(crypto.mac, 'mac'))) throw new KeystoreMacMismatch('could not decrypt key with given password');
  const decipher = createDecipheriv(CIPHER, derivedKey.subarray(0, 16), fromHex(crypto.cipherparams?.iv, 'iv'));
  return concatBytes(decipher.update(ciphertext), decipher.final());
}

/** A new random private key (a valid secp256k1 scalar). */
export function randomPrivateKey(): Uint8Array {
  for (;;) {
    const key = randomBytes(32);
    try {
      privateToAddress(key);
      return key;
    } catch {
      // 0 or ≥ the curve order: astronomically rare; draw again.
    }
  }
}

/** geth's file name: UTC--<ISO time with '-' for ':'>--<address>. */
export function keystoreFileName(address: string, now: number): string {
  return `UTC--${new Date(now).toJSON().replace(/:/g, '-')}--${address.replace(/^0x/, '').toLowerCase()}`;
}
