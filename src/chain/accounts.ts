/**
 * The keys the node holds: rskj's regtest dev accounts (key = keccak256 of 'cow', 'cow1', ...
 * 'cow9') and its regtest miner account, in the order rskj's wallet lists them (reference 3).
 */
import { utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from './hash.js';

export interface NodeAccount {
  /** 0x lower-case hex */
  address: string;
  privateKey: Uint8Array;
}

/**
 * Seed and address of each account. The addresses are precomputed (test/unit/accounts.test.ts
 * derives them from the keys): deriving them at start-up cost the elliptic-curve set-up, a
 * noticeable part of the node's cold start.
 */
const DEV_SEEDS: readonly (readonly [seed: string, address: string])[] = [
  ['cow', '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826'],
  ['cow1', '0x7986b3df570230288501eea3d890bd66948c9b79'],
  ['cow2', '0x0a3aa774752ec2042c46548456c094a76c7f3a79'],
  ['cow3', '0xcf7cdbbb5f7ba79d3ffe74a0bba13fc0295f6036'],
  ['cow4', '0x39b12c05e8503356e3a7df0b7b33efa4c054c409'],
  ['cow5', '0xc354d97642faa06781b76ffb6786f72cd7746c97'],
  ['cow6', '0xdebe71e1de41fc77c44df4b6db940026e31b0e71'],
  ['cow7', '0x7857288e171c6159c5576d1bd9ac40c0c48a771c'],
  ['cow8', '0xa4dea4d5c954f5fd9e87f0e9752911e83a3d18b3'],
  ['cow9', '0x09a1eda29f664ac8f68106f6567276df0c65d859'],
];
const MINER_SEED = 'regtest_miner_secret_please_change';
const MINER_ADDRESS = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';

function account(seed: string, address: string): NodeAccount {
  return { address, privateKey: keccak256(utf8ToBytes(seed)) };
}

export const DEV_ACCOUNTS: readonly NodeAccount[] = DEV_SEEDS.map(([seed, address]) => account(seed, address));
export const MINER_ACCOUNT: NodeAccount = account(MINER_SEED, MINER_ADDRESS);
