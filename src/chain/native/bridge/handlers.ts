/**
 * The Bridge's methods that read or write its state (storage.ts) or move RBTC: each an async
 * handler given the call, its decoded arguments, the Bridge's storage and the Bitcoin chain.
 * Methods whose table entry says `{ kind: 'handler' }` (methods.ts) are answered here; a handler
 * either returns the values to ABI-encode (and may push events) or fails as rskj's method throws.
 * On failure the EVM rolls back what the handler wrote, as for any failed call.
 */
import type { AbiValue } from '../abi.js';
import type { NativeCall } from '../types.js';
import type { BridgeLog } from './events.js';
import type { BridgeBtcSource } from './state.js';
import type { BridgeStorage } from './storage.js';
import { PEGOUT_HANDLERS } from './pegout.js';

export interface BridgeContext {
  call: NativeCall;
  args: AbiValue[];
  storage: BridgeStorage;
  btc: BridgeBtcSource;
  /** Events to emit, in order; kept only when the call succeeds. */
  logs: BridgeLog[];
}

/** `values`: the method's outputs to encode; `fail`: rskj's exception message (the call fails). */
export type BridgeHandlerResult = { values: AbiValue[] } | { fail: string };

export type BridgeHandler = (context: BridgeContext) => Promise<BridgeHandlerResult>;

/** Every handler, by method name. Each area of the peg adds its own map here. */
export const BRIDGE_HANDLERS: Readonly<Record<string, BridgeHandler>> = { ...PEGOUT_HANDLERS };
