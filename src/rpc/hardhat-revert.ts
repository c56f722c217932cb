/**
 * The error HardhatNetwork answers a send with when its automined transaction fails (Hardhat 2,
 * hardhat-network/jsonrpc/handler.ts and stack-traces/solidity-errors.ts): code -32603, the message
 * "Error: VM Exception while processing transaction: ..." worded from the return data, and
 * `data: { message, txHash, data }` with the return data, which hardhat-chai-matchers decodes.
 */
import { bytesToHex } from '@ethereumjs/util';
import { errorString, panicCode, type SentTransactionFailed } from '../chain/index.js';
import { ErrorCode, RpcError } from './errors.js';

const VM_EXCEPTION = 'VM Exception while processing transaction';

/** Hardhat's panic reasons (stack-traces/panic-errors.ts), worded as it words them. */
const PANIC_REASONS: Record<number, string> = {
  0x01: 'Assertion error',
  0x11: 'Arithmetic operation overflowed outside of an unchecked block',
  0x12: 'Division or modulo division by zero',
  0x21: 'Tried to convert a value into an enum, but the value was too big or negative',
  0x22: 'Incorrectly encoded storage byte array',
  0x31: '.pop() was called on an empty array',
  0x32: 'Array accessed at an out-of-bounds or negative index',
  0x41: 'Too much memory was allocated, or an array was created that is too large',
  0x51: 'Called a zero-initialized variable of internal function type',
};

/** Hardhat's wording of a failed transaction (its message for a contract it has no sources of). */
export function hardhatFailureMessage(vmError: string | undefined, returnData: Uint8Array): string {
  if (vmError !== 'revert') return vmError === 'out of gas' ? 'Transaction ran out of gas' : "Transaction reverted and Hardhat couldn't infer the reason.";
  const reason = errorString(returnData);
  if (reason !== undefined) return `${VM_EXCEPTION}: reverted with reason string '${reason}'`;
  const code = panicCode(returnData);
  if (code !== undefined) {
    const hex = `0x${code.toString(16)}`;
    const meaning = PANIC_REASONS[code];
    return `${VM_EXCEPTION}: ${meaning === undefined ? `reverted with unknown panic code ${hex}` : `reverted with panic code ${hex} (${meaning})`}`;
  }
  if (returnData.length > 0) return `${VM_EXCEPTION}: reverted with an unrecognized custom error (return data: ${bytesToHex(returnData)})`;
  return 'Transaction reverted without a reason string';
}

/** The JSON-RPC error: Hardhat's handler wraps the message as an internal error, hence "Error: " and -32603. */
export function hardhatSendError(err: SentTransactionFailed): RpcError {
  const message = `Error: ${hardhatFailureMessage(err.vmError, err.returnData)}`;
  return new RpcError(ErrorCode.Internal, message, { message, txHash: bytesToHex(err.transactionHash), data: bytesToHex(err.returnData) });
}
