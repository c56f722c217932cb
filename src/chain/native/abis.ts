/**
 * JSON ABIs of the native contracts that @rsksmart/rsk-precompiled-abis does not publish (it ships
 * only the Bridge and HDWalletUtils): the one copy, read by the explorer (to decode calls) and by
 * the tests (to call the contracts with ethers). Written from rskj's method signatures, which are
 * the ABI (CallTransaction.Function.fromSignature(name, inputs, outputs)):
 * - BlockHeader: rskj-core/src/main/java/co/rsk/pcc/blockheader/Get*.java (every method takes an
 *   int256 block depth, getUncleCoinbaseAddress also an int256 uncle index, and returns bytes).
 * - Environment: rskj-core/src/main/java/co/rsk/pcc/environment/GetCallStackDepth.java.
 * - REMASC: co/rsk/remasc/RemascContract.java (processMinersFees(), which empty call data also
 *   runs, and getStateForDebugging() → bytes).
 * secp256k1 add/mul (RSKIP516) are plain precompiles without an ABI (raw 128/96-byte input).
 */
import { bytesToHex } from '@ethereumjs/util';
import { REMASC_ADDRESS } from '../base/addresses.js';
import { BLOCK_HEADER_ADDRESS } from './block-header.js';
import { ENVIRONMENT_ADDRESS } from './environment.js';

export interface AbiParam {
  name: string;
  type: string;
}
export interface AbiFunction {
  type: 'function';
  name: string;
  inputs: AbiParam[];
  outputs: AbiParam[];
  stateMutability: 'view' | 'nonpayable';
}

const fn = (name: string, inputs: AbiParam[], outputs: string[], stateMutability: AbiFunction['stateMutability'] = 'view'): AbiFunction => ({
  type: 'function',
  name,
  inputs,
  outputs: outputs.map((type) => ({ name: '', type })),
  stateMutability,
});
const depth = { name: 'blockDepth', type: 'int256' };

export const BLOCK_HEADER_ABI: AbiFunction[] = [
  fn('getCoinbaseAddress', [depth], ['bytes']),
  fn('getBlockHash', [depth], ['bytes']),
  fn('getMergedMiningTags', [depth], ['bytes']),
  fn('getMinGasPrice', [depth], ['bytes']),
  fn('getGasLimit', [depth], ['bytes']),
  fn('getGasUsed', [depth], ['bytes']),
  fn('getDifficulty', [depth], ['bytes']),
  fn('getBitcoinHeader', [depth], ['bytes']),
  fn('getUncleCoinbaseAddress', [depth, { name: 'uncleIndex', type: 'int256' }], ['bytes']),
  fn('getDifficultyWithUncles', [depth], ['bytes']),
  fn('getCumulativeWork', [depth], ['bytes']),
];

export const ENVIRONMENT_ABI: AbiFunction[] = [fn('getCallStackDepth', [], ['uint32'])];

export const REMASC_ABI: AbiFunction[] = [
  fn('processMinersFees', [], [], 'nonpayable'),
  fn('getStateForDebugging', [], ['bytes']),
];

/**
 * The native contracts above by address (0x-prefixed, lower case), with the name the registry
 * gives them; `emptyData` is the function empty call data runs (REMASC's processMinersFees:
 * RemascContract.getFunction; every REMASC transaction sends no data).
 */
export const UNPUBLISHED_NATIVE_ABIS: readonly { address: string; name: string; abi: readonly AbiFunction[]; emptyData?: string }[] = [
  { address: bytesToHex(REMASC_ADDRESS), name: 'REMASC', abi: REMASC_ABI, emptyData: 'processMinersFees' },
  { address: bytesToHex(BLOCK_HEADER_ADDRESS), name: 'BlockHeader', abi: BLOCK_HEADER_ABI },
  { address: bytesToHex(ENVIRONMENT_ADDRESS), name: 'Environment', abi: ENVIRONMENT_ABI },
];
