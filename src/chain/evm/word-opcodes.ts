/**
 * CALLDATALOAD and KECCAK256 for `customOpcodes`: the stock gas and semantics, their words made
 * by evm/words.ts instead of through hex strings (see there). The stock logic
 * (opcodes/functions.ts of @ethereumjs/evm 10.1):
 * - CALLDATALOAD: a position past the call data pushes 0; else the 32 bytes from there, the
 *   missing ones read as zeros.
 * - KECCAK256: the Keccak-256 of memory `offset`..`offset + length` (read, so grown, as gas paid).
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { withStockGas } from './mstore.js';
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

/** KECCAK256 for `customOpcodes`: the stock gas function, the word without a hex string. */
export function keccak256Opcode(common: GasCommon): AddOpcode {
  return withStockGas(common, KECCAK256, (runState: RunState, opcodeCommon: GasCommon) => {
    const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
    const data = length === 0n ? EMPTY : runState.memory.read(Number(offset), Number(length));
    const crypto = (opcodeCommon as unknown as { customCrypto: { keccak256?: (data: Uint8Array) => Uint8Array } }).customCrypto;
    runState.stack.push(readWord((crypto.keccak256 ?? keccak_256)(data), 0));
  });
}
