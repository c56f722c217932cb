/**
 * One network's chain engine: the facade the RPC layer talks to. It opens the store (open.ts) and
 * wires the parts that share it (parts.ts): the head and its read caches (head.ts), block production
 * (producer.ts), merged mining (merged.ts), transaction intake (intake.ts), test control
 * (control.ts), calls without a transaction (calls.ts), transaction lookups (tx-lookup.ts), the
 * fork's remote (fork-link.ts), the federation (federation-runs.ts) and when to mine
 * (mining/mode.ts); its methods delegate to them. Every mutation runs under one lock (lock.ts).
 */
import type { EventEmitter } from 'node:events';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Account, Address, DB } from '@ethereumjs/util';
import type { NodeAccount } from './keys/accounts.js';
import type { RskBlock } from './records/block.js';
import { BlockProducer } from './producer.js';
import type { PendingView } from './exec/block-builder.js';
import type { CallParams, CallResult } from './exec/call.js';
import type { ChainHead, StateTarget } from './head.js';
import { type ChainEvents, type ChainParts, type NetworkName, newChainParts } from './parts.js';
import { suggestedGasPrice } from './mining/economics.js';
import type { Execution } from './exec/execution.js';
import type { StateReader } from './state/flat-view.js';
import type { LogCriteria, LogMatch } from './storage/log-index.js';
import { type LogLimits, queryLogs } from './storage/log-query.js';
import type { Mempool, PoolTx } from './pool/mempool.js';
import type { MinerTargets } from './mining/targets.js';
import { MergedBlocks } from './merged.js';
import { type MinerMode, MiningMode } from './mining/mode.js';
import type { ReceiptRecord } from './records/receipt.js';
import type { ChainStore, StoreReads } from './storage/store.js';
import { TestControl } from './control.js';
import type { TxRecord } from './records/transaction.js';
import { TxIntake } from './intake.js';
import { NodeWallet } from './keys/wallet.js';
import type { TraceCallOptions } from './tracing/trace-call.js';
import type { TracedTx } from './tracing/replay.js';
import type { SimulateOptions, SimulatedBlock, SimulatedBlockRequest, SimulationBase } from './exec/simulate.js';
import type { Deadline } from './evm/deadline.js';
import { StateTransfer } from './state-transfer.js';
import type { BtcChain } from './btc-chain/btc-chain.js';
import type { BtcSide } from './btc.js';
import { FederationRuns } from './federation-runs.js';
import type { NetworkSection } from './dump/format.js';
import type { StateSource } from './dump/io.js';
import type { ForkConnection } from './fork/open.js';
import type { ChainFork } from './fork-base.js';
import { ForkLink } from './fork-link.js';
import { ChainCalls } from './calls.js';
import { type ChainOptions, openChain } from './open.js';
import { type TxLookup, TxLookups } from './tx-lookup.js';

export type { ChainEvents, ChainOptions, LogMatch, MinerMode, NetworkName, PendingView, StateTarget };
export { MAX_BLOCKS_PER_MINE } from './producer.js';
export type { MergedMiningImport } from './merged-mining/work.js';
export type { ChainFork } from './fork-base.js';
export type { TxLookup } from './tx-lookup.js';

export class Chain {
  readonly network: NetworkName;
  readonly common: Common;
  readonly chainId: bigint;
  readonly wallet: NodeWallet;
  readonly pool: Mempool;
  /** See ChainParts.events. */
  readonly events: EventEmitter<ChainEvents>;
  readonly execution: Execution;
  /** Who mines: the node itself, or merged miners only (`--miner external`). */
  readonly minerMode: MinerMode;
  /** evm_snapshot/revert, hardhat_reset, the clock and in-place state changes. */
  readonly control: TestControl;
  /** mnr_getWork / eth_getWork and merged-mined block import. */
  readonly merged: MergedBlocks;
  /** The network's Bitcoin regtest chain and its dev methods (btc.ts). */
  readonly btc: BtcSide;
  /** State dump and load (state-transfer.ts). */
  private readonly transfer: StateTransfer;
  private readonly parts: ChainParts;
  private readonly producer: BlockProducer;
  private readonly intake: TxIntake;
  /** Automine and interval mining, refused with `--miner external` (mining/mode.ts). */
  private readonly mining: MiningMode;
  /** The fork's connections, its re-forks and reads below the fork block (fork-link.ts). */
  private readonly forkLink: ForkLink;
  /** eth_call, eth_estimateGas, debug_traceCall and eth_simulateV1 (calls.ts). */
  private readonly calls: ChainCalls;
  /** Mined transactions by hash, address and sender nonce (tx-lookup.ts). */
  private readonly lookups: TxLookups;
  /** The node's federation and the queue of its runs (federation-runs.ts). */
  private readonly federation: FederationRuns;

