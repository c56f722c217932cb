/**
 * The fork cache: every remote answer, stored as it arrives, so that a second run reads nothing
 * twice and `--fork-offline` can run from it alone. It holds remote reads only, never local
 * writes (anvil's worst cache bugs came from mixing them: foundry#1531, #1894), and a value is
 * exactly the remote's answer at the fork block (its JSON text).
 *
 * Keyed as EDR keys its cache, by typed request rather than JSON text: remote chain id ‖ fork
 * block ‖ the fork block's hash ‖ method ‖ params (addresses as 20 bytes, slots and hashes as 32,
 * numbers as 8), so ids, spelling and number formatting never split or merge entries, and a
 * reorganised fork block never meets the answers given about the block it replaced. The store is the chain's own
 * LevelDB (a key prefix of its own, see storage/keys.ts), memory for `--in-memory`, or a LevelDB
 * of its own (`--fork-cache-dir`).
 */
import { concatBytes } from '@ethereumjs/util';

/** The part of a key-value store the cache needs (the chain's Kv, a LevelDB). */
export interface CacheStore {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
}

/** The remote reads the cache keeps, one id byte each (part of the key: never renumber). */
export const CachedMethod = {
  eth_getBalance: 1,
  eth_getTransactionCount: 2,
  eth_getCode: 3,
  eth_getStorageAt: 4,
  eth_getBlockByNumber: 5,
  eth_getBlockByHash: 6,
  eth_getTransactionByHash: 7,
  eth_getTransactionReceipt: 8,
  eth_getLogs: 9,
  /** Native contracts' read methods (the Bridge's getters): to (20 bytes) ‖ call data. */
  eth_call: 10,
} as const;
export type CachedMethodName = keyof typeof CachedMethod;

/** An 8-byte big-endian number, as key material. */
export function numberKey(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The key of "the hash block N had when a fork was made at it": chain id ‖ block, 16 bytes, shorter than every entry's. */
const forkHashKey = (remoteChainId: bigint, block: bigint) => concatBytes(numberKey(remoteChainId), numberKey(block));

/** The hash the remote's block `block` had when the cache last forked at it (offline starts need it). */
export async function cachedForkHash(store: CacheStore, remoteChainId: bigint, block: bigint): Promise<Uint8Array | undefined> {
  const stored = await store.get(forkHashKey(remoteChainId, block));
  return stored?.length === 32 ? stored : undefined;
}

export async function rememberForkHash(store: CacheStore, remoteChainId: bigint, block: bigint, hash: Uint8Array): Promise<void> {
  await store.put(forkHashKey(remoteChainId, block), hash);
}

export class ForkCache {
  private readonly scope: Uint8Array;

  /**
   * The cache of a fork at `forkBlock`, whose hash is `forkHash`: if the remote's chain was
   * reorganised and the block number names another block, its answers are filed apart.
   */
  constructor(
    private readonly store: CacheStore,
    private readonly remoteChainId: bigint,
    forkBlock: bigint,
    private readonly forkHash: Uint8Array,
  ) {
    this.scope = concatBytes(numberKey(remoteChainId), numberKey(forkBlock), forkHash);
  }

  /** The same store's cache of reads at an ancestor of the fork block (state reads below it). */
  at(block: bigint): ForkCache {
    return new ForkCache(this.store, this.remoteChainId, block, this.forkHash);
  }

  private key(method: CachedMethodName, params: Uint8Array): Uint8Array {
    return concatBytes(this.scope, Uint8Array.of(CachedMethod[method]), params);
  }

  /** The remote's stored answer (null included), or undefined when this request was never answered. */
  async get(method: CachedMethodName, params: Uint8Array): Promise<unknown> {
    const stored = await this.store.get(this.key(method, params));
    return stored === undefined ? undefined : JSON.parse(decoder.decode(stored));
  }

  async put(method: CachedMethodName, params: Uint8Array, result: unknown): Promise<void> {
    await this.store.put(this.key(method, params), encoder.encode(JSON.stringify(result ?? null)));
  }
}

/** A LevelDB of its own for the cache (`--fork-cache-dir`), closed with the chain. */
export async function openCacheDir(location: string): Promise<CacheStore & { close(): Promise<void> }> {
  const { Level } = await import('level');
  const db = new Level<Uint8Array, Uint8Array>(location, { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  return {
    get: (key) => db.get(key),
    put: (key, value) => db.put(key, value),
    close: () => db.close(),
  };
}
