/**
 * One network's chain engine: the facade the RPC layer talks to. It owns the store, the pool and
 * block production; every mutation runs under one lock so blocks are built one at a time.
 */
import type { Common } from '@ethereumjs/common';
import { type LegacyTx, createLegacyTx } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { Account, Address, type DB, KECCAK256_RLP, bytesToHex, concatBytes, equalsBytes, hexToBytes } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { MINER_ACCOUNT, type NodeAccount } from './accounts.js';
import { NodeWallet, lockedHint } from './wallet.js';
import type { RskBlock } from './block.js';
import { blockRlpLength } from './block.js';
import type { BuiltBlock, Executor } from './block-builder.js';
import { createRskCommon, rskTxOptions } from './common.js';
import { nextGasLimit, nextMinimumGasPrice, suggestedGasPrice } from './economics.js';
import { ChainError } from './errors.js';
import { Execution } from './execution.js';
import { type GenesisConfig, buildGenesisBlock } from './genesis.js';
import { type RskHeader, baseHashForMergedMining } from './header.js';
import { Mempool, type PoolTx, orderForBlock } from './mempool.js';
import type { BlockReceipts, ReceiptRecord } from './receipt.js';
import type { LogCriteria, LogMatch } from './log-index.js';
import { type LogLimits, queryLogs } from './log-query.js';
import { EventEmitter } from 'node:events';
import { hashForMergedMining, sealBlock } from './seal.js';
import { type MergedMiningProof, validateMergedMiningProof } from './merged-mining.js';
import { type MiningWork, WORK_REFRESH_MS, WorkBook } from './mining/work.js';
import { sealWithProof } from './mining/submit.js';
import { OverlayDb } from './state-db.js';
import { Snapshots } from './snapshots.js';
import { MAX_TIMESTAMP, MinerClock, timestampTooLarge } from './miner-clock.js';
import { impersonatedTransaction } from './impersonation.js';
import { AutomineBatch } from './automine.js';
import { ChainStore } from './store.js';
import { irregularStateMeta } from './store-keys.js';
import { type TxRecord, txRecordFromLegacyTx } from './transaction.js';
import { decodeRawTransaction, firstLine } from './tx-decode.js';
import { validatePoolTransaction } from './tx-validation.js';
import { MiningTimer } from './mining-timer.js';
import { loadMinerTargets } from './miner-targets.js';
import { MAX_NONCE, SEND_TRANSACTION_DEFAULT_GAS, checkSendFields } from './send-fields.js';
import type { CallParams, CallResult } from './call.js';
import { CallRunner } from './call-runner.js';
import { HeadState, type StateReader, StateView } from './head-state.js';

export type NetworkName = 'testnet' | 'mainnet';
export type { LogMatch };

export interface ChainOptions {
  network: NetworkName;
  genesis: GenesisConfig;
  /** Directory of this network's LevelDB; undefined keeps the chain in memory. */
  location: string | undefined;
  /** Miner's minimum gas price target; on a new chain also the genesis minimum. */
  minGasPrice?: bigint;
  /** Miner's block gas limit target; on a new chain also the genesis gas limit. */
  blockGasLimit?: bigint;
  /** Wall clock in milliseconds (injectable for tests). */
  now?: () => number;
  /** Where failures of background work (interval mining) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /** 'external': no automine or interval mining; blocks come from merged miners (mnr_) and evm_mine. */
  miner?: MinerMode;
  /** The node's keys (one wallet may serve both networks); default: the cow and miner keys only. */
  wallet?: NodeWallet;
  /**
   * Automine puts transactions in flight together into shared blocks (default true); false gives
   * every transaction its own block, as Hardhat does (the Hardhat profile).
   */
  automineBatching?: boolean;
}

/** extraData of mined blocks, as rskj's miner writes it: RLP [version 1, "<modifier>-<build>"]. */
const MINED_EXTRA_DATA = RLP.encode([1, 'rsk-devnode']);
/** head hash ‖ overriding state root: valid only while that block is the head. */
const OVERRIDE_META = 'state-override';

function blockReceipts(block: RskBlock, receipts: ReceiptRecord[]): BlockReceipts {
  return { blockHash: block.hash, blockNumber: block.header.number, txHashes: block.transactions.map((tx) => tx.hash), receipts };
}

function overrideRecord(head: RskBlock, stateRoot: Uint8Array): Uint8Array {
  return concatBytes(head.hash, stateRoot);
}

export interface ChainEvents {
  block: [block: RskBlock, receipts: BlockReceipts];
  rewind: [removed: Array<{ block: RskBlock; receipts: BlockReceipts }>, newHead: RskBlock];
  pendingTransaction: [tx: TxRecord];
}

