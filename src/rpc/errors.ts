/**
 * Typed JSON-RPC errors. Every error that leaves the RPC layer is one of these; codes follow
 * rskj where it has one (reference section 11) and JSON-RPC 2.0 otherwise.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  /** rskj: "filter not found" and other generic server errors. */
  Server: -32000,
  /** rskj autoMine: "transaction wasn't mined". */
  NotMined: -32009,
  /** rskj: transaction rejected by the pool validators (reference section 7). */
  TransactionRejected: -32010,
  /** Quota exceeded and log query caps (the service names -32005 for both). */
  ResourceLimit: -32005,
  /** rskj RPC_LIMIT_ERROR: execution timeout ("Execution has got timeout out."), response too large. */
  RpcLimit: -32011,
  /** rskj: a REVERT in eth_call / eth_estimateGas. */
  Revert: -32015,
} as const;

export class ParseError extends RpcError {
  constructor(message = 'Parse error: the request body is not valid JSON') {
    super(ErrorCode.ParseError, message);
  }
}

export class InvalidRequest extends RpcError {
  constructor(message: string) {
    super(ErrorCode.InvalidRequest, message);
  }
}

/** Longest method name an error message repeats. */
const MAX_NAME_SHOWN = 80;

export class MethodNotFound extends RpcError {
  /** rskj answers unknown names with "method not found"; we add the name, cut (a 1 MB name must not come back whole). */
  constructor(method: string, message = `method not found: ${method.length > MAX_NAME_SHOWN ? `${method.slice(0, MAX_NAME_SHOWN)}...` : method}`) {
    super(ErrorCode.MethodNotFound, message);
  }
}

export class InvalidParams extends RpcError {
  constructor(message: string) {
    super(ErrorCode.InvalidParams, message);
  }
}

export class InternalError extends RpcError {
  constructor(message = 'Internal server error') {
    super(ErrorCode.Internal, message);
  }
}


export class RevertError extends RpcError {
  /** `data` is the hex revert payload so that ethers/viem can decode custom errors. */
  constructor(message: string, data: string) {
    super(ErrorCode.Revert, `VM Exception while processing transaction: ${message}`, data);
  }
}

/** JSON-RPC errors sent with HTTP 400 by rskj (Web3HttpStatusCodeProvider); all else is 200. */
export function httpStatusFor(code: number): number {
  return code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest || code === ErrorCode.InvalidParams
    ? 400
    : 200;
}
