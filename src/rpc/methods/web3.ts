import { bytesToHex } from '@ethereumjs/util';
import { keccak256 } from '../../chain/index.js';
import { method } from '../context.js';
import { data, noParams, params } from '../params.js';

export const web3Methods = [
  method(
    'web3_clientVersion',
    'Node software version string.',
    noParams,
    (ctx) => ctx.options.clientVersion,
  ),
  method(
    'web3_sha3',
    'Keccak-256 of the given data.',
    params([data]),
    (_ctx, [input]) => bytesToHex(keccak256(input)),
  ),
];
