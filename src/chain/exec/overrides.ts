/**
 * State and block overrides of a read-only execution (debug_traceCall; the shape eth_call takes
 * in geth and in rskj's EthModule). State overrides are written into the execution's own state
 * manager (call-runner.ts's CallState, whose writes are dropped after the run), so they are seen
 * by that execution only; block overrides change the block environment the EVM reads. The rules
 * are rskj's DefaultStateOverrideApplier: `state` replaces an account's whole storage, `stateDiff`
 * changes the slots named, both at once is refused, and a precompiled contract cannot be overridden.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { Account, type Address } from '@ethereumjs/util';
import { ChainError } from '../base/errors.js';
import type { RskHeader } from '../records/header.js';

export interface AccountOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** Slot (32 bytes) → value (32 bytes): the account's whole storage. */
  state?: Array<[Uint8Array, Uint8Array]>;
  /** Slot (32 bytes) → value (32 bytes): only these slots change. */
  stateDiff?: Array<[Uint8Array, Uint8Array]>;
}

export type StateOverrides = Array<{ address: Address; account: AccountOverride }>;

/** geth's BlockOverrides, the fields an RSK block has. */
export interface BlockOverrides {
  number?: bigint;
  timestamp?: bigint;
  gasLimit?: bigint;
  coinbase?: Uint8Array;
  difficulty?: bigint;
  /** What BASEFEE pushes on RSK: the block's minimum gas price. */
  minimumGasPrice?: bigint;
}

export async function applyStateOverrides(state: StateManagerInterface, evm: EVM, overrides: StateOverrides): Promise<void> {
  for (const { address, account: override } of overrides) {
    if (evm.getPrecompile(address) !== undefined) throw new ChainError('invalidArgument', `Precompiled contracts can not be overridden: ${address.toString()}`);
    if (override.state !== undefined && override.stateDiff !== undefined) {
      throw new ChainError('invalidArgument', `account ${address.toString()} has both 'state' and 'stateDiff'`);
    }
    if (override.balance !== undefined || override.nonce !== undefined) {
      const account = (await state.getAccount(address)) ?? new Account();
      if (override.balance !== undefined) account.balance = override.balance;
      if (override.nonce !== undefined) account.nonce = override.nonce;
      await state.putAccount(address, account);
    }
    if (override.code !== undefined) await state.putCode(address, override.code);
    if (override.state !== undefined) await state.clearStorage(address);
    for (const [slot, value] of override.state ?? override.stateDiff ?? []) await state.putStorage(address, slot, value);
  }
}

export function overriddenHeader(header: RskHeader, overrides: BlockOverrides): RskHeader {
  return {
    ...header,
    number: overrides.number ?? header.number,
    timestamp: overrides.timestamp ?? header.timestamp,
    gasLimit: overrides.gasLimit ?? header.gasLimit,
    coinbase: overrides.coinbase ?? header.coinbase,
    difficulty: overrides.difficulty ?? header.difficulty,
    minimumGasPrice: overrides.minimumGasPrice ?? header.minimumGasPrice,
  };
}
