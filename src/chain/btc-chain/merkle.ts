/**
 * Bitcoin's merkle tree over a block's transaction hashes (internal byte order), and the partial
 * merkle tree that proves one of them: Bitcoin Core's CPartialMerkleTree (merkleblock.cpp), which
 * bitcoinj's PartialMerkleTree reads and rskj's Bridge takes in registerBtcTransaction. Written by
 * hand: @scure/btc-signer builds transactions, not blocks.
 *
 * Serialization: the transaction count (uint32 LE), the hashes (CompactSize count, 32 bytes each,
 * internal order), the flag bits (CompactSize byte count, bits packed least significant first).
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256d } from '../base/bytes.js';
import { u32le, varInt } from '../bitcoin/encoding.js';

function parent(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256d(concatBytes(left, right));
}

/** The merkle root; a level with an odd count pairs its last hash with itself. */
export function merkleRoot(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) throw new Error('a block has at least one transaction');
  let level = [...hashes];
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(parent(level[i]!, level[i + 1] ?? level[i]!));
    level = next;
  }
  return level[0]!;
}

/** Width of the tree at `height` (0 = the leaves), CPartialMerkleTree::CalcTreeWidth. */
function treeWidth(count: number, height: number): number {
  return (count + (1 << height) - 1) >> height;
}

/** The hash of the node at (height, pos), CPartialMerkleTree::CalcHash. */
function nodeHash(hashes: readonly Uint8Array[], height: number, pos: number): Uint8Array {
  if (height === 0) return hashes[pos]!;
  const left = nodeHash(hashes, height - 1, pos * 2);
  const right = pos * 2 + 1 < treeWidth(hashes.length, height - 1) ? nodeHash(hashes, height - 1, pos * 2 + 1) : left;
  return parent(left, right);
}

/** The serialized partial merkle tree proving `hashes[index]` (CPartialMerkleTree(vTxid, vMatch)). */
export function partialMerkleTree(hashes: readonly Uint8Array[], index: number): Uint8Array {
  const count = hashes.length;
  let height = 0;
  while (treeWidth(count, height) > 1) height++;
  const bits: boolean[] = [];
  const proof: Uint8Array[] = [];
  // TraverseAndBuild: depth first; a node's bit says whether a matched leaf is under it.
  const build = (h: number, pos: number): void => {
    const first = pos << h;
    const matched = index >= first && index < Math.min((pos + 1) << h, count);
    bits.push(matched);
    if (h === 0 || !matched) {
      proof.push(nodeHash(hashes, h, pos));
      return;
    }
    build(h - 1, pos * 2);
    if (pos * 2 + 1 < treeWidth(count, h - 1)) build(h - 1, pos * 2 + 1);
  };
  build(height, 0);
  const flags = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) flags[i >> 3]! |= 1 << (i & 7);
  });
  return concatBytes(u32le(count), varInt(proof.length), ...proof, varInt(flags.length), flags);
}
