/**
 * The bridge to @ethereumjs/vm: state managers over the chain's trie, VMs with RSK's opcodes, and
 * the block context the EVM reads (NUMBER, TIMESTAMP, COINBASE, BLOCKHASH, BASEFEE, ...).
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { createEVM, paramsEVM } from '@ethereumjs/evm';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, type DB, ValueEncoding, setLengthLeft } from '@ethereumjs/util';
import { type RunTxOpts, type VM, createVM } from '@ethereumjs/vm';
import { REMASC_ADDRESS } from './addresses.js';
import type { RskHeader } from './header.js';
import { rskCallOpcodes } from './evm/call-gas.js';
import { EXECUTION_TIMEOUT_MS, deadlineOpcodes } from './evm/deadline.js';
import { CALL_GAS_CAP } from './call.js';
import { rskPrecompiles } from './evm/precompiles.js';
import type { CustomOpcode, CustomPrecompile } from './evm/types.js';
import type { RskBlock } from './block.js';
import { LOCAL_CALL, NATIVE_CONTRACTS, nativePrecompiles, trackNativeFrames } from './native/registry.js';
import { RSK_CUSTOM_OPCODES } from './opcodes.js';

export interface BlockContext {
  number: bigint;
  timestamp: bigint;
  difficulty: bigint;
  gasLimit: bigint;
  minimumGasPrice: bigint;
  /** The block's miner (its `coinbase` header field), what the COINBASE opcode pushes. */
  miner: Uint8Array;
  /** Gas used by the block's earlier transactions (receipts' cumulative gas). */
  gasUsed: bigint;
  /**
   * True for eth_call/eth_estimateGas, false for a mined (or replayed) transaction: rskj's "local
   * call" (Transaction.isLocalCallTransaction), which some Bridge methods require. Native contracts
   * see it as NativeCall.localCall.
   */
  localCall: boolean;
}

/**
 * A canonical block by number: BLOCKHASH reads its hash, the native contracts (BlockHeader, ...)
 * the whole block.
 */
export type BlockLookup = (number: bigint) => Promise<RskBlock | undefined>;

/** The block type runTx/runCall take; we hand them a plain object with the fields they read. */
type VmBlock = NonNullable<RunTxOpts['block']>;

const REMASC = new Address(REMASC_ADDRESS);
const ZERO_HASH = new Uint8Array(32);

export class Execution {
  /** RSK's opcodes (opcodes.ts) and call-gas rules (evm/call-gas.ts), built once for the Common. */
  private readonly customOpcodes: CustomOpcode[];
  /**
   * RSK's precompiles where they differ from ethereumjs's Petersburg set (evm/precompiles.ts), and
   * RSK's native contracts (native/registry.ts).
   */
  private readonly customPrecompiles: CustomPrecompile[];
  /** eth_call's gas cap and the time limit of eth_call, eth_estimateGas and tracing (node flags). */
  callGasCap = CALL_GAS_CAP;
  timeoutMs = EXECUTION_TIMEOUT_MS;

  constructor(
    readonly common: Common,
    /** Canonical blocks by number (native contracts, BLOCKHASH, and REMASC in block-builder.ts). */
    readonly blocks: BlockLookup,
  ) {
    // The EVM's gas parameters, which createEVM would load into the Common anyway; the custom
    // opcodes read them once here, before any EVM exists.
    common.updateParams(paramsEVM);
    this.customOpcodes = [...RSK_CUSTOM_OPCODES, ...rskCallOpcodes(common), ...deadlineOpcodes(common)];
    this.customPrecompiles = [...rskPrecompiles(common), ...nativePrecompiles({ blockAt: blocks }, NATIVE_CONTRACTS)];
  }

  /** A state manager positioned at `root`, reading and writing trie nodes through `db`. */
  stateManager(db: DB<string, Uint8Array>, root: Uint8Array): MerkleStateManager {
    const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root, common: this.common });
    return new MerkleStateManager({ common: this.common, trie, caches: new Caches() });
  }

  /**
   * A read-only state manager at `root` without ethereumjs's caches (whose set-up per instance
   * cost more than a read): the reader under a StateView, which is the cache.
   */
  stateReader(db: DB<string, Uint8Array>, root: Uint8Array): MerkleStateManager {
    const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root, common: this.common });
    return new MerkleStateManager({ common: this.common, trie });
  }

  async vm(stateManager: StateManagerInterface): Promise<VM> {
    const blockchain = this.blockchainShim();
    const evm = await createEVM({
      common: this.common,
      stateManager,
      blockchain,
      customOpcodes: this.customOpcodes,
      customPrecompiles: this.customPrecompiles,
    });
    // Each EVM subscribes to its Common's 'hardforkChanged', which would keep every EVM we ever
    // made alive through the shared Common (a leak found over 10,000 snapshot/revert cycles). Our
    // hardfork never changes, so nothing needs the subscription.
    this.common.events.removeAllListeners('hardforkChanged');
    trackNativeFrames(evm, NATIVE_CONTRACTS);
    return createVM({ common: this.common, stateManager, blockchain, evm });
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

  private blockchainShim() {
    const lookup = this.blocks;
    const shim = {
      async getBlock(number: number) {
        const hash = (await lookup(BigInt(number)))?.hash ?? ZERO_HASH;
        return { hash: () => hash };
      },
      async putBlock() {},
      shallowCopy: () => shim,
    };
    return shim;
  }
}
