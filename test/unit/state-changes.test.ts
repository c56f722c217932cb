/**
 * ChangeTrackingStateManager's putStorage writes the storage cache only, leaving the trie to the
 * flush (ethereumjs 10.1's own also wrote every slot through to the trie), and its flush writes
 * only what was written (ethereumjs' also wrote back what reads had cached). The oracle: a stock
 * MerkleStateManager without caches, which writes every change straight into its trie, must read
 * the same values and reach the same state roots over random reads, writes, checkpoints and reverts.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, ValueEncoding, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import { ChangeTrackingStateManager, slotKey } from '../../src/chain/state/tracking-state-manager.js';
import { generator } from '../helpers/random.js';

const ADDRESSES = Array.from({ length: 4 }, (_, i) => new Address(new Uint8Array(20).fill(i + 1)));
/** Read, never written: no account there. */
const ABSENT = new Address(new Uint8Array(20).fill(0xee));
const SLOTS = Array.from({ length: 6 }, (_, i) => new Uint8Array(32).fill(i * 16 + 1));

/** The map under a MapDB and its shallow copies (every storage trie's), counting the writes that reach it. */
class CountingMap extends Map<string, Uint8Array> {
  writes = 0;
  override set(key: string, value: Uint8Array): this {
    this.writes++;
    return super.set(key, value);
  }
}

