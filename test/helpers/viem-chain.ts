/** The node's testnet (chain 31) as a viem chain, for clients that need one (test, wallet and public clients). */
import { defineChain, type Chain } from 'viem';

export function devnodeChain(url: string): Chain {
  return defineChain({
    id: 31,
    name: 'Rootstock devnode (testnet)',
    nativeCurrency: { name: 'Rootstock Bitcoin', symbol: 'RBTC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}
