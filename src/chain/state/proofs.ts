/**
 * Merkle proofs over our tries: the receipt trie of a block (`rsk_getTransactionReceiptNodesByHash`)
 * and EIP-1186 account and storage proofs (`eth_getProof`).
 *
 * The receipt trie's nodes come from the pass that computes its root (ordered-trie.ts, checked
 * against @ethereumjs/mpt's `createMerkleProof` in the tests), the state's from
 * @ethereumjs/statemanager (`getMerkleStateProof`); this module picks the trie, normalises what
 * those return and applies geth's rule for which nodes a proof lists (below).
 */
import { getMerkleStateProof, type MerkleStateManager } from '@ethereumjs/statemanager';
import { type Address, KECCAK256_NULL, KECCAK256_RLP, bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { orderedTrieWithPaths } from './ordered-trie.js';

/** A trie node whose RLP is shorter than a hash is embedded in its parent, not referenced by hash. */
const HASH_LENGTH = 32;

/**
 * The nodes a proof lists, root first. ethereumjs' path walk also yields nodes embedded in their
 * parent (RLP < 32 bytes); geth's `Prove` lists only the root and nodes referenced by hash, since
 * an embedded node is already inside the node before it. We list what geth lists. (In our tries
 * embedded nodes hardly occur: state keys are hashed, and receipts carry a 256-byte bloom.)
 */
function referencedNodes(path: Uint8Array[]): Uint8Array[] {
  return path.filter((node, i) => i === 0 || node.length >= HASH_LENGTH);
}

// ---- receipts ------------------------------------------------------------------------------------

export interface TrieProof {
  /** Root of the trie the nodes prove against. */
  root: Uint8Array;
  /** The nodes on the key's path, root first (EIP-1186 order). */
  nodes: Uint8Array[];
}

/**
 * A trie keyed by RLP(index), as Ethereum (and our block builder) builds transaction and receipt
 * roots, with every entry's path, to prove its entries (ordered-trie.ts builds both in one pass).
 * For the receipt trie the values are every receipt RLP of the block, REMASC's included, in block order.
 */
export class IndexedTrie {
  private constructor(
    readonly root: Uint8Array,
    private readonly paths: Uint8Array[][],
  ) {}

  static build(values: readonly Uint8Array[]): IndexedTrie {
    const { root, paths } = orderedTrieWithPaths(values);
    return new IndexedTrie(root, paths);
  }

  get size(): number {
    return this.paths.length;
  }

  /**
   * The nodes on entry `index`'s path, root first (EIP-1186 order). rskj answers
   * `getTransactionReceiptNodesByHash` leaf first, root last: reverse them for that.
   */
  prove(index: number): TrieProof {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) {
      throw new RangeError(`index ${index} is outside a trie of ${this.size} entries`);
    }
    return { root: this.root, nodes: referencedNodes(this.paths[index]!) };
  }
}

// ---- accounts and storage (EIP-1186) ------------------------------------------------------------

export interface StorageProof {
  slot: bigint;
  /** The slot's value; 0 for a slot never written (or cleared). */
  value: bigint;
  /** Nodes of the account's storage trie on the path of keccak256(slot), root first. */
  proof: Uint8Array[];
}

export interface AccountProof {
  balance: bigint;
  nonce: bigint;
  codeHash: Uint8Array;
  storageHash: Uint8Array;
  /** Nodes of the state trie on the path of keccak256(address), root first. */
  accountProof: Uint8Array[];
  storageProof: StorageProof[];
}

/** A storage slot as the 32-byte key the storage trie hashes. */
export function slotKey(slot: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(slot), 32);
}

/**
 * EIP-1186 proof of `address` and its `slots` in the state `sm` was opened at. An account that
 * does not exist gets a proof of absence and the empty account's fields (zero balance and nonce,
 * keccak256 of empty code, the empty trie's root); each of its slots then has value 0 and an
 * empty proof, the empty storage trie having no node (as geth answers).
 */
export async function accountProof(sm: MerkleStateManager, address: Address, slots: readonly bigint[]): Promise<AccountProof> {
  const keys = slots.map(slotKey);
  const proof = await getMerkleStateProof(sm, address, keys);
  const exists = (await sm.getAccount(address)) !== undefined;
  const storageProof: StorageProof[] = exists
    ? proof.storageProof.map((item, i) => ({
        slot: slots[i]!,
        value: BigInt(item.value),
        proof: referencedNodes(item.proof.map((node) => hexToBytes(node))),
      }))
    : slots.map((slot) => ({ slot, value: 0n, proof: [] }));
  return {
    balance: BigInt(proof.balance),
    nonce: BigInt(proof.nonce),
    codeHash: exists ? hexToBytes(proof.codeHash) : KECCAK256_NULL,
    storageHash: exists ? hexToBytes(proof.storageHash) : KECCAK256_RLP,
    accountProof: referencedNodes(proof.accountProof.map((node) => hexToBytes(node))),
    storageProof,
  };
}
