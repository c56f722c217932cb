/**
 * The bridge to @ethereumjs: state managers over the chain's trie, the block context the EVM reads
 * (NUMBER, TIMESTAMP, COINBASE, BLOCKHASH, BASEFEE, ...), and the EVM side (runtime.ts), which
 * is loaded on first need: @ethereumjs/vm and /evm were most of the node's start-up time, and
 * reading state needs neither.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, type DB, ValueEncoding, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { EVM } from '@ethereumjs/evm';
import { REMASC_ADDRESS } from '../base/addresses.js';
import type { RskHeader } from '../records/header.js';
import type { EvmRuntime } from './runtime.js';
import { type BlockContext, type BlockLookup, type ExecutionContext, type VmBlock, LOCAL_CALL } from './context.js';
import { DirectPathTrie } from '../state/trie.js';
import { ChangeTrackingStateManager } from '../state/tracking-state-manager.js';
import { RemoteBackedStateManager } from '../state/remote-backed-state-manager.js';
import { TombstoneTrie } from '../state/tombstone-trie.js';
import type { RemoteStateSource } from '../fork/remote-state.js';
import type { NativeBtcChain } from '../native/types.js';
import { startFastKeccak } from '../base/hash.js';
import { Deadline } from '../evm/deadline.js';
import { Lru } from '../../util/lru.js';

/** rskj rpc.callGasCap: the most gas an eth_call may use (default of Execution.callGasCap, --call-gas-cap). */
export const CALL_GAS_CAP = 10_000_000n;
/** rskj rpc.timeout: the longest an eth_call, an eth_estimateGas or a trace may execute. */
export const EXECUTION_TIMEOUT_MS = 5_000;
/**
 * State readers kept per database, by state root: the head's root, the roots evm_revert goes back
 * to, a few older blocks read again. Eight covers a snapshot cycle's roots with room to spare;
 * each is a few hundred bytes plus the storage tries it opened.
 */
export const KEPT_STATE_READERS = 8;

const REMASC = new Address(REMASC_ADDRESS);

export class Execution implements ExecutionContext {
  /** eth_call's gas cap and the time limit of one request's eth_call, eth_estimateGas and traces (node flags). */
  callGasCap = CALL_GAS_CAP;
  timeoutMs = EXECUTION_TIMEOUT_MS;
  firstLocalBlock: bigint;
  private runtimeLoad?: Promise<EvmRuntime>;
  /** stateReader's readers, by database, then by state root (hex). */
  private readers = new WeakMap<DB<string, Uint8Array>, Lru<string, MerkleStateManager>>();

  /** The limit of the operator's own requests (operator keys, in-process); undefined: timeoutMs. */
  operatorTimeoutMs: number | undefined;

  /** The time limit of one request's executions (evm/deadline.ts); `operator`: a request with an operator key. */
  deadline(operator = false): Deadline {
    return new Deadline(operator ? (this.operatorTimeoutMs ?? this.timeoutMs) : this.timeoutMs);
  }

  constructor(
    readonly common: Common,
    /** Canonical blocks by number (native contracts, BLOCKHASH, and REMASC in block-builder.ts). */
    readonly blocks: BlockLookup,
    /** On a fork: the remote state read where the local trie has nothing (remote-backed-state-manager.ts). */
    private forkRemote?: RemoteStateSource,
  ) {
    this.firstLocalBlock = forkRemote === undefined ? 1n : forkRemote.forkBlock + 1n;
  }

  /** The network's Bitcoin chain, which the Bridge reads (native/bridge); set once the chain opened it. */
  private btcChain: NativeBtcChain | undefined;

  followBtc(btc: NativeBtcChain): void {
    this.btcChain = btc;
  }

  get remote(): RemoteStateSource | undefined {
    return this.forkRemote;
  }

  /** A fork moved to another remote block (Chain.refork): every state read from now on goes there. */
  refork(remote: RemoteStateSource): void {
    if (this.forkRemote === undefined) throw new Error('refork: not a fork');
    this.forkRemote = remote;
    this.firstLocalBlock = remote.forkBlock + 1n;
    // A kept reader reads the old remote where the local trie has nothing.
    this.readers = new WeakMap();
  }

