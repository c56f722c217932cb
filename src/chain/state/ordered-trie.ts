/**
 * The root of a Merkle Patricia trie keyed by RLP(index), as Ethereum (and our block builder) roots
 * a block's transactions and receipts, computed in one synchronous pass over the sorted keys; and,
 * in the same pass, the nodes on every entry's path, for proofs (rsk_getTransactionReceiptNodesByHash).
 * @ethereumjs/mpt gives the same root and nodes through an async put per value and a trie object
 * (a 150-receipt block took 30 ms, before its first proof); this builds the nodes directly (2 ms).
 * test/unit/ordered-trie.test.ts and proofs.test.ts check roots and paths against @ethereumjs/mpt's.
 */
import { RLP, type Input } from '@ethereumjs/rlp';
import { keccak256 } from '../base/hash.js';
import { compareBytes } from '../base/bytes.js';

type Entry = { nibbles: Uint8Array; value: Uint8Array; index: number };
type Node = Input;
/** Per entry index, the encoded nodes on its path so far, deepest first (undefined: no paths wanted). */
type Paths = Uint8Array[][] | undefined;

const EMPTY = new Uint8Array(0);
/** A node whose RLP is shorter than a hash is embedded in its parent instead of referenced. */
const HASH_LENGTH = 32;

export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  return build(values, undefined);
}

/**
 * The root and, for each entry, the encoded nodes on its path, root first: the nodes ethereumjs'
 * `createMerkleProof` lists, embedded ones (RLP shorter than a hash) included. Nodes are shared
 * between paths (the root is in all of them): callers must not change them.
 */
export function orderedTrieWithPaths(values: readonly Uint8Array[]): { root: Uint8Array; paths: Uint8Array[][] } {
  const paths: Uint8Array[][] = values.map(() => []);
  const root = build(values, paths);
  for (const path of paths) path.reverse();
  return { root, paths };
}

function build(values: readonly Uint8Array[], paths: Paths): Uint8Array {
  const entries: Entry[] = values.map((value, index) => ({ nibbles: toNibbles(RLP.encode(index)), value, index }));
  if (entries.length === 0) return keccak256(RLP.encode(EMPTY));
  // Ordered by key bytes: RLP(index) is not ordered like index (0x80 for 0 sorts after 0x01..0x7f).
  entries.sort((a, b) => compareBytes(a.nibbles, b.nibbles));
  const root = RLP.encode(nodeOf(entries, 0, paths));
  if (paths !== undefined) for (const path of paths) path.push(root);
  return keccak256(root);
}

/** The node over `entries` (sorted, sharing their first `depth` nibbles). */
function nodeOf(entries: Entry[], depth: number, paths: Paths): Node {
  if (entries.length === 1) {
    const only = entries[0]!;
    return [hexPrefix(only.nibbles.subarray(depth), true), only.value];
  }
  const shared = sharedPrefixLength(entries, depth);
  if (shared > 0) {
    const prefix = entries[0]!.nibbles.subarray(depth, depth + shared);
    return [hexPrefix(prefix, false), referenceTo(nodeOf(entries, depth + shared, paths), entries, paths)];
  }
  const branch: Node[] = new Array(17).fill(EMPTY);
  let start = 0;
  // RLP keys are prefix-free, but a key ending here would hold the branch's value slot.
  if (entries[0]!.nibbles.length === depth) {
    branch[16] = entries[0]!.value;
    start = 1;
  }
  while (start < entries.length) {
    const nibble = entries[start]!.nibbles[depth]!;
    let end = start + 1;
    while (end < entries.length && entries[end]!.nibbles[depth] === nibble) end++;
    const child = entries.slice(start, end);
    branch[nibble] = referenceTo(nodeOf(child, depth + 1, paths), child, paths);
    start = end;
  }
  return branch;
}

/** What a parent holds for `node` (over `entries`): its hash, or the node itself when short. */
function referenceTo(node: Node, entries: Entry[], paths: Paths): Node {
  const encoded = RLP.encode(node);
  if (paths !== undefined) for (const entry of entries) paths[entry.index]!.push(encoded);
  return encoded.length < HASH_LENGTH ? node : keccak256(encoded);
}

function sharedPrefixLength(entries: Entry[], depth: number): number {
  // Sorted entries: the first and the last bound what all of them share.
  const first = entries[0]!.nibbles;
  const last = entries[entries.length - 1]!.nibbles;
  let length = 0;
  while (depth + length < first.length && depth + length < last.length && first[depth + length] === last[depth + length]) length++;
  return length;
}

/** Compact (hex-prefix) encoding of a path, with the leaf flag. */
export function hexPrefix(nibbles: Uint8Array, leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2 === 1;
  const out = new Uint8Array(Math.floor(nibbles.length / 2) + 1);
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  out[0] = odd ? (flag << 4) | nibbles[0]! : flag << 4;
  for (let i = odd ? 1 : 0, o = 1; i < nibbles.length; i += 2, o++) out[o] = (nibbles[i]! << 4) | nibbles[i + 1]!;
  return out;
}

/** A key's nibbles, high nibble first. */
export function toNibbles(bytes: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    nibbles[2 * i] = bytes[i]! >> 4;
    nibbles[2 * i + 1] = bytes[i]! & 0x0f;
  }
  return nibbles;
}
