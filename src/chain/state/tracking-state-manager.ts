/**
 * The miner's state manager: MerkleStateManager that remembers what it wrote.
 * - The accounts and storage slots a block changed, so the flat view of the latest state
 *   (flat-view.ts) can go on to the block's state, taking the changed accounts' new values and
 *   forgetting the changed slots, instead of starting empty after every block.
 * - The keys written since the last flush, which is all its flush writes (ethereumjs' would also
 *   write back what reads had cached), and storage writes stay in the cache until then.
 * - While a snapshot is live, what each block overwrote in the caches (cache-journal.ts).
 * Its flush updates each trie once (DirectPathTrie.update): the block's storage slots per account,
 * then its accounts, each as one sorted batch, where ethereumjs' flush puts key by key and stores
 * every intermediate path (a quarter of an ERC20 transfer block's nodes were never referenced by its root).
 *
 * Every state write of ethereumjs' EVM and VM (through its journal or directly), REMASC's and the
 * block builder's goes through the six write methods below. A write that a checkpoint revert
 * undoes stays recorded: its value is read back as it is, a slot forgotten needlessly costs one
 * trie read later, and a flush writes the unchanged value.
 */
import { CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import type { AccountFields } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Account, type Address, EthereumJSErrorWithoutCode, bytesToUnprefixedHex, concatBytes, createAddressFromString, unpadBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';
import { CacheJournal } from './cache-journal.js';
import type { DirectPathTrie } from './trie.js';
import { unprefixedHex } from '../../util/hex.js';
import { Lru } from '../../util/lru.js';

const EMPTY = new Uint8Array(0);
/**
 * Storage tries the flush keeps for reuse, one per contract it wrote to: an object each (a few
 * hundred bytes, no nodes), so a thousand cost well under a megabyte.
 */
export const KEPT_STORAGE_TRIES = 1_000;

export interface StateChanges {
  /**
   * The accounts whose account or code was written, by address (0x-prefixed, lower case), with
   * their values once the block's state root was computed (null: no account there).
   */
  accounts: Map<string, Account | null>;
  /** Storage slots written, keyed as flat-view.ts keys them: address ‖ 0x-slot. */
  slots: Set<string>;
  /**
   * A whole account's storage was cleared (contract creation, self-destruct): every slot of it
   * may have changed, so the flat view starts over rather than search for them.
   */
  storageCleared: boolean;
}

/**
 * The key flat-view.ts files a storage slot under: `address.toString()` ‖ `bytesToHex(slot)`,
 * made through util/hex.ts (one flat string each instead of one per byte; a key per SLOAD).
 */
export function slotKey(address: Address, slot: Uint8Array): string {
  return `0x${unprefixedHex(address.bytes)}0x${unprefixedHex(slot)}`;
}

export class ChangeTrackingStateManager extends MerkleStateManager {
  private written = new Map<string, Address>();
  private slots = new Set<string>();
  private storageCleared = false;
  /**
   * What was written since the last flush, keyed as `written` and `slots` are (the caches' own keys
   * are the same hex without the 0x prefixes). ethereumjs' caches mark an entry changed
   * when a read fills it too (getAccount, getStorage and getCode put what they read), so a flush
   * wrote back every account, slot and code read since the last one: an account's trie path
   * rewritten and hashed, a code stored again, for values the trie already holds. The caches'
   * flushes are narrowed to these keys (constructor); what a read filled stays cached.
   */
  private dirtyAccounts = new Set<string>();
  private dirtyCodes = new Set<string>();
  private dirtySlots = new Set<string>();
  private dirtyStorageOf = new Set<string>();
  private journal: CacheJournal | undefined;
  /** storageTrieToFlush's tries, by hashed address (unprefixed hex, as `_storageTries`). */
  private flushTries = new Lru<string, DirectPathTrie>(KEPT_STORAGE_TRIES);

  protected declare _trie: DirectPathTrie;

  /** The trie must be a DirectPathTrie (or a fork's TombstoneTrie): the flush updates it in batches. */
  constructor(opts: ConstructorParameters<typeof MerkleStateManager>[0] & { trie: DirectPathTrie }) {
    super(opts);
    const { account, code, storage } = this._caches ?? {};
    if (account !== undefined) {
      const flush = account.flush.bind(account);
      account.flush = () => flush().filter(([address]) => this.dirtyAccounts.has(`0x${address}`));
    }
    if (code !== undefined) {
      const flush = code.flush.bind(code);
      code.flush = () => flush().filter(([address]) => this.dirtyCodes.has(`0x${address}`));
    }
    if (storage !== undefined) {
      const flush = storage.flush.bind(storage);
      storage.flush = () => flush().filter(([address, slot]) => this.dirtyStorageOf.has(`0x${address}`) || this.dirtySlots.has(`0x${address}0x${slot}`));
    }
  }

  /**
   * Starts journaling the blocks built from now on (`parentRoot`: the state the next one starts
   * from), so that rewindCachesTo can bring the caches back to an earlier block's state; undefined
   * stops it (no snapshot is live). See cache-journal.ts.
   */
  journalBlock(parentRoot: Uint8Array | undefined): void {
    if (parentRoot === undefined || this._caches === undefined) {
      this.journal?.clear();
      return;
    }
    (this.journal ??= new CacheJournal(this._caches)).beginBlock(parentRoot);
  }

  /** The journaled block was built: it made `root`. */
  blockBuilt(root: Uint8Array): void {
    this.journal?.endBlock(root);
  }

  /**
   * Moves the state manager from `from` back to `root`, an earlier journaled block's state, with
   * the caches as they were there; false when the journal cannot (then nothing changed).
   */
  async rewindCachesTo(root: Uint8Array, from: Uint8Array): Promise<boolean> {
    if (this.journal === undefined || !this.journal.rewindTo(root, from)) return false;
    await super.setStateRoot(root, false);
    return true;
  }

  /** The stock setStateRoot; emptying the caches leaves nothing for the journal to put back. */
  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    if (clearCache) this.journal?.clear();
    return super.setStateRoot(stateRoot, clearCache);
  }

  /**
   * The caches' writes (narrowed to what was written) into the tries: outside every checkpoint,
   * each trie updated once (see the header); inside one, the stock flush, whose puts the trie's
   * own checkpoint can take back. A flush outside every checkpoint wrote out all that was written.
   */
  override async flush(): Promise<void> {
    if (this._checkpointCount !== 0 || this._caches === undefined) return super.flush();
    await this.flushInBatches();
    this.dirtyAccounts.clear();
    this.dirtyCodes.clear();
    this.dirtySlots.clear();
    this.dirtyStorageOf.clear();
  }

  /**
   * MerkleStateManager.flush's three steps, with one trie update per storage trie and one for the
   * accounts: codes stored (their accounts' code hashes set), each account's changed slots into
   * its storage trie from the account's storage root, then the changed accounts into the state trie.
   */
  private async flushInBatches(): Promise<void> {
    const { account: accounts, code: codes, storage } = this._caches!;
    for (const [addressHex, { code }] of codes?.flush() ?? []) {
      if (code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = keccak256(code);
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, { codeHash });
    }
    const slotsByAccount = new Map<string, Array<[Uint8Array, Uint8Array | undefined]>>();
    for (const [addressHex, slotHex, encoded] of storage?.flush() ?? []) {
      const value = RLP.decode(encoded ?? EMPTY) as Uint8Array;
      const slots = slotsByAccount.get(addressHex) ?? [];
      slots.push([unprefixedHexToBytes(slotHex), value.length === 0 ? undefined : RLP.encode(value)]);
      slotsByAccount.set(addressHex, slots);
    }
    for (const [addressHex, slots] of slotsByAccount) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      // From the account's storage root: the trie cached for it may predate a delete of the account.
      const trie = this.storageTrieToFlush(address, account);
      trie.root(account.storageRoot);
      await trie.update(slots);
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }
    const changedAccounts = (accounts?.flush() ?? []).map(([addressHex, { accountRLP }]) => [unprefixedHexToBytes(addressHex), accountRLP] as const);
    await this._trie.update(changedAccounts);
  }

  /**
   * The storage trie the flush updates for `address`: the one it used last for it, else
   * ethereumjs' (made on demand). ethereumjs' own cache of them empties at every setStateRoot,
   * so at every evm_revert, and opening a trie cost 30-50 µs (a debug logger, a hash): more than
   * the update of a transfer's two slots. The flush sets the trie's root from the account before
   * using it, and leaves it as ethereumjs' cached trie at the new root for reads that follow.
   */
  private storageTrieToFlush(address: Address, account: Account): DirectPathTrie {
    const key = bytesToUnprefixedHex(keccak256(address.bytes));
    const trie = this.flushTries.get(key) ?? (this._getStorageTrie(address, account) as DirectPathTrie);
    this.flushTries.set(key, trie);
    this._storageTries[key] = trie;
    return trie;
  }

  /** Starts a new record: what was written before is not the next block's. */
  forgetChanges(): void {
    this.written = new Map();
    this.slots = new Set();
    this.storageCleared = false;
  }

  /**
   * What was written since the record started, with the written accounts' values as they are
   * now (call it once the state root is computed: they come from the state manager's own cache).
   * A new record starts.
   */
  async takeChanges(): Promise<StateChanges> {
    const { written, slots, storageCleared } = this;
    this.forgetChanges();
    const accounts = new Map<string, Account | null>();
    for (const [key, address] of written) accounts.set(key, (await this.getAccount(address)) ?? null);
    return { accounts, slots, storageCleared };
  }

  /** Records a write of `address`'s account; answers the key it is recorded under. */
  private wrote(address: Address): string {
    const key = address.toString();
    this.written.set(key, address);
    this.dirtyAccounts.add(key);
    return key;
  }

  /** Journals a write of `address`'s account, reading it first if the caches lack it. */
  private async journalAccount(address: Address): Promise<void> {
    if (this.journal?.recording !== true) return;
    if (this._caches?.account?.get(address) === undefined) await this.getAccount(address);
    this.journal.account(address);
  }

  override async putAccount(address: Address, account?: Account): Promise<void> {
    await this.journalAccount(address);
    this.wrote(address);
    // No account deletes it, and a later one at the address starts with empty storage.
    if (account === undefined) this.storageCleared = true;
    return super.putAccount(address, account);
  }

  override async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    this.wrote(address);
    return super.modifyAccountFields(address, fields);
  }

  override async deleteAccount(address: Address): Promise<void> {
    this.journal?.unrestorable();
    const key = this.wrote(address);
    this.storageCleared = true;
    this.dirtyCodes.add(key);
    this.dirtyStorageOf.add(key);
    // ethereumjs keeps the account's storage trie (at its old root) for a later account at the address to read.
    delete this._storageTries[bytesToUnprefixedHex(keccak256(address.bytes))];
    return super.deleteAccount(address);
  }

  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    if (this.journal?.recording === true) {
      if (this._caches?.code?.get(address) === undefined) await this.getCode(address);
      this.journal.code(address);
    }
    this.dirtyCodes.add(this.wrote(address));
    return super.putCode(address, value);
  }

  /**
   * MerkleStateManager.putStorage, writing to the storage cache only: the trie gets the slot when
   * the state is flushed, as putAccount's accounts do. ethereumjs 10.1's own ends in
   * `this._caches?.storage?.put(...) ?? (await this._writeContractStorage(...))`, and the cache's put
   * returns nothing, so every slot also went through to the trie at once and again at the flush: a
   * path from the storage root rewritten twice (3.4 of the 11.8 trie writes of an ERC20 transfer's
   * block). Without a storage cache, the stock method writes through, as it should.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const slot = slotKey(address, key);
    this.slots.add(slot);
    this.dirtySlots.add(slot);
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    if (this.journal?.recording === true) {
      if (cache.get(address, key) === undefined) await this.getStorage(address, key);
      this.journal.slot(address, key);
    }
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async clearStorage(address: Address): Promise<void> {
    this.journal?.unrestorable();
    this.dirtyStorageOf.add(this.wrote(address));
    this.storageCleared = true;
    return super.clearStorage(address);
  }
}
