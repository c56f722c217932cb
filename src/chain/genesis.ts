/**
 * Genesis configuration, read from `<network>.genesis.json` (tracked in chain-data/, editable by
 * users) and turned into the genesis block and state.
 */
import { readFile } from 'node:fs/promises';
import { hexToBytes } from '@ethereumjs/util';

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
