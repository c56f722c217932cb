/**
 * A Merkle Patricia trie whose path search is a plain loop. ethereumjs' findPath, behind every
 * get, put and del, walks the one path through a WalkController (a task queue, a promise and
 * closures per node, built for walking whole tries): in a profile of sequential ERC20 transfers
 * the controller cost more than the node lookups it made. This loop takes the same steps (a
 * lookup per node from the root, the same stack, the same answer when a node is missing) and
 * leaves a search that resumes from a partial path, and the debug mode, to ethereumjs.
 * `update` applies a block's changes in one pass (batch-update.ts) instead of a put per key, and
 * reads inside a checkpoint are not written back at its commit (checkpoint-db.ts).
 */
import {
  BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  MerklePatriciaTrie,
  type MPTNode,
  type Path,
  type Nibbles,
  type CheckpointDB,
  type TrieShallowCopyOpts,
} from '@ethereumjs/mpt';
import { type DB, EthereumJSErrorWithoutCode, type ValueEncoding } from '@ethereumjs/util';
import { compareBytes } from '../base/bytes.js';
import { type TrieChange, updateTrie } from './batch-update.js';
import { UnrecordedReadsDB } from './checkpoint-db.js';
import { toNibbles } from './ordered-trie.js';

/** The message ethereumjs' lookupNode throws for a node the database lacks (findPath swallows it). */
const MISSING_NODE = 'Missing node in DB';

/** A key's nibbles, high nibble first (ethereumjs' internal util/nibbles.js, which the package does not export). */
function bytesToNibbles(key: Uint8Array): Nibbles {
  const nibbles: Nibbles = new Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i]! >> 4;
    nibbles[2 * i + 1] = key[i]! & 0x0f;
  }
  return nibbles;
}

export class DirectPathTrie extends MerklePatriciaTrie {
  /** ethereumjs' database setter, over a CheckpointDB that does not record reads (checkpoint-db.ts). */
  override database(db?: DB<string, string | Uint8Array>, valueEncoding?: ValueEncoding): CheckpointDB {
    if (db !== undefined) this._db = new UnrecordedReadsDB({ db, cacheSize: this._opts.cacheSize, valueEncoding });
    return super.database();
  }

  override async findPath(key: Uint8Array, throwIfMissing = false, partialPath: { stack: MPTNode[] } = { stack: [] }): Promise<Path> {
    if (partialPath.stack.length > 0 || this.DEBUG) return super.findPath(key, throwIfMissing, partialPath);
    const target = bytesToNibbles(key);
    const stack: MPTNode[] = [];
    let progress = 0;
    let reference: Uint8Array | Uint8Array[] = this.root();
    try {
      for (;;) {
        const node = await this.lookupNode(reference);
        stack.push(node);
        if (node instanceof BranchMPTNode) {
          if (progress === target.length) return { node, remaining: [], stack };
          const child = node.getBranch(target[progress]!);
          if (child === null) return { node: null, remaining: target.slice(progress), stack };
          progress++;
          reference = child as Uint8Array | Uint8Array[];
          continue;
        }
        const nodeKey = (node as LeafMPTNode | ExtensionMPTNode).key();
        // A leaf matches only the whole rest of the key; an extension, a run of it.
        const mismatch = node instanceof LeafMPTNode && target.length - progress > nodeKey.length;
        if (mismatch || nodeKey.some((nibble, i) => nibble !== target[progress + i])) {
          return { node: null, remaining: target.slice(progress), stack };
        }
        if (node instanceof LeafMPTNode) return { node, remaining: [], stack };
        progress += nodeKey.length;
        reference = (node as ExtensionMPTNode).value() as Uint8Array | Uint8Array[];
      }
    } catch (error) {
      if ((error as Error).message !== MISSING_NODE || throwIfMissing) throw error;
      return { node: null, remaining: [], stack };
    }
  }

  /**
   * Sets every key to its value (undefined or empty: deleted) in one pass, storing only the
   * nodes of the new paths, in one batch; a key given twice takes its last value. The same root
   * as a put or del per key.
   */
  async update(changes: Iterable<readonly [key: Uint8Array, value: Uint8Array | undefined]>): Promise<void> {
    if (this._opts.keyPrefix !== undefined) throw EthereumJSErrorWithoutCode('DirectPathTrie.update: tries with a key prefix are not supported');
    const byKey = new Map<string, TrieChange>();
    for (const [key, value] of changes) {
      const applied = this.appliedKey(key);
      const stored = value === undefined || value.length === 0 ? this.deletedValue() : value;
      byKey.set(Buffer.from(applied).toString('hex'), { nibbles: toNibbles(applied), value: stored });
    }
    const sorted = [...byKey.values()].sort((a, b) => compareBytes(a.nibbles, b.nibbles));
    // As ethereumjs' put and del: one change of the trie at a time, and the root persisted when asked to.
    await this._lock.acquire();
    try {
      const { root, nodes } = await updateTrie(this.root(), this.EMPTY_TRIE_ROOT, sorted, { lookup: (ref) => this.lookupNode(ref), hash: (encoded) => this.hash(encoded) });
      await this._db.batch(nodes.map(({ hash, encoded }) => ({ type: 'put', key: hash, value: encoded })));
      this.root(root);
      await this.persistRoot();
    } finally {
      this._lock.release();
    }
  }

  /** What a delete leaves in this trie: nothing (a fork's trie leaves a tombstone, tombstone-trie.ts). */
  protected deletedValue(): Uint8Array | undefined {
    return undefined;
  }

  /** ethereumjs' shallowCopy (which makes each account's storage trie), made for this class. */
  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): DirectPathTrie {
    const trie = new DirectPathTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts });
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints);
    return trie;
  }
}
