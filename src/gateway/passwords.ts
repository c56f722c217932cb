/** Password hashing: scrypt from node:crypto (memory-hard), a random salt per password. */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** N = 2^15 with r = 8 uses 32 MiB per hash: memory-hard, yet about 100 ms here. */
const SCRYPT_OPTIONS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export interface PasswordHash {
  salt: string;
  hash: string;
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(password, salt, KEY_BYTES, SCRYPT_OPTIONS);
  return { salt: salt.toString('hex'), hash: hash.toString('hex') };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const hash = await scrypt(password, Buffer.from(stored.salt, 'hex'), KEY_BYTES, SCRYPT_OPTIONS);
  return timingSafeEqual(hash, Buffer.from(stored.hash, 'hex'));
}

/**
 * What an unknown email's password is verified against, so a failed login takes the same time (one
 * scrypt). No password hashes to it, so nothing needs hashing for it: computing one at start-up
 * cost the node's cold start a scrypt (32 MiB, about 100 ms of CPU).
 */
export const DUMMY_HASH: PasswordHash = { salt: '00'.repeat(SALT_BYTES), hash: '00'.repeat(KEY_BYTES) };
