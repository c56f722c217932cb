/**
 * A Merkle Patricia trie whose path search is a plain loop. ethereumjs' findPath, behind every
 * get, put and del, walks the one path through a WalkController (a task queue, a promise and
 * closures per node, built for walking whole tries): in a profile of sequential ERC20 transfers
 * the controller cost more than the node lookups it made. This loop takes the same steps (a
 * lookup per node from the root, the same stack, the same answer when a node is missing) and
 * leaves a search that resumes from a partial path, and the debug mode, to ethereumjs.
 */
import {
  BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  MerklePatriciaTrie,
  type MPTNode,
  type Path,
  type Nibbles,
  type TrieShallowCopyOpts,
} from '@ethereumjs/mpt';

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

  /** ethereumjs' shallowCopy (which makes each account's storage trie), made for this class. */
  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): DirectPathTrie {
    const trie = new DirectPathTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts });
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints);
    return trie;
  }
}
