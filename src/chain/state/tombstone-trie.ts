/**
 * The state trie of a fork. On a fork an entry the local trie lacks is read from the remote at the
 * fork block (remote-backed-state-manager.ts), so a local delete must leave a mark, or the remote
 * value would come back: anvil's bug, a slot cleared locally that fell back to the remote value
 * (foundry#1894), and likewise a self-destructed account. A delete here writes TOMBSTONE instead:
 * - in an account trie, a value no account RLP can be (an account is an RLP list, 0xc0 and up);
 * - in a storage trie, the RLP of a one-byte zero, which reads as zero.
 * The fork's state roots differ from ones that deleted; a fork's roots were never the remote's anyway
 * (RSK's own are Unitrie roots).
 *
 * A remote account's storage is remote only until the account's storage is cleared or the
 * account is created anew. Its storage root says which: an account read from the remote gets
 * REMOTE_STORAGE_ROOT, the root of a trie holding one marker entry (a key no 32-byte slot
 * hashes to), and the marker stays while slots are written; clearing the storage starts from the
 * empty root, without it. The marker's trie node is written once, with the fork's first block.
 */
import type { TrieShallowCopyOpts } from '@ethereumjs/mpt';
import { concatBytes, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';
import { rlpEncode } from '../base/rlp.js';
import { DirectPathTrie } from './trie.js';

/** What a local delete leaves (see the header): a single zero byte. */
export const TOMBSTONE = Uint8Array.of(0);

export function isTombstone(value: Uint8Array): boolean {
  return value.length === 1 && value[0] === 0;
}

/** The marker's key: not 32 bytes long, so no storage slot is filed under its hash. */
export const REMOTE_STORAGE_MARKER = utf8ToBytes('rsk-devnode: storage read from the fork remote');
const MARKER_VALUE = Uint8Array.of(1);

/** The one-leaf trie's root node: [hex-prefix(leaf, even path), value]. */
const markerLeaf = () => rlpEncode([concatBytes(Uint8Array.of(0x20), keccak256(REMOTE_STORAGE_MARKER)), MARKER_VALUE]);

/** The storage root of an account read from the remote (see the header). */
export function remoteStorageRoot(): Uint8Array {
  return keccak256(markerLeaf());
}

export class TombstoneTrie extends DirectPathTrie {
  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    return this.put(key, TOMBSTONE, skipKeyTransform);
  }

  /** A batch update's deletes leave tombstones too. */
  protected override deletedValue(): Uint8Array {
    return TOMBSTONE;
  }

  /** True when this (storage) trie holds the remote-storage marker. */
  async hasRemoteStorage(): Promise<boolean> {
    return (await this.get(REMOTE_STORAGE_MARKER)) !== null;
  }

  /** Writes the marker's trie node to this trie's database (once per fork chain); answers its root. */
  async writeMarkerNode(): Promise<Uint8Array> {
    const trie = this.shallowCopy(false);
    trie.root(trie.EMPTY_TRIE_ROOT);
    await trie.put(REMOTE_STORAGE_MARKER, MARKER_VALUE);
    return trie.root();
  }

  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): TombstoneTrie {
    const trie = new TombstoneTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts });
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints);
    return trie;
  }
}
