/**
 * src/chain/state/proofs.ts: receipt-trie paths and EIP-1186 state proofs, each checked by two verifiers
 * that did not produce them: the hand-written walker of test/helpers/mpt-verify.ts (ethers' RLP and
 * keccak256 only) and @ethereumjs/mpt's `verifyMerkleProof` with the expected root.
 */
import { describe, expect, it } from 'vitest';
import { MerklePatriciaTrie, createMerkleProof, verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager, verifyMerkleStateProof } from '@ethereumjs/statemanager';
import {
  Account,
  Address,
  KECCAK256_NULL,
  KECCAK256_RLP,
  MapDB,
  ValueEncoding,
  bigIntToHex,
  bytesToHex,
} from '@ethereumjs/util';
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js';
import { orderedTrieRoot, orderedTrieWithPaths } from '../../src/chain/state/ordered-trie.js';
import { IndexedTrie, accountProof, slotKey, type TrieProof } from '../../src/chain/state/proofs.js';
import { EMPTY_TRIE_ROOT, decodeAccount, decodeStorageValue, verifySecureTrieProof, verifyTrieProof } from '../helpers/mpt-verify.js';

const hex = (nodes: Uint8Array[]) => nodes.map((n) => bytesToHex(n));

/** The path to entry `index` of the trie keyed by RLP(index) over `values`. */
function indexedTrieProof(values: readonly Uint8Array[], index: number): TrieProof {
  return IndexedTrie.build(values).prove(index);
}

/** Receipt-like values: distinct, and long enough (as receipts are, with their bloom) never to be embedded. */
function values(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => RLP.encode([i, new Uint8Array(256).fill(i % 251), `receipt ${i}`]));
}

/** The same path from @ethereumjs/mpt's trie and createMerkleProof; `geth`: only the root and nodes referenced by hash. */
async function ethereumjsProof(list: Uint8Array[], index: number, geth = true): Promise<Uint8Array[]> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < list.length; i++) await trie.put(RLP.encode(i), list[i]!);
  const nodes = await createMerkleProof(trie, RLP.encode(index));
  return geth ? nodes.filter((node, i) => i === 0 || node.length >= 32) : nodes;
}

describe('IndexedTrie proofs (receipt trie paths)', () => {
  // 1: a lone leaf; 17: a root branch; 130 and 300: keys RLP(i) of 1, 2 and 3 bytes (0x80, 0x8180, 0x820100).
  for (const count of [1, 2, 3, 16, 17, 130, 300]) {
    it(`proves entries of a ${count}-entry trie against the root block-builder computes, with @ethereumjs/mpt's nodes`, async () => {
      const list = values(count);
      const root = orderedTrieRoot(list);
      const trie = IndexedTrie.build(list);
      expect(trie.size).toBe(count);
      const indexes = count <= 17 ? list.map((_, i) => i) : [0, 1, 15, 16, 127, 128, 129, count - 1];
      for (const index of indexes) {
        const proof = trie.prove(index);
        expect(bytesToHex(proof.root), `root, index ${index}`).toBe(bytesToHex(root));
        expect(keccak256(proof.nodes[0]!), 'the first node is the root').toEqual(root);
        expect(hex(proof.nodes), `ethereumjs' nodes, index ${index}`).toEqual(hex(await ethereumjsProof(list, index)));
        const key = RLP.encode(index);
        expect(verifyTrieProof(bytesToHex(root), key, hex(proof.nodes)), `walker, index ${index}`).toBe(bytesToHex(list[index]!));
        expect(await verifyMerkleProof(key, proof.nodes, { root }), `ethereumjs, index ${index}`).toEqual(list[index]);
      }
    });
  }

  it('leaves out nodes embedded in their parent, as geth does, and otherwise lists what ethereumjs does', async () => {
    // One-byte values: every leaf RLP is shorter than a hash, so it sits inside its branch.
    const list = Array.from({ length: 20 }, (_, i) => Uint8Array.of(i + 1));
    const { root, paths } = orderedTrieWithPaths(list);
    for (const index of [0, 5, 16, 19]) {
      expect(hex(paths[index]!), `every node on the path, index ${index}`).toEqual(hex(await ethereumjsProof(list, index, false)));
      expect(paths[index]!.some((node) => node.length < 32), 'embedded nodes on the path').toBe(true);
      const proof = indexedTrieProof(list, index);
      expect(proof.root).toEqual(root);
      expect(hex(proof.nodes), `index ${index}`).toEqual(hex(await ethereumjsProof(list, index)));
      expect(proof.nodes.length).toBeLessThan(paths[index]!.length);
      expect(await verifyMerkleProof(RLP.encode(index), proof.nodes, { root }), `index ${index}`).toEqual(list[index]);
    }
  });

  it('a path does not prove another entry, nor anything against another root', () => {
    const list = values(40);
    const proof = indexedTrieProof(list, 5);
    const other = orderedTrieRoot(values(41));
    expect(() => verifyTrieProof(bytesToHex(other), RLP.encode(5), hex(proof.nodes))).toThrow(/does not hash/);
    // Entry 6 sits under another child of the same branch: the path of 5 does not hold it.
    expect(() => verifyTrieProof(bytesToHex(proof.root), RLP.encode(6), hex(proof.nodes))).toThrow();
  });

  it('a proof is its own array: reversing it (as rsk_ does) leaves the trie\'s next answer alone', () => {
    const trie = IndexedTrie.build(values(40));
    const first = trie.prove(7);
    const expected = hex(first.nodes);
    first.nodes.reverse();
    expect(hex(trie.prove(7).nodes)).toEqual(expected);
  });

  it('refuses an index outside the trie', () => {
    expect(() => indexedTrieProof(values(3), 3)).toThrow(RangeError);
    expect(() => indexedTrieProof(values(3), -1)).toThrow(RangeError);
    expect(() => indexedTrieProof(values(3), 1.5)).toThrow(RangeError);
    expect(() => indexedTrieProof([], 0)).toThrow(RangeError);
  });
});

