/**
 * The flat view's miss path (state/trie-walk.ts) answers as MerkleStateManager does over the same
 * store and root: accounts and slots that exist, ones that do not, and, for what it does not know
 * (a node missing from the store, a key of another length), the reference reader's own answer.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, ValueEncoding, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DECODED_NODES, DecodedNodes, walkingReader } from '../../src/chain/state/trie-walk.js';

/** A deterministic byte stream (xorshift), so a failure names the same state again. */
function bytesFrom(seed: number) {
  let x = seed;
  return (length: number) => {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

const ACCOUNTS = 300;
const CONTRACTS = 5;
const SLOTS = 60;

/** A state of ACCOUNTS accounts, the first CONTRACTS with SLOTS slots each (values of 1 to 32 bytes). */
async function stateOf(seed: number) {
  const random = bytesFrom(seed);
  const db = new MapDB<string, Uint8Array>();
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
  const sm = new MerkleStateManager({ trie });
  const addresses: Address[] = [];
  const slots: Uint8Array[] = [];
  for (let i = 0; i < SLOTS; i++) slots.push(random(32));
  await sm.checkpoint();
  for (let i = 0; i < ACCOUNTS; i++) {
    const address = new Address(random(20));
    addresses.push(address);
    await sm.putAccount(address, new Account(BigInt(i), BigInt(i) * 10n ** 18n + 1n));
    if (i < CONTRACTS) {
      for (let j = 0; j < SLOTS; j++) await sm.putStorage(address, slots[j]!, random(1 + ((i * SLOTS + j) % 32)).map((b) => b | 1));
    }
  }
  await sm.commit();
  await sm.flush();
  const root = await sm.getStateRoot();
  const reference = () => new MerkleStateManager({ trie: new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root }) });
  return { db, root, addresses, slots, reference, random };
}

describe('the flat view miss path walking decoded nodes', () => {
  it('answers accounts, absent accounts, slots and absent slots as MerkleStateManager', async () => {
    for (const seed of [7, 1234567]) {
      const { db, root, addresses, slots, reference, random } = await stateOf(seed);
      const expected = reference();
      const reader = walkingReader(new DecodedNodes(db), root, reference);
      const absent = Array.from({ length: 50 }, () => new Address(random(20)));
      for (const address of [...addresses, ...absent]) {
        const [ours, theirs] = [await reader.getAccount(address), await expected.getAccount(address)];
        expect(ours === undefined ? undefined : bytesToHex(ours.serialize())).toBe(theirs === undefined ? undefined : bytesToHex(theirs.serialize()));
      }
      const owners = [...addresses.slice(0, CONTRACTS + 2), absent[0]!];
      for (const owner of owners) {
        for (const slot of [...slots, random(32), random(32)]) {
          expect(bytesToHex(await reader.getStorage(owner, slot))).toBe(bytesToHex(await expected.getStorage(owner, slot)));
        }
      }
      expect((await reader.getAccount(addresses[42]!))?.balance).toBe(42n * 10n ** 18n + 1n);
    }
  });

  it('reads a node from the store once, then from memory', async () => {
    const { db, root, addresses, reference } = await stateOf(99);
    let storeReads = 0;
    const counting = { get: (key: string) => (storeReads++, db.get(key)) };
    const reader = walkingReader(new DecodedNodes(counting), root, reference);
    await reader.getAccount(addresses[0]!);
    const first = storeReads;
    expect(first).toBeGreaterThan(1);
    await reader.getAccount(addresses[0]!);
    expect(storeReads).toBe(first);
  });

  it('leaves a node missing from the store, and a slot key of another length, to the reference reader', async () => {
    const { db, root, addresses, reference } = await stateOf(5);
    const rootKey = bytesToHex(root).slice(2);
    const stored = (await db.get(rootKey))!;
    await db.del(rootKey);
    const reader = walkingReader(new DecodedNodes(db), root, reference);
    // The reference reader's own error for a missing root node.
    const theirs = await reference().getAccount(addresses[0]!).then(
      (account) => ({ account }),
      (err: Error) => ({ error: err.message }),
    );
    const ours = await reader.getAccount(addresses[0]!).then(
      (account) => ({ account }),
      (err: Error) => ({ error: err.message }),
    );
    expect(ours).toEqual(theirs);
    await db.put(rootKey, stored);
    await expect(reader.getStorage(addresses[0]!, hexToBytes('0x01'))).rejects.toThrow('Storage key must be 32 bytes long');
    expect(bytesToHex(await reader.getStorage(addresses[0]!, setLengthLeft(hexToBytes('0x01'), 32)))).toBe(
      bytesToHex(await reference().getStorage(addresses[0]!, setLengthLeft(hexToBytes('0x01'), 32))),
    );
  });

  it('keeps at most DECODED_NODES decoded nodes, and none after clear', async () => {
    const { db, root, reference, random } = await stateOf(3);
    const nodes = new DecodedNodes(db);
    const reader = walkingReader(nodes, root, reference);
    for (let i = 0; i < 200; i++) await reader.getAccount(new Address(random(20)));
    const inner = (nodes as unknown as { nodes: { size: number } }).nodes;
    expect(inner.size).toBeGreaterThan(0);
    expect(inner.size).toBeLessThanOrEqual(DECODED_NODES);
    nodes.clear();
    expect(inner.size).toBe(0);
  });
});
