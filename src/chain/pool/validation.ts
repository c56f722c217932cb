/**
 * rskj's transaction pool checks (TxPendingValidator and TransactionPoolImpl, reference 7), in
 * rskj's order and with its messages. Checked against the best block, as rskj does.
 */
import type { LegacyTx } from '@ethereumjs/tx';
import { ChainError } from '../base/errors.js';
import type { Mempool, PoolTx } from './mempool.js';

/** rskj transaction.accountSlots: a sender may run at most this far ahead of its state nonce. */
export const ACCOUNT_SLOTS = 16n;
/** rskj transaction.gasPriceBump: a replacement must pay at least 40% more. */
export const GAS_PRICE_BUMP_PERCENT = 40n;
/** rskj's maximum transaction size in bytes. */
export const MAX_TRANSACTION_SIZE = 131_072;
/** EIP-3860 / RSKIP438 initcode limit. */
export const MAX_INITCODE_SIZE = 49_152;
/** RSKIP252: a gas price above this multiple of the minimum is refused (when the minimum is > 0). */
export const GAS_PRICE_CAP_MULTIPLIER = 80n;

export interface ValidationState {
  blockGasLimit: bigint;
  minimumGasPrice: bigint;
  /** Sender's account at the best block; undefined when it does not exist. */
  account: { nonce: bigint; balance: bigint } | undefined;
}

const reject = (message: string) => new ChainError('txRejected', message);

/** Returns the pool entry the transaction replaces, if any; throws rskj's message when refused. */
export function validatePoolTransaction(tx: LegacyTx, raw: Uint8Array, sender: string, pool: Mempool, state: ValidationState): PoolTx | undefined {
  const existing = pool.get(tx.hash());
  if (existing !== undefined) throw reject('pending transaction with same hash already exists');
  if (state.account === undefined) throw reject("the sender account doesn't exist");
  if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) throw reject("transaction's init code size is invalid");
  if (raw.length > MAX_TRANSACTION_SIZE) {
    throw reject(`transaction's size is higher than defined maximum: ${raw.length} > ${MAX_TRANSACTION_SIZE}`);
  }
  if (tx.gasLimit > state.blockGasLimit) {
    throw reject(`transaction's gas limit of ${tx.gasLimit} is higher than the block's gas limit of ${state.blockGasLimit}`);
  }
  const { nonce, balance } = state.account;
  if (tx.nonce < nonce) throw reject('transaction nonce too low');
  if (tx.nonce >= nonce + ACCOUNT_SLOTS) throw reject('transaction nonce too high');
  if (balance < tx.gasLimit * tx.gasPrice + tx.value) throw reject('insufficient funds');
  if (tx.gasPrice < state.minimumGasPrice) throw reject("transaction's gas price lower than block's minimum");
  if (tx.getIntrinsicGas() > tx.gasLimit) throw reject("transaction's basic cost is above the gas limit");
  if (state.minimumGasPrice > 0n && tx.gasPrice > state.minimumGasPrice * GAS_PRICE_CAP_MULTIPLIER) {
    throw reject("transaction's gas price exceeds cap");
  }
  const replaced = pool.sameNonce(sender, tx.nonce);
  if (replaced !== undefined) {
    const old = replaced.record.gasPrice;
    if (tx.gasPrice <= old || tx.gasPrice * 100n < old * (100n + GAS_PRICE_BUMP_PERCENT)) {
      throw reject('gas price not enough to bump transaction');
    }
  }
  let committed = tx.gasLimit * tx.gasPrice + tx.value;
  for (const entry of pool.forSender(sender)) {
    if (entry !== replaced) committed += entry.record.gasLimit * entry.record.gasPrice + entry.record.value;
  }
  if (committed > balance) throw reject('insufficient funds to pay for pending and new transactions');
  return replaced;
}