// ---- state proofs ---------------------------------------------------------------------------------

/** A state like the chain's: a secure trie over a key-value store, opened at a root (execution.ts). */
function stateAt(db: MapDB<string, Uint8Array>, root?: Uint8Array): MerkleStateManager {
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, ...(root ? { root } : {}) });
  return new MerkleStateManager({ trie });
}

const address = (n: number) => new Address(new Uint8Array(20).fill(n));
const EOA = address(0x11);
const CONTRACT = address(0x22);
const ABSENT = address(0x99);
const CODE = Uint8Array.of(0x60, 0x00, 0x60, 0x00, 0xf3);

async function buildState() {
  const db = new MapDB<string, Uint8Array>();
  const sm = stateAt(db);
  // Enough accounts for branch and extension nodes above the ones we prove.
  for (let i = 1; i <= 60; i++) await sm.putAccount(address(0x30 + i), new Account(BigInt(i), BigInt(i) * 10n ** 18n));
  await sm.putAccount(EOA, new Account(7n, 123_456_789n));
  await sm.putAccount(CONTRACT, new Account(1n, 0n));
  await sm.putCode(CONTRACT, CODE);
  for (let slot = 0n; slot < 40n; slot++) await sm.putStorage(CONTRACT, slotKey(slot), bigIntToBytesMin(slot * 1000n + 1n));
  await sm.putStorage(CONTRACT, slotKey(2n ** 255n), Uint8Array.of(0xab, 0xcd));
  await sm.flush();
  const root1 = await sm.getStateRoot();
  // Later state: slot 3 changes, slot 4 is cleared, the EOA spends.
  await sm.putStorage(CONTRACT, slotKey(3n), Uint8Array.of(0x77));
  await sm.putStorage(CONTRACT, slotKey(4n), new Uint8Array());
  await sm.putAccount(EOA, new Account(8n, 100n));
  await sm.flush();
  const root2 = await sm.getStateRoot();
  return { db, root1, root2 };
}

function bigIntToBytesMin(n: bigint): Uint8Array {
  const h = n.toString(16);
  return Uint8Array.from(Buffer.from(h.length % 2 ? `0${h}` : h, 'hex'));
}

/** Checks a proof field by field with the walker and with ethereumjs' EIP-1186 verifier; returns the walker's view. */
async function checkProof(root: Uint8Array, who: Address, slots: bigint[], proof: Awaited<ReturnType<typeof accountProof>>) {
  const rootHex = bytesToHex(root);
  const leaf = verifySecureTrieProof(rootHex, who.bytes, hex(proof.accountProof));
  const account =
    leaf === null ? { nonce: 0n, balance: 0n, storageHash: EMPTY_TRIE_ROOT, codeHash: bytesToHex(KECCAK256_NULL) } : decodeAccount(leaf);
  expect(proof.nonce).toBe(account.nonce);
  expect(proof.balance).toBe(account.balance);
  expect(bytesToHex(proof.storageHash)).toBe(account.storageHash);
  expect(bytesToHex(proof.codeHash)).toBe(account.codeHash);
  expect(proof.storageProof.map((s) => s.slot)).toEqual(slots);
  for (const item of proof.storageProof) {
    const value = decodeStorageValue(verifySecureTrieProof(account.storageHash, slotKey(item.slot), hex(item.proof)));
    expect(item.value, `slot ${item.slot}`).toBe(value);
  }
  // ethereumjs: the account path against the root, then its EIP-1186 checker on every field.
  await verifyMerkleProof(who.bytes, proof.accountProof, { useKeyHashing: true, root });
  const json = {
    address: who.toString(),
    balance: bigIntToHex(proof.balance),
    nonce: bigIntToHex(proof.nonce),
    codeHash: bytesToHex(proof.codeHash),
    storageHash: bytesToHex(proof.storageHash),
    accountProof: hex(proof.accountProof) as `0x${string}`[],
    // ethereumjs' checker cannot read an empty proof (the empty storage trie has no node): leave those to the walker.
    storageProof: proof.storageProof.filter((s) => s.proof.length > 0).map((s) => ({ key: bytesToHex(slotKey(s.slot)), value: bigIntToHex(s.value), proof: hex(s.proof) })) as never,
  };
  if (leaf !== null) expect(await verifyMerkleStateProof(stateAt(new MapDB()), json)).toBe(true);
  return { account, leaf };
}

