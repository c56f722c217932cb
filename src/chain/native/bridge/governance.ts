/**
 * The Bridge's settings that rskj's regtest authorizers change: the peg-out fee per kB
 * (feeperkb/FeePerKbSupportImpl.java), the locking cap (lockingcap/LockingCapSupportImpl.java)
 * and the lock whitelist (whitelist/WhitelistSupportImpl.java, whitelist/LockWhitelist.java),
 * with Bridge.java's argument handling. Each regtest authorizer is one key
 * (FeePerKbRegTestConstants, LockingCapRegTestConstants, WhitelistRegTestConstants); rskj checks
 * the sender's address, the caller here (msg.sender, as rskj's internal transactions have it).
 * With one authorized key a fee vote (MAJORITY of 1) wins at once.
 *
 * Storage (storage.ts) uses rskj's key names with our own encodings: "feePerKb" and "lockingCap"
 * hold unsigned big-endian satoshis; "lockWhitelist" holds RLP [disable height, [[hash160,
 * version, max value or empty for unlimited] ...]] sorted by hash160 (LockWhitelist's
 * LEXICOGRAPHICAL_COMPARATOR), where rskj splits one-off and unlimited entries over two keys.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToInt, intToUnpaddedBytes, setLengthLeft } from '@ethereumjs/util';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { compareBytes, javaInt } from '../../base/bytes.js';
import type { AbiValue } from '../abi.js';
import { GENESIS_FEE_PER_KB_SATOSHIS, INITIAL_LOCKING_CAP_SATOSHIS } from './constants.js';
import type { BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import type { BridgeStorage } from './storage.js';

/** The RSK address of an uncompressed public key (ECKey.getAddress). */
function addressOf(uncompressedKey: string): string {
  return bytesToHex(keccak_256(hexToBytes(uncompressedKey).subarray(1)).subarray(12));
}

/**
 * Each authorizer's one key (generator 'auth-fee-per-kb', the locking cap's and the whitelist's),
 * as addresses made on first use: hashing them at module load cost ~2 ms of every cold start.
 */
const AUTHORIZER_KEYS = {
  feePerKb:
    '0430c7d0146029db553d60cf11e8d39df1c63979ee2e4cd1e4d4289a5d88cfcbf3a09b06b5cbc88b5bfeb4b87a94cefab81c8d44655e7e813fc3e18f51cfe7e8a0',
  lockingCap:
    '04450bbaab83ec48b3cb8fbb077c950ee079733041c039a8c4f1539e5181ca1a27589eeaf0fbf430e49d2909f14c767bf6909ad6845831f683416ee12b832e36ed',
  whitelist:
    '04641fb250d7ca7a1cb4f530588e978013038ec4294d084d248869dd54d98873e45c61d00ceeaeeb9e35eab19fa5fbd8f07cb8a5f0ddba26b4d4b18349c09199ad',
} as const;
const authorizers = new Map<keyof typeof AUTHORIZER_KEYS, string>();

/** Whether `caller` is the authorizer of `what`. */
function isAuthorizer(what: keyof typeof AUTHORIZER_KEYS, caller: Uint8Array): boolean {
  let address = authorizers.get(what);
  if (address === undefined) {
    address = addressOf(AUTHORIZER_KEYS[what]);
    authorizers.set(what, address);
  }
  return bytesToHex(caller) === address;
}

/** FeePerKbRegTestConstants.maxFeePerKb. */
const MAX_FEE_PER_KB_SATOSHIS = 5_000_000n;
/** LockingCapRegTestConstants.incrementsMultiplier: a new cap is at most this many times the current one. */
const LOCKING_CAP_INCREMENTS_MULTIPLIER = 2n;
/** LockWhitelist: Integer.MAX_VALUE means "no disable height set". */
const NO_DISABLE_HEIGHT = 2 ** 31 - 1;
/** Java long range: BigInteger.longValueExact throws outside it. */
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** FeePerKbResponseCode. */
const FEE = { SUCCESSFUL_VOTE: 1n, NEGATIVE_FEE_VOTED: -1n, EXCESSIVE_FEE_VOTED: -2n, UNAUTHORIZED_CALLER: -10n, GENERIC_ERROR: -10n } as const;
/** WhitelistResponseCode. */
const WHITELIST = { SUCCESS: 1n, UNLIMITED_MODE: 0n, ALREADY_WHITELISTED: -1n, ADDRESS_NOT_EXIST: -1n, DELAY_ALREADY_SET: -1n, INVALID_ADDRESS_FORMAT: -2n, DISABLE_BLOCK_DELAY_INVALID: -2n, UNAUTHORIZED_CALLER: -10n } as const;
/** bitcoinj RegTestParams addressHeader / p2shHeader. */
const REGTEST_VERSIONS = new Set([111, 196]);

