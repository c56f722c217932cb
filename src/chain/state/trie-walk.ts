/**
 * Account and slot reads for the head's flat view when it misses (flat-view.ts), walking the trie
 * over decoded nodes kept in memory. Through MerkleStateManager a miss costs, per trie level, a
 * CheckpointDB and a StateDb lookup behind two awaits and an RLP decode of the node, and a slot
 * read walks the owner's account path a second time: a never-seen address (eth_getBalance or an
 * ERC20 balanceOf of a new holder) spent a fifth of the server's CPU there (docs/performance.md, "Reads: the head trie walk").
 * Here a node's decoded form is kept by its hash, so the upper levels every walk shares are map
 * lookups, and a walk awaits only for a node not decoded yet.
 *
 * The cache is keyed by the node's hash, so an entry can never describe another node; it is
 * cleared anyway when the head's state is replaced (HeadState.drop: evm_revert deletes the nodes
 * only reverted blocks added, and a state load replaces the store), so that nothing the store no
 * longer holds is served. Anything unusual (a node missing from the store, a key that is not 32
 * bytes, a node of an unexpected shape) goes to the MerkleStateManager reader, whose answer or
 * error stays the reference.
 */
import { RLP } from '@ethereumjs/rlp';
import { type Account, type Address, KECCAK256_RLP, createAccountFromRLP, equalsBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';
import { unprefixedHex } from '../../util/hex.js';
import { Lru } from '../../util/lru.js';
import type { StateReader } from './flat-view.js';

/**
 * Decoded trie nodes kept. A walk to one of ~10,000 accounts passes 3-4 branch nodes, the top
 * two levels (17 + 272 nodes) shared by every walk; a decoded branch node is about 1.5 KB (17
 * views into its encoding plus the encoding), so the bound keeps at most about 6 MB.
 */
export const DECODED_NODES = 4_096;

/** A node as RLP.decode gives it: a branch (17 items) or a leaf/extension (2 items); embedded children are nested lists. */
type Node = Uint8Array | Node[];
type Decoded = Node[];

/** Nodes a walk reads whose shape it does not know: let the reference reader answer. */
class Unusual extends Error {}

const BRANCH_ITEMS = 17;
const KEY_NIBBLES = 64;
const HASH_BYTES = 32;

/** The store's node lookup: StateDb.get (pending writes, its node cache, then disk). */
export interface NodeSource {
  get(key: string): Promise<Uint8Array | undefined>;
}

export class DecodedNodes {
  private readonly nodes = new Lru<string, Decoded>(DECODED_NODES);

  constructor(private readonly source: NodeSource) {}

  /** The node with this hash, decoded; Unusual when the store lacks it or it is not a trie node. */
  async node(hash: Uint8Array): Promise<Decoded> {
    const key = unprefixedHex(hash);
    const cached = this.nodes.get(key);
    if (cached !== undefined) return cached;
    const encoded = await this.source.get(key);
    if (encoded === undefined) throw new Unusual();
    const decoded = RLP.decode(encoded) as Node;
    if (!Array.isArray(decoded)) throw new Unusual();
    this.nodes.set(key, decoded);
    return decoded;
  }

  /**
   * The value stored under `key` (hashed, as the state and storage tries key) in the trie at
   * `root`, or undefined.
   */
  async lookup(root: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
    if (equalsBytes(root, KECCAK256_RLP)) return undefined;
    const path = keccak256(key);
    let node = await this.node(root);
    let at = 0;
    for (;;) {
      let child: Node;
      if (node.length === BRANCH_ITEMS) {
        if (at === KEY_NIBBLES) return valueOf(node[16]!);
        const nibble = at % 2 === 0 ? path[at >> 1]! >> 4 : path[at >> 1]! & 0x0f;
        child = node[nibble]!;
        at++;
      } else if (node.length === 2) {
        const encodedPath = node[0]!;
        if (Array.isArray(encodedPath)) throw new Unusual();
        const matched = matchPath(encodedPath, path, at);
        if (matched === undefined) return undefined;
        at += matched.length;
        if (matched.leaf) return at === KEY_NIBBLES ? valueOf(node[1]!) : undefined;
        child = node[1]!;
      } else {
        throw new Unusual();
      }
      if (Array.isArray(child)) node = child;
      else if (child.length === 0) return undefined;
      else if (child.length === HASH_BYTES) node = await this.node(child);
      else throw new Unusual();
    }
  }

  clear(): void {
    this.nodes.clear();
  }
}

function valueOf(item: Node): Uint8Array | undefined {
  if (Array.isArray(item)) throw new Unusual();
  return item.length === 0 ? undefined : item;
}

/**
 * Whether the hex-prefix encoded `encodedPath` continues `path` from nibble `at`: its length and
 * whether the node is a leaf, or undefined when the key leaves the trie here.
 */
function matchPath(encodedPath: Uint8Array, path: Uint8Array, at: number): { length: number; leaf: boolean } | undefined {
  if (encodedPath.length === 0) throw new Unusual();
  const flag = encodedPath[0]! >> 4;
  if (flag > 3) throw new Unusual();
  const odd = (flag & 1) === 1;
  const length = (encodedPath.length - 1) * 2 + (odd ? 1 : 0);
  if (at + length > KEY_NIBBLES) return undefined;
  for (let i = 0; i < length; i++) {
    // Nibble i of the node's path: the flag byte's low nibble first when odd.
    const n = odd ? i + 1 : i + 2;
    const own = n % 2 === 0 ? encodedPath[n >> 1]! >> 4 : encodedPath[n >> 1]! & 0x0f;
    const k = at + i;
    const wanted = k % 2 === 0 ? path[k >> 1]! >> 4 : path[k >> 1]! & 0x0f;
    if (own !== wanted) return undefined;
  }
  return { length, leaf: flag >= 2 };
}

/**
 * A StateReader at `stateRoot` that walks `nodes` and falls back to `reference` (a
 * MerkleStateManager over the same store and root) for code and for anything unusual.
 */
export function walkingReader(nodes: DecodedNodes, stateRoot: Uint8Array, reference: () => StateReader): StateReader {
  const account = async (address: Address): Promise<Account | undefined> => {
    const rlp = await nodes.lookup(stateRoot, address.bytes);
    return rlp === undefined ? undefined : createAccountFromRLP(rlp);
  };
  const orReference = async <T>(walk: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    try {
      return await walk();
    } catch (err) {
      if (err instanceof Unusual) return fallback();
      throw err;
    }
  };
  return {
    getAccount: (address) => orReference(() => account(address), () => reference().getAccount(address)),
    getCode: (address) => reference().getCode(address),
    getStorage: (address, slot) =>
      slot.length !== HASH_BYTES
        ? reference().getStorage(address, slot)
        : orReference(
            async () => {
              const owner = await account(address);
              if (owner === undefined) return new Uint8Array();
              const stored = await nodes.lookup(owner.storageRoot, slot);
              return stored === undefined ? new Uint8Array() : (RLP.decode(stored) as Uint8Array);
            },
            () => reference().getStorage(address, slot),
          ),
  };
}
