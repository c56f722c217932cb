/**
 * The keys the node holds: rskj's regtest dev accounts (key = keccak256 of 'cow', 'cow1', ...
 * 'cow9') and its regtest miner account, in the order rskj's wallet lists them (reference 3).
 */
import { bytesToHex, privateToAddress, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from './hash.js';

const DEV_SEEDS = ['cow', ...Array.from({ length: 9 }, (_, i) => `cow${i + 1}`)];
const MINER_SEED = 'regtest_miner_secret_please_change';

export interface NodeAccount {
  /** 0x lower-case hex */
  address: string;
  privateKey: Uint8Array;
}

function accountFromSeed(seed: string): NodeAccount {
  const privateKey = keccak256(utf8ToBytes(seed));
  return { address: bytesToHex(privateToAddress(privateKey)), privateKey };
}

export const DEV_ACCOUNTS: readonly NodeAccount[] = DEV_SEEDS.map(accountFromSeed);
export const MINER_ACCOUNT: NodeAccount = accountFromSeed(MINER_SEED);
