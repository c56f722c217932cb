/**
 * getBtcTransactionConfirmations(txHash, blockHash, merkleBranchPath, merkleBranchHashes) (RSKIP122),
 * which Flyover's contracts call on chain: rskj's BridgeSupport.getBtcTransactionConfirmations and
 * its gas (getBtcTransactionConfirmationsGetCost), against the Bridge's BTC chain (the network's
 * Bitcoin chain, see ./state.ts). Hashes are in display order (bitcoinj Sha256Hash.wrap).
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { javaInt, sha256d } from '../../base/bytes.js';
import { reversed } from '../../bitcoin/encoding.js';
import type { AbiValue } from '../abi.js';
import type { BridgeBtcSource } from './state.js';

/** BridgeSupport BTC_TRANSACTION_CONFIRMATION_* codes. */
export const CONFIRMATIONS_INEXISTENT_BLOCK_HASH = -1n;
export const CONFIRMATIONS_BLOCK_TOO_OLD = -4n;
export const CONFIRMATIONS_INVALID_MERKLE_BRANCH = -5n;
/** BTC_TRANSACTION_CONFIRMATION_MAX_DEPTH: a month of blocks (6 an hour), to bound the search. */
const MAX_DEPTH = 4_320;
/** MerkleBranch: at most 32 hashes (its constructor throws above). */
const MAX_BRANCH_HASHES = 32;
/** getBtcTransactionConfirmationsGetCost: base, per block of depth, per hash of the branch (2 x 72). */
const BASIC_COST = 27_000n;
const STEP_COST = 315n;
const DOUBLE_HASH_COST = 144n;

function depthOf(btc: BridgeBtcSource, displayHash: Uint8Array): number | undefined {
  const block = btc.blockByHash(reversed(displayHash));
  return block === undefined ? undefined : Math.max(0, btc.tip.height - block.height);
}

/** The method's gas: the basic cost for an unknown or too deep block, else base + depth and branch steps. */
export function confirmationsCost(args: AbiValue[], btc: BridgeBtcSource): bigint {
  const depth = depthOf(btc, args[1] as Uint8Array);
  if (depth === undefined || depth > MAX_DEPTH) return BASIC_COST;
  return BASIC_COST + BigInt(depth) * STEP_COST + BigInt((args[3] as Uint8Array[]).length) * DOUBLE_HASH_COST;
}

/** rskj org.ethereum.util.Utils.significantBitCount: 0 for a negative int (its loop runs while > 0). */
function significantBits(n: number): number {
  return n > 0 ? 32 - Math.clz32(n) : 0;
}

/** MerkleTreeUtils.combineLeftRight on display-order hashes: the parent, in display order. */
function combine(left: Uint8Array, right: Uint8Array): Uint8Array {
  return reversed(sha256d(concatBytes(reversed(left), reversed(right))));
}

/**
 * The confirmations of the block when the branch proves the transaction in it, else rskj's code;
 * undefined where rskj throws (a branch MerkleBranch refuses), which fails the call.
 */
export async function btcTransactionConfirmations(
  args: AbiValue[],
  btc: BridgeBtcSource,
  witnessRootOf: (blockHash: Uint8Array) => Promise<Uint8Array | undefined>,
): Promise<bigint | undefined> {
  const [txHash, blockHash, pathWord, hashes] = args as [Uint8Array, Uint8Array, bigint, Uint8Array[]];
  const path = javaInt(pathWord);
  if (hashes.length > MAX_BRANCH_HASHES || significantBits(path) > hashes.length) return undefined;
  const block = btc.blockByHash(reversed(blockHash));
  if (block === undefined) return CONFIRMATIONS_INEXISTENT_BLOCK_HASH;
  if (btc.tip.height - block.height > MAX_DEPTH) return CONFIRMATIONS_BLOCK_TOO_OLD;
  // The local chain has no side branches: every known block is in the best chain (code -2 never arises).
  let current = txHash;
  hashes.forEach((hash, i) => {
    current = ((path >> i) & 1) === 1 ? combine(hash, current) : combine(current, hash);
  });
  // BridgeSupport.isBlockMerkleRootValid: the header's root, or (RSKIP143) the witness root that
  // registerBtcCoinbaseTransaction recorded for the block, which proves a segwit tx by its wtxid.
  const proves = (root: Uint8Array | undefined) => root !== undefined && root.length === 32 && root.every((b, i) => b === current[i]);
  if (!proves(reversed(block.header.subarray(36, 68)))) {
    const witnessRoot = await witnessRootOf(block.hash); // internal order
    if (!proves(witnessRoot && reversed(witnessRoot))) return CONFIRMATIONS_INVALID_MERKLE_BRANCH;
  }
  return BigInt(btc.tip.height - block.height + 1);
}
