/**
 * What the miner's state caches held before each block it mined while a snapshot was live, so that
 * evm_revert can put them back instead of emptying them. Emptied caches made the first block after
 * every revert read each account, slot and code it touched from the trie again: in the bench's
 * snapshot / transaction / revert cycle, 14 trie path searches instead of 8.
 *
 * A block's frame keeps, for every key the block wrote, the cache's entry before the first write,
 * which is the parent state's value: the state manager reads a key not cached yet before writing
 * it (tracking-state-manager.ts), as the EVM, REMASC and the flush mostly do anyway. A key the caches would
 * have to forget cannot be put back (they cannot drop one key through their public API), and a
 * whole storage cleared is not journaled: a revert across such a block empties the caches as before.
 */
import type { Caches } from '@ethereumjs/statemanager';
import { type Address, createAccountFromRLP, equalsBytes } from '@ethereumjs/util';

/** Blocks whose frames are kept: a revert further back than this empties the caches instead. */
export const JOURNALED_BLOCKS = 1_024;

type AccountEntry = ReturnType<NonNullable<Caches['account']>['get']>;
type CodeEntry = ReturnType<NonNullable<Caches['code']>['get']>;

interface Frame {
  /** The state root the block was built on, and the one it made (set when the block is done). */
  parentRoot: Uint8Array;
  root: Uint8Array | undefined;
  accounts: Map<string, { address: Address; entry: AccountEntry }>;
  slots: Map<string, { address: Address; slot: Uint8Array; value: Uint8Array | undefined }>;
  codes: Map<string, { address: Address; entry: CodeEntry }>;
  restorable: boolean;
}

/** A frame's key for an address or a slot: its bytes as hex. */
const cacheKey = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

export class CacheJournal {
  private frames: Frame[] = [];
  private open: Frame | undefined;

  constructor(private readonly caches: Caches) {}

  /** A block starts on `parentRoot`; a journal that does not end there starts over. */
  beginBlock(parentRoot: Uint8Array): void {
    const last = this.frames.at(-1);
    if (last !== undefined && (last.root === undefined || !equalsBytes(last.root, parentRoot))) this.frames = [];
    this.open = { parentRoot, root: undefined, accounts: new Map(), slots: new Map(), codes: new Map(), restorable: true };
    this.frames.push(this.open);
    if (this.frames.length > JOURNALED_BLOCKS) this.frames.shift();
  }

  /** The open block made `root`. */
  endBlock(root: Uint8Array): void {
    if (this.open !== undefined) this.open.root = root;
    this.open = undefined;
  }

  /** Whether a block is being journaled (its writes must be announced, with their keys cached). */
  get recording(): boolean {
    return this.open !== undefined;
  }

  /** Forgets every frame (the caches no longer follow the journaled blocks). */
  clear(): void {
    this.frames = [];
    this.open = undefined;
  }

  /** Called before `address`'s account is written, once it was read. */
  account(address: Address): void {
    const frame = this.open;
    const key = cacheKey(address.bytes);
    if (frame === undefined || frame.accounts.has(key)) return;
    const entry = this.caches.account?.get(address);
    if (entry === undefined) frame.restorable = false;
    frame.accounts.set(key, { address, entry });
  }

  /** Called before a storage slot is written, once it was read. */
  slot(address: Address, slot: Uint8Array): void {
    const frame = this.open;
    const key = cacheKey(address.bytes) + cacheKey(slot);
    if (frame === undefined || frame.slots.has(key)) return;
    const value = this.caches.storage?.get(address, slot);
    if (value === undefined) frame.restorable = false;
    frame.slots.set(key, { address, slot, value });
  }

  /**
   * Called before `address`'s code is written, once its code was read: a code still not cached
   * then is no code (MerkleStateManager caches only the code of a contract), put back as none.
   */
  code(address: Address): void {
    const frame = this.open;
    const key = cacheKey(address.bytes);
    if (frame === undefined || frame.codes.has(key)) return;
    frame.codes.set(key, { address, entry: this.caches.code?.get(address) ?? { code: undefined } });
  }

  /** A write the frame cannot undo (a whole storage cleared). */
  unrestorable(): void {
    if (this.open !== undefined) this.open.restorable = false;
  }

  /**
   * Puts the caches back to what they held at `root`, when the journal's last frames lead from
   * there to the caches' present state without a gap; false (nothing changed) otherwise. The caller
   * then moves the state manager to `root` keeping its caches, and flushes nothing it restored.
   */
  rewindTo(root: Uint8Array, from: Uint8Array): boolean {
    let first = this.frames.length;
    let at = from;
    while (first > 0) {
      const frame = this.frames[first - 1]!;
      if (frame.root === undefined || !equalsBytes(frame.root, at) || !frame.restorable) return false;
      first--;
      at = frame.parentRoot;
      if (equalsBytes(at, root)) break;
    }
    if (!equalsBytes(at, root) || first === this.frames.length) return false;
    for (const frame of this.frames.splice(first).reverse()) this.restore(frame);
    return true;
  }

  private restore(frame: Frame): void {
    const { account, storage, code } = this.caches;
    for (const { address, entry } of frame.accounts.values()) {
      if (entry!.accountRLP === undefined) account?.del(address);
      else account?.put(address, createAccountFromRLP(entry!.accountRLP));
    }
    for (const { address, slot, value } of frame.slots.values()) storage?.put(address, slot, value!);
    for (const { address, entry } of frame.codes.values()) {
      if (entry!.code === undefined) code?.del(address);
      else code?.put(address, entry!.code);
    }
  }
}