describe('accountProof (EIP-1186)', () => {
  it('a contract with storage: fields, present slots, a slot never written', async () => {
    const { db, root1 } = await buildState();
    const slots = [0n, 3n, 4n, 39n, 2n ** 255n, 1000n];
    const proof = await accountProof(stateAt(db, root1), CONTRACT, slots);
    await checkProof(root1, CONTRACT, slots, proof);
    expect(proof.nonce).toBe(1n);
    expect(proof.codeHash).toEqual(keccak256(CODE));
    expect(proof.storageHash).not.toEqual(KECCAK256_RLP);
    expect(proof.storageProof.map((s) => s.value)).toEqual([1n, 3001n, 4001n, 39001n, 0xabcdn, 0n]);
    for (const item of proof.storageProof) expect(item.proof.length, `slot ${item.slot}`).toBeGreaterThan(0);
  });

  it('an older root proves the older state', async () => {
    const { db, root1, root2 } = await buildState();
    const slots = [3n, 4n];
    const before = await accountProof(stateAt(db, root1), CONTRACT, slots);
    const after = await accountProof(stateAt(db, root2), CONTRACT, slots);
    await checkProof(root1, CONTRACT, slots, before);
    await checkProof(root2, CONTRACT, slots, after);
    expect(before.storageProof.map((s) => s.value)).toEqual([3001n, 4001n]);
    expect(after.storageProof.map((s) => s.value)).toEqual([0x77n, 0n]);
    const eoaBefore = await accountProof(stateAt(db, root1), EOA, []);
    const eoaAfter = await accountProof(stateAt(db, root2), EOA, []);
    expect([eoaBefore.nonce, eoaBefore.balance]).toEqual([7n, 123_456_789n]);
    expect([eoaAfter.nonce, eoaAfter.balance]).toEqual([8n, 100n]);
    await checkProof(root1, EOA, [], eoaBefore);
    // A proof from one root does not verify against the other.
    expect(() => verifySecureTrieProof(bytesToHex(root2), EOA.bytes, hex(eoaBefore.accountProof))).toThrow(/does not hash/);
  });

  it('an externally owned account: empty code and storage, its slots proven absent by an empty proof', async () => {
    const { db, root1 } = await buildState();
    const proof = await accountProof(stateAt(db, root1), EOA, [0n, 5n]);
    await checkProof(root1, EOA, [0n, 5n], proof);
    expect(proof.codeHash).toEqual(KECCAK256_NULL);
    expect(proof.storageHash).toEqual(KECCAK256_RLP);
    expect(proof.storageProof).toEqual([
      { slot: 0n, value: 0n, proof: [] },
      { slot: 5n, value: 0n, proof: [] },
    ]);
  });

  it('an account never touched: a proof of absence and the empty account', async () => {
    const { db, root1 } = await buildState();
    const proof = await accountProof(stateAt(db, root1), ABSENT, [1n]);
    const { leaf } = await checkProof(root1, ABSENT, [1n], proof);
    expect(leaf).toBeNull();
    expect(proof.accountProof.length).toBeGreaterThan(0);
    expect(await verifyMerkleProof(ABSENT.bytes, proof.accountProof, { useKeyHashing: true, root: root1 })).toBeNull();
    expect([proof.nonce, proof.balance]).toEqual([0n, 0n]);
    expect(proof.codeHash).toEqual(KECCAK256_NULL);
    expect(proof.storageHash).toEqual(KECCAK256_RLP);
    expect(proof.storageProof).toEqual([{ slot: 1n, value: 0n, proof: [] }]);
  });
});
