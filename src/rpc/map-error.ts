/** The one place where chain and execution errors become JSON-RPC errors. */
import { bytesToHex, bytesToUtf8 } from '@ethereumjs/util';
import { ChainError, ExecutionReverted } from '../chain/errors.js';
import { ErrorCode, InternalError, RevertError, RpcError } from './errors.js';

const ERROR_STRING_SELECTOR = '0x08c379a0';

/** rskj's revert text: "revert <reason>" for Error(string), else "transaction reverted". */
export function revertError(returnData: Uint8Array): RevertError {
  return new RevertError(revertReason(returnData), bytesToHex(returnData));
}

function revertReason(data: Uint8Array): string {
  if (data.length >= 68 && bytesToHex(data.subarray(0, 4)) === ERROR_STRING_SELECTOR) {
    try {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const length = Number(view.getBigUint64(4 + 32 + 24));
      const start = 4 + 64;
      if (start + length <= data.length) return `revert ${bytesToUtf8(data.subarray(start, start + length))}`;
    } catch {
      // fall through: malformed Error(string) payloads are reported without a reason
    }
  }
  return 'transaction reverted';
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
};

export function mapError(err: unknown, onUnexpected: (err: unknown) => void): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof ChainError) return new RpcError(CODE_BY_KIND[err.kind], err.message);
  if (err instanceof ExecutionReverted) return revertError(err.returnData);
  onUnexpected(err);
  return new InternalError();
}
