/**
 * The native contracts this node answers, and their plumbing into @ethereumjs/evm as custom
 * precompiles (rskj PrecompiledContracts.getContractForAddress).
 *
 * A precompile's input is only {data, gasLimit, common, _EVM}. What a native contract also needs:
 * - caller, value, depth, static flag, call type: the Message of the native frame. Each EVM built
 *   by EvmRuntime.evm() (exec/runtime.ts) gets one synchronous 'beforeMessage' listener (trackNativeFrames) that keeps
 *   the last message addressed to a native contract's address, the caller of the depth-0 message
 *   (tx.origin) and the static flag of the latest message at each depth (its parent's flag tells a
 *   STATICCALL from a CALL inside a static frame). Native contracts never call out, so no other
 *   message starts between that message's 'beforeMessage' and its precompile running. The listener
 *   does one array write and one byte comparison for an ordinary message and nothing per opcode;
 *   the EVM already fetches the listener list for every message.
 * - the executing block: the EVM's `_block` (what runTx/runCall were given, built by
 *   Execution.contextBlock; the COINBASE the natives see is the miner, carried in prevRandao).
 *   rskj gives natives a block with the executing block's number, timestamp, coinbase (miner),
 *   difficulty, gas limit and parent (Program.callToPrecompiledAddress).
 * - the chain's blocks: `NativeEnvironment.blockAt`, passed from the chain through Execution.
 * - the transaction being executed (rskj's `rskTx`, which the Bridge reads: its hash and signer):
 *   each VM built by EvmRuntime.vm() gets 'beforeTx'/'afterTx' listeners (trackExecutingTransactions)
 *   that keep it on its EVM's frame state; eth_call runs no transaction and leaves it unset.
 */
