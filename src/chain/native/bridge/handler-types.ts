/**
 * The shape of a Bridge method handler (handlers.ts): what it is given and what it answers. Kept
 * apart from the handler map so that the files defining handlers (pegin.ts, pegout.ts, surface.ts,
 * union.ts, governance.ts, ...) import these types without an import cycle through handlers.ts.
 */
import type { AbiValue } from '../abi.js';
import type { NativeCall, NativeTransfer } from '../types.js';
import type { BridgeLog } from './events.js';
import type { BridgeBtcSource } from './state.js';
import type { BridgeStorage } from './storage.js';

export interface BridgeContext {
  call: NativeCall;
  args: AbiValue[];
  storage: BridgeStorage;
  btc: BridgeBtcSource;
  /** Events to emit, in order; kept only when the call succeeds. */
  logs: BridgeLog[];
  /** RBTC the Bridge sent (transfer.ts), in order: internal CALL subtraces in the traces. */
  transfers: NativeTransfer[];
}

/** `values`: the method's outputs to encode; `fail`: rskj's exception message (the call fails). */
export type BridgeHandlerResult = { values: AbiValue[] } | { fail: string };

export type BridgeHandler = (context: BridgeContext) => Promise<BridgeHandlerResult>;
