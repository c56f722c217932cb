/**
 * An independent Merkle Patricia proof verifier for tests: it shares no code with what produces
 * the proofs (no @ethereumjs/mpt, no src/), only ethers' RLP and keccak256. It walks the nodes from
 * the root, checks each node's keccak256 against the reference its parent holds (the first against
 * the expected root), follows the key's nibbles through branch, extension and leaf nodes, and
 * requires every listed node to be used, in order.
 */
import { decodeRlp, getBytes, hexlify, keccak256 } from 'ethers';

/** keccak256(RLP("")): the root of an empty trie. */
export const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

type RlpItem = string | RlpItem[];

function nibbles(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) out.push(b >> 4, b & 0x0f);
  return out;
}

/** Hex-prefix (compact) decoding of a leaf's or extension's path. */
function compactPath(encoded: string): { leaf: boolean; path: number[] } {
  const n = nibbles(getBytes(encoded));
  const flag = n[0]!;
  if (flag > 3) throw new Error(`bad hex-prefix flag ${flag}`);
  return { leaf: flag >= 2, path: n.slice(flag % 2 === 1 ? 1 : 2) };
}

/**
 * The value stored at `key` (the trie's own key: hash it first for a secure trie), or null when
 * the nodes prove that the key is absent. Throws when the nodes do not prove either against `root`.
 * `nodes` are root first.
 */
export function verifyTrieProof(root: string, key: Uint8Array, nodes: readonly string[]): string | null {
  const target = nibbles(key);
  if (nodes.length === 0) {
    if (root.toLowerCase() !== EMPTY_TRIE_ROOT) throw new Error('no nodes, but the root is not the empty trie');
    return null;
  }
  let used = 0;
  let position = 0;
  let ref: RlpItem = root.toLowerCase();
  const done = (value: string | null): string | null => {
    if (used !== nodes.length) throw new Error(`${nodes.length - used} node(s) listed beyond the end of the path`);
    return value;
  };
  for (;;) {
    let node: RlpItem;
    if (typeof ref === 'string') {
      if (getBytes(ref).length !== 32) throw new Error(`reference ${ref} is not a hash`);
      const encoded = nodes[used];
      if (encoded === undefined) throw new Error(`node ${used} (hash ${ref}) is missing`);
      if (keccak256(encoded) !== ref) throw new Error(`node ${used} does not hash to ${ref}`);
      used++;
      node = decodeRlp(encoded) as RlpItem;
    } else {
      node = ref; // embedded in its parent (RLP shorter than 32 bytes)
    }
    if (!Array.isArray(node)) throw new Error('a trie node is a list');
    if (node.length === 17) {
      if (position === target.length) {
        const value = node[16] as string;
        return done(value === '0x' ? null : value);
      }
      const child: RlpItem = node[target[position]!]!;
      position++;
      if (child === '0x') return done(null);
      ref = child;
    } else if (node.length === 2) {
      const { leaf, path } = compactPath(node[0] as string);
      const matches = path.every((nibble, i) => target[position + i] === nibble);
      if (!matches) return done(null);
      position += path.length;
      if (leaf) return done(position === target.length ? (node[1] as string) : null);
      ref = node[1]!;
    } else {
      throw new Error(`a trie node has 2 or 17 items, not ${node.length}`);
    }
  }
}

/** `verifyTrieProof` for a secure trie (state, storage): the key is keccak256(key). */
export function verifySecureTrieProof(root: string, key: Uint8Array | string, nodes: readonly string[]): string | null {
  return verifyTrieProof(root, getBytes(keccak256(typeof key === 'string' ? getBytes(key) : key)), nodes);
}

/** Decodes an account leaf: RLP [nonce, balance, storageRoot, codeHash]. */
export function decodeAccount(leaf: string): { nonce: bigint; balance: bigint; storageHash: string; codeHash: string } {
  const [nonce, balance, storageHash, codeHash] = decodeRlp(leaf) as string[];
  return {
    nonce: nonce === '0x' ? 0n : BigInt(nonce!),
    balance: balance === '0x' ? 0n : BigInt(balance!),
    storageHash: hexlify(storageHash!),
    codeHash: hexlify(codeHash!),
  };
}

/** Decodes a storage leaf: RLP of the value without leading zeros. */
export function decodeStorageValue(leaf: string | null): bigint {
  if (leaf === null) return 0n;
  const value = decodeRlp(leaf) as string;
  return value === '0x' ? 0n : BigInt(value);
}
