/**
 * Test control (evm_*, hardhat_*, anvil_*): the miner's clock, snapshots and reverts (a head pointer
 * move and deletion of the blocks above, never a replay), reset to genesis, in-place changes of the
 * latest state (setBalance & co., as Hardhat and anvil make them: the head keeps its hash) and
 * dropping pooled transactions.
 */
import { randomBytes } from 'node:crypto';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createLegacyTxFromRLP } from '@ethereumjs/tx';
import { Account, Address, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { OVERRIDE_META, overrideRecord } from './head.js';
import type { ChainParts } from './parts.js';
import { ChainError } from './base/errors.js';
import { MAX_NONCE } from './pool/send-fields.js';
import { BtcChain, type BtcSnapshot } from './btc-chain/btc-chain.js';
import type { ClockSettings } from './mining/clock.js';
import { rskTxOptions } from './evm/rsk-common.js';
import { txRecordFromLegacyTx } from './records/transaction.js';
import type { PoolTx, SavedPoolTx } from './pool/mempool.js';
import type { AnvilAccount } from './dump/anvil.js';

/** Bytes of the instance id (hardhat_/anvil_metadata's instanceId, a 32-byte hash). */
const INSTANCE_ID_BYTES = 32;

/** What a revert restores. */
interface ChainSnapshot {
  headNumber: bigint;
  /** The latest state root, which differs from the head header's after a state override. */
  stateRoot: Uint8Array;
  clock: ClockSettings;
  pool: SavedPoolTx[];
  /** The Bitcoin chain's tip and pool. */
  btc: BtcSnapshot;
}

/**
 * evm_snapshot bookkeeping with rskj's semantics (reference 10.2; rskj's SnapshotManager keeps
 * its list beside the revert, as TestControl does): ids count from 1; reverting to an id keeps
 * that snapshot usable and drops every later one.
 */
class Snapshots {
  private list: ChainSnapshot[] = [];

  take(snapshot: ChainSnapshot): bigint {
    this.list.push(snapshot);
    return BigInt(this.list.length);
  }

  /** The snapshot with this id, dropping every later one; undefined for an unknown id. */
  revertTo(id: bigint): ChainSnapshot | undefined {
    if (id < 1n || id > BigInt(this.list.length)) return undefined;
    this.list.length = Number(id);
    return this.list[Number(id) - 1];
  }

  /** Every live snapshot with its id, oldest first. */
  entries(): Array<{ id: bigint; snapshot: ChainSnapshot }> {
    return this.list.map((snapshot, i) => ({ id: BigInt(i + 1), snapshot }));
  }

  clear(): void {
    this.list = [];
  }
}

export class TestControl {
  private readonly snapshots = new Snapshots();
  /** Random per run and per reset, as Hardhat's: tools tell a restarted or reset node by it. */
  private instance = randomBytes(INSTANCE_ID_BYTES);

  constructor(private readonly parts: ChainParts) {}

  /** rskj: positive values add to the offset the next block consumes; returns the offset. */
  increaseTime(seconds: bigint): Promise<bigint> {
    const { lock, clock, head } = this.parts;
    return lock.run(async () => {
      const offset = clock.increase(seconds);
      head.changed();
      return offset;
    });
  }

  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    const { lock, clock, head } = this.parts;
    return lock.run(async () => {
      clock.setNext(timestamp, head.block.header.timestamp);
      head.changed();
    });
  }

  snapshot(): Promise<bigint> {
    const { lock, store, head, clock, pool, btc } = this.parts;
    return lock.run(async () => {
      // From now on blocks can be dropped by a revert: remember the nodes each one adds.
      store.revertedNodes.setTracking(true);
      return this.snapshots.take({ headNumber: head.block.header.number, stateRoot: head.stateRoot, clock: clock.save(), pool: pool.saved(), btc: btc.save() });
    });
  }

  /** Restores a snapshot; false when there is none with that id. */
  revert(id: bigint): Promise<boolean> {
    const { lock, clock, pool } = this.parts;
    return lock.run(async () => {
      const snapshot = this.snapshots.revertTo(id);
      if (snapshot === undefined) return false;
      await this.rewind(snapshot.headNumber, snapshot.stateRoot, snapshot.btc);
      clock.restore(snapshot.clock);
      pool.restore(snapshot.pool, (saved) => pooledAgain(saved, this.parts.common));
      return true;
    });
  }

  /** Back to genesis (a fork's fork block): every block above it, every snapshot and the pool are dropped; the Bitcoin chain goes back to its premine. */
  reset(): Promise<void> {
    const { lock, store, clock, pool } = this.parts;
    return lock.run(async () => {
      this.snapshots.clear();
      this.instance = randomBytes(INSTANCE_ID_BYTES);
      // A fork's genesis is its fork block.
      const genesis = (await store.getBlock(this.parts.head.baseNumber))!;
      await this.rewind(genesis.header.number, genesis.header.stateRoot, BtcChain.INITIAL);
      store.revertedNodes.setTracking(false);
      clock.reset();
      pool.clear();
    });
  }

  /** Both chains back, in one batch: the RSK chain to block `number`, the Bitcoin chain to `btcTarget`. */
  private async rewind(number: bigint, stateRoot: Uint8Array, btcTarget: BtcSnapshot): Promise<void> {
    const { store, head, events, btc } = this.parts;
    const target = (await store.getBlock(number))!;
    const override = equalsBytes(stateRoot, target.header.stateRoot) ? undefined : stateRoot;
    const meta = { name: OVERRIDE_META, value: override && overrideRecord(target, override) };
    // The Bitcoin chain's records change only when it has blocks above the target's.
    const btcTruncation = btcTarget.tip < btc.height ? { height: btcTarget.tip, tip: btc.height } : undefined;
    const removed = await store.truncateAbove(number, head.block.header.number, meta, btcTruncation);
    head.rewound(target, stateRoot, removed);
    btc.rewound(btcTarget);
    if (removed.length > 0) events.emit('rewind', removed, target);
  }

  get instanceId(): Uint8Array {
    return this.instance;
  }

  /** The live snapshots: id, and the number and hash of the head block each one recorded. */
  async snapshotHeads(): Promise<Array<{ id: bigint; number: bigint; hash: Uint8Array }>> {
    const heads = [];
    for (const { id, snapshot } of this.snapshots.entries()) {
      const block = (await this.parts.store.getBlock(snapshot.headNumber))!;
      heads.push({ id, number: snapshot.headNumber, hash: block.hash });
    }
    return heads;
  }

  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.modifyAccount(address, (account) => (account.balance = balance));
  }

  setNonce(address: Address, nonce: bigint): Promise<void> {
    if (nonce >= MAX_NONCE) throw new ChainError('invalidArgument', `nonce ${nonce} is out of range: an account nonce must stay below 2^64-1 (EIP-2681)`);
    return this.modifyAccount(address, (account) => (account.nonce = nonce));
  }

  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.modifyState((state) => state.putCode(address, code));
  }

  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.modifyState((state) => state.putStorage(address, slot, value));
  }

  /** Merges accounts into the latest state in one change (an anvil state file's accounts). */
  putAccounts(accounts: readonly AnvilAccount[]): Promise<void> {
    return this.modifyState(async (state) => {
      for (const { address, nonce, balance, code, storage } of accounts) {
        const at = new Address(address);
        const account = (await state.getAccount(at)) ?? new Account();
        account.nonce = nonce;
        account.balance = balance;
        await state.putAccount(at, account);
        await state.putCode(at, code);
        for (const [slot, value] of storage) await state.putStorage(at, slot, value);
      }
    });
  }

  /** Every snapshot is forgotten (a state load replaced the chain they were taken of). */
  forgetSnapshots(): void {
    this.snapshots.clear();
  }

  /** The chain started over elsewhere (a re-fork in place): a new instance id, as after a reset. */
  renewInstance(): void {
    this.instance = randomBytes(INSTANCE_ID_BYTES);
  }

  /** Removes a pooled transaction (hardhat_/anvil_dropTransaction); false when it is not pooled. */
  dropTransaction(hash: Uint8Array): Promise<boolean> {
    const { lock, pool, head } = this.parts;
    return lock.run(async () => {
      const entry = pool.get(hash);
      if (entry === undefined) return false;
      pool.remove(entry);
      head.changed();
      return true;
    });
  }

  private modifyAccount(address: Address, change: (account: Account) => void): Promise<void> {
    return this.modifyState(async (state) => {
      const account = (await state.getAccount(address)) ?? new Account();
      change(account);
      await state.putAccount(address, account);
    });
  }

  /** Changes the latest state in place; the change is persisted with the head it belongs to. */
  private modifyState(change: (state: MerkleStateManager) => Promise<void>): Promise<void> {
    const { lock, head, execution, store } = this.parts;
    return lock.run(async () => {
      const state = execution.stateManager(store.stateDb, head.stateRoot);
      await change(state);
      const root = await state.getStateRoot();
      await store.commitState(OVERRIDE_META, overrideRecord(head.block, root), head.block.header.number);
      head.overridden(root);
    });
  }
}

/**
 * A pooled transaction rebuilt from a snapshot's bytes for a revert: the same fields and
 * signature (so the same hash), and the saved sender, which also covers impersonated ones, whose
 * placeholder signature names no one (impersonation.ts).
 */
function pooledAgain({ raw, sender, sequence }: SavedPoolTx, common: Common): PoolTx {
  const tx = createLegacyTxFromRLP(raw, { ...rskTxOptions(common), freeze: false });
  const from = new Address(hexToBytes(sender as `0x${string}`));
  tx.getSenderAddress = () => from;
  return { tx, record: txRecordFromLegacyTx(tx, raw), sender, sequence };
}
