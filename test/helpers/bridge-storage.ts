/**
 * Test-only access to the Bridge's storage over the node's generic dev methods (eth_getStorageAt,
 * hardhat_setStorageAt), laid out by the node's own BridgeStorage. For seeding federation UTXOs
 * before a peg-in can create them, and for reading what a federator's client reads.
 */
import { Account, type Address } from '@ethereumjs/util';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { BridgeStorage, type BridgeStateAccess } from '../../src/chain/native/bridge/storage.js';
import { call } from './node.js';

/** A BridgeStorage whose reads and writes go to the node at `url`, latest block. */
export function bridgeStorageOverRpc(url: string): BridgeStorage {
  const state: BridgeStateAccess = {
    getAccount: async () => new Account(),
    putAccount: async () => undefined,
    getStorage: async (address: Address, key: Uint8Array) =>
      hexToBytes((await call(url, 'eth_getStorageAt', [address.toString(), `0x${bytesToHex(key)}`, 'latest'])).slice(2)),
    putStorage: async (address: Address, key: Uint8Array, value: Uint8Array) => {
      const word = new Uint8Array(32);
      word.set(value, 32 - value.length);
      await call(url, 'hardhat_setStorageAt', [address.toString(), `0x${bytesToHex(key)}`, `0x${bytesToHex(word)}`]);
    },
  };
  return new BridgeStorage(state);
}
