/**
 * Genesis configuration, read from `<network>.genesis.json` (tracked in chain-data/, editable by
 * users) and turned into the genesis block and state.
 */
import { readFile } from 'node:fs/promises';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, KECCAK256_RLP, KECCAK256_RLP_ARRAY, hexToBytes } from '@ethereumjs/util';
import { type RskBlock, blockRlpLength } from './block.js';
import { type RskHeader, baseHashForMergedMining, blockHash } from './header.js';

export interface GenesisConfig {
  chainId: number;
  timestamp: bigint;
  coinbase: Uint8Array;
  extraData: Uint8Array;
  gasLimit: bigint;
  difficulty: bigint;
  minimumGasPrice: bigint;
  /** address (0x hex, lower case) -> balance in wei */
  alloc: Map<string, bigint>;
}

interface GenesisJson {
  chainId: number;
  timestamp: string;
  coinbase: string;
  extraData: string;
  gasLimit: string;
  difficulty: string;
  minimumGasPrice: string;
  alloc: Record<string, { balance: string }>;
}

export async function readGenesisFile(path: string): Promise<GenesisConfig> {
  const json = JSON.parse(await readFile(path, 'utf8')) as GenesisJson;
  const field = (name: keyof GenesisJson) => {
    if (json[name] === undefined) throw new Error(`${path}: missing field "${name}"`);
    return json[name];
  };
  return {
    chainId: Number(field('chainId')),
    timestamp: BigInt(field('timestamp') as string),
    coinbase: hexToBytes(field('coinbase') as `0x${string}`),
    extraData: hexToBytes(field('extraData') as `0x${string}`),
    gasLimit: BigInt(field('gasLimit') as string),
    difficulty: BigInt(field('difficulty') as string),
    minimumGasPrice: BigInt(field('minimumGasPrice') as string),
    alloc: new Map(Object.entries(json.alloc ?? {}).map(([address, { balance }]) => [address.toLowerCase(), BigInt(balance)])),
  };
}

/**
 * Writes the genesis allocation into `state` (an empty trie) and returns the genesis block, as
 * rskj's rsk-dev.json describes it: no merged-mining fields, no transactions.
 */
export async function buildGenesisBlock(
  genesis: GenesisConfig,
  state: MerkleStateManager,
  overrides: { gasLimit: bigint | undefined; minimumGasPrice: bigint | undefined },
): Promise<RskBlock> {
  for (const [address, balance] of genesis.alloc) {
    await state.putAccount(new Address(hexToBytes(address as `0x${string}`)), new Account(0n, balance));
  }
  const empty = new Uint8Array(0);
  const header: RskHeader = {
    parentHash: new Uint8Array(32),
    unclesHash: KECCAK256_RLP_ARRAY,
    coinbase: genesis.coinbase,
    stateRoot: await state.getStateRoot(),
    txTrieRoot: KECCAK256_RLP,
    receiptTrieRoot: KECCAK256_RLP,
    logsBloom: new Uint8Array(256),
    difficulty: genesis.difficulty,
    number: 0n,
    gasLimit: overrides.gasLimit ?? genesis.gasLimit,
    gasUsed: 0n,
    timestamp: genesis.timestamp,
    extraData: genesis.extraData,
    paidFees: 0n,
    minimumGasPrice: overrides.minimumGasPrice ?? genesis.minimumGasPrice,
    uncleCount: 0,
    ummRoot: empty,
    bitcoinMergedMiningHeader: empty,
    bitcoinMergedMiningMerkleProof: empty,
    bitcoinMergedMiningCoinbaseTransaction: empty,
  };
  return {
    header,
    hash: blockHash(header),
    hashForMergedMining: baseHashForMergedMining(header),
    transactions: [],
    size: blockRlpLength(header, []),
    totalDifficulty: header.difficulty,
  };
}
