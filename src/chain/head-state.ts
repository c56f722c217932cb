/**
 * A flat, in-memory view of one state root: the accounts, code and storage slots read so far,
 * kept in front of the Merkle trie so repeated reads at the head (eth_getBalance, eth_call, ...)
 * skip the trie walk. A state root commits to the whole state, so what a view read at its root
 * stays right for as long as the view is used at that root: a new block, evm_revert,
 * hardhat_reset or a hardhat_set* change gives the head a new root, and `HeadState.at` then
 * starts an empty view. Nothing needs to be invalidated by hand, and nothing stale can be served.
 */
import { Account, type Address, bytesToHex, equalsBytes } from '@ethereumjs/util';
import { Lru } from './lru.js';

/**
 * Accounts and storage slots one view keeps. An entry is about 300 bytes (key string, Account or
 * 32-byte value, map overhead), so at most about 6 MB.
 */
export const STATE_VIEW_ENTRIES = 20_000;
/** Contract codes one view keeps; at most 24 KB each (EIP-170), so at most about 6 MB. */
export const STATE_VIEW_CODES = 256;

/** What reads of account state need; MerkleStateManager provides it over the trie. */
export interface StateReader {
  getAccount(address: Address): Promise<Account | undefined>;
  getCode(address: Address): Promise<Uint8Array>;
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
}

/** A fresh copy: callers (the EVM among them) change the accounts they are given. */
export function copyAccount(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
}

/** One state root's reads, remembered (bounded). Absent accounts are remembered as null. */
export class StateView implements StateReader {
  private readonly entries = new Lru<string, Account | Uint8Array | null>(STATE_VIEW_ENTRIES);
  private readonly codes = new Lru<string, Uint8Array>(STATE_VIEW_CODES);

  constructor(
    readonly stateRoot: Uint8Array,
    private readonly trie: StateReader,
  ) {}

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = address.toString();
    const cached = this.entries.get(key) as Account | null | undefined;
    if (cached !== undefined) return cached === null ? undefined : copyAccount(cached);
    const account = await this.trie.getAccount(address);
    this.entries.set(key, account === undefined ? null : copyAccount(account));
    return account;
  }

  /** The code at `address`; the same bytes object for every read, which callers must not change. */
  async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    const cached = this.codes.get(key);
    if (cached !== undefined) return cached;
    const code = await this.trie.getCode(address);
    this.codes.set(key, code);
    return code;
  }

  /** The slot's value in its shortest form (as MerkleStateManager.getStorage answers). */
  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const key = `${address.toString()}${bytesToHex(slot)}`;
    const cached = this.entries.get(key) as Uint8Array | undefined;
    if (cached !== undefined) return cached.slice();
    const value = await this.trie.getStorage(address, slot);
    this.entries.set(key, value.slice());
    return value;
  }
}

/** The view of the latest state, replaced whenever the latest state root changes. */
export class HeadState {
  private view: StateView | undefined;

  /** `trieAt` opens a trie reader at a root; called once per head root. */
  constructor(private readonly trieAt: (stateRoot: Uint8Array) => StateReader) {}

  at(stateRoot: Uint8Array): StateView {
    if (this.view === undefined || !equalsBytes(this.view.stateRoot, stateRoot)) this.view = new StateView(stateRoot, this.trieAt(stateRoot));
    return this.view;
  }

  /** Frees the view (a rewind or a state change); the next read at the head starts a new one. */
  drop(): void {
    this.view = undefined;
  }
}
