/**
 * A Bitcoin partial merkle tree (CPartialMerkleTree, as btc_getPartialMerkleTree answers it) with one
 * matched leaf, turned into what rskj's MerkleBranch takes (getBtcTransactionConfirmations): the
 * sibling hashes bottom-up in display order, and path bit i = 1 when the proven node is the right
 * child at level i.
 */
import { createHash } from 'node:crypto';

const sha256d = (b: Buffer) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const display = (b: Buffer) => '0x' + Buffer.from(b).reverse().toString('hex');

export function merkleBranch(pmtHex: string): { hashes: string[]; path: number } {
  const b = Buffer.from(pmtHex, 'hex');
  let o = 0;
  const total = b.readUInt32LE(o);
  o += 4;
  const hashCount = b[o++]!; // fewer than 0xfd in these blocks
  const hashes = Array.from({ length: hashCount }, (_, i) => b.subarray(o + i * 32, o + i * 32 + 32));
  o += hashCount * 32;
  const flagBytes = b[o++]!;
  const flags = b.subarray(o, o + flagBytes);
  const width = (h: number) => (total + (1 << h) - 1) >> h;
  let height = 0;
  while (width(height) > 1) height++;
  let bit = 0;
  let used = 0;
  const siblings: Buffer[] = [];
  let path = 0;
  const walk = (h: number, pos: number): { hash: Buffer; matched: boolean } => {
    const flag = ((flags[bit >> 3]! >> (bit & 7)) & 1) === 1;
    bit++;
    if (h === 0 || !flag) return { hash: hashes[used++]!, matched: flag };
    const left = walk(h - 1, pos * 2);
    const right = pos * 2 + 1 < width(h - 1) ? walk(h - 1, pos * 2 + 1) : { hash: left.hash, matched: false };
    if (left.matched) siblings.push(right.hash);
    else if (right.matched) {
      path |= 1 << siblings.length;
      siblings.push(left.hash);
    }
    return { hash: sha256d(Buffer.concat([left.hash, right.hash])), matched: left.matched || right.matched };
  };
  walk(height, 0);
  return { hashes: siblings.map(display), path };
}

