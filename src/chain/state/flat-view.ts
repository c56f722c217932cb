/**
 * A flat, in-memory view of one state root: the accounts, code and storage slots read so far,
 * kept in front of the Merkle trie so repeated reads at the head (eth_getBalance, eth_call, ...)
 * skip the trie walk. A state root commits to the whole state, so what a view read at its root
 * stays right for as long as the view is used at that root.
 *
 * When a mined block moves the head on, the view goes on with it (`HeadState.advance`): the
 * block's miner recorded every account and slot it wrote (tracking-state-manager.ts); the new view takes
 * the written accounts' new values, forgets the written slots, and keeps the rest of what the old
 * one had read. Any other change of the latest root (evm_revert,
 * hardhat_reset, hardhat_set*, a merged-mined block, a block that cleared some storage) starts
 * an empty view, in `drop` or in `HeadState.at`, which never serves a view of another root.
 */
import { Account, type Address, equalsBytes } from '@ethereumjs/util';
import { Lru } from '../../util/lru.js';
import { addressKey } from './address-key.js';
import { type StateChanges, slotKey } from './tracking-state-manager.js';

/**
 * Accounts and storage slots one view keeps. An entry is about 300 bytes (key string, Account or
 * 32-byte value, map overhead), so at most about 6 MB.
 */
export const STATE_VIEW_ENTRIES = 20_000;
/**
 * Absent accounts one view remembers, apart from the entries: a stream of never-seen addresses
 * (eth_getBalance of fresh addresses, the bench's getBalance-new row) otherwise fills the entries
 * with nulls that outlive the young generation and cost the GC more than their walk
 * (trie-walk.ts: a few map lookups and a Keccak) costs to repeat.
 */
export const STATE_VIEW_ABSENT = 1_024;
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

/** One state root's reads, remembered (bounded). Absent accounts are remembered apart (STATE_VIEW_ABSENT). */
export class StateView implements StateReader {
  private entries = new Lru<string, Account | Uint8Array>(STATE_VIEW_ENTRIES);
  private absent = new Lru<string, true>(STATE_VIEW_ABSENT);
  private codes = new Lru<string, Uint8Array>(STATE_VIEW_CODES);

  constructor(
    readonly stateRoot: Uint8Array,
    private readonly trie: StateReader,
  ) {}

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = addressKey(address);
    const cached = this.entries.get(key) as Account | undefined;
    if (cached !== undefined) return copyAccount(cached);
    if (this.absent.get(key) !== undefined) return undefined;
    const account = await this.trie.getAccount(address);
    if (account === undefined) this.absent.set(key, true);
    else this.entries.set(key, copyAccount(account));
    return account;
  }

  /**
   * The account as this view read it, without a read: an Account (the view's own, which callers
   * must not change), null when the account is absent, undefined when the view has not read it.
   */
  known(address: Address): Account | null | undefined {
    const key = addressKey(address);
    return (this.entries.get(key) as Account | undefined) ?? (this.absent.get(key) === undefined ? undefined : null);
  }

  /** The code at `address`; the same bytes object for every read, which callers must not change. */
  async getCode(address: Address): Promise<Uint8Array> {
    const key = addressKey(address);
    const cached = this.codes.get(key);
    if (cached !== undefined) return cached;
    const code = await this.trie.getCode(address);
    this.codes.set(key, code);
    return code;
  }

  /** The slot's value in its shortest form (as MerkleStateManager.getStorage answers). */
  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const key = slotKey(address, slot);
    const cached = this.entries.get(key) as Uint8Array | undefined;
    if (cached !== undefined) return cached.slice();
    const value = await this.trie.getStorage(address, slot);
    this.entries.set(key, value.slice());
    return value;
  }

  /**
   * The view of `stateRoot`, reached from this view's root by `changes`: it takes over what this
   * view read, with the changed accounts' new values and less the changed slots and codes. This
   * view starts empty again, so that a read still running at the old root files its old value
   * here, never in the successor.
   */
  successor(stateRoot: Uint8Array, trie: StateReader, changes: StateChanges): StateView {
    const next = new StateView(stateRoot, trie);
    next.entries = this.entries;
    next.absent = this.absent;
    next.codes = this.codes;
    this.entries = new Lru(STATE_VIEW_ENTRIES);
    this.absent = new Lru(STATE_VIEW_ABSENT);
    this.codes = new Lru(STATE_VIEW_CODES);
    for (const [address, account] of changes.accounts) {
      if (account === null) {
        next.entries.delete(address);
        next.absent.set(address, true);
      } else {
        next.entries.set(address, copyAccount(account));
        next.absent.delete(address);
      }
      next.codes.delete(address);
    }
    for (const key of changes.slots) next.entries.delete(key);
    return next;
  }
}

/**
 * A trie reader opened on its first read: a view carried to a new root often answers everything
 * from memory, and opening one (a state manager and its debug loggers) costs more than a read.
 */
function openedOnFirstRead(open: () => StateReader): StateReader {
  let reader: StateReader | undefined;
  const trie = () => (reader ??= open());
  return {
    getAccount: (address) => trie().getAccount(address),
    getCode: (address) => trie().getCode(address),
    getStorage: (address, key) => trie().getStorage(address, key),
  };
}

/** The view of the latest state: carried to a mined block's state, else replaced when the root changes. */
export class HeadState {
  private view: StateView | undefined;

  /** `trieAt` opens a trie reader at a root: at most once per head root, on its first read the view misses. */
  constructor(private readonly trieAt: (stateRoot: Uint8Array) => StateReader) {}

  at(stateRoot: Uint8Array): StateView {
    // The head asks with the very root its view was made for: the identity check spares most reads the byte compare.
    const view = this.view;
    if (view !== undefined && (view.stateRoot === stateRoot || equalsBytes(view.stateRoot, stateRoot))) return view;
    this.view = new StateView(stateRoot, this.readerAt(stateRoot));
    return this.view;
  }

  /**
   * A block built on `parentRoot` with `changes` made `stateRoot` the latest state: the view goes
   * on to it if it is the view of `parentRoot` and no storage was cleared wholesale, else it is dropped.
   */
  advance(parentRoot: Uint8Array, stateRoot: Uint8Array, changes: StateChanges): void {
    const view = this.view;
    this.view = view === undefined || changes.storageCleared || !equalsBytes(view.stateRoot, parentRoot) ? undefined : view.successor(stateRoot, this.readerAt(stateRoot), changes);
  }

  private readerAt(stateRoot: Uint8Array): StateReader {
    return openedOnFirstRead(() => this.trieAt(stateRoot));
  }

  /** Frees the view (a rewind or a state change); the next read at the head starts a new one. */
  drop(): void {
    this.view = undefined;
  }
}
