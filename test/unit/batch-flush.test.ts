/**
 * The miner's state manager flushes a block's writes with one trie update per trie
 * (tracking-state-manager.ts, DirectPathTrie.update). The oracle: a stock MerkleStateManager
 * without caches, writing every change straight into @ethereumjs/mpt's trie. Random blocks (seeds
 * below) of balance and nonce changes, new and deleted accounts, code, storage writes and deletes
 * and cleared storage, built as the block builder builds them (one checkpoint around the block,
 * per-transaction checkpoints, some reverted), must reach the oracle's state root after every
 * block, read the same (from the stored nodes alone, and through the miner's state manager as it
 * goes on), and a block's flush must store only nodes of its own state (reachable from the new
 * root, not from the parent's), each once.
 */
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, KECCAK256_RLP, MapDB, ValueEncoding, bytesToHex, createAccountFromRLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DirectPathTrie } from '../../src/chain/state/trie.js';
import { ChangeTrackingStateManager } from '../../src/chain/state/tracking-state-manager.js';
import { generator } from '../helpers/random.js';

type Next = (below: number) => number;

const ADDRESSES = Array.from({ length: 24 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 37 + j * 11) & 0xff)));
const SLOTS = Array.from({ length: 8 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (i * 13 + j) & 0xff));

/** A node store recording every key put. */
class RecordingMap extends Map<string, Uint8Array> {
  written: string[] = [];
  override set(key: string, value: Uint8Array): this {
    this.written?.push(key);
    return super.set(key, value);
  }
}

