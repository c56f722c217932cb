/**
 * The regtest genesis federation's private keys, as rootstock-integration-tests ships them
 * (config/node-keys/genesis-federation/fed1..3.key, read at 323b52f). Each member uses one key
 * for BTC, RSK and MST, so each key's public key is one of rskj's BridgeRegTestConstants
 * DEFAULT_FEDERATION_PUBLIC_KEYS, and its RSK address is the federator's (RSKIP415): fed1
 * 0x85845342…1925, fed2 0x138161cd…5fbe, fed3 0x6b045752…7f5b (test/unit/federators.test.ts
 * derives them). Public on purpose, like the dev accounts' keys: a devnode's federation is yours.
 */
import { hexToBytes } from '@noble/hashes/utils.js';
import type { NodeAccount } from './accounts.js';

export const FEDERATORS: readonly NodeAccount[] = [
  { address: '0x85845342b0d5260d516d6da5280a7df9a96d1925', privateKey: hexToBytes('45c5b07fc1a6f58892615b7c31dca6c96db58c4bbc538a6b8a22999aaa860c32') },
  { address: '0x138161cda86b55c0de1bc3a0adef974633c85fbe', privateKey: hexToBytes('505334c7745df2fc61486dffb900784505776a898377172ffa77384892749179') },
  { address: '0x6b045752f4d650a510a353bbf7e52988331e7f5b', privateKey: hexToBytes('bed0af2ce8aa8cb2bc3f9416c9d518fdee15d1ff15b8ded28376fcb23db6db69') },
];
