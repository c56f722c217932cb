/**
 * The remote's blocks as block records, for what the EVM and the native contracts read of blocks
 * up to the fork block: BLOCKHASH, and the BlockHeader contract's header fields.
 */
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY, hexToBytes } from '@ethereumjs/util';
import { type RskBlock, blockRlpLength } from '../records/block.js';
import type { RskHeader } from '../records/header.js';
import { RemoteError } from './remote-client.js';
import type { RemoteJson, RemoteState } from './remote-state.js';

const bytes = (value: unknown, fallback: Uint8Array = new Uint8Array(0)) => (typeof value === 'string' && value.startsWith('0x') ? hexToBytes(value as `0x${string}`) : fallback);
const big = (value: unknown, fallback = 0n) => (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) ? BigInt(value) : fallback);

/**
 * A remote block (eth_getBlockByNumber's JSON, rskj's BlockResultDTO) as the chain's block
 * record: the remote's hash kept, as it cannot be recomputed from these fields. `stateRoot`
 * replaces the remote's (the fork's first block stands on a local state); the transactions are
 * left out (reads of the remote's blocks go to the remote).
 */
export function rskBlockFromJson(json: RemoteJson, stateRoot?: Uint8Array): RskBlock {
  const hash = bytes(json.hash);
  if (hash.length !== 32) throw new RemoteError(`fork: a remote block has no hash: ${JSON.stringify(json).slice(0, 200)}`);
  const header: RskHeader = {
    parentHash: bytes(json.parentHash, new Uint8Array(32)),
    unclesHash: bytes(json.sha3Uncles, KECCAK256_RLP_ARRAY),
    coinbase: bytes(json.miner, new Uint8Array(20)),
    stateRoot: stateRoot ?? bytes(json.stateRoot, KECCAK256_RLP),
    txTrieRoot: bytes(json.transactionsRoot, KECCAK256_RLP),
    receiptTrieRoot: bytes(json.receiptsRoot, KECCAK256_RLP),
    logsBloom: bytes(json.logsBloom, new Uint8Array(256)),
    difficulty: big(json.difficulty),
    number: big(json.number),
    gasLimit: big(json.gasLimit),
    gasUsed: big(json.gasUsed),
    timestamp: big(json.timestamp),
    extraData: bytes(json.extraData),
    paidFees: big(json.paidFees),
    minimumGasPrice: big(json.minimumGasPrice),
    uncleCount: Array.isArray(json.uncles) ? json.uncles.length : 0,
    ummRoot: new Uint8Array(0),
    bitcoinMergedMiningHeader: bytes(json.bitcoinMergedMiningHeader),
    bitcoinMergedMiningMerkleProof: bytes(json.bitcoinMergedMiningMerkleProof),
    bitcoinMergedMiningCoinbaseTransaction: bytes(json.bitcoinMergedMiningCoinbaseTransaction),
  };
  return {
    header,
    hash,
    hashForMergedMining: bytes(json.hashForMergedMining, new Uint8Array(32)),
    transactions: [],
    size: Number(big(json.size, BigInt(blockRlpLength(header, [])))),
    totalDifficulty: big(json.totalDifficulty, header.difficulty),
  };
}

/** The remote's block `number` (below the fork block) as a block record; undefined if it has none. */
export async function remoteBlockRecord(remote: RemoteState, number: bigint): Promise<RskBlock | undefined> {
  const json = await remote.blockByNumber(number, false);
  return json === null ? undefined : rskBlockFromJson(json);
}