const trieOver = (nodes: Map<string, Uint8Array>, root?: Uint8Array) => new DirectPathTrie({ db: new MapDB(nodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root });

/** A storage value: empty or zero (a delete), short, or a full word. */
function value(next: Next): Uint8Array {
  const kind = next(4);
  if (kind === 0) return new Uint8Array(0);
  if (kind === 1) return new Uint8Array(32);
  return Uint8Array.from({ length: kind === 2 ? 1 + next(4) : 32 }, () => next(256));
}

/**
 * One random write, applied to every state manager alike, as the EVM writes. Accounts go with
 * deleteAccount (putAccount(address, undefined), which the EVM never calls, leaves ethereumjs'
 * storage cache holding the old slots), and only in a transaction that is kept: ethereumjs'
 * storage cache empties an account's slots on deleteAccount and clearStorage without recording
 * them, so a revert cannot bring back the slots the block wrote before, in a cached state manager
 * (stock or ours) but in a write-through one; the EVM deletes accounts once a transaction
 * succeeded. Storage is cleared as the EVM clears it, when it creates an account.
 */
async function write(next: Next, state: MerkleStateManager, reverted: boolean): Promise<void> {
  const address = ADDRESSES[next(ADDRESSES.length)]!;
  const op = next(20);
  const account = await state.getAccount(address);
  if (op < 6 || account === undefined) {
    // A balance or nonce change, creating the account when absent.
    const changed = account ?? new Account();
    changed.balance += BigInt(1 + next(1_000_000));
    changed.nonce += BigInt(next(2));
    await state.putAccount(address, changed);
    if (account === undefined) await state.clearStorage(address);
  } else if (op < 15) await state.putStorage(address, SLOTS[next(SLOTS.length)]!, value(next));
  else if (op < 18 || reverted) await state.putCode(address, Uint8Array.from({ length: 1 + next(60) }, () => next(256)));
  else await state.deleteAccount(address);
}

/** The stored node hashes reachable from a state root: the account trie's and every storage trie's. */
async function reachable(nodes: Map<string, Uint8Array>, stateRoot: Uint8Array): Promise<Set<string>> {
  const found = new Set<string>();
  const walk = async (root: Uint8Array, accounts: boolean) => {
    if (bytesToHex(root) === bytesToHex(KECCAK256_RLP)) return;
    const trie = trieOver(nodes, root);
    const visit = async (ref: Uint8Array | Uint8Array[]): Promise<void> => {
      if (ref instanceof Uint8Array) found.add(bytesToHex(ref).slice(2));
      const node = await trie.lookupNode(ref);
      if (node instanceof BranchMPTNode) for (const [, child] of node.getChildren()) await visit(child as Uint8Array | Uint8Array[]);
      else if (node instanceof ExtensionMPTNode) await visit(node.value() as Uint8Array | Uint8Array[]);
      else if (accounts && node instanceof LeafMPTNode) await walk(createAccountFromRLP(node.value()).storageRoot, false);
    };
    await visit(root);
  };
  await walk(stateRoot, true);
  return found;
}

async function blocks(seed: number, count: number) {
  const next = generator(seed);
  const nodes = new RecordingMap();
  const state = new ChangeTrackingStateManager({ trie: trieOver(nodes), caches: new Caches() });
  const oracleNodes = new Map<string, Uint8Array>();
  const oracle = new MerkleStateManager({ trie: new MerklePatriciaTrie({ db: new MapDB(oracleNodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes }) });
  for (let block = 0; block < count; block++) {
    const where = `seed ${seed}, block ${block}`;
    const parentRoot = await state.getStateRoot();
    nodes.written = [];
    const both = [state, oracle];
    for (const s of both) await s.checkpoint();
    const transactions = 1 + next(6);
    for (let tx = 0; tx < transactions; tx++) {
      const reverted = next(5) === 0;
      const draws = Array.from({ length: 1 + next(8) }, () => next(1 << 30));
      for (const s of both) {
        await s.checkpoint();
        for (const draw of draws) await write(generator(draw), s, reverted);
        await (reverted ? s.revert() : s.commit());
      }
    }
    for (const s of both) await s.commit();
    const root = await state.getStateRoot();
    expect(bytesToHex(root), where).toBe(bytesToHex(await oracle.getStateRoot()));

    // The same reads from the stored nodes alone, and from the miner's state manager as it goes on.
    const ours = new MerkleStateManager({ trie: trieOver(nodes, root) });
    const theirs = new MerkleStateManager({ trie: new MerklePatriciaTrie({ db: new MapDB(oracleNodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root }) });
    for (const address of ADDRESSES) {
      const expected = (await theirs.getAccount(address))?.serialize();
      expect((await ours.getAccount(address))?.serialize(), where).toEqual(expected);
      expect((await state.getAccount(address))?.serialize(), where).toEqual(expected);
      if (expected === undefined) continue;
      const code = bytesToHex(await theirs.getCode(address));
      expect(bytesToHex(await ours.getCode(address)), where).toBe(code);
      expect(bytesToHex(await state.getCode(address)), where).toBe(code);
      for (const slot of SLOTS) {
        const value = bytesToHex(await theirs.getStorage(address, slot));
        expect(bytesToHex(await ours.getStorage(address, slot)), where).toBe(value);
        expect(bytesToHex(await state.getStorage(address, slot)), where).toBe(value);
      }
    }

    // Trie nodes have 32-byte keys (codes a prefixed one): each stored once, each of the new state only.
    const written = nodes.written.filter((key) => key.length === 64);
    expect(written.length, where).toBe(new Set(written).size);
    const now = await reachable(nodes, root);
    const before = await reachable(nodes, parentRoot);
    for (const key of written) expect(now.has(key) && !before.has(key), `${where}: ${key} is a node of the new state only`).toBe(true);
  }
}

describe('the miner flush: one trie update per trie, the roots and reads of a stock state manager', () => {
  for (const seed of [101, 102, 103]) {
    it(`random blocks of account, code and storage writes, deletes and reverts (seed ${seed})`, async () => {
      await blocks(seed, 30);
    });
  }

  it("a deleted account's slots do not come back for a new account at its address (ethereumjs kept its storage trie)", async () => {
    const [address] = ADDRESSES;
    const slot = SLOTS[0]!;
    const withStaleTrie = async (state: MerkleStateManager) => {
      await state.putAccount(address!, new Account(0n, 1n));
      await state.putStorage(address!, slot, Uint8Array.of(7));
      expect(bytesToHex(await state.getStorage(address!, slot))).toBe('0x07');
      await state.getStateRoot();
      await state.deleteAccount(address!);
      await state.putAccount(address!, new Account(0n, 2n));
      return bytesToHex(await state.getStorage(address!, slot));
    };
    expect(await withStaleTrie(new MerkleStateManager({ trie: trieOver(new Map()), caches: new Caches() })), 'the stock state manager').toBe('0x07');
    expect(await withStaleTrie(new ChangeTrackingStateManager({ trie: trieOver(new Map()), caches: new Caches() }))).toBe('0x');
  });
});