  /** The EVM side, loaded and set up once for this chain on the first call. */
  runtime(): Promise<EvmRuntime> {
    if (this.runtimeLoad === undefined) {
      // Executing comes with hashing: the WebAssembly keccak gets ready alongside.
      void startFastKeccak();
      this.runtimeLoad = import('./runtime.js').then(({ EvmRuntime }) => new EvmRuntime(this.common, this.blocks, () => this.forkRemote, () => this.btcChain));
    }
    return this.runtimeLoad;
  }

  /**
   * A state manager positioned at `root`, reading and writing trie nodes through `db`; it records
   * what it writes (state/tracking-state-manager.ts), which the block builder hands on with the block.
   */
  stateManager(db: DB<string, Uint8Array>, root: Uint8Array): ChangeTrackingStateManager {
    const trie = this.trie(db, root);
    if (this.remote !== undefined) return new RemoteBackedStateManager({ common: this.common, trie, caches: new Caches() }, this.remote);
    return new ChangeTrackingStateManager({ common: this.common, trie, caches: new Caches() });
  }

  /**
   * A read-only state manager at `root` without ethereumjs's caches (whose set-up per instance
   * cost more than a read): the reader under a StateView, which is the cache. The same root over
   * the same database gets the same reader back (the state an evm_revert returns to, a block read
   * again): opening one (a trie and a state manager, with their debug loggers and a hash) cost
   * 50-100 µs, more than the reads it then makes. Sharing is safe: a root fixes every answer,
   * neither object keeps a node, and readers are only read through.
   */
  stateReader(db: DB<string, Uint8Array>, root: Uint8Array): MerkleStateManager {
    let kept = this.readers.get(db);
    if (kept === undefined) this.readers.set(db, (kept = new Lru(KEPT_STATE_READERS)));
    const key = bytesToHex(root);
    const reader = kept.get(key) ?? this.openStateReader(db, root);
    kept.set(key, reader);
    return reader;
  }

  private openStateReader(db: DB<string, Uint8Array>, root: Uint8Array): MerkleStateManager {
    const trie = this.trie(db, root);
    if (this.remote !== undefined) return new RemoteBackedStateManager({ common: this.common, trie }, this.remote);
    return new MerkleStateManager({ common: this.common, trie });
  }

  /** The state trie at `root` over `db` (keys hashed, as Ethereum's and rskj's state tries). */
  trie(db: DB<string, Uint8Array>, root: Uint8Array): DirectPathTrie {
    // A fork's deletes leave tombstones (tombstone-trie.ts).
    const Trie = this.remote === undefined ? DirectPathTrie : TombstoneTrie;
    return new Trie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root, common: this.common });
  }

  async vm(stateManager: StateManagerInterface): Promise<VM> {
    return (await this.runtime()).vm(stateManager);
  }

  async evm(stateManager: StateManagerInterface): Promise<EVM> {
    return (await this.runtime()).evm(stateManager);
  }

  /**
   * The execution view of an RSK block. Fees are credited to the REMASC contract (RSK pays miners
   * later through it), so the EVM's coinbase is the REMASC address. The COINBASE opcode
   * (opcodes.ts) reads the miner from `prevRandao`, which Petersburg never uses.
   * BASEFEE (RSKIP412) reads `baseFeePerGas`, which carries the block's minimumGasPrice;
   * Petersburg rules ignore it everywhere else.
   */
  /** The execution view of a stored or pending header (eth_call, tracing). */
  headerBlock(header: RskHeader, gasUsed: bigint, localCall: boolean): VmBlock {
    return this.contextBlock({
      number: header.number,
      timestamp: header.timestamp,
      difficulty: header.difficulty,
      gasLimit: header.gasLimit,
      minimumGasPrice: header.minimumGasPrice,
      miner: header.coinbase,
      gasUsed,
      localCall,
    });
  }

  contextBlock(ctx: BlockContext): VmBlock {
    return {
      common: this.common,
      [LOCAL_CALL]: ctx.localCall,
      header: {
        number: ctx.number,
        coinbase: REMASC,
        timestamp: ctx.timestamp,
        difficulty: ctx.difficulty,
        prevRandao: setLengthLeft(ctx.miner, 32),
        gasLimit: ctx.gasLimit,
        gasUsed: ctx.gasUsed,
        baseFeePerGas: ctx.minimumGasPrice,
        getBlobGasPrice: () => undefined,
      },
    } as unknown as VmBlock;
  }
}
