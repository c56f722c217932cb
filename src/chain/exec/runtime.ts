/**
 * Everything of the chain that needs @ethereumjs/vm or /evm, loaded by Execution.runtime() on first
 * need (a block build, a call, an estimate or a trace) rather than at start-up. A server starts
 * loading it in the background once it has answered (server/warm-up.ts), so the first transaction
 * does not wait for it either.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { type EVM, NobleBN254, paramsEVM } from '@ethereumjs/evm';
import { type VM, createVM } from '@ethereumjs/vm';
import { buildBlock } from './block-builder.js';
import { estimateGas, runCall } from './call.js';
import { rskCallOpcodes } from '../evm/call-gas.js';
import { LeanEVM } from '../evm/lean-evm.js';
import { mloadOpcode, mstoreOpcode } from '../evm/mstore.js';
import { calldataloadOpcode, keccak256Opcode } from '../evm/word-opcodes.js';
import { sloadOpcode } from '../evm/sload.js';
import { rskPrecompiles } from '../evm/precompiles.js';
import type { CustomOpcode, CustomPrecompile } from '../evm/types.js';
import type { BlockLookup } from './context.js';
import { observeConsoleCalls } from '../console/observer.js';
import { NATIVE_CONTRACTS, nativePrecompiles, trackExecutingTransactions, trackNativeFrames } from '../native/registry.js';
import type { ForkRemoteCalls, NativeBtcChain } from '../native/types.js';
import { RSK_CUSTOM_OPCODES } from '../evm/opcodes.js';

const ZERO_HASH = new Uint8Array(32);

export class EvmRuntime {
  readonly buildBlock = buildBlock;
  readonly runCall = runCall;
  readonly estimateGas = estimateGas;
  /**
   * RSK's opcodes (opcodes.ts) and call-gas rules (evm/call-gas.ts) and a cheaper MSTORE
   * (evm/mstore.ts), built once for the Common.
   */
  private readonly customOpcodes: CustomOpcode[];
  /**
   * RSK's precompiles where they differ from ethereumjs's Petersburg set (evm/precompiles.ts), and
   * RSK's native contracts (native/registry.ts).
   */
  private readonly customPrecompiles: CustomPrecompile[];

  constructor(
    private readonly common: Common,
    private readonly blocks: BlockLookup,
    /** On a fork: the remote, for the Bridge's read methods (native/bridge/index.ts); it changes on a re-fork. */
    remote: () => ForkRemoteCalls | undefined = () => undefined,
    /** The network's Bitcoin chain, which the Bridge's BTC header chain follows. */
    btc: () => NativeBtcChain | undefined = () => undefined,
  ) {
    // The EVM's gas parameters, which createEVM would load into the Common anyway; the custom
    // opcodes read them once here, before any EVM exists.
    common.updateParams(paramsEVM);
    this.customOpcodes = [...RSK_CUSTOM_OPCODES, ...rskCallOpcodes(common), mloadOpcode(common), mstoreOpcode(common), calldataloadOpcode(common), keccak256Opcode(common), sloadOpcode(common)];
    this.customPrecompiles = [...rskPrecompiles(common), ...nativePrecompiles({ blockAt: blocks, remote, btc }, NATIVE_CONTRACTS)];
  }

  async vm(stateManager: StateManagerInterface): Promise<VM> {
    const blockchain = this.blockchainShim();
    const vm = await createVM({ common: this.common, stateManager, blockchain, evm: this.evm(stateManager, blockchain) });
    trackExecutingTransactions(vm);
    return vm;
  }

  /** An EVM alone, for executions without a transaction (call-runner.ts keeps a few per chain). */
  evm(stateManager: StateManagerInterface, blockchain = this.blockchainShim()): EVM {
    // What createEVM does, with our subclass (evm/lean-evm.ts: cheaper frames).
    const evm = new LeanEVM({
      common: this.common,
      stateManager,
      blockchain,
      bn254: new NobleBN254(),
      customOpcodes: this.customOpcodes,
      customPrecompiles: this.customPrecompiles,
    });
    // Each EVM subscribes to its Common's 'hardforkChanged', which would keep every EVM we ever
    // made alive through the shared Common (a leak found over 10,000 snapshot/revert cycles). Our
    // hardfork never changes, so nothing needs the subscription.
    this.common.events.removeAllListeners('hardforkChanged');
    trackNativeFrames(evm, NATIVE_CONTRACTS);
    observeConsoleCalls(evm);
    return evm;
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
