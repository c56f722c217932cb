import { method } from '../context.js';
import { noParams } from '../params.js';

export const netMethods = [
  method(
    'net_version',
    'Network id as a decimal string (30 mainnet, 31 testnet).',
    noParams,
    (ctx) => ctx.chain.chainId.toString(),
  ),
  method(
    'net_listening',
    'Always true: the node is serving.',
    noParams,
    () => true,
  ),
  method(
    'net_peerCount',
    'Connected peers: always 0x0 on a local node.',
    noParams,
    () => '0x0',
  ),
  method(
    'net_peerList',
    'Connected peers as "<id> | <host>/<ip>:<port>" strings: none on a local node.',
    noParams,
    () => [],
  ),
];
