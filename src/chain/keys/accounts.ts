/**
 * The keys the node holds: rskj's regtest dev accounts (key = keccak256 of 'cow', 'cow1', ...
 * 'cow9') and its regtest miner account, in the order rskj's wallet lists them (reference 3).
 */
import { hexToBytes } from '@ethereumjs/util';

export interface NodeAccount {
  /** 0x lower-case hex */
  address: string;
  privateKey: Uint8Array;
}

/**
 * An account as rskj makes it: the seed, its key (keccak256 of the seed) and the key's address.
 * Keys and addresses are precomputed (test/unit/accounts.test.ts derives them from the seeds):
 * deriving them at start-up cost the elliptic-curve set-up and a dozen Keccak runs before the JIT
 * had warmed up, a noticeable part of the node's cold start.
 */
export type AccountSource = readonly [seed: string, privateKey: `0x${string}`, address: string];

export const DEV_ACCOUNT_SOURCES: readonly AccountSource[] = [
  ['cow', '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4', '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826'],
  ['cow1', '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae', '0x7986b3df570230288501eea3d890bd66948c9b79'],
  ['cow2', '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d', '0x0a3aa774752ec2042c46548456c094a76c7f3a79'],
  ['cow3', '0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75', '0xcf7cdbbb5f7ba79d3ffe74a0bba13fc0295f6036'],
  ['cow4', '0x3927ff59ac5da854e7633682792aae26e8f83b515c3c6dc7520b5733d4588b8a', '0x39b12c05e8503356e3a7df0b7b33efa4c054c409'],
  ['cow5', '0x20e4a6381bd3826a14f8da63653d94e7102b38eb5f929c7a94652f41fa7ba323', '0xc354d97642faa06781b76ffb6786f72cd7746c97'],
  ['cow6', '0xc1783a9a8222e47778911c58bb5aac1343eb425159ff140799e0a283bfb8fa16', '0xdebe71e1de41fc77c44df4b6db940026e31b0e71'],
  ['cow7', '0xe88b7bfb0b3ffe2245e3293e20901022ea01ebc19898dfe468289c9a07672627', '0x7857288e171c6159c5576d1bd9ac40c0c48a771c'],
  ['cow8', '0xd77b8a342be95c5c31fa85c20450b424663c4fb4a499cfc80c202c592c85c219', '0xa4dea4d5c954f5fd9e87f0e9752911e83a3d18b3'],
  ['cow9', '0x082f57b8084286a079aeb9f2d0e17e565ced44a2cb9ce4844e6d4b9d89f3f595', '0x09a1eda29f664ac8f68106f6567276df0c65d859'],
];
export const MINER_ACCOUNT_SOURCE: AccountSource = [
  'regtest_miner_secret_please_change',
  '0xbcf6db3716f6a1100ac34bc8e102be662e04b1f7f297094a35e9859ab20c4130',
  '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d',
];

const account = ([, privateKey, address]: AccountSource): NodeAccount => ({ address, privateKey: hexToBytes(privateKey) });

export const DEV_ACCOUNTS: readonly NodeAccount[] = DEV_ACCOUNT_SOURCES.map(account);
export const MINER_ACCOUNT: NodeAccount = account(MINER_ACCOUNT_SOURCE);
