/**
 * The miner's cache journal (cache-journal.ts through ChangeTrackingStateManager): after blocks
 * journaled while a snapshot is live, rewinding to an earlier block's state leaves caches that read
 * exactly that state, without the trie, and blocks built after it reach the same roots as on a
 * state manager that never left that state.
 */
import { Caches } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, ValueEncoding, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import { ChangeTrackingStateManager } from '../../src/chain/state/tracking-state-manager.js';
import { generator } from '../helpers/random.js';

const A = new Address(new Uint8Array(20).fill(0xa));
const B = new Address(new Uint8Array(20).fill(0xb));
const C = new Address(new Uint8Array(20).fill(0xc));
const SLOT = (n: number) => new Uint8Array(32).fill(n);

/** The node map under every trie of a state, counting the reads that reach it. */
class CountingMap extends Map<string, Uint8Array> {
  reads = 0;
  override get(key: string): Uint8Array | undefined {
    this.reads++;
    return super.get(key);
  }
}

function stateAt(nodes: CountingMap, root?: Uint8Array): ChangeTrackingStateManager {
  const trie = new DirectPathTrie({ db: new MapDB(nodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, ...(root ? { root } : {}) });
  return new ChangeTrackingStateManager({ trie, caches: new Caches() });
}

/** A "block" as the miner builds one: read, then write, then the root. */
async function block(state: ChangeTrackingStateManager, parentRoot: Uint8Array, writes: (s: ChangeTrackingStateManager) => Promise<void>): Promise<Uint8Array> {
  state.journalBlock(parentRoot);
  await writes(state);
  const root = await state.getStateRoot();
  state.blockBuilt(root);
  return root;
}

async function credit(state: ChangeTrackingStateManager, address: Address, amount: bigint): Promise<void> {
  const account = (await state.getAccount(address)) ?? new Account();
  account.balance += amount;
  await state.putAccount(address, account);
}

async function bump(state: ChangeTrackingStateManager, address: Address, slot: Uint8Array): Promise<void> {
  const value = await state.getStorage(address, slot);
  await state.putStorage(address, slot, Uint8Array.of((value[0] ?? 0) + 1));
}

async function genesis(nodes: CountingMap): Promise<{ state: ChangeTrackingStateManager; root: Uint8Array }> {
  const state = stateAt(nodes);
  await state.putAccount(A, new Account(0n, 100n));
  await state.putAccount(B, new Account(0n, 200n));
  await state.putCode(B, Uint8Array.of(0x60, 0x01));
  await state.putStorage(B, SLOT(1), Uint8Array.of(5));
  return { state, root: await state.getStateRoot() };
}

describe('CacheJournal', () => {
  it('rewinds two blocks: the caches read the earlier state without the trie, and later blocks root as a straight chain', async () => {
    const nodes = new CountingMap();
    const { state, root: r0 } = await genesis(nodes);
    // Fill the caches as a miner's are before the snapshot.
    await state.getAccount(A);
    await state.getStorage(B, SLOT(1));
    const r1 = await block(state, r0, async (s) => {
      await credit(s, A, 1n);
      await credit(s, C, 7n);
      await bump(s, B, SLOT(1));
      await bump(s, B, SLOT(2));
    });
    const r2 = await block(state, r1, async (s) => {
      await credit(s, A, 2n);
      await bump(s, B, SLOT(1));
      await s.putCode(C, Uint8Array.of(0x00));
    });
    expect(bytesToHex(r2)).not.toBe(bytesToHex(r1));

    expect(await state.rewindCachesTo(r0, r2)).toBe(true);
    const reads = nodes.reads;
    expect((await state.getAccount(A))?.balance).toBe(100n);
    expect(await state.getAccount(C)).toBeUndefined();
    expect(bytesToHex(await state.getStorage(B, SLOT(1)))).toBe('0x05');
    expect(bytesToHex(await state.getStorage(B, SLOT(2)))).toBe('0x');
    expect(bytesToHex(await state.getCode(C))).toBe('0x');
    expect(nodes.reads, 'every value came from the restored caches').toBe(reads);
    expect(bytesToHex(await state.getStateRoot()), 'nothing restored is written back').toBe(bytesToHex(r0));

    // The same block on the rewound state and on a fresh one at r0.
    const other = async (s: ChangeTrackingStateManager) => {
      await credit(s, A, 3n);
      await bump(s, B, SLOT(1));
      await credit(s, C, 1n);
    };
    const rewound = await block(state, r0, other);
    const fresh = stateAt(nodes, r0);
    await other(fresh);
    expect(bytesToHex(rewound)).toBe(bytesToHex(await fresh.getStateRoot()));
  });

  it('rewinds one block of several and keeps the older frames for a further revert', async () => {
    const nodes = new CountingMap();
    const { state, root: r0 } = await genesis(nodes);
    await state.getAccount(A);
    const r1 = await block(state, r0, (s) => credit(s, A, 1n));
    const r2 = await block(state, r1, (s) => credit(s, A, 1n));
    expect(await state.rewindCachesTo(r1, r2)).toBe(true);
    expect((await state.getAccount(A))?.balance).toBe(101n);
    expect(await state.rewindCachesTo(r0, r1)).toBe(true);
    expect((await state.getAccount(A))?.balance).toBe(100n);
  });

  it('puts back writes made without a read (the state manager reads first) and codes a contract creation set', async () => {
    const nodes = new CountingMap();
    const { state, root: r0 } = await genesis(nodes);
    const D = new Address(new Uint8Array(20).fill(0xd));
    const r1 = await block(state, r0, async (s) => {
      await s.putAccount(D, new Account(0n, 1n));
      await s.putAccount(A, new Account(5n, 5n));
      await s.putStorage(B, SLOT(3), Uint8Array.of(3));
      await s.putCode(D, Uint8Array.of(0x5f));
      await s.putCode(B, Uint8Array.of(0x60, 0x02));
    });
    expect(await state.rewindCachesTo(r0, r1)).toBe(true);
    const fresh = stateAt(nodes, r0);
    for (const address of [A, B, D]) expect(await state.getAccount(address), address.toString()).toEqual(await fresh.getAccount(address));
    expect(bytesToHex(await state.getStorage(B, SLOT(3)))).toBe('0x');
    expect(bytesToHex(await state.getCode(D))).toBe('0x');
    expect(bytesToHex(await state.getCode(B))).toBe('0x6001');
  });

  for (const seed of [11, 12, 13, 14, 15, 16]) {
    it(`random blocks and rewinds read as a fresh state manager at the root rewound to (seed ${seed})`, async () => {
      const next = generator(seed);
      const nodes = new CountingMap();
      const { state, root: r0 } = await genesis(nodes);
      const keys = [A, B, C, new Address(new Uint8Array(20).fill(0xd))];
      const roots = [r0];
      for (let round = 0; round < 40; round++) {
        if (roots.length > 1 && next(4) === 0) {
          // evm_revert: back to a random earlier block's state.
          const back = next(roots.length - 1);
          expect(await state.rewindCachesTo(roots[back]!, roots.at(-1)!), `round ${round}`).toBe(true);
          roots.length = back + 1;
          const fresh = stateAt(nodes, roots[back]);
          for (const address of keys) {
            expect(await state.getAccount(address), `round ${round} ${address}`).toEqual(await fresh.getAccount(address));
            expect(bytesToHex(await state.getCode(address))).toBe(bytesToHex(await fresh.getCode(address)));
            for (const n of [1, 2, 3]) expect(bytesToHex(await state.getStorage(address, SLOT(n)))).toBe(bytesToHex(await fresh.getStorage(address, SLOT(n))));
          }
          continue;
        }
        roots.push(
          await block(state, roots.at(-1)!, async (s) => {
            for (let w = next(4); w >= 0; w--) {
              const address = keys[next(keys.length)]!;
              const kind = next(4);
              if (kind === 0) await credit(s, address, BigInt(1 + next(9)));
              // A new account written without a read of its own (as REMASC creates one): its key is not cached.
              if (kind === 1) {
                const created = new Address(Uint8Array.from({ length: 20 }, () => next(256)));
                keys.push(created);
                await s.putAccount(created, new Account(0n, BigInt(1 + next(1000))));
              }
              if (kind === 2 && (await s.getAccount(address)) !== undefined) await bump(s, address, SLOT(1 + next(3)));
              if (kind === 3 && (await s.getAccount(address)) !== undefined) await s.putCode(address, Uint8Array.of(0x60, next(256)));
            }
          }),
        );
      }
      // The journal never lost its way: the state manager's root is the last block's.
      expect(bytesToHex(await state.getStateRoot())).toBe(bytesToHex(roots.at(-1)!));
    });
  }

  it('refuses a root the journal does not lead to, a cleared storage, and a journal that was switched off', async () => {
    const nodes = new CountingMap();
    const { state, root: r0 } = await genesis(nodes);
    const r1 = await block(state, r0, (s) => credit(s, A, 1n));
    expect(await state.rewindCachesTo(new Uint8Array(32).fill(9), r1)).toBe(false);
    expect(await state.rewindCachesTo(r0, new Uint8Array(32).fill(9))).toBe(false);
    expect((await state.getAccount(A))?.balance, 'a refused rewind changes nothing').toBe(101n);

    const r2 = await block(state, r1, (s) => s.clearStorage(B));
    expect(await state.rewindCachesTo(r1, r2)).toBe(false);

    const r3 = await block(state, r2, (s) => credit(s, A, 1n));
    state.journalBlock(undefined);
    expect(await state.rewindCachesTo(r2, r3)).toBe(false);
  });
});