  private constructor(
    options: ChainOptions,
    private readonly store: ChainStore,
    private readonly chainHead: ChainHead,
    targets: MinerTargets,
    forkConnection: ForkConnection | undefined,
    btc: BtcChain,
  ) {
    const now = options.now ?? Date.now;
    this.parts = newChainParts(options.network, store, chainHead, btc, now);
    ({ network: this.network, common: this.common, execution: this.execution, pool: this.pool, events: this.events } = this.parts);
    this.chainId = BigInt(options.genesis.chainId);
    this.wallet = options.wallet ?? new NodeWallet();
    this.minerMode = options.miner ?? 'internal';
    this.producer = new BlockProducer(this.parts, targets);
    this.intake = new TxIntake(this.parts, this.producer, this.wallet, options.automineBatching ?? true, options.failOnSend ?? false);
    this.control = new TestControl(this.parts);
    this.merged = new MergedBlocks(this.parts, this.producer, now);
    this.transfer = new StateTransfer(this.parts, this.control);
    this.forkLink = new ForkLink(this.parts, this.control, { fork: options.fork, genesis: options.genesis, chainId: this.chainId }, forkConnection, () =>
      this.producer.forgetMiner(),
    );
    this.calls = new ChainCalls(this.parts, this.forkLink);
    this.lookups = new TxLookups(store, chainHead);
    this.federation = new FederationRuns(this.parts, this.intake, this.producer, options, options.onBackgroundError ?? (() => undefined));
    this.btc = this.federation.btc;
    this.mining = new MiningMode(this.minerMode, this.intake, () => this.mine(), options.onBackgroundError ?? (() => undefined));
  }

  static async open(options: ChainOptions): Promise<Chain> {
    return openChain(options, ({ store, head, targets, forkConnection, btc }) => new Chain(options, store, head, targets, forkConnection, btc));
  }

  async close(): Promise<void> {
    this.setIntervalMining(0);
    await this.parts.lock.run(() => this.store.close());
    await this.forkLink.close();
  }

  // ---- reads -------------------------------------------------------------------------------

  /** The addresses the node holds keys for (eth_accounts order; locked keystore accounts included). */
  get accounts(): ReadonlyArray<{ address: string }> {
    return this.wallet.listAccounts().map((address) => ({ address }));
  }

  get head(): RskBlock {
    return this.chainHead.block;
  }

  /** The state root reads of `block` use: the head's may be overridden by test-control methods. */
  stateRootOf(block: RskBlock): Uint8Array {
    return this.chainHead.stateRootOf(block);
  }

  /** Where reads at `block` run. */
  targetOf(block: RskBlock): StateTarget {
    return this.chainHead.targetOf(block);
  }

  blockByNumber(number: bigint): Promise<RskBlock | undefined> {
    return this.chainHead.blockByNumber(number);
  }

  blockByHash(hash: Uint8Array): Promise<RskBlock | undefined> {
    return this.chainHead.blockByHash(hash);
  }

  async receipts(block: RskBlock): Promise<ReceiptRecord[]> {
    return (await this.store.getReceipts(block.header.number))?.receipts ?? [];
  }

  transaction(hash: Uint8Array): Promise<TxLookup | undefined> {
    return this.lookups.transaction(hash);
  }

  /** A page of the address's mined transactions, newest first below `before` or oldest first above `after` (tx-lookup.ts). */
  addressHistory(address: Uint8Array, direction: { before: bigint } | { after: bigint }, pageSize: number): Promise<{ txs: TxLookup[]; more: boolean }> {
    return this.lookups.addressHistory(address, direction, pageSize);
  }

  /** Whether the address index has entries at or above, or at or below, a block. */
  hasAddressHistory(address: Uint8Array, bound: { atOrAbove: bigint } | { atOrBelow: bigint }): Promise<boolean> {
    return this.store.hasAddressHistory(address, bound);
  }

