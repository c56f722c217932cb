/**
 * Starting a fork: the remote is asked its chain id and (without --fork-block) its latest block,
 * and must have the fork block; each failure says which. A fork resumed from its data directory
 * asks nothing: it knows its chain id and block, and reads go through the cache.
 */
import { ForkCache, type CacheStore, openCacheDir } from './cache.js';
import { RemoteClient, RemoteError } from './remote-client.js';
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
  readonly url: string | undefined;
  readonly remote: RemoteState;
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
    throw new ForkStartError(`fork: the remote ${url} is unreachable or failed: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Connects a fork of the chain `chainId`: at `resumeBlock` (a fork kept in the data directory)
 * without asking the remote anything, else at `options.block` or the remote's latest, checked.
 * `chainStore` is the chain's own database, where the cache lives unless `options.cacheDir`.
 */
export async function connectFork(
  options: ForkOptions,
  chainId: bigint,
  chainStore: CacheStore,
  resumeBlock: bigint | undefined,
): Promise<{ connection: ForkConnection; baseBlock: RemoteJson | undefined }> {
  const client = clientFor(options);
  const url = options.url;
  const cacheDb = options.cacheDir === undefined ? undefined : await openCacheDir(options.cacheDir);
  const close = async () => cacheDb?.close();
  try {
    let block = resumeBlock ?? options.block;
    if (resumeBlock === undefined && client !== undefined) {
      const remoteId = await startCall(client, 'eth_chainId');
      if (remoteId !== chainId) {
        throw new ForkStartError(`fork: ${url} answers chain id ${remoteId}, not ${chainId}, the chain it was given to fork`);
      }
      block ??= await startCall(client, 'eth_blockNumber');
    }
    if (block === undefined) throw new ForkStartError('fork: --fork-offline needs --fork-block N (the block a cached fork was made at)');
    const remote = new RemoteState(client, new ForkCache(cacheDb ?? chainStore, chainId, block), block);
    const connection: ForkConnection = { chainId, blockNumber: block, url, remote, close };
    if (resumeBlock !== undefined) return { connection, baseBlock: undefined };
    const baseBlock = await remote.blockByNumber(block, false).catch((err: unknown) => {
      throw new ForkStartError(`fork: cannot read the fork block ${block}: ${(err as Error).message}`, { cause: err });
    });
    if (baseBlock === null) {
      const latest = client === undefined ? undefined : await startCall(client, 'eth_blockNumber').catch(() => undefined);
      throw new ForkStartError(`fork: ${url ?? 'the fork cache'} has no block ${block}${latest === undefined ? '' : ` (its latest is ${latest})`}`);
    }
    return { connection, baseBlock };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A start-up question: an unreachable remote is said at once (a rate limit is still waited out). */
async function startCall(client: RemoteClient, method: 'eth_chainId' | 'eth_blockNumber'): Promise<bigint> {
  try {
    return parseQuantity(await client.call(method, [], false), method);
  } catch (err) {
    if (err instanceof RemoteError) throw new ForkStartError(`fork: the remote ${client.url} is unreachable or failed: ${err.message}`, { cause: err });
    throw err;
  }
}
