/**
 * Transactions sent as an impersonated account (hardhat_/anvil_impersonateAccount): no key signs
 * them, so they carry a placeholder signature (unique per sender and nonce, so hashes differ) and
 * report the impersonated sender, as Hardhat does.
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
    { ...fields, v: common.chainId() * 2n + 35n, r: bytesToBigInt(sender.bytes) + 1n, s: fields.nonce + 1n },
    { ...rskTxOptions(common), freeze: false },
  );
  tx.getSenderAddress = () => sender;
  return tx;
}