export interface TxLookup {
  tx: TxRecord;
  block: RskBlock;
  index: number;
}

export class Chain {
  readonly common: Common;
  readonly chainId: bigint;
  readonly wallet: NodeWallet;
  /** The addresses the node holds keys for (eth_accounts order; locked keystore accounts included). */
  get accounts(): ReadonlyArray<{ address: string }> {
    return this.wallet.listAccounts().map((address) => ({ address }));
  }
  readonly pool = new Mempool();
  /** 'block' (block, receipts) after a block is stored; 'rewind' (removed [{block, receipts}], new head)
   *  after evm_revert/evm_reset drops blocks; 'pendingTransaction' (TxRecord) when the pool takes one. */
  readonly events = new EventEmitter<ChainEvents>();
  readonly execution: Execution;
  private headBlock!: RskBlock;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly automineBatch = new AutomineBatch((task) => this.serialize(task), (admitted) => this.mineAdmitted(admitted));
  private headRunner: CallRunner | undefined;
  /** The flat view of the latest state; it starts over whenever the latest state root changes. */
  private readonly headState = new HeadState((root) => this.execution.stateReader(this.store.stateDb, root));
  private miner: (Executor & { root: Uint8Array }) | undefined;
  private pendingCache: { headHash: Uint8Array; viewVersion: number; built: Promise<PendingView> } | undefined;
  private viewVersion = 0;
  /** Latest state when test-control methods changed the head's state (setBalance...); cleared by the next block. */
  private stateOverride: Uint8Array | undefined;
  /**
   * Block hash (hex) → the state root a later block was built on, for blocks whose state test
   * control changed before they stopped being the head (Hardhat's "irregular states"): historical
   * reads, proofs and traces then see the state that really was there. Persisted with the block
   * built on it; one entry per such block, dropped with the block.
   */
  private irregularRoots = new Map<string, Uint8Array>();
  private readonly snapshots = new Snapshots();
  private readonly impersonated = new Set<string>();
  private automine = true;
  private readonly automineBatching: boolean;
  /** Who mines: the node itself, or merged miners only (`--miner external`). */
  readonly minerMode: MinerMode;
  /** Blocks handed to merged miners (mnr_getWork, eth_getWork), kept for their solutions. */
  readonly works = new WorkBook();
  private readonly miningTimer: MiningTimer;
  private readonly clock: MinerClock;
  private minGasPriceTarget = 0n;
  private gasLimitTarget = 0n;
  private readonly now: () => number;
  private readonly onBackgroundError: (err: unknown) => void;

  private constructor(
    readonly network: NetworkName,
    private readonly store: ChainStore,
    options: ChainOptions,
  ) {
    this.common = createRskCommon(options.genesis.chainId, `rsk-${options.network}`);
    this.chainId = BigInt(options.genesis.chainId);
    this.execution = new Execution(this.common, (n) => this.blockByNumber(n));
    this.now = options.now ?? Date.now;
    this.clock = new MinerClock(this.now);
    this.onBackgroundError = options.onBackgroundError ?? (() => undefined);
    this.miningTimer = new MiningTimer(() => this.mine(), (err) => this.onBackgroundError(err));
    this.minerMode = options.miner ?? 'internal';
    if (this.minerMode === 'external') this.automine = false;
    this.automineBatching = options.automineBatching ?? true;
    this.wallet = options.wallet ?? new NodeWallet();
  }

  static async open(options: ChainOptions): Promise<Chain> {
    const store = await ChainStore.open(options.location);
    const chain = new Chain(options.network, store, options);
    try {
      await chain.load(options);
    } catch (err) {
      await store.close();
      throw err;
    }
    return chain;
  }

  async close(): Promise<void> {
    this.setIntervalMining(0);
    await this.serialize(() => this.store.close());
  }

  get head(): RskBlock {
    return this.headBlock;
  }

  /** The state root reads of `block` use: the head's may be overridden by test-control methods. */
  stateRootOf(block: RskBlock): Uint8Array {
    // By hash: the same block may be a different object once it has left the block cache.
    if (this.stateOverride !== undefined && equalsBytes(block.hash, this.headBlock.hash)) return this.stateOverride;
    return this.irregularRoots.size === 0 ? block.header.stateRoot : (this.irregularRoots.get(bytesToHex(block.hash)) ?? block.header.stateRoot);
  }

  /** The meta record that keeps the head's changed state once a block is built on it. */
  private irregularRecord(parent: RskBlock): { name: string; value: Uint8Array } | undefined {
    return this.stateOverride === undefined ? undefined : { name: irregularStateMeta(parent.hash), value: this.stateOverride };
  }

