import { describe, expect, it } from 'vitest';
import { Wallet } from '@ethereumjs/wallet';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { KeystoreMacMismatch, type KeystoreV3, decryptKeystore, encryptKeystore, keystoreFileName, randomPrivateKey } from '../../src/chain/keys/keystore-v3.js';

// The two test vectors of the Web3 Secret Storage Definition (password "testpassword").
const VECTOR_KEY = '0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';
const PBKDF2_VECTOR = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
} as unknown as KeystoreV3;
const SCRYPT_VECTOR = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, r: 1, p: 8, salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19' },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
} as unknown as KeystoreV3;

describe('keystore v3 on node:crypto', () => {
  it('opens both test vectors of the Web3 Secret Storage Definition', async () => {
    expect(bytesToHex(await decryptKeystore(PBKDF2_VECTOR, 'testpassword'))).toBe(VECTOR_KEY);
    expect(bytesToHex(await decryptKeystore(SCRYPT_VECTOR, 'testpassword'))).toBe(VECTOR_KEY);
  });

  it('refuses a wrong passphrase with a MAC mismatch', async () => {
    await expect(decryptKeystore(PBKDF2_VECTOR, 'wrong')).rejects.toBeInstanceOf(KeystoreMacMismatch);
  });

  it('writes files @ethereumjs/wallet opens, and opens the files it writes', async () => {
    const key = randomPrivateKey();
    const ours = await encryptKeystore(key, 'pässwörd', 1 << 12);
    const wallet = await Wallet.fromV3(ours as never, 'pässwörd');
    expect(bytesToHex(wallet.getPrivateKey())).toBe(bytesToHex(key));
    expect(`0x${ours.address}`).toBe(wallet.getAddressString());
    expect(ours.crypto.kdfparams).toMatchObject({ n: 1 << 12, r: 8, p: 1, dklen: 32 });

    const theirs = await Wallet.fromPrivateKey(hexToBytes(VECTOR_KEY)).toV3('pässwörd', { n: 1 << 12 });
    expect(bytesToHex(await decryptKeystore(theirs as unknown as KeystoreV3, 'pässwörd'))).toBe(VECTOR_KEY);
  });

  it('refuses keystores whose parameters would be unreasonable work or unknown', async () => {
    const huge = { ...SCRYPT_VECTOR, crypto: { ...SCRYPT_VECTOR.crypto, kdfparams: { ...SCRYPT_VECTOR.crypto.kdfparams, n: 1 << 24 } } };
    await expect(decryptKeystore(huge, 'testpassword')).rejects.toThrow(/scrypt parameters/);
    const other = { ...SCRYPT_VECTOR, crypto: { ...SCRYPT_VECTOR.crypto, kdf: 'argon2' } };
    await expect(decryptKeystore(other, 'testpassword')).rejects.toThrow(/argon2 is not supported/);
  });

  it('names files as geth does', () => {
    expect(keystoreFileName('0xAbCd000000000000000000000000000000000001', Date.UTC(2026, 10, 24, 6, 1, 2, 345))).toBe(
      'UTC--2026-11-24T06-01-02.345Z--abcd000000000000000000000000000000000001',
    );
  });
});