const KEY = { feePerKb: 'feePerKb', lockingCap: 'lockingCap', whitelist: 'lockWhitelist' } as const;

const base58check = createBase58check(sha256);
const answer = (...values: AbiValue[]): BridgeHandlerResult => ({ values });
const isLong = (v: bigint) => v >= LONG_MIN && v <= LONG_MAX;

async function storedSatoshis(storage: BridgeStorage, key: string, absent: bigint): Promise<bigint> {
  const stored = await storage.get(key);
  return stored.length === 0 ? absent : bytesToBigInt(stored);
}

/** FeePerKbSupportImpl.getFeePerKb: the voted fee, else the genesis one. */
export function feePerKb(storage: BridgeStorage): Promise<bigint> {
  return storedSatoshis(storage, KEY.feePerKb, GENESIS_FEE_PER_KB_SATOSHIS);
}

/** LockingCapSupportImpl.getLockingCap: the increased cap, else the initial one. */
export function lockingCap(storage: BridgeStorage): Promise<bigint> {
  return storedSatoshis(storage, KEY.lockingCap, INITIAL_LOCKING_CAP_SATOSHIS);
}

interface WhitelistEntry {
  hash160: Uint8Array;
  version: number;
  /** Satoshis for a one-off entry; undefined for an unlimited one. */
  maxValue?: bigint;
}

interface Whitelist {
  disableHeight: number;
  entries: WhitelistEntry[];
}

async function readWhitelist(storage: BridgeStorage): Promise<Whitelist> {
  const raw = await storage.get(KEY.whitelist);
  if (raw.length === 0) return { disableHeight: NO_DISABLE_HEIGHT, entries: [] };
  const [height, entries] = RLP.decode(raw) as [Uint8Array, Uint8Array[][]];
  return {
    disableHeight: bytesToInt(height),
    entries: entries.map(([hash160, version, max]) => ({ hash160: hash160!, version: bytesToInt(version!), maxValue: max!.length === 0 ? undefined : BigInt.asIntN(64, bytesToBigInt(max!)) })),
  };
}

async function writeWhitelist(storage: BridgeStorage, list: Whitelist): Promise<void> {
  list.entries.sort((a, b) => compareBytes(a.hash160, b.hash160));
  // A one-off entry's max value (a Java long, maybe 0 or negative) as 8 bytes: empty stays "unlimited".
  const entries = list.entries.map((e) => [e.hash160, intToUnpaddedBytes(e.version), e.maxValue === undefined ? new Uint8Array(0) : setLengthLeft(bigIntToUnpaddedBytes(BigInt.asUintN(64, e.maxValue)), 8)]);
  await storage.set(KEY.whitelist, RLP.encode([intToUnpaddedBytes(list.disableHeight), entries]));
}

/** bitcoinj Address.fromBase58(RegTestParams): version and 20-byte hash, or undefined (AddressFormatException). */
function parseAddress(base58: string): { version: number; hash160: Uint8Array } | undefined {
  try {
    const bytes = base58check.decode(base58);
    if (bytes.length !== 21 || !REGTEST_VERSIONS.has(bytes[0]!)) return undefined;
    return { version: bytes[0]!, hash160: bytes.subarray(1) };
  } catch {
    return undefined;
  }
}

const findEntry = (list: Whitelist, hash160: Uint8Array) => list.entries.findIndex((e) => compareBytes(e.hash160, hash160) === 0);

/** WhitelistSupportImpl.addOneOff/addUnlimitedLockWhitelistAddress: the address parses before the caller is checked. */
async function addEntry(caller: Uint8Array, storage: BridgeStorage, base58: string, maxValue?: bigint): Promise<BridgeHandlerResult> {
  const address = parseAddress(base58);
  if (address === undefined) return answer(WHITELIST.INVALID_ADDRESS_FORMAT);
  if (!isAuthorizer('whitelist', caller)) return answer(WHITELIST.UNAUTHORIZED_CALLER);
  const list = await readWhitelist(storage);
  if (findEntry(list, address.hash160) >= 0) return answer(WHITELIST.ALREADY_WHITELISTED);
  list.entries.push({ ...address, maxValue });
  await writeWhitelist(storage, list);
  return answer(WHITELIST.SUCCESS);
}

