/**
 * The chain's head and what reads at it see: the head block, the state test control put on it
 * (evm_setBalance & co.), the states older blocks had when test control changed them, and the
 * caches of the latest state (its flat view and the call runner over it), dropped by whatever
 * outdates them. `version` moves whenever the pending block would change: pool, state, clock, head.
 */
import { type Account, type Address, type DB, bytesToHex, concatBytes, equalsBytes } from '@ethereumjs/util';
import type { RskBlock } from './records/block.js';
import type { RskHeader } from './records/header.js';
import type { Execution } from './exec/execution.js';
import type { ChainStore } from './storage/store.js';
import { IRREGULAR_STATE_PREFIX, irregularStateMeta } from './storage/keys.js';
import { CallRunner } from './exec/call-runner.js';
import { HeadState, type StateReader, StateView } from './state/flat-view.js';
import { DecodedNodes, walkingReader } from './state/trie-walk.js';
import type { StateChanges } from './state/tracking-state-manager.js';

/** Store meta record: head hash ‖ overriding state root, valid only while that block is the head. */
export const OVERRIDE_META = 'state-override';

/** The meta records that are part of a chain's state (test-control changes): dumped, loaded and dropped with its blocks. */
export const isStateMeta = (name: string) => name === OVERRIDE_META || name.startsWith(IRREGULAR_STATE_PREFIX);

/** Where a read runs: a block's header and, for the pending block, the overlay holding its state. */
export interface StateTarget {
  header: RskHeader;
  db?: DB<string, Uint8Array>;
}

/** The OVERRIDE_META record of `block`'s state when test control changed it to `stateRoot`. */
export function overrideRecord(block: RskBlock, stateRoot: Uint8Array): Uint8Array {
  return concatBytes(block.hash, stateRoot);
}

export class ChainHead {
  private current!: RskBlock;
  private versionCounter = 0;
  /** Latest state when test-control methods changed the head's state; cleared by the next block. */
  private override: Uint8Array | undefined;
  /**
   * Block hash (hex) → the state root a later block was built on, for blocks whose state test
   * control changed before they stopped being the head (Hardhat's "irregular states"): historical
   * reads, proofs and traces then see the state that really was there. Persisted with the block
   * built on it; one entry per such block, dropped with the block.
   */
  private irregularRoots = new Map<string, Uint8Array>();
  /** The flat view of the latest state; it starts over whenever the latest state root changes. */
  private readonly flat: HeadState;
  /** Decoded trie nodes for the flat view's misses (state/trie-walk.ts); dropped with the view. */
  private readonly nodes: DecodedNodes;
  private runner: CallRunner | undefined;

  constructor(
    readonly execution: Execution,
    private readonly store: ChainStore,
    /** The chain's first local block: 0, or a fork's fork block (the blocks below are the remote's); a re-fork moves it. */
    public baseNumber = 0n,
  ) {
    this.nodes = new DecodedNodes(this.store.stateDb);
    this.flat = new HeadState((root) => this.headTrieReader(root));
  }

  /** What the flat view reads on a miss: a walk over decoded nodes, except on a fork (whose misses go to the remote). */
  private headTrieReader(root: Uint8Array): StateReader {
    let reference: StateReader | undefined;
    const open = () => (reference ??= this.execution.stateReader(this.store.stateDb, root));
    return this.execution.remote === undefined ? walkingReader(this.nodes, root, open) : open();
  }

  /** Loads the head and its persisted state records (start-up). */
  async load(head: RskBlock): Promise<void> {
    this.current = head;
    this.irregularRoots = await this.store.irregularStates();
    const record = await this.store.getMeta(OVERRIDE_META);
    if (record !== undefined && equalsBytes(record.subarray(0, 32), head.hash)) this.override = record.slice(32);
  }

  /** A state load replaced the store's contents: `head` and its stored state records are the chain now. */
  async replaced(head: RskBlock): Promise<void> {
    this.override = undefined;
    await this.load(head);
    this.latestStateChanged();
  }

  get block(): RskBlock {
    return this.current;
  }

  /** A block of the chain up to the head (blocks above it may linger in caches, never in answers). */
  async blockByNumber(number: bigint): Promise<RskBlock | undefined> {
    if (number < this.baseNumber || number > this.current.header.number) return undefined;
    return this.store.getBlock(number);
  }