function tracked(): { state: ChangeTrackingStateManager; nodes: CountingMap } {
  const nodes = new CountingMap();
  const trie = new DirectPathTrie({ db: new MapDB(nodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
  return { state: new ChangeTrackingStateManager({ trie, caches: new Caches() }), nodes };
}

function writeThrough(): MerkleStateManager {
  return new MerkleStateManager({ trie: new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes }) });
}

/**
 * The state manager under test beside its write-through oracle, with every ADDRESSES account in
 * both; `both` applies one action to the two, the tracked one first.
 */
async function withOracle(): Promise<{
  state: ChangeTrackingStateManager;
  oracle: MerkleStateManager;
  both: (act: (s: MerkleStateManager) => Promise<unknown>) => Promise<void>;
}> {
  const { state } = tracked();
  const oracle = writeThrough();
  const both = async (act: (s: MerkleStateManager) => Promise<unknown>) => {
    await act(state);
    await act(oracle);
  };
  for (const address of ADDRESSES) await both((s) => s.putAccount(address, new Account(0n, 1000n)));
  return { state, oracle, both };
}

/** A random storage value: empty or zero (a delete), short, or a full word. */
function value(next: (below: number) => number): Uint8Array {
  const kind = next(4);
  if (kind === 0) return new Uint8Array(0);
  if (kind === 1) return new Uint8Array(32);
  return Uint8Array.from({ length: kind === 2 ? 1 + next(4) : 32 }, () => next(256));
}

describe('ChangeTrackingStateManager: storage writes and the flush', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`reads and roots as a write-through state manager over random writes, checkpoints and reverts (seed ${seed})`, async () => {
      const next = generator(seed);
      const { state, oracle, both } = await withOracle();
      let depth = 0;
      for (let step = 0; step < 300; step++) {
        const address = ADDRESSES[next(ADDRESSES.length)]!;
        const slot = SLOTS[next(SLOTS.length)]!;
        const op = next(10);
        if (op < 5) {
          const written = value(next);
          await both((s) => s.putStorage(address, slot, written));
        } else if (op === 5) {
          // As the EVM changes an account: read, change a field, put back (its storage stays).
          const balance = BigInt(next(1_000_000));
          await both(async (s) => {
            const account = (await s.getAccount(address))!;
            account.balance = balance;
            await s.putAccount(address, account);
          });
        } else if (op === 6 && depth < 4) {
          depth++;
          await both((s) => s.checkpoint());
        } else if (op === 7 && depth > 0) {
          depth--;
          const keep = next(2) === 0;
          await both((s) => (keep ? s.commit() : s.revert()));
        } else if (op === 8) {
          // Reads, which fill the caches: of a slot, an account (or none), a code.
          const read = next(4);
          if (read === 0) expect(bytesToHex(await state.getStorage(address, slot)), `step ${step}`).toBe(bytesToHex(await oracle.getStorage(address, slot)));
          if (read === 1) expect((await state.getAccount(ABSENT)) === undefined && (await oracle.getAccount(ABSENT)) === undefined, `step ${step}`).toBe(true);
          if (read === 2) expect(bytesToHex(await state.getCode(address)), `step ${step}`).toBe(bytesToHex(await oracle.getCode(address)));
          if (read === 3) {
            const code = Uint8Array.from({ length: 1 + next(40) }, () => next(256));
            await both((s) => s.putCode(address, code));
          }
        } else if (depth === 0) {
          expect(bytesToHex(await state.getStateRoot()), `root at step ${step}`).toBe(bytesToHex(await oracle.getStateRoot()));
        }
      }
      while (depth-- > 0) await both((s) => s.commit());
      expect(bytesToHex(await state.getStateRoot())).toBe(bytesToHex(await oracle.getStateRoot()));
      for (const address of ADDRESSES) {
        for (const slot of SLOTS) expect(bytesToHex(await state.getStorage(address, slot))).toBe(bytesToHex(await oracle.getStorage(address, slot)));
      }
    });
  }

  for (const seed of [11, 12, 13, 14]) {
    it(`roots as a write-through state manager when blocks go back to earlier roots, as evm_revert does (seed ${seed})`, async () => {
      // The flush keeps its storage tries across setStateRoot (storageTrieToFlush): each must start from the account's root there.
      const next = generator(seed);
      const { state, oracle, both } = await withOracle();
      const roots = [await state.getStateRoot()];
      await oracle.getStateRoot();
      for (let block = 0; block < 60; block++) {
        for (let write = next(4); write >= 0; write--) {
          const address = ADDRESSES[next(ADDRESSES.length)]!;
          const slot = SLOTS[next(SLOTS.length)]!;
          const written = value(next);
          await both((s) => s.putStorage(address, slot, written));
        }
        const root = await state.getStateRoot();
        expect(bytesToHex(root), `block ${block}`).toBe(bytesToHex(await oracle.getStateRoot()));
        roots.push(root);
        if (next(3) === 0) {
          const back = roots[next(roots.length)]!;
          await both((s) => s.setStateRoot(back));
        }
      }
      for (const address of ADDRESSES) {
        for (const slot of SLOTS) expect(bytesToHex(await state.getStorage(address, slot))).toBe(bytesToHex(await oracle.getStorage(address, slot)));
      }
    });
  }

  it('leaves the trie alone until the flush (ethereumjs 10.1 wrote every slot through at once)', async () => {
    const { state, nodes } = tracked();
    const [address] = ADDRESSES;
    await state.putAccount(address!, new Account(0n, 1n));
    await state.getStateRoot();
    const before = nodes.writes;
    for (const slot of SLOTS) await state.putStorage(address!, slot, Uint8Array.of(7));
    expect(nodes.writes, 'no trie writes before the flush').toBe(before);
    expect(bytesToHex(await state.getStorage(address!, SLOTS[0]!))).toBe('0x07');
    const root = await state.getStateRoot();
    expect(nodes.writes).toBeGreaterThan(before);
    const oracle = writeThrough();
    await oracle.putAccount(address!, new Account(0n, 1n));
    for (const slot of SLOTS) await oracle.putStorage(address!, slot, Uint8Array.of(7));
    expect(bytesToHex(root)).toBe(bytesToHex(await oracle.getStateRoot()));
  });

  it('writes back nothing it only read (ethereumjs 10.1 wrote back every account, slot and code a read filled)', async () => {
    const { state, nodes } = tracked();
    const [contract, other] = ADDRESSES;
    await state.putAccount(contract!, new Account(0n, 1n));
    await state.putAccount(other!, new Account(0n, 2n));
    await state.putCode(contract!, Uint8Array.of(0x60, 0x00, 0x56));
    await state.putStorage(contract!, SLOTS[0]!, Uint8Array.of(9));
    const root = await state.getStateRoot();
    // A state manager at that root, as the miner is after a revert: every read misses its caches.
    const fresh = new ChangeTrackingStateManager({ trie: new DirectPathTrie({ db: new MapDB(nodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root }), caches: new Caches() });
    const before = nodes.writes;
    expect((await fresh.getAccount(other!))?.balance).toBe(2n);
    expect(await fresh.getAccount(ABSENT)).toBeUndefined();
    expect(bytesToHex(await fresh.getCode(contract!))).toBe('0x600056');
    expect(bytesToHex(await fresh.getStorage(contract!, SLOTS[0]!))).toBe('0x09');
    expect(bytesToHex(await fresh.getStorage(contract!, SLOTS[1]!))).toBe('0x');
    expect(bytesToHex(await fresh.getStateRoot())).toBe(bytesToHex(root));
    expect(nodes.writes, 'no node or code stored again').toBe(before);
    // A write after those reads still reaches the trie, and only its path is stored.
    await fresh.putStorage(contract!, SLOTS[1]!, Uint8Array.of(1));
    expect(bytesToHex(await fresh.getStateRoot())).not.toBe(bytesToHex(root));
    expect(nodes.writes).toBeGreaterThan(before);
  });

  it('records the written slots, and refuses what the stock method refuses', async () => {
    const { state } = tracked();
    const [address, absent] = ADDRESSES;
    await state.putAccount(address!, new Account(0n, 1n));
    await state.putStorage(address!, SLOTS[1]!, Uint8Array.of(1));
    expect((await state.takeChanges()).slots).toEqual(new Set([slotKey(address!, SLOTS[1]!)]));
    await expect(state.putStorage(address!, new Uint8Array(31), Uint8Array.of(1))).rejects.toThrow('Storage key must be 32 bytes long');
    await expect(state.putStorage(address!, SLOTS[0]!, new Uint8Array(33))).rejects.toThrow('Storage value cannot be longer than 32 bytes');
    await expect(state.putStorage(absent!, SLOTS[0]!, Uint8Array.of(1))).rejects.toThrow('putStorage() called on non-existing account');
  });
});