  /** After a block was committed on `parent`: its changed state, if any, becomes history. */
  private settleParentState(parent: RskBlock): void {
    if (this.stateOverride !== undefined) this.irregularRoots.set(bytesToHex(parent.hash), this.stateOverride);
    this.stateOverride = undefined;
  }

  /** Where reads at `block` run. */
  targetOf(block: RskBlock): StateTarget {
    const stateRoot = this.stateRootOf(block);
    return stateRoot === block.header.stateRoot ? { header: block.header } : { header: { ...block.header, stateRoot } };
  }

  // ---- reads -------------------------------------------------------------------------------

  async blockByNumber(number: bigint): Promise<RskBlock | undefined> {
    if (number < 0n || number > this.headBlock.header.number) return undefined;
    return this.store.getBlock(number);
  }

  async blockByHash(hash: Uint8Array): Promise<RskBlock | undefined> {
    const number = await this.store.getBlockNumber(hash);
    return number === undefined ? undefined : this.blockByNumber(number);
  }

  async receipts(block: RskBlock): Promise<ReceiptRecord[]> {
    return (await this.store.getReceipts(block.header.number))?.receipts ?? [];
  }

  async transaction(hash: Uint8Array): Promise<TxLookup | undefined> {
    const location = await this.store.getTxLocation(hash);
    if (location === undefined) return undefined;
    const block = await this.blockByNumber(location.blockNumber);
    const tx = block?.transactions[location.index];
    return block === undefined || tx === undefined ? undefined : { tx, block, index: location.index };
  }

  /** The pool split as rskj shows it: pending (runnable now, in nonce order) and queued (behind a gap). */
  async poolContent(): Promise<{ pending: PoolTx[]; queued: PoolTx[] }> {
    const runnable = new Set(await this.poolCandidates(this.headBlock));
    const pending: PoolTx[] = [];
    const queued: PoolTx[] = [];
    for (const [, txs] of this.pool.senders()) for (const entry of txs) (runnable.has(entry) ? pending : queued).push(entry);
    return { pending, queued };
  }

  /**
   * Logs matching `criteria`, in chain order. A query over more than `limits.maxBlockRange` blocks
   * must stay within `limits.maxLogs` logs (the spec's two alternative caps).
   */
  async logs(criteria: LogCriteria, limits: LogLimits): Promise<LogMatch[]> {
    return queryLogs(this.store, this.headBlock.header.number, criteria, limits);
  }

  pooledTransaction(hash: Uint8Array): TxRecord | undefined {
    return this.pool.get(hash)?.record;
  }

  /**
   * State reader at a block's state root (historical state is never pruned). The pending block's
   * state lives in its own overlay, passed as `db`.
   */
  stateAt(stateRoot: Uint8Array, db: DB<string, Uint8Array> = this.store.stateDb): MerkleStateManager {
    return this.execution.stateManager(db, stateRoot);
  }

  /** The state trie's node store, for readers that layer their own overlay over it (tracing). */
  get stateNodes(): DB<string, Uint8Array> {
    return this.store.stateDb;
  }

  async account(stateRoot: Uint8Array, address: Address): Promise<Account | undefined> {
    return this.stateReader(stateRoot).getAccount(address);
  }

  /**
   * Account reads at a state root: the flat view of the latest state (head-state.ts) when that is
   * the root, else a trie reader (older blocks; the pending block's state lives in `db`).
   */
  stateReader(stateRoot: Uint8Array, db?: DB<string, Uint8Array>): StateReader {
    if (db === undefined && equalsBytes(stateRoot, this.stateRootOf(this.headBlock))) return this.headState.at(stateRoot);
    return this.execution.stateReader(db ?? this.store.stateDb, stateRoot);
  }

  get minimumGasPrice(): bigint {
    return this.headBlock.header.minimumGasPrice;
  }

  gasPrice(): bigint {
    return suggestedGasPrice(this.headBlock.header.minimumGasPrice);
  }

  /** The block the pool would produce next, built on latest without sealing (rskj's `pending`). */
  pending(): Promise<PendingView> {
    const cache = this.pendingCache;
    if (cache !== undefined && cache.headHash === this.headBlock.hash && cache.viewVersion === this.viewVersion) return cache.built;
    // viewVersion moves whenever the pending block would change: pool, state, clock, head rewinds.
    const built = this.buildPending();
    this.pendingCache = { headHash: this.headBlock.hash, viewVersion: this.viewVersion, built };
    built.catch(() => (this.pendingCache = undefined));
    return built;
  }

  // ---- execution without a transaction ----------------------------------------------------------

  async call(params: CallParams, target: StateTarget): Promise<CallResult> {
    const { runCall } = await this.execution.runtime();
    return runCall(this.execution, this.callRunner(target), target.header, params);
  }

