/**
 * Transactions sent as an impersonated account (hardhat_/anvil_impersonateAccount): no key signs
 * them, so they carry a placeholder signature (unique per sender and nonce, so hashes differ) and
 * report the impersonated sender, as Hardhat does.
 *
 * An impersonated account may have code (OpenZeppelin's tests impersonate an AccessManager or a
 * ProxyAdmin). ethereumjs' runTx refuses every sender with code (EIP-3607); Hardhat and anvil let
 * impersonated senders through, and so does runTxAs (impersonated-run.ts, on the EVM side that
 * loads on first need). Signed transactions keep EIP-3607.
 */
import type { Common } from '@ethereumjs/common';
import { type LegacyTx, createLegacyTx } from '@ethereumjs/tx';
import { type Address, bytesToBigInt } from '@ethereumjs/util';
import { rskTxOptions } from '../evm/rsk-common.js';

export interface UnsignedFields {
  nonce: bigint;
  gasPrice: bigint;
  gasLimit: bigint;
  to?: Address;
  value: bigint;
  data: Uint8Array;
}

export function impersonatedTransaction(fields: UnsignedFields, sender: Address, common: Common): LegacyTx {
  const tx = createLegacyTx(
    { ...fields, v: common.chainId() * 2n + 35n, r: placeholderR(sender), s: fields.nonce + 1n },
    { ...rskTxOptions(common), freeze: false },
  );
  tx.getSenderAddress = () => sender;
  return tx;
}

function placeholderR(sender: Address): bigint {
  return bytesToBigInt(sender.bytes) + 1n;
}

/**
 * Whether `tx` from `sender` carries the placeholder signature above. A real signature cannot: its
 * r would have to be the address it recovers to plus one. Works on transactions rebuilt from
 * their bytes (a snapshot's pool, a traced block), which lose any mark an object could carry.
 */
export function isImpersonatedTransaction(tx: LegacyTx, sender: Address): boolean {
  return tx.r === placeholderR(sender) && tx.s === tx.nonce + 1n;
}
