/**
 * Bitcoin checks for tests, written from Bitcoin Core's definitions and independent of the node's
 * code: double SHA-256, a block's merkle root and branch, and reading a partial merkle tree
 * (merkleblock.cpp ExtractMatches).
 */
import { createHash } from 'node:crypto';

export const sha256d = (b: Uint8Array) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/**
 * Bitcoin's merkle tree over txids in internal byte order (odd levels repeat their last node, as
 * consensus/merkle.cpp does): the root and the first txid's siblings bottom-up, the branch a merged
 * miner sends for its coinbase.
 */
export function merkleRootAndBranch(txids: Uint8Array[]): { root: Uint8Array; branch: Uint8Array[] } {
  let level = txids;
  const branch: Uint8Array[] = [];
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    branch.push(level[1]!);
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(Uint8Array.from([...level[i]!, ...level[i + 1]!])));
    level = next;
  }
  return { root: level[0]!, branch };
}

/** CPartialMerkleTree::ExtractMatches, written here from Bitcoin Core's merkleblock.cpp. */
export function extractMatches(pmt: Uint8Array): { root: Uint8Array; matched: Uint8Array[]; indexes: number[] } {
  let o = 0;
  const view = new DataView(pmt.buffer, pmt.byteOffset, pmt.byteLength);
  const count = view.getUint32(0, true);
  o = 4;
  const varint = () => {
    const first = pmt[o++]!;
    if (first < 0xfd) return first;
    if (first === 0xfd) { const v = view.getUint16(o, true); o += 2; return v; }
    const v = view.getUint32(o, true); o += 4; return v;
  };
  const nHashes = varint();
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < nHashes; i++) { hashes.push(pmt.subarray(o, o + 32)); o += 32; }
  const nFlagBytes = varint();
  const flags = pmt.subarray(o, o + nFlagBytes);
  o += nFlagBytes;
  if (o !== pmt.length) throw new Error(`${pmt.length - o} bytes follow the partial merkle tree`);
  const width = (h: number) => (count + (1 << h) - 1) >> h;
  let height = 0;
  while (width(height) > 1) height++;
  let bitUsed = 0;
  let hashUsed = 0;
  const matched: Uint8Array[] = [];
  const indexes: number[] = [];
  const walk = (h: number, pos: number): Uint8Array => {
    const flag = (flags[bitUsed >> 3]! >> (bitUsed & 7)) & 1;
    bitUsed++;
    if (h === 0 || !flag) {
      const hash = hashes[hashUsed++]!;
      if (h === 0 && flag) { matched.push(hash); indexes.push(pos); }
      return hash;
    }
    const left = walk(h - 1, pos * 2);
    const right = pos * 2 + 1 < width(h - 1) ? walk(h - 1, pos * 2 + 1) : left;
    return sha256d(Buffer.concat([left, right]));
  };
  const root = walk(height, 0);
  if (hashUsed !== hashes.length) throw new Error(`${hashes.length - hashUsed} hashes of the partial merkle tree were not used`);
  return { root, matched, indexes };
}
