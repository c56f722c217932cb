/** eth_ methods about the node and network rather than chain data. */
import { bytesToHex } from '@ethereumjs/util';
import { method } from '../context.js';
import { quantity } from '../format.js';
import { noParams } from '../params.js';

/** rskj's eth_protocolVersion: the highest "rsk" capability, 62. */
const PROTOCOL_VERSION = '0x3e';

export const ethNodeMethods = [
  method(
    'eth_chainId',
    'Chain id: 0x1e mainnet, 0x1f testnet.',
    noParams,
    (ctx) => quantity(ctx.chain.chainId),
  ),
  method(
    'eth_protocolVersion',
    'RSK protocol version (0x3e, as rskj).',
    noParams,
    () => PROTOCOL_VERSION,
  ),
  method(
    'eth_syncing',
    'Always false: a local node has nothing to sync.',
    noParams,
    () => false,
  ),
  method(
    'eth_coinbase',
    "The miner's address: rskj's regtest miner account, or the one hardhat_/anvil_setCoinbase set.",
    noParams,
    (ctx) => bytesToHex(ctx.chain.coinbase),
  ),
  method(
    'eth_mining',
    'Whether the node mines blocks itself: false with --miner external (rskj: its miner client runs).',
    noParams,
    (ctx) => ctx.chain.minerMode === 'internal',
  ),
  method(
    'eth_gasPrice',
    "The latest block's minimum gas price times 1.1 (rskj's rpc.gasPriceMultiplier).",
    noParams,
    (ctx) => quantity(ctx.chain.gasPrice()),
  ),
  method(
    'eth_accounts',
    "Addresses whose keys the node holds: rskj's ten dev accounts, the miner account, then personal_ accounts (locked ones too).",
    noParams,
    (ctx) => ctx.chain.accounts.map((a) => a.address),
  ),
];
