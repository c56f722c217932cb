/** Key layout of a network's LevelDB: one prefix byte per record kind, then a fixed-size id. */
import { bytesToHex } from '@ethereumjs/util';

export interface KvRange {
  gt?: Uint8Array;
  gte?: Uint8Array;
  lt?: Uint8Array;
  lte?: Uint8Array;
  /** Keys in descending order (LevelDB's and memory-level's option). */
  reverse?: boolean;
}

export type KvOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };

/** Keys of a range: one at a time, or all at once (`all`, read in batches: no step per key). */
export type KeyScan = AsyncIterable<Uint8Array> & { all(): Promise<Uint8Array[]> };

/** What the chain needs of its key-value store: LevelDB on disk, memory-kv.ts in memory. */
export interface Kv {
  open(): Promise<void>;
  close(): Promise<void>;
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** The same read without a round trip: LevelDB answers on the caller's thread. */
  getSync(key: Uint8Array): Uint8Array | undefined;
  getMany(keys: Uint8Array[]): Promise<Array<Uint8Array | undefined>>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  /** Atomic. */
  batch(ops: KvOp[]): Promise<void>;
  keys(range?: KvRange): KeyScan;
  iterator(range?: KvRange): AsyncIterable<[Uint8Array, Uint8Array]>;
}

const HEAD = Uint8Array.of(0x01);
const BLOCK = 0x02;
const RECEIPTS = 0x03;
const HASH_TO_NUMBER = 0x04;
const TX_LOCATION = 0x05;
const STATE_NODE = 0x06;
const META = 0x07;
const LOG_ADDRESS = 0x08;
const LOG_TOPIC = 0x09;
const LOG_BLOCK = 0x0a;
/** The fork cache's entries (fork/cache.ts): remote answers, never local state. */
const FORK_CACHE = 0x0b;
/** The address index (address-index.ts): an address's transactions, contract creators, sender + nonce. */
const ADDRESS_TX = 0x0c;
const CONTRACT_CREATOR = 0x0d;
const SENDER_NONCE = 0x0e;
/** The network's Bitcoin regtest chain (btc-chain/): its tip, and its blocks by height. */
const BTC = 0x0f;
/** The record kinds read by key ranges (meta records, the log and address indexes); all others only by key. */
export const ORDERED_PREFIXES: ReadonlySet<number> = new Set([META, LOG_ADDRESS, LOG_TOPIC, LOG_BLOCK, ADDRESS_TX, SENDER_NONCE]);

export function headKey(): Uint8Array {
  return HEAD;
}

/**
 * A new record key or small value, `length` bytes, uninitialised. LevelDB's binding reads a
 * Uint8Array's bytes through its ArrayBuffer, and V8 keeps arrays of up to 64 bytes (nearly every
 * key, and block numbers, locations and small trie nodes) on its heap, moving each one out on that
 * first access: an allocation and a copy per record of every batch. A Buffer from Node's pool is
 * outside the heap from the start. Only for bytes handed to the store: a store that keeps them as
 * they are (memory-kv.ts's ordered tree) copies them first, or a kept view would hold the pool's
 * whole 8 KiB block.
 */
export function recordBytes(length: number): Uint8Array {
  return Buffer.allocUnsafe(length);
}

/** Parts joined into one record key (see recordBytes). */
export function concatKey(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const key = recordBytes(length);
  let at = 0;
  for (const part of parts) {
    key.set(part, at);
    at += part.length;
  }
  return key;
}

export function encodeNumber(n: bigint): Uint8Array {
  const out = recordBytes(8);
  new DataView(out.buffer, out.byteOffset, 8).setBigUint64(0, n);
  return out;
}

export function decodeNumber(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset);
}

function prefixed(prefix: number, id: Uint8Array): Uint8Array {
  const key = recordBytes(1 + id.length);
  key[0] = prefix;
  key.set(id, 1);
  return key;
}

export const blockKey = (n: bigint) => prefixed(BLOCK, encodeNumber(n));
export const receiptsKey = (n: bigint) => prefixed(RECEIPTS, encodeNumber(n));
export const hashToNumberKey = (hash: Uint8Array) => prefixed(HASH_TO_NUMBER, hash);
export const txLocationKey = (hash: Uint8Array) => prefixed(TX_LOCATION, hash);
export const stateNodeKey = (key: Uint8Array) => prefixed(STATE_NODE, key);
/** stateNodeKey of a node the trie names by its unprefixed hex hash, in one allocation. */
export function stateNodeKeyOfHex(hex: string): Uint8Array {
  const key = Buffer.allocUnsafe(1 + hex.length / 2); // recordBytes, as a Buffer to write hex into
  key[0] = STATE_NODE;
  key.write(hex, 1, 'hex');
  return key;
}
export const forkCacheKey = (key: Uint8Array) => prefixed(FORK_CACHE, key);
const BTC_TIP = Uint8Array.of(BTC);
export const btcTipKey = () => BTC_TIP;
export const btcBlockKey = (height: number) => prefixed(BTC, encodeNumber(BigInt(height)));
/** Whether a key is one of the Bitcoin chain's (a state load leaves them: they are not the RSK chain's). */
export const isBtcKey = (key: Uint8Array) => key[0] === BTC;
/** A fork cache entry: remote answers, which a state load keeps (they are not the chain's). */
export const isForkCacheKey = (key: Uint8Array) => key[0] === FORK_CACHE;
export const isStateNodeKey = (key: Uint8Array) => key[0] === STATE_NODE;
export const metaKey = (name: string) => prefixed(META, new TextEncoder().encode(name));
/**
 * Meta record of a block whose state test control changed (hardhat_setBalance and friends) before
 * the next block was mined on it: the state root readers of that block use. Keyed by block hash,
 * so a record can never apply to another block at the same height.
 */
export const IRREGULAR_STATE_PREFIX = 'irregular-state:';
export const irregularStateMeta = (blockHash: Uint8Array) => `${IRREGULAR_STATE_PREFIX}${bytesToHex(blockHash)}`;

/** Log index postings (log-index.ts): the key ends with the block number, so a prefix scan is a block range. */
export const logAddressPrefix = (address: Uint8Array) => prefixed(LOG_ADDRESS, address);
export const logTopicPrefix = (position: number, topic: Uint8Array) => concatKey(Uint8Array.of(LOG_TOPIC, position), topic);
export const logBlockPrefix = () => Uint8Array.of(LOG_BLOCK);

/**
 * The address index (address-index.ts). A transaction's position (block number, then index in the
 * block) ends each key, so a prefix scan in either direction is the address's history in order.
 */
export const addressTxPrefix = (address: Uint8Array) => prefixed(ADDRESS_TX, address);
export const senderNoncePrefix = (sender: Uint8Array, nonce: bigint) => concatKey(Uint8Array.of(SENDER_NONCE), sender, encodeNumber(nonce));
export const contractCreatorKey = (contract: Uint8Array) => prefixed(CONTRACT_CREATOR, contract);