  async estimateGas(params: CallParams, target: StateTarget): Promise<bigint> {
    const { estimateGas } = await this.execution.runtime();
    return estimateGas(this.execution, this.callRunner(target), target.header, params);
  }

  /** The head's runner is kept while the head stays; other blocks get a throwaway one. */
  private callRunner(target: StateTarget): CallRunner {
    const { stateRoot } = target.header;
    if (target.db === undefined && this.headRunner !== undefined && equalsBytes(this.headRunner.stateRoot, stateRoot)) return this.headRunner;
    const reader = this.stateReader(stateRoot, target.db);
    // A StateView is the head's: its runner is kept. Other states get a throwaway view and runner.
    if (!(reader instanceof StateView)) return new CallRunner(this.execution, new StateView(stateRoot, reader));
    this.headRunner = new CallRunner(this.execution, reader);
    return this.headRunner;
  }

  // ---- transactions ----------------------------------------------------------------------------

  /** Validates and pools a signed transaction, then (automine) mines it. Returns its hash. */
  async sendRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    const tx = decodeRawTransaction(raw, this.common, this.network);
    await this.submit(() => this.admitLocked(tx, raw));
    return tx.hash();
  }

  /** Signs with one of the node's keys and submits (eth_sendTransaction). */
  async sendTransaction(request: CallParams & { from: Address; nonce?: bigint }, signer?: NodeAccount): Promise<Uint8Array> {
    const impersonated = signer === undefined && this.impersonated.has(request.from.toString());
    const key = signer ?? (impersonated ? undefined : this.keyFor(request.from));
    // The nonce is chosen under the lock, so concurrent sends from one account get consecutive nonces.
    const entry = await this.submit(async () => {
      const state = this.stateReader(this.stateRootOf(this.headBlock));
      if (impersonated && (await state.getCode(request.from)).length > 0) {
        throw new ChainError(
          'invalidArgument',
          `${request.from.toString()} has code: this node cannot send as a contract account (the EVM refuses senders with code, EIP-3607)`,
        );
      }
      const fields = {
        nonce: request.nonce ?? (await this.pendingNonce(request.from)),
        // The next block's minimum, which may be above the latest block's while it rises to a target.
        gasPrice: request.gasPrice ?? this.nextMinimumGasPrice(),
        gasLimit: request.gas ?? SEND_TRANSACTION_DEFAULT_GAS,
        to: request.to,
        value: request.value ?? 0n,
        data: request.data ?? new Uint8Array(0),
      };
      checkSendFields(fields, this.headBlock.header.gasLimit);
      let tx: LegacyTx;
      try {
        tx = key === undefined
          ? impersonatedTransaction(fields, request.from, this.common)
          : createLegacyTx(fields, rskTxOptions(this.common)).sign(key.privateKey);
      } catch (err) {
        throw new ChainError('invalidArgument', `Invalid transaction: ${firstLine((err as Error).message)}`);
      }
      return this.admitLocked(tx, tx.serialize());
    });
    return entry.record.hash;
  }

  private nextMinimumGasPrice(): bigint {
    const latest = this.headBlock.header.minimumGasPrice;
    const next = nextMinimumGasPrice(latest, this.minGasPriceTarget);
    return next > latest ? next : latest;
  }

  /** The state nonce plus the sender's run of pooled transactions. */
  async pendingNonce(address: Address): Promise<bigint> {
    const account = await this.account(this.stateRootOf(this.headBlock), address);
    let nonce = account?.nonce ?? 0n;
    const pooled = new Set<bigint>();
    for (const entry of this.pool.forSender(address.toString())) pooled.add(entry.record.nonce);
    while (pooled.has(nonce)) nonce++;
    return nonce;
  }

  keyFor(address: Address): NodeAccount {
    const wanted = address.toString();
    const privateKey = this.wallet.signingKey(wanted);
    if (privateKey === undefined) throw new ChainError('unknownAccount', `Could not find account for address: ${wanted}${lockedHint(this.wallet, wanted)}`);
    return { address: wanted, privateKey };
  }

  /** Validates and pools a transaction. */
  private async admitLocked(tx: LegacyTx, raw: Uint8Array): Promise<PoolTx> {
    const sender = tx.getSenderAddress();
    const account = await this.account(this.stateRootOf(this.headBlock), sender);
    validatePoolTransaction(tx, raw, sender.toString(), this.pool, {
      blockGasLimit: this.headBlock.header.gasLimit,
      minimumGasPrice: this.headBlock.header.minimumGasPrice,
      account: account && { nonce: account.nonce, balance: account.balance },
    });
    const entry = this.pool.add(tx, txRecordFromLegacyTx(tx, raw));
    this.viewVersion++;
    this.events.emit('pendingTransaction', entry.record);
    return entry;
  }

  /**
   * Admits a transaction under the lock and, with automine, waits until it is mined; fails if it was
   * dropped instead. Batching automine mines it with the others in flight (automine.ts); without
   * batching (the Hardhat profile) it is admitted and mined in one turn of the lock, a block each.
   */
  private async submit(admit: () => Promise<PoolTx>): Promise<PoolTx> {
    if (!this.automineBatching) {
      return this.serialize(async () => {
        const entry = await admit();
        if (this.awaitsAutomine(entry)) this.refuseDropped((await this.mineAdmitted(new Set([entry]))).get(entry));
        return entry;
      });
    }
    const entry = await this.serialize(admit);
    if (this.awaitsAutomine(entry)) this.refuseDropped(await this.automineBatch.mined(entry));
    return entry;
  }

  /** A transaction behind a nonce gap waits for the gap to fill (it stays pooled, unmined). */
  private awaitsAutomine(entry: PoolTx): boolean {
    return this.automine && this.pool.get(entry.record.hash) !== undefined;
  }

  /** rskj's autoMine answers -32009 when the transaction was not mined; so do we, with the reason. */
  private refuseDropped(reason: string | undefined): void {
    if (reason !== undefined) throw new ChainError('notMined', `Unknown error when sending transaction: transaction wasn't mined: ${reason}`);
  }

  /**
   * Automine's block(s) for transactions admitted together: what can run now, and more blocks while
   * an admitted one is still runnable and the last block made progress (a full block defers some).
   */
  private async mineAdmitted(admitted: ReadonlySet<PoolTx>): Promise<Map<PoolTx, string>> {
    const dropped = new Map<PoolTx, string>();
    if (!this.automine) return dropped;
    try {
      let candidates = await this.poolCandidates(this.headBlock);
      while (candidates.length > 0) {
        const { built } = await this.mineLocked(undefined, candidates);
        for (const { entry, reason } of built.invalid) dropped.set(entry, reason);
        if (built.included.length === 0) break;
        candidates = await this.poolCandidates(this.headBlock);
        if (!candidates.some((candidate) => admitted.has(candidate))) break;
      }
    } catch (err) {
      // The block was not built: the sends fail, so their transactions must not linger either.
      for (const entry of admitted) if (this.pool.get(entry.record.hash) === entry) this.pool.remove(entry);
      this.viewVersion++;
      throw err;
    }
    return dropped;
  }

  // ---- block production -------------------------------------------------------------------

  /** Mines one block from the pool (evm_mine, automine, interval mining). */
  async mine(timestamp?: bigint): Promise<RskBlock> {
    if (timestamp !== undefined && timestamp > MAX_TIMESTAMP) throw new ChainError('invalidArgument', timestampTooLarge(timestamp));
    return this.serialize(async () => (await this.mineLocked(timestamp)).block);
  }

  /** Mines `count` blocks, `interval` seconds apart (hardhat_mine / anvil_mine). */
  async mineMany(count: bigint, interval: bigint): Promise<void> {
    if (count > MAX_BLOCKS_PER_MINE) {
      throw new ChainError('invalidArgument', `at most ${MAX_BLOCKS_PER_MINE} blocks per call; call again for more`);
    }
    await this.serialize(async () => {
      // Checked before the first block, so a refused call mines nothing.
      this.clock.checkRun(this.headBlock.header.timestamp, count, interval);
      for (let i = 0n; i < count; i++) {
        await this.mineLocked(i === 0n ? undefined : this.headBlock.header.timestamp + interval);
        // Let HTTP, WebSocket and signals through now and then (an in-memory store never yields).
        if (i % YIELD_EVERY_BLOCKS === YIELD_EVERY_BLOCKS - 1n) await new Promise((resolve) => setImmediate(resolve));
      }
    });
  }

  private async mineLocked(timestamp?: bigint, poolCandidates?: PoolTx[]): Promise<{ block: RskBlock; built: BuiltBlock }> {
    const parent = this.headBlock;
    const candidates = poolCandidates ?? (await this.poolCandidates(parent));
    const miner = await this.minerAt(parent);
    const now = this.clock.nowSeconds();
    const timeTravel = this.clock.travels(timestamp);
    let block: RskBlock;
    let built: BuiltBlock;
    let receipts: BlockReceipts;
    try {
      const { buildBlock } = await this.execution.runtime();
      built = await buildBlock(this.execution, miner, parent, this.template(parent, now, timestamp), candidates);
      block = await sealBlock(built, parent, (n) => this.blockByNumber(n));
      receipts = blockReceipts(block, built.receipts);
      await this.store.commitBlock(block, receipts, this.irregularRecord(parent));
    } catch (err) {
      this.miner = undefined;
      this.store.stateDb.discardPending();
      this.clock.clearPending();
      throw err;
    }
    miner.root = block.header.stateRoot;
    for (const entry of built.included) this.pool.remove(entry);
    for (const { entry } of built.invalid) this.pool.remove(entry);
    this.viewVersion++;
    this.headBlock = block;
    this.settleParentState(parent);
    this.clock.blockMined(block.header.timestamp, now, timeTravel);
    this.events.emit('block', block, receipts);
    return { block, built };
  }

  /**
   * The mining VM, kept across blocks; after a revert, reset or state override it moves to the new
   * root (building a VM costs milliseconds). A failed block drops it: its state may be half-applied.
   */
  private async minerAt(parent: RskBlock): Promise<Executor & { root: Uint8Array }> {
    const root = this.stateRootOf(parent);
    if (this.miner !== undefined && equalsBytes(this.miner.root, root)) return this.miner;
    if (this.miner !== undefined) {
      await this.miner.stateManager.setStateRoot(root);
      this.miner.root = root;
      return this.miner;
    }
    const stateManager = this.execution.stateManager(this.store.stateDb, root);
    this.miner = { stateManager, vm: await this.execution.vm(stateManager), root };
    return this.miner;
  }

  /** Pooled transactions that can run on `parent`, in block order. */
  private async poolCandidates(parent: RskBlock): Promise<PoolTx[]> {
    if (this.pool.size === 0) return [];
    const root = this.stateRootOf(parent);
    const nonces = new Map<string, bigint>();
    for (const sender of this.pool.senderKeys()) {
      nonces.set(sender, (await this.account(root, new Address(hexToBytes(sender as `0x${string}`))))?.nonce ?? 0n);
    }
    return orderForBlock(this.pool.pendingBySender((sender) => nonces.get(sender) ?? 0n));
  }

  /** The next block's fields on `parent` (rskj's block template). */
  private template(parent: RskBlock, now: bigint, explicit?: bigint) {
    const timestamp = this.clock.timestampFor(parent.header.timestamp, now, explicit);
    return {
      coinbase: hexToBytes(MINER_ACCOUNT.address as `0x${string}`),
      extraData: MINED_EXTRA_DATA,
      timestamp,
      gasLimit: nextGasLimit(parent.header.gasLimit, this.gasLimitTarget),
      minimumGasPrice: nextMinimumGasPrice(parent.header.minimumGasPrice, this.minGasPriceTarget),
      difficulty: parent.header.difficulty,
    };
  }

  private async buildPending(): Promise<PendingView> {
    const parent = this.headBlock;
    const candidates = await this.poolCandidates(parent);
    const db = new OverlayDb(this.store.stateDb);
    const parentStateRoot = this.stateRootOf(parent);
    const stateManager = this.execution.stateManager(db, parentStateRoot);
    const executor = { stateManager, vm: await this.execution.vm(stateManager) };
    const { buildBlock } = await this.execution.runtime();
    const built = await buildBlock(this.execution, executor, parent, this.template(parent, this.clock.nowSeconds()), candidates);
    return {
      ...built,
      db,
      parentStateRoot,
      hashForMergedMining: baseHashForMergedMining(built.header),
      size: blockRlpLength(built.header, built.transactions),
      totalDifficulty: parent.totalDifficulty + built.header.difficulty,
    };
  }

  /** Runs `task` after every earlier mutation has finished; one block at a time. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lock.then(task, task);
    this.lock = run.catch(() => undefined);
    return run;
  }

  // ---- merged mining (mining/work.ts, mining/submit.ts) -------------------------------------------

  /**
   * The block merged miners work on (mnr_getWork, eth_getWork): the pending block on the head with
   * its RSKIP110 hashForMergedMining. It changes with the head, the pool and the clock settings,
   * and is rebuilt after WORK_REFRESH_MS as rskj refreshes its template.
   */
  currentWork(): Promise<MiningWork> {
    return this.serialize(async () => {
      let view = await this.pending();
      const latest = this.works.latest;
      if (latest?.view === view && this.now() - latest.handedOutAt >= WORK_REFRESH_MS) {
        this.pendingCache = undefined;
        view = await this.pending();
      }
      if (latest?.view === view) return latest;
      return this.works.register({
        view,
        hashForMergedMining: await hashForMergedMining(view.header, (n) => this.blockByNumber(n)),
        parentStateRoot: view.parentStateRoot,
        clock: this.clock.save(),
        handedOutAt: this.now(),
      });
    });
  }

  /**
   * Seals `work` with a merged miner's proof and, if the proof passes rskj's ProofOfWorkRule for
   * the work's hashForMergedMining, makes it the head with exactly that proof. A block already
   * stored is 'exist' (rskj's EXIST); work no longer on the head is 'stale' (no side chains here).
   */
  importMergedMinedBlock(work: MiningWork, proof: MergedMiningProof): Promise<MergedMiningImport> {
    return this.serialize(async () => {
      const block = sealWithProof(work, proof);
      const validation = validateMergedMiningProof(proof, work.hashForMergedMining, block.header.difficulty);
      if (!validation.ok) return { status: 'invalid', block, reason: validation.reason };
      if ((await this.blockByHash(block.hash)) !== undefined) return { status: 'exist', block };
      const onHead = equalsBytes(block.header.parentHash, this.headBlock.hash) && equalsBytes(work.parentStateRoot, this.stateRootOf(this.headBlock));
      if (!onHead) return { status: 'stale', block };
      const { view } = work;
      if (!(view.db instanceof OverlayDb)) throw new Error('merged-mining work has no state overlay to commit');
      const receipts = blockReceipts(block, view.receipts);
      const now = this.clock.nowSeconds();
      try {
        // The pending block's state nodes join the block's atomic commit, as the miner's would.
        await this.store.stateDb.batch([...view.db.written()].map(([key, value]) => ({ type: 'put' as const, key, value })));
        await this.store.commitBlock(block, receipts, this.irregularRecord(this.headBlock));
      } catch (err) {
        this.store.stateDb.discardPending();
        throw err;
      }
      // A mined nonce is spent, whichever pooled transaction holds it now.
      for (const entry of view.included) {
        const pooled = this.pool.sameNonce(entry.sender, entry.record.nonce);
        if (pooled !== undefined) this.pool.remove(pooled);
      }
      for (const { entry } of view.invalid) if (this.pool.get(entry.record.hash) === entry) this.pool.remove(entry);
      this.viewVersion++;
      this.settleParentState(this.headBlock);
      this.headBlock = block;
      // The work used the pending clock settings; if they are still pending, this block used them up.
      const pending = this.clock.save();
      if (work.clock.timeOffset === pending.timeOffset && work.clock.nextTimestamp === pending.nextTimestamp && this.clock.travels()) {
        this.clock.blockMined(block.header.timestamp, now, true);
      }
      this.events.emit('block', block, receipts);
      return { status: 'imported', block };
    });
  }

  /** With `--miner external` the node never mines by itself; evm_mine stays the operator's override. */
  private refuseSelfMining(what: string): void {
    if (this.minerMode !== 'external') return;
    throw new ChainError(
      'invalidArgument',
      `${what} is off on a node started with --miner external: blocks come from merged miners (mnr_submitBitcoinBlock*); mine one by hand with evm_mine`,
    );
  }

  // ---- test control (evm_*, hardhat_*, anvil_*) -----------------------------------------------

  get isAutomine(): boolean {
    return this.automine;
  }

  setAutomine(on: boolean): void {
    if (on) this.refuseSelfMining('automine');
    this.automine = on;
  }

  /** Mines a block every `ms` milliseconds; 0 turns interval mining off (mining-timer.ts). */
  setIntervalMining(ms: number): void {
    MiningTimer.check(ms);
    if (ms > 0) this.refuseSelfMining('interval mining');
    this.miningTimer.set(ms);
  }

  /** rskj: positive values add to the offset the next block consumes; returns the offset. */
  increaseTime(seconds: bigint): Promise<bigint> {
    return this.serialize(async () => {
      const offset = this.clock.increase(seconds);
      this.viewVersion++;
      return offset;
    });
  }

  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.serialize(async () => {
      this.clock.setNext(timestamp, this.headBlock.header.timestamp);
      this.viewVersion++;
    });
  }

  snapshot(): Promise<bigint> {
    return this.serialize(async () => {
      // From now on blocks can be dropped by a revert: remember the nodes each one adds.
      this.store.revertedNodes.setTracking(true);
      return this.snapshots.take({
        headNumber: this.headBlock.header.number,
        stateRoot: this.stateRootOf(this.headBlock),
        clock: this.clock.save(),
        pool: this.pool.entries(),
      });
    });
  }

  /** Restores a snapshot: a head pointer move and deletion of the blocks above, never a replay. */
  revert(id: bigint): Promise<boolean> {
    return this.serialize(async () => {
      const snapshot = this.snapshots.revertTo(id);
      if (snapshot === undefined) return false;
      await this.rewind(snapshot.headNumber, snapshot.stateRoot);
      this.clock.restore(snapshot.clock);
      this.pool.restore(snapshot.pool);
      return true;
    });
  }

  /** Back to genesis: every block above it, every snapshot and the pool are dropped. */
  reset(): Promise<void> {
    return this.serialize(async () => {
      this.snapshots.clear();
      const genesis = (await this.store.getBlock(0n))!;
      await this.rewind(0n, genesis.header.stateRoot);
      this.store.revertedNodes.setTracking(false);
      this.clock.reset();
      this.pool.clear();
    });
  }

  private async rewind(number: bigint, stateRoot: Uint8Array): Promise<void> {
    const target = (await this.store.getBlock(number))!;
    const override = equalsBytes(stateRoot, target.header.stateRoot) ? undefined : stateRoot;
    const removed = await this.store.truncateAbove(number, this.headBlock.header.number, {
      name: OVERRIDE_META,
      value: override && overrideRecord(target, override),
    });
    for (const { block } of removed) this.irregularRoots.delete(bytesToHex(block.hash));
    this.irregularRoots.delete(bytesToHex(target.hash));
    this.headBlock = target;
    this.stateOverride = override;
    this.headRunner = undefined;
    this.headState.drop();
    this.viewVersion++;
    if (removed.length > 0) this.events.emit('rewind', removed, target);
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

  /** Removes a pooled transaction (hardhat_/anvil_dropTransaction); false when it is not pooled. */
  dropTransaction(hash: Uint8Array): Promise<boolean> {
    return this.serialize(async () => {
      const entry = this.pool.get(hash);
      if (entry === undefined) return false;
      this.pool.remove(entry);
      this.viewVersion++;
      return true;
    });
  }

  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  stopImpersonating(address: Address): void {
    this.impersonated.delete(address.toString());
  }

  private modifyAccount(address: Address, change: (account: Account) => void): Promise<void> {
    return this.modifyState(async (state) => {
      const account = (await state.getAccount(address)) ?? new Account();
      change(account);
      await state.putAccount(address, account);
    });
  }

  /** Changes the latest state in place (the head keeps its hash), as Hardhat and anvil do. */
  private modifyState(change: (state: MerkleStateManager) => Promise<void>): Promise<void> {
    return this.serialize(async () => {
      const state = this.stateAt(this.stateRootOf(this.headBlock));
      await change(state);
      const root = await state.getStateRoot();
      await this.store.commitState(OVERRIDE_META, overrideRecord(this.headBlock, root), this.headBlock.header.number);
      this.stateOverride = root;
      this.headRunner = undefined;
      this.headState.drop();
      this.viewVersion++;
    });
  }

  // ---- start-up -------------------------------------------------------------------------------

  private async load(options: ChainOptions): Promise<void> {
    const headNumber = await this.store.headNumber();
    if (headNumber === undefined) {
      await this.createGenesis(options);
    } else {
      const head = await this.store.getBlock(headNumber);
      if (head === undefined) throw new Error(`chain data is damaged: head block ${headNumber} is missing`);
      this.headBlock = head;
    }
    this.irregularRoots = await this.store.irregularStates();
    const override = await this.store.getMeta(OVERRIDE_META);
    if (override !== undefined && equalsBytes(override.subarray(0, 32), this.headBlock.hash)) this.stateOverride = override.slice(32);
    const targets = await loadMinerTargets(this.store, options, (await this.store.getBlock(0n))!);
    this.minGasPriceTarget = targets.minGasPrice;
    this.gasLimitTarget = targets.gasLimit;
  }

  private async createGenesis(options: ChainOptions): Promise<void> {
    const block = await buildGenesisBlock(options.genesis, this.execution.stateManager(this.store.stateDb, KECCAK256_RLP), {
      gasLimit: options.blockGasLimit,
      minimumGasPrice: options.minGasPrice,
    });
    await this.store.commitBlock(block, blockReceipts(block, []));
    this.headBlock = block;
  }

}

/** Most blocks one hardhat_mine/anvil_mine call may mine (about a minute and a half of work). */
export const MAX_BLOCKS_PER_MINE = 100_000n;
const YIELD_EVERY_BLOCKS = 64n;
export type MinerMode = 'internal' | 'external';

/** What importing a merged-mined block did (Chain.importMergedMinedBlock). */
export type MergedMiningImport =
  | { status: 'imported' | 'exist' | 'stale'; block: RskBlock }
  | { status: 'invalid'; block: RskBlock; reason: string };

export interface PendingView extends BuiltBlock {
  /** Overlay holding the pending block's state. */
  db: DB<string, Uint8Array>;
  /** The state the pending block was built on (the head's, when it was built). */
  parentStateRoot: Uint8Array;
  hashForMergedMining: Uint8Array;
  size: number;
  totalDifficulty: bigint;
}

/** Where a read runs: a block's header and, for the pending block, the overlay holding its state. */
export interface StateTarget {
  header: RskHeader;
  db?: DB<string, Uint8Array>;
}
