/** The one place where chain and execution errors become JSON-RPC errors. */
import { bytesToHex } from '@ethereumjs/util';
import { errorString, ChainError, ExecutionReverted, SentTransactionFailed } from '../chain/index.js';
import { ErrorCode, InternalError, RevertError, RpcError } from './errors.js';
import { hardhatSendError } from './hardhat-revert.js';

/** rskj's revert text: "revert <reason>" for Error(string), else "transaction reverted". */
export function revertError(returnData: Uint8Array): RevertError {
  const reason = errorString(returnData);
  return new RevertError(reason === undefined ? 'transaction reverted' : `revert ${reason}`, bytesToHex(returnData));
}

const CODE_BY_KIND: Record<ChainError['kind'], number> = {
  txRejected: ErrorCode.TransactionRejected,
  invalidTransaction: ErrorCode.InvalidParams,
  blockNotFound: ErrorCode.InvalidRequest,
  unknownAccount: ErrorCode.InvalidParams,
  invalidArgument: ErrorCode.InvalidParams,
  limitExceeded: ErrorCode.ResourceLimit,
  filterNotFound: ErrorCode.Server,
  notMined: ErrorCode.NotMined,
  blockAborted: ErrorCode.Internal,
  timeout: ErrorCode.RpcLimit,
  remoteFailed: ErrorCode.Server,
};

export function mapError(err: unknown, onUnexpected: (err: unknown) => void): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof ChainError) return new RpcError(CODE_BY_KIND[err.kind], err.message);
  if (err instanceof ExecutionReverted) return revertError(err.returnData);
  if (err instanceof SentTransactionFailed) return hardhatSendError(err);
  onUnexpected(err);
  return new InternalError();
}
