/**
 * MSTORE and MLOAD with the EVM's own gas functions and logic that works on the memory's store
 * directly. MLOAD's stock logic reads its word as a view through `memory.read(…, avoidCopy)`, which
 * evm/frame-pool.ts must treat as a view that may outlive the frame; here it reads the store, and
 * the frame's memory can be reused. MSTORE writes the word's 32 bytes straight into memory. The stock logic (opcodes/functions.ts) builds them with
 * `setLengthLeft(bigIntToBytes(word), 32)`: a hex string, an array, and for a word with leading
 * zero bytes (most: offsets, lengths, addresses) two array spreads through iterators; profiled on
 * eth_call it was the largest allocation left per call after the frame setup (evm/lean-evm.ts).
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import type { AddOpcode, GasCommon, RunState } from './types.js';
import { readWord } from './words.js';

const MLOAD = 0x51;
const MSTORE = 0x52;
const WORD_BYTES = 32;

/** The value of one lower-case hex digit. */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

/** Writes `word` (0 ≤ word < 2^256) big-endian into `store` at `at`..`at + 32`. */
export function writeWord(store: Uint8Array, at: number, word: bigint): void {
  const hex = word.toString(16);
  if (hex.length > 2 * WORD_BYTES) throw new Error('MSTORE: a stack word wider than 256 bits');
  let position = at + WORD_BYTES - ((hex.length + 1) >> 1);
  store.fill(0, at, position);
  let i = 0;
  if (hex.length % 2 === 1) {
    store[position++] = nibble(hex.charCodeAt(0));
    i = 1;
  }
  for (; i < hex.length; i += 2) store[position++] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
}

/** `opcode` for `customOpcodes` with the EVM's own base fee and gas function and `logic`. */
export function withStockGas(common: GasCommon, opcode: number, logic: AddOpcode['logicFunction']): AddOpcode {
  const { dynamicGasHandlers, opcodes } = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]);
  const gas = dynamicGasHandlers.get(opcode) as AddOpcode['gasFunction'] | undefined;
  const info = opcodes.get(opcode);
  if (gas === undefined || info === undefined) throw new Error(`the EVM has no gas function for opcode 0x${opcode.toString(16)}`);
  return { opcode, opcodeName: info.name, baseFee: info.fee, gasFunction: gas, logicFunction: logic };
}

/** MLOAD for `customOpcodes`: the stock logic, reading the store (evm/words.ts) instead of taking a view through `read`. */
export function mloadOpcode(common: GasCommon): AddOpcode {
  return withStockGas(common, MLOAD, (runState: RunState) => {
    const at = Number(runState.stack.pop());
    const memory = runState.memory;
    memory.extend(at, WORD_BYTES);
    runState.stack.push(readWord(memory._store, at));
  });
}

/** MSTORE for `customOpcodes`: the EVM's base fee and memory-expansion gas, this file's logic. */
export function mstoreOpcode(common: GasCommon): AddOpcode {
  return withStockGas(common, MSTORE, (runState: RunState) => {
    const [offset, word] = runState.stack.popN(2) as [bigint, bigint];
    const at = Number(offset);
    // As Memory.write: grow the store (the gas function has charged for it), then write.
    runState.memory.extend(at, WORD_BYTES);
    writeWord(runState.memory._store, at, word);
  });
}
