/**
 * CALLDATALOAD and KECCAK256 for `customOpcodes`: the stock gas and semantics, their words made
 * by evm/words.ts instead of through hex strings (see there). The stock logic
 * (opcodes/functions.ts of @ethereumjs/evm 10.1):
 * - CALLDATALOAD: a position past the call data pushes 0; else the 32 bytes from there, the
 *   missing ones read as zeros.
 * - KECCAK256: the Keccak-256 of memory `offset`..`offset + length` (read, so grown, as gas paid);
 *   its gas function as a plain function (mstore.ts `memoryGas`).
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { memoryGas, withStockGas } from './mstore.js';
import type { AddOpcode, GasCommon, RunState } from './types.js';
import { readWord, readWordPadded } from './words.js';

const KECCAK256 = 0x20;
const CALLDATALOAD = 0x35;
const EMPTY = new Uint8Array(0);

/** CALLDATALOAD for `customOpcodes`: its stock base fee (it has no gas function). */
export function calldataloadOpcode(common: GasCommon): AddOpcode {
  const info = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]).opcodes.get(CALLDATALOAD);
  if (info === undefined) throw new Error('the EVM has no CALLDATALOAD');
  return {
    opcode: CALLDATALOAD,
    opcodeName: info.name,
    baseFee: info.fee,
    logicFunction: (runState: RunState) => {
      const position = runState.stack.pop();
      const data = runState.interpreter.getCallData();
      runState.stack.push(position >= BigInt(data.length) ? 0n : readWordPadded(data, Number(position)));
    },
  };
}

/**
 * KECCAK256's gas function: the stock one (memory growth, then keccak256WordGas per word hashed) as a
 * plain function instead of an async one (see mstore.ts `memoryGas`).
 */
function keccak256Gas(runState: RunState, gas: bigint, common: GasCommon): bigint {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
  return gas + memoryGas(runState, offset, length, common) + common.param('keccak256WordGas') * ((length + 31n) / 32n);
}

/** KECCAK256's logic: the stock one, the word made by evm/words.ts. */
function keccak256(runState: RunState, common: GasCommon): void {
  const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
  const data = length === 0n ? EMPTY : runState.memory.read(Number(offset), Number(length));
  const crypto = (common as unknown as { customCrypto: { keccak256?: (data: Uint8Array) => Uint8Array } }).customCrypto;
  runState.stack.push(readWord((crypto.keccak256 ?? keccak_256)(data), 0));
}

/** KECCAK256 for `customOpcodes`: the stock base fee and gas, the word without a hex string. */
export function keccak256Opcode(common: GasCommon): AddOpcode {
  return { ...withStockGas(common, KECCAK256, keccak256), gasFunction: keccak256Gas };
}