  /** The mined transaction `sender` sent with `nonce` (the newest, should test control have repeated a nonce). */
  transactionBySenderAndNonce(sender: Uint8Array, nonce: bigint): Promise<TxLookup | undefined> {
    return this.lookups.transactionBySenderAndNonce(sender, nonce);
  }

  /** Blocks, receipts and address-index entries read so far (storage/store.ts StoreReads: a seam for tests). */
  get storeReads(): Readonly<StoreReads> {
    return this.store.reads;
  }

  /** The transaction that created the contract at `address` and its sender; top-level creations only. */
  contractCreator(address: Uint8Array): Promise<{ txHash: Uint8Array; creator: Uint8Array } | undefined> {
    return this.store.contractCreation(address);
  }

  pooledTransaction(hash: Uint8Array): TxRecord | undefined {
    return this.pool.get(hash)?.record;
  }

  /** The pool split as rskj shows it: pending (runnable now, in nonce order) and queued (behind a gap). */
  poolContent(): Promise<{ pending: PoolTx[]; queued: PoolTx[] }> {
    return this.producer.poolContent();
  }

  /**
   * Logs matching `criteria`, in chain order. A query over more than `limits.maxBlockRange` blocks
   * must stay within `limits.maxLogs` logs (the spec's two alternative caps).
   */
  logs(criteria: LogCriteria, limits: LogLimits): Promise<LogMatch[]> {
    return queryLogs(this.store, this.chainHead.block.header.number, criteria, limits);
  }

  /**
   * State at a block's state root (historical state is never pruned). The pending block's state
   * lives in its own overlay, passed as `db`.
   */
  stateAt(stateRoot: Uint8Array, db: DB<string, Uint8Array> = this.store.stateDb): MerkleStateManager {
    return this.execution.stateManager(db, stateRoot);
  }

  /** The state trie's node store, for readers that layer their own overlay over it (tracing). */
  get stateNodes(): DB<string, Uint8Array> {
    return this.store.stateDb;
  }

  account(stateRoot: Uint8Array, address: Address): Promise<Account | undefined> {
    return this.chainHead.stateReader(stateRoot).getAccount(address);
  }

  /** The latest state's account when the head's flat view already holds it (null: absent); undefined when it must be read. */
  knownLatestAccount(address: Address): Account | null | undefined {
    return this.chainHead.knownLatestAccount(address);
  }

  /** On a fork, account reads at a block below the fork block (fork-link.ts). */
  stateBelowFork(number: bigint): StateReader {
    return this.forkLink.stateBelowFork(number);
  }

  /** Account reads at a state root (the flat view when it is the latest state, see chain-head.ts). */
  stateReader(stateRoot: Uint8Array, db?: DB<string, Uint8Array>): StateReader {
    return this.chainHead.stateReader(stateRoot, db);
  }

  get minimumGasPrice(): bigint {
    return this.chainHead.block.header.minimumGasPrice;
  }

  gasPrice(): bigint {
    return suggestedGasPrice(this.chainHead.block.header.minimumGasPrice);
  }

  /** The block the pool would produce next, built on latest without sealing (rskj's `pending`). */
  pending(): Promise<PendingView> {
    return this.producer.pending();
  }

  /** The remote this chain forks, if it is a fork (a re-fork in place changes it). */
  get fork(): ChainFork | undefined {
    return this.forkLink.fork;
  }

  /** hardhat_/anvil_reset with `forking`: fork `url` at `block` (default: its latest) from now on, in place (fork-link.ts). */
  refork(url: string, block: bigint | undefined): Promise<void> {
    return this.forkLink.refork(url, block);
  }

  // ---- execution without a transaction ----------------------------------------------------------

  /**
   * eth_call at `target`; on a fork, a block number below the fork block runs on the remote's
   * state there. `deadline`: the request's time limit; the node's limit when absent (calls.ts).
   */
  call(params: CallParams, target: StateTarget | bigint, deadline?: Deadline): Promise<CallResult> {
    return this.calls.call(params, target, deadline);
  }

