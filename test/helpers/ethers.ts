/**
 * ethers' JsonRpcProvider as tests that read state across writes need it: with the request cache
 * off. ethers v6 answers a request identical to one sent in the last 250 ms (its default
 * cacheTimeout) from its own cache, so on a fast machine a read after a write (a balance, a nonce,
 * the block number) could be answered from before the write. cacheTimeout -1 sends every request.
 */
import { JsonRpcProvider, type FetchRequest, type JsonRpcApiProviderOptions, type Networkish } from 'ethers';

export function uncachedProvider(url: string | FetchRequest, network?: Networkish, options: JsonRpcApiProviderOptions = {}): JsonRpcProvider {
  return new JsonRpcProvider(url, network, { ...options, cacheTimeout: -1 });
}
