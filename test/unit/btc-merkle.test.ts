/** The node's merkle roots and partial merkle trees (chain/btc-chain/merkle.ts) against Bitcoin Core's reading of them. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { merkleRoot, partialMerkleTree } from '../../src/chain/btc-chain/merkle.js';
import { genesisBlock } from '../../src/chain/btc-chain/block.js';
import { extractMatches, sha256d } from '../helpers/btc.js';

const leaf = (i: number) => createHash('sha256').update(`leaf ${i}`).digest();

describe('Bitcoin merkle trees', () => {
  it("gives the regtest genesis block's merkle root and hash", () => {
    const genesis = genesisBlock();
    expect(Buffer.from(merkleRoot(genesis.transactions.map((tx) => tx.txid))).reverse().toString('hex')).toBe('4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
    expect(Buffer.from(sha256d(genesis.header)).reverse().toString('hex')).toBe('0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206');
  });

  it('proves every leaf of trees of 1 to 17 leaves: the tree reads back to the root with that leaf alone matched', () => {
    for (let count = 1; count <= 17; count++) {
      const leaves = Array.from({ length: count }, (_, i) => leaf(i));
      const root = merkleRoot(leaves);
      for (let index = 0; index < count; index++) {
        const read = extractMatches(partialMerkleTree(leaves, index));
        expect(Buffer.from(read.root).equals(Buffer.from(root)), `${count} leaves, index ${index}`).toBe(true);
        expect(read.indexes).toEqual([index]);
        expect(Buffer.from(read.matched[0]!).equals(leaves[index]!)).toBe(true);
      }
    }
  });

  it('pairs the last hash of an odd level with itself', () => {
    const [a, b, c] = [leaf(0), leaf(1), leaf(2)];
    const ab = sha256d(Buffer.concat([a, b]));
    const cc = sha256d(Buffer.concat([c, c]));
    expect(Buffer.from(merkleRoot([a, b, c])).equals(sha256d(Buffer.concat([ab, cc])))).toBe(true);
  });
});
