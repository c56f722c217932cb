/**
 * Starting a fork: the remote is asked its chain id, (without --fork-block) its latest block, and
 * the fork block, which it must have; each failure says which. A fork resumed from its data directory
 * asks nothing: it knows its chain id and block, and reads go through the cache.
 */
import { hexToBytes } from '@ethereumjs/util';
import { ForkCache, type CacheStore, cachedForkHash, openCacheDir, rememberForkHash } from './cache.js';
import { RemoteClient, RemoteError, redactedUrl } from './remote-client.js';
import { type RemoteJson, RemoteState } from './remote-state.js';

export interface ForkOptions {
  /** The remote's JSON-RPC URL; required unless offline. */
  url?: string;
  /** The block to fork at (default: the remote's latest at start). */
  block?: bigint;
  /** Serve remote reads from the fork cache alone (`--fork-offline`). */
  offline?: boolean;
  /** A LevelDB directory of its own for the fork cache (default: the chain's database). */
  cacheDir?: string;
  /** Retries after a rate-limited or failed request, and the first backoff (doubling). */
  retries?: number;
  retryBackoffMs?: number;
}

/** A fork that cannot start: the message says why (unreachable, other chain, no such block, offline without cache). */
export class ForkStartError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ForkStartError';
  }
}

/** A connected fork: where its remote reads go, at which block of which chain. */
export interface ForkConnection {
  readonly chainId: bigint;
  readonly blockNumber: bigint;
  /** The remote fork block's hash. */
  readonly blockHash: Uint8Array;
  readonly url: string | undefined;
  readonly remote: RemoteState;
  /** Where the fork cache lives (a re-fork in place keeps using it). */
  readonly cacheStore: CacheStore;
  close(): Promise<void>;
}

function parseQuantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new ForkStartError(`fork: the remote answered ${what} with ${JSON.stringify(value)}`);
  return BigInt(value);
}

function clientFor(options: ForkOptions): RemoteClient | undefined {
  if (options.offline === true) return undefined;
  if (options.url === undefined) throw new ForkStartError('fork: no remote URL (give --fork-url, or --fork-offline to run from the fork cache)');
  return new RemoteClient(options.url, { retries: options.retries, backoffMs: options.retryBackoffMs });
}

/** The remote's chain id (an unreachable remote is not retried): `--fork-url` forks the network it names. */
export async function remoteChainId(url: string): Promise<bigint> {
  try {
    return parseQuantity(await new RemoteClient(url).call('eth_chainId', [], false), 'eth_chainId');
  } catch (err) {
    if (err instanceof ForkStartError) throw err;
    throw new ForkStartError(`fork: the remote ${redactedUrl(url)} is unreachable or failed: ${(err as Error).message}`, { cause: err });
  }
}

/** A fork kept in a data directory: its block and that block's hash. */
export interface ForkResume {
  block: bigint;
  hash: Uint8Array;
}

/**
 * Connects a fork of the chain `chainId`: as `resume` says (a fork kept in the data directory)
 * without asking the remote anything, else at `options.block` or the remote's latest, checked:
 * the fork block is read from the remote (offline: from the cache), and its hash scopes the cache.
 * `chainStore` is the chain's own database, where the cache lives unless `options.cacheDir`.
 */
export async function connectFork(
  options: ForkOptions,
  chainId: bigint,
  chainStore: CacheStore,
  resume: ForkResume | undefined,
): Promise<{ connection: ForkConnection; baseBlock: RemoteJson | undefined }> {
  const client = clientFor(options);
  const url = options.url;
  const cacheDb = options.cacheDir === undefined ? undefined : await openCacheDir(options.cacheDir);
  const store = cacheDb ?? chainStore;
  const close = async () => cacheDb?.close();
  const connect = (block: bigint, hash: Uint8Array): ForkConnection => {
    const remote = new RemoteState(client, new ForkCache(store, chainId, block, hash), block);
    return { chainId, blockNumber: block, blockHash: hash, url, remote, cacheStore: store, close };
  };
  try {
    if (resume !== undefined) return { connection: connect(resume.block, resume.hash), baseBlock: undefined };
    if (client === undefined) {
      // Offline: the fork block and its hash as the cache last had them.
      if (options.block === undefined) throw new ForkStartError('fork: --fork-offline needs --fork-block N (the block a cached fork was made at)');
      const hash = await cachedForkHash(store, chainId, options.block);
      if (hash === undefined) throw new ForkStartError(`fork offline: the fork cache holds no fork of chain ${chainId} at block ${options.block}`);
      const connection = connect(options.block, hash);
      const baseBlock = await connection.remote.blockByNumber(options.block, false);
      if (baseBlock === null) throw new ForkStartError(`fork offline: the fork cache holds no block ${options.block}`);
      return { connection, baseBlock };
    }
    const remoteId = await startCall(client, 'eth_chainId', []);
    if (remoteId !== chainId) throw new ForkStartError(`fork: ${client.label} answers chain id ${remoteId}, not ${chainId}, the chain it was given to fork`);
    const block = options.block ?? (await startCall(client, 'eth_blockNumber', []));
    // Asked every time a fork starts afresh: its hash tells whether the cache's answers are about this block.
    const baseBlock = (await startCall(client, 'eth_getBlockByNumber', [`0x${block.toString(16)}`, false])) as RemoteJson | null;
    if (baseBlock === null) {
      const latest = await startCall(client, 'eth_blockNumber', []).catch(() => undefined);
      throw new ForkStartError(`fork: ${client.label} has no block ${block}${latest === undefined ? '' : ` (its latest is ${latest})`}`);
    }
    const hash = typeof baseBlock.hash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(baseBlock.hash) ? hexToBytes(baseBlock.hash as `0x${string}`) : undefined;
    if (hash === undefined) throw new ForkStartError(`fork: ${client.label} answered block ${block} without a hash`);
    const connection = connect(block, hash);
    await connection.remote.rememberForkBlock(baseBlock);
    await rememberForkHash(store, chainId, block, hash);
    return { connection, baseBlock };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A start-up question: an unreachable remote is said at once (a rate limit is still waited out). */
async function startCall(client: RemoteClient, method: 'eth_chainId' | 'eth_blockNumber', params: []): Promise<bigint>;
async function startCall(client: RemoteClient, method: 'eth_getBlockByNumber', params: unknown[]): Promise<unknown>;
async function startCall(client: RemoteClient, method: string, params: unknown[]): Promise<unknown> {
  try {
    const result = await client.call(method, params, false);
    return method === 'eth_getBlockByNumber' ? result : parseQuantity(result, method);
  } catch (err) {
    if (err instanceof RemoteError) throw new ForkStartError(`fork: the remote ${client.label} is unreachable or failed: ${err.message}`, { cause: err });
    throw err;
  }
}
