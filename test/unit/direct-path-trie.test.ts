import { MerklePatriciaTrie, type MPTNode, type Path } from '@ethereumjs/mpt';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import { generator } from '../helpers/random.js';

const bytes = (next: (below: number) => number, length: number) => Uint8Array.from({ length }, () => next(256));

/** Keys sharing prefixes (extension nodes, branch values) and values short enough to sit inline. */
function randomKey(next: (below: number) => number): Uint8Array {
  const prefixes = [[], [0x12], [0x12, 0x34], [0x12, 0x35], [0xab, 0xcd, 0xef]];
  const prefix = prefixes[next(prefixes.length)]!;
  return Uint8Array.from([...prefix, ...bytes(next, next(4))]);
}

const shape = (path: Path) => ({
  node: path.node === null ? null : bytesToHex(path.node.serialize()),
  remaining: [...path.remaining],
  stack: path.stack.map((node: MPTNode) => bytesToHex(node.serialize())),
});

async function compare(useKeyHashing: boolean, seed: number, operations: number) {
  const next = generator(seed);
  const stock = new MerklePatriciaTrie({ useKeyHashing });
  const direct = new DirectPathTrie({ useKeyHashing });
  const keys: Uint8Array[] = [];
  for (let n = 0; n < operations; n++) {
    const key = keys.length > 0 && next(3) === 0 ? keys[next(keys.length)]! : randomKey(next);
    if (next(5) === 0) {
      await stock.del(key);
      await direct.del(key);
    } else {
      const value = bytes(next, 1 + next(40));
      await stock.put(key, value);
      await direct.put(key, value);
      keys.push(key);
    }
    expect(bytesToHex(direct.root()), `seed ${seed}, operation ${n}`).toBe(bytesToHex(stock.root()));
    if (n % 10 !== 9) continue;
    const probes = [...keys.slice(-8), randomKey(next), Uint8Array.of(0x12), Uint8Array.of(0x12, 0x34), new Uint8Array(0)];
    for (const probe of probes) {
      const applied = useKeyHashing ? stock['appliedKey'](probe) : probe;
      expect(shape(await direct.findPath(applied)), `seed ${seed}, probe ${bytesToHex(probe)}`).toEqual(shape(await stock.findPath(applied)));
      expect(await direct.get(probe)).toEqual(await stock.get(probe));
    }
  }
}

describe('DirectPathTrie', () => {
  it('finds the same paths as ethereumjs and reaches the same roots, keys as they are', async () => {
    for (const seed of [1, 2, 3]) await compare(false, seed, 300);
  });

  it('does the same with hashed keys, as the state trie uses them', async () => {
    await compare(true, 7, 200);
  });

  it('answers a missing node as ethereumjs does: nothing found, or the error when asked to throw', async () => {
    const root = new Uint8Array(32).fill(0x5a);
    const stock = new MerklePatriciaTrie({ root });
    const direct = new DirectPathTrie({ root });
    expect(shape(await direct.findPath(Uint8Array.of(1, 2)))).toEqual(shape(await stock.findPath(Uint8Array.of(1, 2))));
    expect(await direct.get(Uint8Array.of(1, 2))).toBeNull();
    await expect(direct.get(Uint8Array.of(1, 2), true)).rejects.toThrow('Missing node in DB');
    await expect(stock.get(Uint8Array.of(1, 2), true)).rejects.toThrow('Missing node in DB');
  });

  it('makes storage tries of its own kind', async () => {
    const direct = new DirectPathTrie({ useKeyHashing: true });
    await direct.put(Uint8Array.of(1), Uint8Array.of(2));
    const copy = direct.shallowCopy(false);
    expect(copy).toBeInstanceOf(DirectPathTrie);
    expect(copy.root()).toEqual(direct.root());
    expect(await copy.get(Uint8Array.of(1))).toEqual(Uint8Array.of(2));
  });
});
