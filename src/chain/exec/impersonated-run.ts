/**
 * runTx for block building and tracing replay, letting an impersonated sender with code send
 * (impersonation.ts says why). Apart from impersonation.ts because it needs @ethereumjs/vm, which
 * the node loads on first need (evm-runtime.ts), not at start-up.
 */
import { type Account, type Address, KECCAK256_NULL } from '@ethereumjs/util';
import { type RunTxOpts, type RunTxResult, type VM, runTx } from '@ethereumjs/vm';
import type { LegacyTx } from '@ethereumjs/tx';
import { isImpersonatedTransaction } from '../pool/impersonation.js';

/**
 * runTx, letting an impersonated sender with code send. runTx reads the sender's account once,
 * checks its code hash (EIP-3607), then charges and bumps that same object: the account it gets
 * answers the empty code hash to that first read only, so the check passes and what runTx writes
 * back keeps the real code.
 */
export async function runTxAs(vm: VM, opts: RunTxOpts & { tx: LegacyTx }, sender: Address): Promise<RunTxResult> {
  if (!isImpersonatedTransaction(opts.tx, sender)) return runTx(vm, opts);
  const state = vm.stateManager as { getAccount: VM['stateManager']['getAccount'] };
  const getAccount = state.getAccount;
  const hadOwn = Object.hasOwn(state, 'getAccount');
  const restore = () => (hadOwn ? (state.getAccount = getAccount) : delete (state as { getAccount?: unknown }).getAccount);
  state.getAccount = async (address: Address): Promise<Account | undefined> => {
    const account = await getAccount.call(state, address);
    if (!address.equals(sender)) return account;
    restore();
    if (account?.isContract()) {
      Object.defineProperty(account, 'codeHash', {
        configurable: true,
        get() {
          delete (account as { codeHash?: Uint8Array }).codeHash; // the prototype's accessor answers from now on
          return KECCAK256_NULL;
        },
      });
    }
    return account;
  };
  try {
    return await runTx(vm, opts);
  } finally {
    restore();
  }
}