  /** console.log lines print only when the estimate fails (its attempt at the cap), as Hardhat does. */
  estimateGas(params: CallParams, target: StateTarget | bigint, deadline?: Deadline): Promise<bigint> {
    return this.calls.estimateGas(params, target, deadline);
  }

  /** A call traced as debug_traceCall runs it (tracing/trace-call.ts). */
  traceCall(params: CallParams, target: StateTarget, options: TraceCallOptions): Promise<TracedTx> {
    return this.calls.traceCall(params, target, options);
  }

  /** eth_simulateV1's blocks of calls on `base`'s state (exec/simulate.ts); nothing is written. */
  simulate(base: SimulationBase, blocks: SimulatedBlockRequest[], options: SimulateOptions): Promise<SimulatedBlock[]> {
    return this.calls.simulate(base, blocks, options);
  }

  // ---- transactions and blocks ---------------------------------------------------------------------

  /** Validates and pools a signed transaction, then (automine) mines it. Returns its hash. */
  async sendRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    const hash = await this.intake.sendRawTransaction(raw);
    await this.federation.settled();
    return hash;
  }

  /** Signs with one of the node's keys (or as an impersonated account) and submits (eth_sendTransaction). */
  async sendTransaction(request: CallParams & { from: Address; nonce?: bigint }, signer?: NodeAccount): Promise<Uint8Array> {
    const hash = await this.intake.sendTransaction(request, signer);
    await this.federation.settled();
    return hash;
  }

  /** The state nonce plus the sender's run of pooled transactions. */
  pendingNonce(address: Address): Promise<bigint> {
    return this.intake.pendingNonce(address);
  }

  impersonate(address: Address): void {
    this.intake.impersonate(address);
  }

  stopImpersonating(address: Address): void {
    this.intake.stopImpersonating(address);
  }

  isImpersonated(address: Address): boolean {
    return this.intake.isImpersonated(address);
  }

  /** anvil_autoImpersonateAccount: eth_sendTransaction sends as any address the node holds no key for. */
  setAutoImpersonate(on: boolean): void {
    this.intake.autoImpersonate = on;
  }

  /** The coinbase of the blocks mined next (eth_coinbase). */
  get coinbase(): Uint8Array {
    return this.producer.coinbase;
  }

  /** hardhat_/anvil_setCoinbase: the coinbase of every block mined from now on. */
  setCoinbase(coinbase: Address): Promise<void> {
    return this.parts.lock.run(async () => this.producer.setCoinbaseLocked(coinbase.bytes));
  }

  /** evm_setBlockGasLimit: the gas limit of every block mined from now on. */
  setBlockGasLimit(gasLimit: bigint): Promise<void> {
    return this.parts.lock.run(async () => this.producer.setGasLimitLocked(gasLimit));
  }

  /** The gas limit of the block mined next. */
  nextGasLimit(): bigint {
    return this.producer.nextGasLimit();
  }

  /** Mines one block from the pool (evm_mine, automine, interval mining). */
  async mine(timestamp?: bigint): Promise<RskBlock> {
    const block = await this.producer.mine(timestamp);
    await this.federation.settled();
    return block;
  }

  /** Mines `count` blocks, `interval` seconds apart (hardhat_mine / anvil_mine). */
  mineMany(count: bigint, interval: bigint): Promise<void> {
    return this.producer.mineMany(count, interval);
  }

  // ---- state dump and load -------------------------------------------------------------------

  /** Runs `use` on this chain's part of a state dump, under the lock (see state-transfer.ts). */
  dumpState<T>(use: (section: NetworkSection) => Promise<T>): Promise<T> {
    return this.transfer.dump(use);
  }

  /**
   * Reads and checks a state file or bytes, changing nothing; returns what loads it, or undefined
   * when the file holds no chain with this chain id (see state-transfer.ts).
   */
  prepareStateLoad(source: StateSource): Promise<(() => Promise<void>) | undefined> {
    return this.transfer.prepare(source);
  }

  // ---- mining mode ------------------------------------------------------------------------------

  get isAutomine(): boolean {
    return this.mining.isAutomine;
  }

  setAutomine(on: boolean): void {
    this.mining.setAutomine(on);
  }

  /** Mines a block every `ms` milliseconds; 0 turns interval mining off (mining/mode.ts). */
  setIntervalMining(ms: number): void {
    this.mining.setIntervalMining(ms);
  }
}
