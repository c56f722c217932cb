/**
 * JSON ABIs of the native contracts that @rsksmart/rsk-precompiled-abis does not publish (it ships
 * only the Bridge and HDWalletUtils). Written from rskj's method signatures, which are the ABI
 * (CallTransaction.Function.fromSignature(name, inputs, outputs)):
 * - BlockHeader: rskj-core/src/main/java/co/rsk/pcc/blockheader/Get*.java (every method takes an
 *   int256 block depth, getUncleCoinbaseAddress also an int256 uncle index, and returns bytes).
 * - Environment: rskj-core/src/main/java/co/rsk/pcc/environment/GetCallStackDepth.java.
 * secp256k1 add/mul (RSKIP516) are plain precompiles without an ABI (raw 128/96-byte input).
 */

interface AbiParam {
  name: string;
  type: string;
}
export interface AbiFunction {
  type: 'function';
  name: string;
  inputs: AbiParam[];
  outputs: AbiParam[];
  stateMutability: 'view';
}

const fn = (name: string, inputs: AbiParam[], output: string): AbiFunction => ({
  type: 'function',
  name,
  inputs,
  outputs: [{ name: '', type: output }],
  stateMutability: 'view',
});
const depth = { name: 'blockDepth', type: 'int256' };

export const BLOCK_HEADER_ABI: AbiFunction[] = [
  fn('getCoinbaseAddress', [depth], 'bytes'),
  fn('getBlockHash', [depth], 'bytes'),
  fn('getMergedMiningTags', [depth], 'bytes'),
  fn('getMinGasPrice', [depth], 'bytes'),
  fn('getGasLimit', [depth], 'bytes'),
  fn('getGasUsed', [depth], 'bytes'),
  fn('getDifficulty', [depth], 'bytes'),
  fn('getBitcoinHeader', [depth], 'bytes'),
  fn('getUncleCoinbaseAddress', [depth, { name: 'uncleIndex', type: 'int256' }], 'bytes'),
  fn('getDifficultyWithUncles', [depth], 'bytes'),
  fn('getCumulativeWork', [depth], 'bytes'),
];

export const ENVIRONMENT_ABI: AbiFunction[] = [fn('getCallStackDepth', [], 'uint32')];
