/**
 * BlockHeader native contract, 0x0000000000000000000000000000000001000010 (RSKIP119): reads this
 * node's own blocks by depth. rskj: co/rsk/pcc/blockheader/*.java.
 *
 * - Depth 0 is the parent of the executing block (BlockAccessor: getBlockAtDepthStartingAt(depth,
 *   executionBlock.parentHash)). The executing block is the one being mined, or the block eth_call
 *   runs on.
 * - The depth is an int256 that must fit a Java short (BlockHeaderContractMethod:
 *   `shortValueExact`), else the answer is empty bytes; a negative depth fails the call
 *   ("Invalid block depth"); depth ≥ 4,000 (BlockHeaderContract.MAX_DEPTH, the REMASC maturity) or
 *   before genesis answers empty bytes. "Empty bytes" is an ABI-encoded `bytes` of length 0.
 * - Every method returns `bytes`; numbers are Java `BigInteger.toByteArray()` (Coin.getBytes,
 *   BlockDifficulty.getBytes, GetGasUsed), so 0 is one byte 0x00 and a value with its top bit set
 *   gets a leading 0x00; the gas limit is the header's own bytes (Block.getGasLimit), here the
 *   minimal big-endian bytes header.ts encodes. rskj's miner writes `BigInteger.toByteArray()`
 *   (BlockToMineBuilder), which differs only for a gas limit whose top byte is ≥ 0x80 (e.g.
 *   ≥ 8,388,608 in three bytes); regtest's 6,800,000 (0x67c280) is the same either way.
 * - Gas: 4,000 + 2 per byte of call data (BlockHeaderContractMethod.getGas).
 * - getDifficultyWithUncles and getCumulativeWork are RSKIP536 (reed810, active on regtest from
 *   genesis: reference.conf, config/regtest.conf).
 * - This node mines no uncles, so getUncleCoinbaseAddress answers empty bytes for any index ≥ 0.
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import { lastIndexOf } from '../base/bytes.js';
import { type AbiType, type AbiValue, encodeBytes, javaBigIntegerBytes } from './abi.js';
import { type NativeMethod, NativeMethodError, dataGas, nativeContract } from './method.js';
import type { NativeCall } from './types.js';

export const BLOCK_HEADER_ADDRESS = Uint8Array.from([...new Uint8Array(16), 0x01, 0x00, 0x00, 0x10]);

/** BlockHeaderContract.MAX_DEPTH ("See: REMASC Maturity"). */
export const BLOCK_HEADER_MAX_DEPTH = 4000n;

/** RskMiningConstants.RSK_TAG ("RSKBLOCK:") and BLOCK_HEADER_HASH_SIZE. */
const RSK_TAG = new TextEncoder().encode('RSKBLOCK:');
const BLOCK_HEADER_HASH_SIZE = 32;
const SHORT_MIN = -32768n;
const SHORT_MAX = 32767n;
const EMPTY = new Uint8Array(0);

/** The block at `depth` below the executing block's parent, or undefined where rskj answers empty bytes. */
async function blockAtDepth(depthArg: bigint, call: NativeCall): Promise<RskBlock | undefined> {
  if (depthArg < SHORT_MIN || depthArg > SHORT_MAX) return undefined;
  if (depthArg < 0n) throw new NativeMethodError(`Invalid block depth '${depthArg}' (should be a non-negative value)`);
  if (depthArg >= BLOCK_HEADER_MAX_DEPTH) return undefined;
  const number = call.block.number - 1n - depthArg;
  if (number < 0n) return undefined;
  if (call.blockAt === undefined) throw new Error('BlockHeader: NativeCall.blockAt is required');
  return call.blockAt(number);
}

/** GetMergedMiningTags: what follows "RSKBLOCK:" + the 32-byte hash in the merged-mining coinbase. */
export function mergedMiningTags(coinbaseTransaction: Uint8Array): Uint8Array {
  const at = lastIndexOf(coinbaseTransaction, RSK_TAG);
  if (at === -1) return EMPTY;
  const start = at + RSK_TAG.length + BLOCK_HEADER_HASH_SIZE;
  // Arrays.copyOfRange throws when the tag sits too close to the end for a whole hash.
  if (start > coinbaseTransaction.length) throw new NativeMethodError('merged-mining coinbase ends inside the RSK tag');
  return coinbaseTransaction.slice(start);
}

function byDepth(name: string, read: (block: RskBlock, args: AbiValue[]) => Uint8Array, inputs: readonly AbiType[] = ['int256']): NativeMethod {
  return {
    name,
    inputs,
    gas: (_args, data) => 4000n + dataGas(data),
    async execute(args, call) {
      const block = await blockAtDepth(args[0] as bigint, call);
      return encodeBytes(block === undefined ? EMPTY : read(block, args));
    },
  };
}

const methods: NativeMethod[] = [
  byDepth('getCoinbaseAddress', (b) => b.header.coinbase),
  byDepth('getBlockHash', (b) => b.hash),
  byDepth('getMergedMiningTags', (b) => mergedMiningTags(b.header.bitcoinMergedMiningCoinbaseTransaction)),
  byDepth('getMinGasPrice', (b) => javaBigIntegerBytes(b.header.minimumGasPrice)),
  byDepth('getGasLimit', (b) => bigIntToUnpaddedBytes(b.header.gasLimit)),
  byDepth('getGasUsed', (b) => javaBigIntegerBytes(b.header.gasUsed)),
  byDepth('getDifficulty', (b) => javaBigIntegerBytes(b.header.difficulty)),
  byDepth('getBitcoinHeader', (b) => b.header.bitcoinMergedMiningHeader),
  byDepth(
    'getUncleCoinbaseAddress',
    (_b, args) => {
      const index = args[1] as bigint;
      if (index < SHORT_MIN || index > SHORT_MAX) return EMPTY;
      if (index < 0n) throw new NativeMethodError(`Invalid uncle index '${index}' (should be a non-negative value)`);
      // No uncles are ever mined on this node: every index is past the end of the list.
      return EMPTY;
    },
    ['int256', 'int256'],
  ),
  // Block.getCumulativeDifficulty: the block's difficulty plus its uncles' (none here).
  byDepth('getDifficultyWithUncles', (b) => javaBigIntegerBytes(b.header.difficulty)),
  // BlockStore.getTotalDifficultyForHash.
  byDepth('getCumulativeWork', (b) => javaBigIntegerBytes(b.totalDifficulty)),
];

export const blockHeaderContract = nativeContract(BLOCK_HEADER_ADDRESS, 'BlockHeader', methods);
