/**
 * MSTORE with the EVM's own gas function and a logic function that writes the word's 32 bytes
 * straight into memory. The stock logic (opcodes/functions.ts) builds them with
 * `setLengthLeft(bigIntToBytes(word), 32)`: a hex string, an array, and for a word with leading
 * zero bytes (most: offsets, lengths, addresses) two array spreads through iterators; profiled on
 * eth_call it was the largest allocation left per call after the frame setup (evm/lean-evm.ts).
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import type { AddOpcode, GasCommon, RunState } from './types.js';

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

/** MSTORE for `customOpcodes`: the EVM's base fee and memory-expansion gas, this file's logic. */
export function mstoreOpcode(common: GasCommon): AddOpcode {
  const { dynamicGasHandlers, opcodes } = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]);
  const gas = dynamicGasHandlers.get(MSTORE) as AddOpcode['gasFunction'] | undefined;
  const info = opcodes.get(MSTORE);
  if (gas === undefined || info === undefined) throw new Error('mstoreOpcode: the EVM has no MSTORE gas function');
  return {
    opcode: MSTORE,
    opcodeName: info.name,
    baseFee: info.fee,
    gasFunction: gas,
    logicFunction: (runState: RunState) => {
      const [offset, word] = runState.stack.popN(2) as [bigint, bigint];
      const at = Number(offset);
      // As Memory.write: grow the store (the gas function has charged for it), then write.
      runState.memory.extend(at, WORD_BYTES);
      writeWord(runState.memory._store, at, word);
    },
  };
}