  async blockByHash(hash: Uint8Array): Promise<RskBlock | undefined> {
    const number = await this.store.getBlockNumber(hash);
    return number === undefined ? undefined : this.blockByNumber(number);
  }

  get version(): number {
    return this.versionCounter;
  }

  /** The pending block would change (pool or clock settings). */
  changed(): void {
    this.versionCounter++;
  }

  /** The state root reads of `block` use: the head's may be overridden by test-control methods. */
  stateRootOf(block: RskBlock): Uint8Array {
    // By hash: the same block may be a different object once it has left the block cache.
    if (this.override !== undefined && equalsBytes(block.hash, this.current.hash)) return this.override;
    return this.irregularRoots.size === 0 ? block.header.stateRoot : (this.irregularRoots.get(bytesToHex(block.hash)) ?? block.header.stateRoot);
  }

  /** The latest state root. */
  get stateRoot(): Uint8Array {
    return this.stateRootOf(this.current);
  }

  /** Where reads at `block` run. */
  targetOf(block: RskBlock): StateTarget {
    const stateRoot = this.stateRootOf(block);
    return stateRoot === block.header.stateRoot ? { header: block.header } : { header: { ...block.header, stateRoot } };
  }

  /** The meta record a block built on the head commits: it keeps the head's changed state, if any. */
  irregularRecord(): { name: string; value: Uint8Array } | undefined {
    return this.override === undefined ? undefined : { name: irregularStateMeta(this.current.hash), value: this.override };
  }

  /**
   * `block`, committed on the head, becomes the head; the old head's changed state becomes history.
   * With the `changes` that led to its state (a block of ours), the flat view goes on to it.
   */
  advance(block: RskBlock, changes?: StateChanges): void {
    if (changes !== undefined) this.flat.advance(this.stateRoot, block.header.stateRoot, changes);
    if (this.override !== undefined) this.irregularRoots.set(bytesToHex(this.current.hash), this.override);
    this.override = undefined;
    this.current = block;
    this.versionCounter++;
  }

  /** After the store dropped `removed` above `target`: `target` is the head, with `stateRoot` as its state. */
  rewound(target: RskBlock, stateRoot: Uint8Array, removed: ReadonlyArray<{ block: RskBlock }>): void {
    for (const { block } of removed) this.irregularRoots.delete(bytesToHex(block.hash));
    this.irregularRoots.delete(bytesToHex(target.hash));
    this.current = target;
    this.override = equalsBytes(stateRoot, target.header.stateRoot) ? undefined : stateRoot;
    this.latestStateChanged();
  }

  /** Test control changed the head's state in place (the head keeps its hash). */
  overridden(stateRoot: Uint8Array): void {
    this.override = stateRoot;
    this.latestStateChanged();
  }

  private latestStateChanged(): void {
    this.runner = undefined;
    this.flat.drop();
    this.nodes.clear();
    this.versionCounter++;
  }

  /**
   * Account reads at a state root: the flat view of the latest state (state/flat-view.ts) when that is
   * the root, else a trie reader (older blocks; the pending block's state lives in `db`).
   */
  stateReader(stateRoot: Uint8Array, db?: DB<string, Uint8Array>): StateReader {
    if (db === undefined && equalsBytes(stateRoot, this.stateRoot)) return this.flat.at(stateRoot);
    return this.execution.stateReader(db ?? this.store.stateDb, stateRoot);
  }

  /** The latest state's account if its flat view holds it (StateView.known): no read, no promise. */
  knownLatestAccount(address: Address): Account | null | undefined {
    return this.flat.at(this.stateRoot).known(address);
  }

  /** The head's call runner is kept while the head's state stays; other states get a throwaway one. */
  callRunner(target: StateTarget): CallRunner {
    const { stateRoot } = target.header;
    if (target.db === undefined && this.runner !== undefined && equalsBytes(this.runner.stateRoot, stateRoot)) return this.runner;
    const reader = this.stateReader(stateRoot, target.db);
    // A StateView is the head's: its runner is kept. Other states get a throwaway view and runner.
    if (!(reader instanceof StateView)) return new CallRunner(this.execution, new StateView(stateRoot, reader));
    this.runner = new CallRunner(this.execution, reader);
    return this.runner;
  }
}
