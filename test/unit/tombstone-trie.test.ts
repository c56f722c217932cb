/**
 * The fork's trie (src/chain/state/tombstone-trie.ts): a delete leaves a tombstone, and the
 * remote-storage marker's root is the constant remote accounts are given.
 */
import { describe, expect, it } from 'vitest';
import { KECCAK256_RLP, MapDB, ValueEncoding, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { TOMBSTONE, TombstoneTrie, isTombstone, remoteStorageRoot } from '../../src/chain/state/tombstone-trie.js';

const newTrie = () => new TombstoneTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
const SLOT = hexToBytes(`0x${'00'.repeat(31)}01`);

describe('TombstoneTrie', () => {
  it('writes the marker node whose root is remoteStorageRoot()', async () => {
    const trie = newTrie();
    expect(bytesToHex(await trie.writeMarkerNode())).toBe(bytesToHex(remoteStorageRoot()));
    // The trie itself is untouched; a copy at the marker root holds the marker.
    expect(bytesToHex(trie.root())).toBe(bytesToHex(KECCAK256_RLP));
    const marked = trie.shallowCopy(false);
    marked.root(remoteStorageRoot());
    expect(await marked.hasRemoteStorage()).toBe(true);
    expect(await trie.hasRemoteStorage()).toBe(false);
  });

  it('keeps a tombstone where a delete was, and the marker beside written slots', async () => {
    const trie = newTrie();
    await trie.writeMarkerNode();
    trie.root(remoteStorageRoot());
    await trie.put(SLOT, Uint8Array.of(0x05));
    await trie.del(SLOT);
    const value = await trie.get(SLOT);
    expect(value).not.toBeNull();
    expect(isTombstone(value!)).toBe(true);
    expect(value).toEqual(TOMBSTONE);
    expect(await trie.hasRemoteStorage()).toBe(true);
    // A copy (storage tries are made by shallowCopy) tombstones too.
    const copy = trie.shallowCopy(false);
    await copy.put(SLOT, Uint8Array.of(0x07));
    await copy.del(SLOT);
    expect(isTombstone((await copy.get(SLOT))!)).toBe(true);
  });
});
