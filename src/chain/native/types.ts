/**
 * RSK's native contracts (rskj `co.rsk.pcc` and `co.rsk.peg`): contracts whose code is the node
 * itself, at fixed addresses (Bridge 0x…01000006, REMASC 0x…01000008, HDWalletUtils 0x…01000009,
 * BlockHeader 0x…01000010, Environment 0x…01000011, secp256k1 add/mul 0x…01000016/17). Each one is
 * a `NativeContract`; `registry.ts` turns them into the EVM's custom precompiles.
 */
import type { ExecResult } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { RskBlock } from '../records/block.js';
import type { RskHeader } from '../records/header.js';
import type { RemoteCallAnswer } from '../fork/remote-state.js';
import type { BtcBlock } from '../btc-chain/block.js';

/** The network's Bitcoin regtest chain as native contracts read it (btc-chain/BtcChain has it). */
export interface NativeBtcChain {
  readonly tip: BtcBlock;
  blockAt(height: number): BtcBlock | undefined;
  blockByHash(hash: Uint8Array): BtcBlock | undefined;
}

/**
 * On a fork, what native contracts ask the remote node (fork/remote-state.ts): the Bridge's read
 * methods, answered as the remote answers them at the fork block (or at the executing block when
 * it is below the fork block).
 */
export interface ForkRemoteCalls {
  readonly forkBlock: bigint;
  callAt(block: bigint, to: Uint8Array, data: Uint8Array): Promise<RemoteCallAnswer>;
}

/**
 * The opcode that reached a native contract (rskj MessageCall.MsgType, which rskj hands to the
 * Bridge); a transaction's (or eth_call's) own call is CALL.
 */
export type NativeCallType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL';

/** What a native contract sees of the call that reached it. */
/** Marks a context block built for eth_call/eth_estimateGas (rskj's "local call"). */
export const LOCAL_CALL = Symbol('rsk-devnode.localCall');

export interface NativeCall {
  /** ABI-encoded call data (selector first). */
  data: Uint8Array;
  gasLimit: bigint;
  /** msg.sender: the account that called the native contract. */
  caller: Uint8Array;
  /** tx.origin: the account that sent the transaction (or the eth_call's from). */
  origin: Uint8Array;
  value: bigint;
  /** Call depth of the native contract's frame (0 when a transaction calls it directly). */
  depth: number;
  /**
   * rskj `Transaction.isLocalCallTransaction()`: true when the whole execution is an eth_call or
   * eth_estimateGas (rskj propagates it to every nested call), false for a mined transaction.
   * The Bridge's "local call only" methods refuse non-local calls.
   */
  localCall: boolean;
  /** STATICCALL context: no state changes allowed. */
  isStatic: boolean;
  /**
   * How the call was made. Not the same as `isStatic`: a CALL made inside a STATICCALL frame is a
   * CALL in a static context. The Bridge accepts some methods only for some types (RSKIP417).
   */
  callType: NativeCallType;
  /** The block being executed (mined, pending or the target of eth_call). */
  block: { number: bigint; timestamp: bigint; coinbase: Uint8Array; minimumGasPrice: bigint; gasLimit: bigint; difficulty: bigint };
  /** Headers of blocks the node keeps, by number (BlockHeader reads the chain by depth). */
  headerAt(number: bigint): Promise<RskHeader | undefined>;
  /**
   * Blocks the node keeps, by number (hash and total difficulty along with the header). Always set
   * by the registry; optional so that direct callers (unit tests) need not provide it.
   */
  blockAt?(number: bigint): Promise<RskBlock | undefined>;
  /** The executing state (a native contract with storage reads and writes its own account here). */
  state: MerkleStateManager;
  /** Set on a fork: the remote node the chain continues. */
  remote?: ForkRemoteCalls;
  /**
   * The network's Bitcoin chain, which the Bridge's BTC header chain follows. Always set by the
   * registry; optional so that direct callers (unit tests) need not provide it.
   */
  btc?: NativeBtcChain;
  /**
   * The transaction being executed (rskj's `rskTx`): its hash and the public key its signature
   * recovers to (compressed, 33 bytes; undefined for an impersonated sender, which no key signed).
   * Undefined in eth_call / eth_estimateGas, which run no transaction.
   */
  tx?: ExecutingTx;
}

/** What a native contract sees of the transaction being executed. */
export interface ExecutingTx {
  readonly hash: Uint8Array;
  readonly signerPublicKey: Uint8Array | undefined;
}

export interface NativeResult {
  returnValue: Uint8Array;
  gasUsed: bigint;
  /**
   * Set when the call fails: 'revert' keeps returnValue as revert data and charges gasUsed;
   * 'out of gas' burns all the gas given; 'failure' (rskj: an exception inside the native method)
   * returns nothing and charges gasUsed only, as rskj does after RSKIP197
   * (Program.executePrecompiledAndHandleError refunds `gas - requiredGas`).
   */
  error?: 'revert' | 'out of gas' | 'failure';
  /** Why the call failed (rskj's exception message), for logs and traces; never returned on chain. */
  message?: string;
  /** Logs the call emits (rskj's Bridge events): [address, topics, data], kept only on success. */
  logs?: [address: Uint8Array, topics: Uint8Array[], data: Uint8Array][];
  /** Value the contract itself sent, kept only on success (rskj's ProgramSubtraces of a precompile). */
  transfers?: NativeTransfer[];
}

/** The ExecResult of a native call that sent value itself: tracing/recorder.ts renders the transfers as internal CALLs. */
export type NativeExecResult = ExecResult & { nativeTransfers?: NativeTransfer[] };

/** A transfer by a native contract from its own account: an internal CALL (gas 0, no data) in traces. */
export interface NativeTransfer {
  to: Uint8Array;
  value: bigint;
}

export interface NativeContract {
  /** 20-byte address. */
  address: Uint8Array;
  name: string;
  call(call: NativeCall): Promise<NativeResult>;
}
