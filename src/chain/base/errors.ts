/**
 * Domain errors raised by the chain. They carry no JSON-RPC codes: src/rpc/map-error.ts maps each
 * kind to its wire form.
 */
export type ChainErrorKind =
  /** The pool refused a transaction (rskj's validator texts, reference section 7). */
  | 'txRejected'
  /** The transaction bytes or fields are malformed (bad RLP, typed envelope, wrong chain id, bad signature). */
  | 'invalidTransaction'
  /** A block named by number or hash does not exist. */
  | 'blockNotFound'
  /** An account the node must sign for is not one of its keys. */
  | 'unknownAccount'
  /** A test-control argument the chain cannot honour (e.g. a timestamp in the past). */
  | 'invalidArgument'
  /** A query past the node's limits (eth_getLogs caps). */
  | 'limitExceeded'
  /** rskj's "filter not found": an unknown, expired or uninstalled filter id. */
  | 'filterNotFound'
  /** Automine accepted a transaction but the block could not include it (rskj -32009). */
  | 'notMined'
  /** Building a block failed inside execution; nothing was committed. */
  | 'blockAborted'
  /** A read-only execution (eth_call, eth_estimateGas, a trace) ran past its time limit (evm/deadline.ts). */
  | 'timeout'
  /** A fork's read of the remote failed (refused, unreachable after the retries, not cached offline). */
  | 'remoteFailed';

export class ChainError extends Error {
  constructor(
    readonly kind: ChainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

/** Execution ended in REVERT: `returnData` is the revert payload (Error(string), custom error, or empty). */
export class ExecutionReverted extends Error {
  constructor(readonly returnData: Uint8Array) {
    super('execution reverted');
    this.name = 'ExecutionReverted';
  }
}

/**
 * A sent transaction was mined and failed, on a chain that answers the send with the failure
 * (the Hardhat profile: HardhatNetwork answers eth_sendTransaction / eth_sendRawTransaction so
 * under automine). The transaction stays mined; `returnData` is what a REVERT returned.
 */
export class SentTransactionFailed extends Error {
  constructor(
    readonly transactionHash: Uint8Array,
    readonly vmError: string | undefined,
    readonly returnData: Uint8Array,
  ) {
    super(`transaction failed: ${vmError ?? 'unknown error'}`);
    this.name = 'SentTransactionFailed';
  }
}
