/**
 * BridgeSupport.transferTo: RBTC from the Bridge's account to `to` (rskj Repository.transfer),
 * recorded as rskj records it: an internal CALL subtrace from the Bridge (ProgramSubtrace
 * .newCallSubtrace over a TransferInvoke: gas 0, no input, no output), which trace_transaction and
 * debug_traceTransaction's callTracer show under the Bridge's call (tracing/recorder.ts). Used by
 * the peg-in (registerPegIn) and the Union Bridge; the peg-out request's refund is a bare
 * Repository.transfer in rskj, with no subtrace, and does not come here.
 *
 * The regtest Bridge starts with 21 million RBTC; should it hold less than asked, false (the
 * caller fails) rather than a negative balance.
 */
import { Account, Address } from '@ethereumjs/util';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import type { BridgeContext } from './handler-types.js';

export async function transferTo({ call, transfers }: Pick<BridgeContext, 'call' | 'transfers'>, to: Uint8Array, wei: bigint): Promise<boolean> {
  const bridge = new Address(BRIDGE_ADDRESS);
  const receiver = new Address(to);
  const from = (await call.state.getAccount(bridge)) ?? new Account();
  if (from.balance < wei) return false;
  from.balance -= wei;
  await call.state.putAccount(bridge, from);
  const account = (await call.state.getAccount(receiver)) ?? new Account();
  account.balance += wei;
  await call.state.putAccount(receiver, account);
  transfers.push({ to: Uint8Array.from(to), value: wei });
  return true;
}
