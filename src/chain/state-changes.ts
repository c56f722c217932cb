/**
 * A state manager that remembers what it wrote: the accounts and storage slots a block changed,
 * so the flat view of the latest state (head-state.ts) can go on to the block's state, taking the
 * changed accounts' new values and forgetting the changed slots, instead of starting empty after
 * every block.
 *
 * Every state write of ethereumjs' EVM and VM (through its journal or directly), REMASC's and the
 * block builder's goes through these six methods; MerkleStateManager's own flush only writes out
 * what they put in its caches. A write that a checkpoint revert undoes stays recorded: its value
 * is read back as it is, and a slot forgotten needlessly costs one trie read later.
 */
import { MerkleStateManager } from '@ethereumjs/statemanager';
import type { AccountFields } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type Account, type Address, EthereumJSErrorWithoutCode, bytesToHex, unpadBytes } from '@ethereumjs/util';

export interface StateChanges {
  /**
   * The accounts whose account or code was written, by address (0x-prefixed, lower case), with
   * their values once the block's state root was computed (null: no account there).
   */
  accounts: Map<string, Account | null>;
  /** Storage slots written, keyed as head-state.ts keys them: address ‖ 0x-slot. */
  slots: Set<string>;
  /**
   * A whole account's storage was cleared (contract creation, self-destruct): every slot of it
   * may have changed, so the flat view starts over rather than search for them.
   */
  storageCleared: boolean;
}

/** The key head-state.ts files a storage slot under. */
export function slotKey(address: Address, slot: Uint8Array): string {
  return `${address.toString()}${bytesToHex(slot)}`;
}

export class ChangeTrackingStateManager extends MerkleStateManager {
  private written = new Map<string, Address>();
  private slots = new Set<string>();
  private storageCleared = false;

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

  private wrote(address: Address): void {
    this.written.set(address.toString(), address);
  }

  override async putAccount(address: Address, account?: Account): Promise<void> {
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
    this.wrote(address);
    this.storageCleared = true;
    return super.deleteAccount(address);
  }

  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.wrote(address);
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
    this.slots.add(slotKey(address, key));
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async clearStorage(address: Address): Promise<void> {
    this.wrote(address);
    this.storageCleared = true;
    return super.clearStorage(address);
  }
}
