/**
 * ethers' JsonRpcProvider as tests that read state across writes need it: with the request cache
 * off. ethers v6 answers a request identical to one sent in the last 250 ms (its default
 * cacheTimeout) from its own cache, so on a fast machine a read after a write (a balance, a nonce,
 * the block number) could be answered from before the write. cacheTimeout -1 sends every request.
 */
import { afterAll, beforeAll } from 'vitest';
import { JsonRpcProvider, Wallet, type FetchRequest, type JsonRpcApiProviderOptions, type Networkish } from 'ethers';
import type { NodeOptions } from '../../src/index.js';
import { COW, startTestNode, type TestNode } from './node.js';

export function uncachedProvider(url: string | FetchRequest, network?: Networkish, options: JsonRpcApiProviderOptions = {}): JsonRpcProvider {
  return new JsonRpcProvider(url, network, { ...options, cacheTimeout: -1 });
}

/** A test node with the provider and COW's wallet that most ethers tests drive it through. */
export interface EthersNode {
  t: TestNode;
  /** On the testnet URL, uncached, polling receipts every 50 ms. */
  provider: JsonRpcProvider;
  wallet: Wallet;
}

/**
 * Starts a node before the tests of the file or describe block it is called in, hands it to `use`,
 * and destroys the provider (its polling) and closes the node after them.
 */
export function ethersNodeForTests(use: (node: EthersNode) => void, options: NodeOptions = {}): void {
  let node: EthersNode | undefined;
  beforeAll(async () => {
    const t = await startTestNode(options);
    const provider = uncachedProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50 });
    node = { t, provider, wallet: new Wallet(COW.privateKey, provider) };
    use(node);
  });
  afterAll(async () => {
    node?.provider.destroy();
    await node?.t.close();
  });
}