export const GOVERNANCE_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  getFeePerKb: async ({ storage }) => answer(await feePerKb(storage)),
  getLockingCap: async ({ storage }) => answer(await lockingCap(storage)),

  // Bridge.voteFeePerKbChange (a value outside a Java long is GENERIC_ERROR) + FeePerKbSupportImpl.
  voteFeePerKbChange: async ({ call, args, storage }) => {
    const fee = args[0] as bigint;
    if (!isLong(fee)) return answer(FEE.GENERIC_ERROR);
    if (!isAuthorizer('feePerKb', call.caller)) return answer(FEE.UNAUTHORIZED_CALLER);
    if (fee <= 0n) return answer(FEE.NEGATIVE_FEE_VOTED);
    if (fee > MAX_FEE_PER_KB_SATOSHIS) return answer(FEE.EXCESSIVE_FEE_VOTED);
    await storage.set(KEY.feePerKb, bigIntToUnpaddedBytes(fee));
    return answer(FEE.SUCCESSFUL_VOTE);
  },

  // Bridge.increaseLockingCap (BridgeUtils.getCoinFromBigInteger throws outside a long) +
  // LockingCapSupportImpl.increaseLockingCap (a cap <= 0 throws before the caller is checked).
  increaseLockingCap: async ({ call, args, storage }) => {
    const cap = args[0] as bigint;
    if (!isLong(cap)) return { fail: 'Locking cap out of the range of a long' };
    if (cap <= 0n) return { fail: `Locking Cap must be greater than zero. Value attempted: ${cap}` };
    if (!isAuthorizer('lockingCap', call.caller)) return answer(false);
    const current = await lockingCap(storage);
    if (cap < current || cap > current * LOCKING_CAP_INCREMENTS_MULTIPLIER) return answer(false);
    await storage.set(KEY.lockingCap, bigIntToUnpaddedBytes(cap));
    return answer(true);
  },

  getLockWhitelistSize: async ({ storage }) => answer(BigInt((await readWhitelist(storage)).entries.length)),
  getLockWhitelistAddress: async ({ args, storage }) => {
    const entry = (await readWhitelist(storage)).entries[javaInt(args[0] as bigint)];
    return answer(entry === undefined ? '' : base58check.encode(concatBytes(Uint8Array.of(entry.version), entry.hash160)));
  },
  // A one-off entry answers its max value, an unlimited one UNLIMITED_MODE (0).
  getLockWhitelistEntryByAddress: async ({ args, storage }) => {
    const address = parseAddress(args[0] as string);
    const list = await readWhitelist(storage);
    const entry = address === undefined ? undefined : list.entries[findEntry(list, address.hash160)];
    if (entry === undefined) return answer(WHITELIST.ADDRESS_NOT_EXIST);
    return answer(entry.maxValue ?? WHITELIST.UNLIMITED_MODE);
  },
  // Bridge.addOneOffLockWhitelistAddress: a max value outside a long throws (longValueExact).
  addOneOffLockWhitelistAddress: async ({ call, args, storage }) => {
    const maxValue = args[1] as bigint;
    if (parseAddress(args[0] as string) !== undefined && !isLong(maxValue)) return { fail: 'BigInteger out of long range' };
    return addEntry(call.caller, storage, args[0] as string, maxValue);
  },
  addUnlimitedLockWhitelistAddress: async ({ call, args, storage }) => addEntry(call.caller, storage, args[0] as string),
  // WhitelistSupportImpl.removeLockWhitelistAddress: the caller first, then the address.
  removeLockWhitelistAddress: async ({ call, args, storage }) => {
    if (!isAuthorizer('whitelist', call.caller)) return answer(WHITELIST.UNAUTHORIZED_CALLER);
    const address = parseAddress(args[0] as string);
    if (address === undefined) return answer(WHITELIST.INVALID_ADDRESS_FORMAT);
    const list = await readWhitelist(storage);
    const index = findEntry(list, address.hash160);
    if (index < 0) return answer(WHITELIST.ADDRESS_NOT_EXIST);
    list.entries.splice(index, 1);
    await writeWhitelist(storage, list);
    return answer(WHITELIST.SUCCESS);
  },
  // WhitelistSupportImpl.setLockWhitelistDisableBlockDelay: Java int arithmetic (an overflowing
  // sum is "not after the best height", DISABLE_BLOCK_DELAY_INVALID); a delay outside an int throws.
  setLockWhitelistDisableBlockDelay: async ({ call, args, storage, btc }) => {
    if (!isAuthorizer('whitelist', call.caller)) return answer(WHITELIST.UNAUTHORIZED_CALLER);
    const list = await readWhitelist(storage);
    if (list.disableHeight !== NO_DISABLE_HEIGHT) return answer(WHITELIST.DELAY_ALREADY_SET);
    const delay = args[0] as bigint;
    if (delay < -(2n ** 31n) || delay >= 2n ** 31n) return { fail: 'BigInteger out of int range' };
    const best = btc.tip.height;
    if (((Number(delay) + best) | 0) <= best) return answer(WHITELIST.DISABLE_BLOCK_DELAY_INVALID);
    list.disableHeight = best + Number(delay);
    await writeWhitelist(storage, list);
    return answer(WHITELIST.SUCCESS);
  },
};
