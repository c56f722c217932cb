/**
 * The miner's targets (`--min-gas-price`, `--block-gas-limit`): a flag sets them, else the values
 * kept in the chain's database, else the genesis values; each new block moves toward them
 * (economics.ts). They are stored so that later starts without the flags keep them.
 */
import type { RskBlock } from '../records/block.js';
import type { ChainStore } from '../storage/store.js';

const TARGETS_META = 'miner-targets';

export interface MinerTargets {
  minGasPrice: bigint;
  gasLimit: bigint;
}

export async function loadMinerTargets(store: ChainStore, flags: Partial<{ minGasPrice: bigint; blockGasLimit: bigint }>, genesis: RskBlock): Promise<MinerTargets> {
  const stored = await store.getMeta(TARGETS_META);
  const [storedMgp, storedGasLimit] = stored === undefined ? [undefined, undefined] : (JSON.parse(new TextDecoder().decode(stored)) as [string, string]);
  const targets = {
    minGasPrice: flags.minGasPrice ?? (storedMgp !== undefined ? BigInt(storedMgp) : genesis.header.minimumGasPrice),
    gasLimit: flags.blockGasLimit ?? (storedGasLimit !== undefined ? BigInt(storedGasLimit) : genesis.header.gasLimit),
  };
  await store.putMeta(TARGETS_META, new TextEncoder().encode(JSON.stringify([targets.minGasPrice.toString(), targets.gasLimit.toString()])));
  return targets;
}
