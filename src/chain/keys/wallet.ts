/**
 * The keys the node holds, as rskj's wallet (`co/rsk/core/Wallet.java`) holds them:
 *
 * - the ten cow accounts and the regtest miner: plain keys in memory, always there at start;
 * - `personal_newAccountWithSeed` accounts: plain keys in memory (rskj keeps them unencrypted and
 *   forgets them at restart);
 * - `personal_newAccount` / `personal_importRawKey` accounts: an encrypted keystore per key. Here
 *   that is a standard Web3 Secret Storage v3 file (scrypt + AES-128-CTR on node:crypto, see
 *   keystore-v3.ts; geth's and @ethereumjs/wallet's files read both ways) in `<data-dir>/keystore/`, named as geth
 *   names them (`UTC--<time>--<address>`). With --in-memory the same v3 JSON lives in memory only.
 *
 * Only an unlocked key signs. Unlocking decrypts the keystore into memory until a deadline
 * (rskj: `0x`-hex milliseconds, default 30 minutes); an expired key is dropped the moment it is
 * looked at (rskj's check) and by an unref'd timer, so the process never waits on one. Locking
 * drops the plain key (a cow account locked stays unusable until restart, as in rskj). Keystore
 * accounts are locked after a restart.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bytesToHex, privateToAddress, utf8ToBytes } from '@ethereumjs/util';
import { DEV_ACCOUNTS, MINER_ACCOUNT, type NodeAccount } from './accounts.js';
import { keccak256 } from '../base/hash.js';
import { type KeystoreV3, decryptKeystore, encryptKeystore, keystoreFileName, randomPrivateKey } from './keystore-v3.js';

/**
 * scrypt cost of the keystores the node writes: N = 2^14 (r 8, p 1), geth's light-ish setting
 * rather than its standard 2^18. These keys guard dev-chain funds, and 2^18 takes 16x longer per
 * new account or unlock (off the event loop, but still a wait for the caller). Reading honours
 * whatever parameters a file names, so stronger keystores import fine.
 */
export const KEYSTORE_SCRYPT_N = 1 << 14;
/** rskj's default unlock duration (PersonalModuleWalletEnabled): 30 minutes, in milliseconds. */
export const DEFAULT_UNLOCK_MS = 30 * 60 * 1000;
/** setTimeout's ceiling; longer unlocks rely on the check at use alone. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const KEYSTORE_FILE_RE = /^UTC--.+--([0-9a-f]{40})$/;

/** Wrong passphrase: rskj answers a generic internal error; the message is geth's. */
export class WrongPassphrase extends Error {
  constructor() {
    super('could not decrypt key with given password');
    this.name = 'WrongPassphrase';
  }
}

export interface WalletOptions {
  /** Directory of the keystore files; undefined keeps them in memory only (--in-memory). */
  keystoreDir?: string;
  /** Wall clock in milliseconds for unlock deadlines (injectable for tests). */
  now?: () => number;
  /** scrypt N of newly written keystores (default KEYSTORE_SCRYPT_N). */
  scryptN?: number;
}

type V3Json = KeystoreV3;

interface Stored {
  json: V3Json;
  /** File name under keystoreDir (undefined in memory). */
  file?: string;
}

interface Unlocked {
  privateKey: Uint8Array;
  /** Deadline (ms); absent for keys that never expire (cow, miner, seed accounts). */
  until?: number;
  timer?: NodeJS.Timeout;
}

export class NodeWallet {
  /** rskj's initialAccounts: listed first and listed even while locked (cow, then seed accounts). */
  private readonly initial = new Set<string>();
  /** Every address in the order the node first held it: cow, miner, then created/imported. */
  private readonly order: string[] = [];
  private readonly stored = new Map<string, Stored>();
  private readonly unlocked = new Map<string, Unlocked>();
  private readonly now: () => number;
  private readonly scryptN: number;

  constructor(private readonly options: WalletOptions = {}) {
    this.now = options.now ?? Date.now;
    this.scryptN = options.scryptN ?? KEYSTORE_SCRYPT_N;
    for (const account of DEV_ACCOUNTS) {
      this.hold(account);
      this.initial.add(account.address);
    }
    this.hold(MINER_ACCOUNT);
  }

  /** A wallet with the node's fixed keys plus the keystores found in `keystoreDir` (all locked). */
  static async open(options: WalletOptions = {}): Promise<NodeWallet> {
    const wallet = new NodeWallet(options);
    if (options.keystoreDir !== undefined) await wallet.load(options.keystoreDir);
    return wallet;
  }

  private async load(dir: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    // geth's names start with a UTC timestamp, so sorting gives creation order.
    for (const file of names.filter((name) => KEYSTORE_FILE_RE.test(name)).sort()) {
      const path = join(dir, file);
      let json: V3Json & { address?: unknown };
      try {
        json = JSON.parse(await readFile(path, 'utf8')) as V3Json & { address?: unknown };
      } catch (err) {
        throw new Error(`keystore ${path} is not readable JSON (${(err as Error).message}): repair or move it away`, { cause: err });
      }
      // A v3 file may omit its address; without the passphrase we could not list it, so it is left out.
      if (json.version !== 3 || typeof json.address !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(json.address)) continue;
      const address = `0x${json.address.toLowerCase().replace(/^0x/, '')}`;
      this.remember(address);
      this.stored.set(address, { json, file });
    }
  }

