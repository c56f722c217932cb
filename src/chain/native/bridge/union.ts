/**
 * The Union Bridge methods (RSKIP502) and the super/base events (RSKIP529), following rskj
 * co/rsk/peg/Bridge.java (argument handling, executeIfAuthorized), BridgeSupport.java
 * (requestUnionBridgeRbtc / releaseUnionBridgeRbtc move RBTC) and
 * union/UnionBridgeSupportImpl.java (the checks, storage and events), with the regtest constants
 * of union/constants/UnionBridgeRegTestConstants.java.
 *
 * Who may call (rskj's AddressBasedAuthorizer and Transaction.getSender: for a call from a
 * contract rskj builds an internal transaction whose sender is that contract, so "the sender" is
 * msg.sender here):
 * - setUnionBridgeContractAddressForTestnet: the EOA 0x6c9d…8f85; anyone else makes the call fail;
 * - increaseUnionBridgeLockingCap, setUnionBridgeTransferPermissions: 0xff6f…aa64 (a contract on
 *   RSK's regtest, deployed by rskj's UnionBridgeAuthorizerDeployer); anyone else fails;
 * - requestUnionBridgeRbtc, releaseUnionBridgeRbtc: the Union Bridge contract, else code -1;
 * - setSuperEvent, clearSuperEvent, setBaseEvent, clearBaseEvent: the Union Bridge contract, else
 *   the call fails (IllegalArgumentException).
 * The Union Bridge contract address starts as the zero address on regtest.
 *
 * The chain-30 endpoints use the same regtest Bridge as chain 31 (the node emulates one network's
 * Bridge), so setUnionBridgeContractAddressForTestnet works there too, where mainnet rskj refuses it.
 */
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import { bridgeLog } from './events.js';
import type { BridgeContext, BridgeHandler } from './handler-types.js';
import type { BridgeStorage } from './storage.js';
import { transferTo } from './transfer.js';

/** UnionResponseCode. */
const SUCCESS = 0n;
const UNAUTHORIZED_CALLER = -1n;
const INVALID_VALUE = -2n;
/** REQUEST_DISABLED and RELEASE_DISABLED share the code. */
const TRANSFER_DISABLED = -3n;

/** UnionBridgeRegTestConstants. */
const INITIAL_UNION_ADDRESS = new Uint8Array(20);
const INITIAL_LOCKING_CAP_WEIS = 10n ** 18n; // 1 RBTC
/** lockingCapIncrementsMultiplier: a new cap may be at most this many times the current one. */
const LOCKING_CAP_INCREMENTS_MULTIPLIER = 2n;
export const UNION_ADDRESS_AUTHORIZER = hexToBytes('0x6c9dfd950bf748bb26f893f7e5f693c7f60a8f85');
/** changeLockingCapAuthorizer = changeTransferPermissionsAuthorizer. */
export const UNION_LOCKING_CAP_AUTHORIZER = hexToBytes('0xff6f4ff09c54561e1476203e56fcfc834911aa64');

/** UnionBridgeSupportImpl.MAX_EVENT_DATA_LENGTH: the longest super or base event. */
const MAX_EVENT_DATA_LENGTH = 128;

/** UnionBridgeStorageIndexKey names. */
const KEY = {
  address: 'unionBridgeContractAddress',
  lockingCap: 'unionBridgeLockingCap',
  weisTransferred: 'weisTransferredToUnionBridge',
  requestEnabled: 'unionBridgeRequestEnabled',
  releaseEnabled: 'unionBridgeReleaseEnabled',
  superEvent: 'superEvent',
  baseEvent: 'baseEvent',
} as const;

/** A stored boolean: one byte, so that `false` is not the absent (empty) value. */
const FALSE = Uint8Array.of(0);
const TRUE = Uint8Array.of(1);

const same = (a: Uint8Array, b: Uint8Array) => bytesToHex(a) === bytesToHex(b);

async function unionAddress(storage: BridgeStorage): Promise<Uint8Array> {
  const stored = await storage.get(KEY.address);
  return stored.length === 0 ? INITIAL_UNION_ADDRESS : stored;
}

async function amount(storage: BridgeStorage, key: string, absent: bigint): Promise<bigint> {
  const stored = await storage.get(key);
  return stored.length === 0 ? absent : bytesToBigInt(stored);
}

/** Absent means enabled (isRequestEnabled / isReleaseEnabled `orElse(true)`). */
async function enabled(storage: BridgeStorage, key: string): Promise<boolean> {
  const stored = await storage.get(key);
  return stored.length === 0 || stored[0] === 1;
}

async function setPermissions(storage: BridgeStorage, request: boolean, release: boolean): Promise<void> {
  await storage.set(KEY.requestEnabled, request ? TRUE : FALSE);
  await storage.set(KEY.releaseEnabled, release ? TRUE : FALSE);
}

const BRIDGE_SHORT_OF_RBTC = { fail: 'The Bridge holds less RBTC than it transfers' };

const failUnauthorised = (name: string) => ({ fail: `The sender is not authorized to call ${name}` });

/** An event setter (setSuperEvent / setBaseEvent) or clearer: the Union Bridge contract only. */
function eventWriter(key: string, clear: boolean): BridgeHandler {
  return async ({ call, args, storage }) => {
    if (!same(call.caller, await unionAddress(storage))) return { fail: 'Caller is not the Union Bridge contract address' };
    const data = clear ? new Uint8Array(0) : (args[0] as Uint8Array);
    if (data.length > MAX_EVENT_DATA_LENGTH) return { fail: `Base event data length ${data.length} is above maximum.` };
    await storage.set(key, data);
    return { values: [] };
  };
}

