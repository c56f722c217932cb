import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { orderedTrieRoot } from '../../src/chain/state/ordered-trie.js';

async function referenceRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]!);
  return trie.root();
}

/** Deterministic values of varied sizes: 1-byte, short (embedded nodes) and long ones. */
function valuesOf(count: number, seed: number): Uint8Array[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, () => {
    const size = [1, 3, 20, 31, 32, 33, 110][next() % 7]!;
    return Uint8Array.from({ length: size }, () => next() % 256);
  });
}

describe('orderedTrieRoot', () => {
  it('equals @ethereumjs/mpt for 0 to 300 values of varied sizes', async () => {
    for (const count of [0, 1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 255, 256, 300]) {
      for (const seed of [1, 7]) {
        const values = valuesOf(count, seed + count);
        expect(orderedTrieRoot(values), `${count} values, seed ${seed}`).toEqual(await referenceRoot(values));
      }
    }
  });

  it('is the empty trie root for no values', () => {
    expect(Buffer.from(orderedTrieRoot([])).toString('hex')).toBe('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
  });
});