  /** eth_accounts / personal_listAccounts: rskj's set (initial ∪ keystores ∪ unlocked) in our order. */
  listAccounts(): string[] {
    return this.order.filter((a) => this.initial.has(a) || this.stored.has(a) || this.unlocked.has(a));
  }

  /** The plain key of an unlocked account; undefined when locked (or expired) or unknown. */
  signingKey(address: string): Uint8Array | undefined {
    const entry = this.unlocked.get(address);
    if (entry === undefined) return undefined;
    // rskj (Wallet.getAccount): expired once the deadline is strictly in the past.
    if (entry.until !== undefined && entry.until < this.now()) {
      this.drop(address);
      return undefined;
    }
    return entry.privateKey;
  }

  /** Whether the node lists the address (so a refusal can say "locked" rather than "unknown"). */
  holds(address: string): boolean {
    return this.listAccounts().includes(address);
  }

  /** Whether the address has an encrypted keystore (newAccount / importRawKey). */
  hasKeystore(address: string): boolean {
    return this.stored.has(address);
  }

  newAccountWithSeed(seed: string): string {
    const privateKey = keccak256(utf8ToBytes(seed));
    const address = addressOf(privateKey);
    this.hold({ address, privateKey });
    this.initial.add(address);
    return address;
  }

  /** A random key, stored encrypted, then unlocked for the default duration (rskj). */
  async newAccount(passphrase: string): Promise<string> {
    return this.importRawKey(randomPrivateKey(), passphrase);
  }

  /** Stores `privateKey` encrypted under `passphrase` and unlocks it for the default duration (rskj). */
  async importRawKey(privateKey: Uint8Array, passphrase: string): Promise<string> {
    let address: string;
    try {
      address = addressOf(privateKey);
    } catch {
      throw new Error('Private key does not satisfy the curve requirements (zero, or not below the secp256k1 order)');
    }
    const json = await encryptKeystore(privateKey, passphrase, this.scryptN);
    const dir = this.options.keystoreDir;
    // One file per address: importing a key again replaces its keystore (rskj overwrites too).
    const file = this.stored.get(address)?.file ?? keystoreFileName(address, this.now());
    if (dir !== undefined) await writeKeystore(dir, file, json);
    this.remember(address);
    this.stored.set(address, dir === undefined ? { json } : { json, file });
    this.unlockWith(address, privateKey, DEFAULT_UNLOCK_MS);
    return address;
  }

  /**
   * Decrypts `address`'s keystore into memory for `durationMs`. false when the address has no
   * keystore (cow and miner accounts have none, as in rskj); WrongPassphrase when it does not open.
   */
  async unlock(address: string, passphrase: string, durationMs: number): Promise<boolean> {
    const privateKey = await this.decrypt(address, passphrase);
    if (privateKey === undefined) return false;
    this.unlockWith(address, privateKey, durationMs);
    return true;
  }

  /** The key in `address`'s keystore, whether unlocked or not; undefined without a keystore. */
  async decrypt(address: string, passphrase: string): Promise<Uint8Array | undefined> {
    const stored = this.stored.get(address);
    if (stored === undefined) return undefined;
    let privateKey: Uint8Array;
    try {
      privateKey = await decryptKeystore(stored.json, passphrase);
    } catch {
      throw new WrongPassphrase();
    }
    // A file whose "address" field names another account must not sign for the one it names.
    if (addressOf(privateKey) !== address) throw new Error(`the keystore listed as ${address} holds the key of ${addressOf(privateKey)}`);
    return privateKey;
  }

  /** Drops the plain key: true if it was unlocked (rskj). */
  lock(address: string): boolean {
    if (!this.unlocked.has(address)) return false;
    this.drop(address);
    return true;
  }

  /** Forgets every plain key and stops the timers (a signature already under way keeps its copy). */
  close(): void {
    for (const address of [...this.unlocked.keys()]) this.drop(address);
  }

  private hold(account: NodeAccount): void {
    this.remember(account.address);
    this.drop(account.address);
    this.unlocked.set(account.address, { privateKey: account.privateKey });
  }

  private unlockWith(address: string, privateKey: Uint8Array, durationMs: number): void {
    this.drop(address);
    const until = this.now() + durationMs;
    const entry: Unlocked = { privateKey, until };
    if (durationMs < MAX_TIMER_MS) {
      // One millisecond past the deadline (rskj expires strictly after it); unref: never keeps the process alive.
      entry.timer = setTimeout(() => this.signingKey(address), durationMs + 1).unref();
    }
    this.unlocked.set(address, entry);
  }

  private drop(address: string): void {
    const entry = this.unlocked.get(address);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.unlocked.delete(address);
  }

  private remember(address: string): void {
    if (!this.order.includes(address)) this.order.push(address);
  }
}

function addressOf(privateKey: Uint8Array): string {
  return bytesToHex(privateToAddress(privateKey));
}

/** Written to a temporary name then renamed, so a crash never leaves half a keystore; owner-only. */
async function writeKeystore(dir: string, file: string, json: V3Json): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, file);
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(json)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}

/** Appended to rskj's "not found" refusals when the node does hold the address, but locked. */
export function lockedHint(wallet: NodeWallet, address: string): string {
  if (wallet.hasKeystore(address)) return ' (the account is locked: unlock it with personal_unlockAccount)';
  // A cow or miner account after personal_lockAccount (rskj: unusable until restart).
  if (wallet.holds(address)) return ' (the account was locked with personal_lockAccount; its key returns when the node restarts)';
  return '';
}
