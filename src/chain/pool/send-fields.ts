/** eth_sendTransaction's defaults and the checks of fields a transaction cannot hold. */
import type { Address } from '@ethereumjs/util';
import { ChainError } from '../base/errors.js';
import { MAX_INITCODE_SIZE } from './validation.js';

/** rskj's eth_sendTransaction default gas. */
export const SEND_TRANSACTION_DEFAULT_GAS = 90_000n;
/** EIP-2681: a nonce of 2^64-1 can never be used, so an account nonce stays below it. */
export const MAX_NONCE = 2n ** 64n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * eth_sendTransaction fields the transaction cannot hold, refused with the pool's messages where
 * rskj has one, before ethereumjs would throw a bare range error.
 */
export function checkSendFields(fields: { nonce: bigint; gasLimit: bigint; gasPrice: bigint; to?: Address; data: Uint8Array }, blockGasLimit: bigint): void {
  if (fields.nonce >= MAX_NONCE) throw new ChainError('invalidArgument', `nonce ${fields.nonce} is out of range: a transaction nonce must be below 2^64-1 (EIP-2681)`);
  if (fields.to === undefined && fields.data.length > MAX_INITCODE_SIZE) throw new ChainError('txRejected', "transaction's init code size is invalid");
  if (fields.gasLimit > blockGasLimit) {
    throw new ChainError('txRejected', `transaction's gas limit of ${fields.gasLimit} is higher than the block's gas limit of ${blockGasLimit}`);
  }
  if (fields.gasLimit * fields.gasPrice > MAX_UINT256) throw new ChainError('txRejected', 'insufficient funds');
}