export const UNION_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  getUnionBridgeContractAddress: async ({ storage }) => ({ values: [await unionAddress(storage)] }),
  getUnionBridgeLockingCap: async ({ storage }) => ({ values: [await amount(storage, KEY.lockingCap, INITIAL_LOCKING_CAP_WEIS)] }),
  getSuperEvent: async ({ storage }) => ({ values: [await storage.get(KEY.superEvent)] }),
  getBaseEvent: async ({ storage }) => ({ values: [await storage.get(KEY.baseEvent)] }),

  // Bridge.executeIfTestnetAndAuthorized + UnionBridgeSupportImpl.setUnionBridgeContractAddressForTestnet.
  setUnionBridgeContractAddressForTestnet: async ({ call, args, storage }) => {
    if (!same(call.caller, UNION_ADDRESS_AUTHORIZER)) return failUnauthorised('setUnionBridgeContractAddressForTestnet');
    await storage.set(KEY.address, args[0] as Uint8Array);
    return { values: [SUCCESS] };
  },

  // UnionBridgeSupportImpl.increaseLockingCap / isValidLockingCap.
  increaseUnionBridgeLockingCap: async ({ call, args, storage, logs }) => {
    if (!same(call.caller, UNION_LOCKING_CAP_AUTHORIZER)) return failUnauthorised('increaseUnionBridgeLockingCap');
    const newCap = args[0] as bigint;
    const current = await amount(storage, KEY.lockingCap, INITIAL_LOCKING_CAP_WEIS);
    if (newCap <= current || newCap > current * LOCKING_CAP_INCREMENTS_MULTIPLIER) return { values: [INVALID_VALUE] };
    await storage.set(KEY.lockingCap, bigIntToUnpaddedBytes(newCap));
    logs.push(bridgeLog('union_bridge_locking_cap_increased', [call.caller], [current, newCap]));
    return { values: [SUCCESS] };
  },

  // BridgeSupport.requestUnionBridgeRbtc + UnionBridgeSupportImpl.requestUnionRbtc.
  requestUnionBridgeRbtc: async (context) => {
    const { call, args, storage, logs } = context;
    const union = await unionAddress(storage);
    if (!same(call.caller, union)) return { values: [UNAUTHORIZED_CALLER] };
    if (!(await enabled(storage, KEY.requestEnabled))) return { values: [TRANSFER_DISABLED] };
    const requested = args[0] as bigint;
    const transferred = await amount(storage, KEY.weisTransferred, 0n);
    const cap = await amount(storage, KEY.lockingCap, INITIAL_LOCKING_CAP_WEIS);
    if (requested <= 0n || transferred + requested > cap) return { values: [INVALID_VALUE] };
    await storage.set(KEY.weisTransferred, bigIntToUnpaddedBytes(transferred + requested));
    if (!(await transferTo(context, union, requested))) return BRIDGE_SHORT_OF_RBTC;
    logs.push(bridgeLog('union_rbtc_requested', [union], [requested]));
    return { values: [SUCCESS] };
  },

  // BridgeSupport.releaseUnionBridgeRbtc + UnionBridgeSupportImpl.releaseUnionRbtc: the value sent
  // is already the Bridge's; on any code but SUCCESS it goes back to the sender.
  releaseUnionBridgeRbtc: async (context) => {
    const { call, logs } = context;
    const code = await releaseCode(context);
    // The value was just paid to the Bridge, so it can always pay it back.
    if (code !== SUCCESS && call.value > 0n) await transferTo(context, call.caller, call.value);
    if (code === SUCCESS) logs.push(bridgeLog('union_rbtc_released', [call.caller], [call.value]));
    return { values: [code] };
  },

  // UnionBridgeSupportImpl.setTransferPermissions: no change, no event.
  setUnionBridgeTransferPermissions: async ({ call, args, storage, logs }) => {
    if (!same(call.caller, UNION_LOCKING_CAP_AUTHORIZER)) return failUnauthorised('setUnionBridgeTransferPermissions');
    const [request, release] = args as [boolean, boolean];
    const unchanged = (await enabled(storage, KEY.requestEnabled)) === request && (await enabled(storage, KEY.releaseEnabled)) === release;
    if (unchanged) return { values: [SUCCESS] };
    await setPermissions(storage, request, release);
    logs.push(bridgeLog('union_bridge_transfer_permissions_updated', [call.caller], [request, release]));
    return { values: [SUCCESS] };
  },

  setSuperEvent: eventWriter(KEY.superEvent, false),
  clearSuperEvent: eventWriter(KEY.superEvent, true),
  setBaseEvent: eventWriter(KEY.baseEvent, false),
  clearBaseEvent: eventWriter(KEY.baseEvent, true),
};

/**
 * UnionBridgeSupportImpl.releaseUnionRbtc's checks and bookkeeping. Releasing more than was
 * requested disables both transfer directions (event from the Bridge's own address).
 */
async function releaseCode({ call, storage, logs }: BridgeContext): Promise<bigint> {
  if (!same(call.caller, await unionAddress(storage))) return UNAUTHORIZED_CALLER;
  if (!(await enabled(storage, KEY.releaseEnabled))) return TRANSFER_DISABLED;
  if (call.value <= 0n) return INVALID_VALUE;
  const transferred = await amount(storage, KEY.weisTransferred, 0n);
  if (transferred < call.value) {
    await setPermissions(storage, false, false);
    logs.push(bridgeLog('union_bridge_transfer_permissions_updated', [BRIDGE_ADDRESS], [false, false]));
    return INVALID_VALUE;
  }
  await storage.set(KEY.weisTransferred, bigIntToUnpaddedBytes(transferred - call.value));
  return SUCCESS;
}
