/**
 * The flat view of the latest state going on from block to block (HeadState.advance): it keeps
 * what the block did not change, forgets what it did, and starts over when it cannot tell.
 */
import { Account, Address, bytesToHex, intToBytes, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { HeadState, STATE_VIEW_ABSENT, type StateReader } from '../../src/chain/state/flat-view.js';
import { type StateChanges, slotKey } from '../../src/chain/state/tracking-state-manager.js';

const ROOT_A = new Uint8Array(32).fill(0xa);
const ROOT_B = new Uint8Array(32).fill(0xb);
const ROOT_C = new Uint8Array(32).fill(0xc);
const X = new Address(new Uint8Array(20).fill(1));
const Y = new Address(new Uint8Array(20).fill(2));
const SLOT_1 = new Uint8Array(32).fill(0x11);
const SLOT_2 = new Uint8Array(32).fill(0x22);

/** A trie reader over a fixed state, counting its reads; `gate` holds reads back until opened. */
class FakeTrie implements StateReader {
  reads = 0;
  gate: Promise<void> | undefined;

  constructor(private readonly balances: Map<string, bigint>, private readonly slots = new Map<string, Uint8Array>()) {}

  async getAccount(address: Address): Promise<Account | undefined> {
    this.reads++;
    await this.gate;
    const balance = this.balances.get(address.toString());
    return balance === undefined ? undefined : new Account(0n, balance);
  }

  async getCode(): Promise<Uint8Array> {
    this.reads++;
    return new Uint8Array(0);
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    this.reads++;
    return this.slots.get(slotKey(address, slot)) ?? new Uint8Array(0);
  }
}

/** Changes: accounts with their new balances (null: no account any more), slots written. */
const changes = (accounts: Array<[Address, bigint | null]>, slots: Array<[Address, Uint8Array]> = [], storageCleared = false): StateChanges => ({
  accounts: new Map(accounts.map(([a, balance]) => [a.toString(), balance === null ? null : new Account(0n, balance)])),
  slots: new Set(slots.map(([a, s]) => slotKey(a, s))),
  storageCleared,
});

function headOver(tries: Map<string, FakeTrie>): HeadState {
  return new HeadState((root) => tries.get(bytesToHex(root))!);
}

describe('HeadState.advance', () => {
  it('keeps what the block did not write, takes the accounts it wrote and reads again the slots', async () => {
    const a = new FakeTrie(new Map([[X.toString(), 1n], [Y.toString(), 2n]]), new Map([[slotKey(X, SLOT_1), Uint8Array.of(5)], [slotKey(X, SLOT_2), Uint8Array.of(6)]]));
    const b = new FakeTrie(new Map([[X.toString(), 10n], [Y.toString(), 2n]]), new Map([[slotKey(X, SLOT_1), Uint8Array.of(7)], [slotKey(X, SLOT_2), Uint8Array.of(6)]]));
    const head = headOver(new Map([[bytesToHex(ROOT_A), a], [bytesToHex(ROOT_B), b]]));
    const viewA = head.at(ROOT_A);
    expect((await viewA.getAccount(X))?.balance).toBe(1n);
    expect((await viewA.getAccount(Y))?.balance).toBe(2n);
    expect(await viewA.getStorage(X, SLOT_1)).toEqual(Uint8Array.of(5));
    expect(await viewA.getStorage(X, SLOT_2)).toEqual(Uint8Array.of(6));

    const Z = new Address(new Uint8Array(20).fill(3));
    head.advance(ROOT_A, ROOT_B, changes([[X, 10n], [Z, null]], [[X, SLOT_1]]));
    const viewB = head.at(ROOT_B);
    expect(viewB).not.toBe(viewA);
    expect(viewB.stateRoot).toEqual(ROOT_B);
    // Written accounts: their new values came with the block.
    expect((await viewB.getAccount(X))?.balance).toBe(10n);
    expect(await viewB.getAccount(Z)).toBeUndefined();
    expect(b.reads).toBe(0);
    // A written slot is read again at the new root.
    expect(await viewB.getStorage(X, SLOT_1)).toEqual(Uint8Array.of(7));
    expect(b.reads).toBe(1);
    // Unchanged: served from what the view of A read.
    expect((await viewB.getAccount(Y))?.balance).toBe(2n);
    expect(await viewB.getStorage(X, SLOT_2)).toEqual(Uint8Array.of(6));
    expect(b.reads).toBe(1);
  });

  it('starts over when storage was cleared wholesale, or the view is not of the parent state', async () => {
    const a = new FakeTrie(new Map([[Y.toString(), 2n]]));
    const b = new FakeTrie(new Map([[Y.toString(), 2n]]));
    const c = new FakeTrie(new Map([[Y.toString(), 3n]]));
    const head = headOver(new Map([[bytesToHex(ROOT_A), a], [bytesToHex(ROOT_B), b], [bytesToHex(ROOT_C), c]]));
    await head.at(ROOT_A).getAccount(Y);
    head.advance(ROOT_A, ROOT_B, changes([[X, 1n]], [], true));
    await head.at(ROOT_B).getAccount(Y);
    expect(b.reads).toBe(1);

    // The view is of B; a block said to be built on A must not carry it to C.
    head.advance(ROOT_A, ROOT_C, changes([]));
    expect((await head.at(ROOT_C).getAccount(Y))?.balance).toBe(3n);
    expect(c.reads).toBe(1);
  });

  it('a read still running at the old root never lands in the new view', async () => {
    const a = new FakeTrie(new Map([[X.toString(), 1n]]));
    const b = new FakeTrie(new Map([[X.toString(), 10n]]));
    const head = headOver(new Map([[bytesToHex(ROOT_A), a], [bytesToHex(ROOT_B), b]]));
    const viewA = head.at(ROOT_A);
    let open!: () => void;
    a.gate = new Promise((resolve) => (open = resolve));
    const slowRead = viewA.getAccount(X);
    head.advance(ROOT_A, ROOT_B, changes([]));
    open();
    expect((await slowRead)?.balance).toBe(1n);
    expect((await head.at(ROOT_B).getAccount(X))?.balance).toBe(10n);
    expect(b.reads).toBe(1);
  });

  it('drop still empties it: the next read at the head reads the trie', async () => {
    const a = new FakeTrie(new Map([[X.toString(), 1n]]));
    const head = headOver(new Map([[bytesToHex(ROOT_A), a]]));
    await head.at(ROOT_A).getAccount(X);
    head.drop();
    await head.at(ROOT_A).getAccount(X);
    expect(a.reads).toBe(2);
  });

  it('remembers absent accounts apart, at most STATE_VIEW_ABSENT of them; a block that creates one shows it', async () => {
    const a = new FakeTrie(new Map([[Y.toString(), 2n]]));
    const b = new FakeTrie(new Map([[X.toString(), 4n], [Y.toString(), 2n]]));
    const head = headOver(new Map([[bytesToHex(ROOT_A), a], [bytesToHex(ROOT_B), b]]));
    const viewA = head.at(ROOT_A);
    expect(await viewA.getAccount(X)).toBeUndefined();
    expect(viewA.known(X)).toBeNull();
    expect(await viewA.getAccount(X)).toBeUndefined();
    expect(a.reads).toBe(1);
    expect((await viewA.getAccount(Y))?.balance).toBe(2n);
    expect(viewA.known(Y)?.balance).toBe(2n);
    // A stream of absent accounts pushes the oldest out; the present one stays.
    for (let i = 0; i < STATE_VIEW_ABSENT; i++) await viewA.getAccount(new Address(setLengthLeft(intToBytes(0x10000 + i), 20)));
    expect(viewA.known(X)).toBeUndefined();
    expect(viewA.known(Y)?.balance).toBe(2n);
    // X absent at A, created by the block to B.
    await viewA.getAccount(X);
    head.advance(ROOT_A, ROOT_B, changes([[X, 4n]]));
    const viewB = head.at(ROOT_B);
    expect(viewB.known(X)?.balance).toBe(4n);
    expect((await viewB.getAccount(X))?.balance).toBe(4n);
    // And a block that deletes it: absent again, without a read.
    head.advance(ROOT_B, ROOT_C, changes([[X, null]]));
    expect(head.at(ROOT_C).known(X)).toBeNull();
    expect(b.reads).toBe(0);
  });
});
