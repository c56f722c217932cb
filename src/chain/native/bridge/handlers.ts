/**
 * The Bridge's methods that read or write its state (storage.ts) or move RBTC: each an async
 * handler given the call, its decoded arguments, the Bridge's storage and the Bitcoin chain.
 * Methods whose table entry says `{ kind: 'handler' }` (methods.ts) are answered here; a handler
 * either returns the values to ABI-encode (and may push events) or fails as rskj's method throws.
 * On failure the EVM rolls back what the handler wrote, as for any failed call.
 */
import { FLYOVER_HANDLERS } from './flyover.js';
import { GOVERNANCE_HANDLERS } from './governance.js';
import type { BridgeHandler } from './handler-types.js';
import { PEGIN_HANDLERS } from './pegin.js';
import { PEGOUT_HANDLERS } from './pegout.js';
import { SURFACE_HANDLERS } from './surface.js';
import { UNION_HANDLERS } from './union.js';

export type { BridgeContext, BridgeHandler, BridgeHandlerResult } from './handler-types.js';

/** Every handler, by method name. Each area of the peg adds its own map here. */
export const BRIDGE_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  ...SURFACE_HANDLERS,
  ...GOVERNANCE_HANDLERS,
  ...UNION_HANDLERS,
  ...PEGIN_HANDLERS,
  ...PEGOUT_HANDLERS,
  ...FLYOVER_HANDLERS,
};
