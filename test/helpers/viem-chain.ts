/**
 * The node's testnet (chain 31) as a viem chain, for clients that need one (test, wallet and public
 * clients), and the chain's constants the viem tests share.
 */
import { defineChain, type Address, type Chain } from 'viem';

/** The REMASC native contract, where rskj sends every block's fees. */
export const REMASC: Address = '0x0000000000000000000000000000000001000008';
export const ZERO: Address = '0x0000000000000000000000000000000000000000';
/** A new chain's minimum gas price in wei (genesis, --min-gas-price's default): the least a transaction may pay. */
export const MIN_GAS_PRICE = 60_000_000n;
/** One RBTC in wei. */
export const ETHER = 10n ** 18n;

/** The node's testnet at `url` as a viem chain. */
export function devnodeChain(url: string): Chain {
  return defineChain({
    id: 31,
    name: 'Rootstock devnode (testnet)',
    nativeCurrency: { name: 'Rootstock Bitcoin', symbol: 'RBTC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}