import { EVMError, type EVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { type LegacyTx } from '@ethereumjs/tx';
import { isImpersonatedTransaction } from '../pool/impersonation.js';
import type { RskBlock } from '../records/block.js';
import { LOCAL_CALL } from './types.js';
import type { CustomPrecompile, PrecompileFunc } from '../evm/types.js';
import { blockHeaderContract } from './block-header.js';
import { bridgeContract } from './bridge/index.js';
import { environmentContract } from './environment.js';
import { hdWalletUtilsContract } from './hd-wallet-utils.js';
import { remascContract } from './remasc/index.js';
import { secp256k1AddContract, secp256k1MulContract } from './secp256k1.js';
import type { ExecutingTx, ForkRemoteCalls, NativeBtcChain, NativeCall, NativeCallType, NativeContract, NativeExecResult, NativeResult } from './types.js';

/** The native contracts the node answers. The Bridge (…01000006) lives in ./bridge/, REMASC (…01000008) in ./remasc/. */
export const NATIVE_CONTRACTS: readonly NativeContract[] = [
  bridgeContract,
  remascContract,
  hdWalletUtilsContract,
  blockHeaderContract,
  environmentContract,
  secp256k1AddContract,
  secp256k1MulContract,
];

/** What the chain provides to native contracts. */
export interface NativeEnvironment {
  /** A canonical block by number. */
  blockAt(number: bigint): Promise<RskBlock | undefined>;
  /** On a fork: the remote, which the Bridge's read methods ask (read at each call: a fork can move). */
  remote?: () => ForkRemoteCalls | undefined;
  /** The network's Bitcoin chain, which the Bridge's BTC header chain follows. */
  btc?: () => NativeBtcChain | undefined;
}

/** The native frame's message, as @ethereumjs/evm's Message has it. */
interface FrameMessage {
  caller: Address;
  depth: number;
  value: bigint;
  isStatic: boolean;
  to?: Address;
  /** Set for DELEGATECALL/CALLCODE (the code runs in `to`'s context). */
  _codeAddress?: Address;
  /** Set for DELEGATECALL only. */
  delegatecall: boolean;
}

interface FrameState {
  /** The last message addressed to a native contract. */
  native?: FrameMessage;
  /** tx.origin: the caller of the depth-0 message. */
  origin?: Address;
  /** The static flag of the latest message at each depth: a frame's parent is the latest one a level up. */
  staticAt: boolean[];
  /** The transaction runTx is executing on this EVM, if any. */
  tx?: ExecutingTx;
}

/** The fields of the EVM's block header that native contracts read (Execution.contextBlock). */
interface ContextHeader {
  number: bigint;
  timestamp: bigint;
  difficulty: bigint;
  gasLimit: bigint;
  prevRandao: Uint8Array;
  baseFeePerGas?: bigint;
}

const frames = new WeakMap<object, FrameState>();
const EMPTY = new Uint8Array(0);

/** Native addresses are 0x00…0001 00 00 XX: the last byte set of the registered contracts. */
function nativeLastBytes(contracts: readonly NativeContract[]): Set<number> {
  const last = new Set<number>();
  for (const c of contracts) {
    const a = c.address;
    if (a.length !== 20 || a[16] !== 1 || a[17] !== 0 || a[18] !== 0 || a.subarray(0, 16).some((b) => b !== 0)) {
      throw new Error(`native contract ${c.name}: address outside 0x…0100 00xx`);
    }
    last.add(a[19]!);
  }
  return last;
}

/**
 * Records, on `evm`, what native contracts need of their frame. Call once per EVM that runs
 * `nativePrecompiles`.
 */
export function trackNativeFrames(evm: EVM, contracts: readonly NativeContract[] = NATIVE_CONTRACTS): void {
  const last = nativeLastBytes(contracts);
  const state: FrameState = { staticAt: [] };
  frames.set(evm, state);
  evm.events.on('beforeMessage', (message: FrameMessage) => {
    if (message.depth === 0) state.origin = message.caller;
    state.staticAt[message.depth] = message.isStatic;
    // A creation has neither `to` nor a code address (its getter throws then).
    const code = message._codeAddress ?? message.to;
    if (code === undefined) return;
    const b = code.bytes;
    if (b[16] === 1 && b[17] === 0 && b[18] === 0 && last.has(b[19]!) && isZeroPrefix(b)) state.native = message;
  });
}

/**
 * Records, on `vm`'s EVM (tracked by trackNativeFrames), the transaction runTx executes: its hash
 * and its signer's compressed public key (BridgeUtils.recoverBtcAddressFromEthTransaction reads
 * the key off the signature). Cleared after each transaction.
 */
export function trackExecutingTransactions(vm: VM): void {
  const state = frames.get(vm.evm);
  if (state === undefined) throw new Error('trackExecutingTransactions: the EVM of this VM does not track native frames');
  vm.events.on('beforeTx', (tx, resolve) => {
    state.tx = executingTx(tx as LegacyTx);
    resolve?.();
  });
  vm.events.on('afterTx', (_result, resolve) => {
    state.tx = undefined;
    resolve?.();
  });
}

/** Lazy: the hash and the key recovery are paid only by a native contract that reads them (the Bridge's peg-out). */
function executingTx(tx: LegacyTx): ExecutingTx {
  return {
    get hash() {
      return tx.hash();
    },
    get signerPublicKey() {
      if (isImpersonatedTransaction(tx, tx.getSenderAddress())) return undefined;
      return secp256k1.Point.fromBytes(concatBytes(Uint8Array.of(4), tx.getSenderPublicKey())).toBytes(true);
    },
  };
}

function isZeroPrefix(b: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if (b[i] !== 0) return false;
  return true;
}

/**
 * The opcode behind a message (@ethereumjs/evm's Interpreter.call/callCode/callStatic/
 * callDelegate): DELEGATECALL sets `delegatecall`, CALLCODE a code address, STATICCALL turns a
 * frame static whose parent was not. The outermost message is the transaction's CALL.
 */
function callTypeOf(message: FrameMessage, staticAt: readonly boolean[]): NativeCallType {
  if (message.delegatecall) return 'DELEGATECALL';
  if (message._codeAddress !== undefined) return 'CALLCODE';
  if (message.depth > 0 && message.isStatic && staticAt[message.depth - 1] !== true) return 'STATICCALL';
  return 'CALL';
}

function toExecResult(result: NativeResult, gasLimit: bigint): NativeExecResult {
  switch (result.error) {
    case undefined:
      return { returnValue: result.returnValue, executionGasUsed: result.gasUsed, logs: result.logs, nativeTransfers: result.transfers };
    case 'revert':
      return { returnValue: result.returnValue, executionGasUsed: result.gasUsed, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
    case 'out of gas':
      return { returnValue: EMPTY, executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
    default:
      // RSKIP197: the call fails, its price is charged, nothing is returned. The error is the one
      // the RSK precompiles use for a failure (evm/precompiles.ts).
      return {
        returnValue: EMPTY,
        executionGasUsed: result.gasUsed < gasLimit ? result.gasUsed : gasLimit,
        exceptionError: new EVMError(EVMError.errorMessages.INVALID_INPUT_LENGTH),
      };
  }
}

/** The `customPrecompiles` that put `contracts` at their addresses. */
export function nativePrecompiles(env: NativeEnvironment, contracts: readonly NativeContract[] = NATIVE_CONTRACTS): CustomPrecompile[] {
  const headerAt = async (n: bigint) => (await env.blockAt(n))?.header;
  return contracts.map((contract) => {
    const fn: PrecompileFunc = async (input) => {
      const evm = input._EVM as unknown as EVM & { _block?: { header: ContextHeader; [LOCAL_CALL]?: boolean } };
      const frame = frames.get(evm);
      const message = frame?.native;
      if (frame === undefined || message === undefined) {
        throw new Error(`native contract ${contract.name}: the EVM does not track native frames (trackNativeFrames)`);
      }
      const block = evm._block;
      if (block === undefined) throw new Error(`native contract ${contract.name}: no block context`);
      const header = block.header;
      const call: NativeCall = {
        data: input.data,
        gasLimit: input.gasLimit,
        caller: message.caller.bytes,
        origin: (frame.origin ?? message.caller).bytes,
        value: message.value,
        depth: message.depth,
        isStatic: message.isStatic,
        callType: callTypeOf(message, frame.staticAt),
        block: {
          number: header.number,
          timestamp: header.timestamp,
          coinbase: header.prevRandao.subarray(12),
          minimumGasPrice: header.baseFeePerGas ?? 0n,
          gasLimit: header.gasLimit,
          difficulty: header.difficulty,
        },
        headerAt,
        blockAt: (n) => env.blockAt(n),
        localCall: block[LOCAL_CALL] === true,
        state: evm.stateManager as MerkleStateManager,
        remote: env.remote?.(),
        btc: env.btc?.(),
        tx: frame.tx,
      };
      return toExecResult(await contract.call(call), input.gasLimit);
    };
    return { address: new Address(contract.address), function: fn };
  });
}
