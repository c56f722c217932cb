/**
 * MSTORE and MLOAD with the EVM's own base fees, its memory-expansion charge as a plain (not async)
 * function, and logic that works on the memory's store directly. MLOAD's stock logic reads its word as a view through `memory.read(…, avoidCopy)`, which
 * evm/frame-pool.ts must treat as a view that may outlive the frame; here it reads the store, and
 * the frame's memory can be reused. MSTORE writes the word's 32 bytes straight into memory
 * (evm/words.ts `writeWord`). The stock logic (opcodes/functions.ts) builds them with
 * `setLengthLeft(bigIntToBytes(word), 32)`: a hex string, an array, and for a word with leading
 * zero bytes (most: offsets, lengths, addresses) two array spreads through iterators; profiled on
 * eth_call it was the largest allocation left per call after the frame setup (evm/lean-evm.ts).
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import { memoryExpansionCost } from './memory.js';
import type { AddOpcode, GasCommon, RunState } from './types.js';
import { readWord, writeWord } from './words.js';

const MLOAD = 0x51;
const MSTORE = 0x52;
const WORD_BYTES = 32;

/** `opcode` for `customOpcodes` with the EVM's own base fee and gas function and `logic`. */
export function withStockGas(common: GasCommon, opcode: number, logic: AddOpcode['logicFunction']): AddOpcode {
  const { dynamicGasHandlers, opcodes } = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]);
  const gas = dynamicGasHandlers.get(opcode) as AddOpcode['gasFunction'] | undefined;
  const info = opcodes.get(opcode);
  if (gas === undefined || info === undefined) throw new Error(`the EVM has no gas function for opcode 0x${opcode.toString(16)}`);
  return { opcode, opcodeName: info.name, baseFee: info.fee, gasFunction: gas, logicFunction: logic };
}

/** Words up to this are compared with the memory's size as Numbers (exact below 2^53). */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The memory expansion charge of an access to `length` bytes at `offset` (memory.ts's copy of the
 * stock `subMemUsage`), which it also records in the run state. A plain function so that gas
 * functions can be plain: the stock MLOAD, MSTORE and KECCAK256 ones are async, so the lean loop
 * awaited a promise per such opcode even when memory did not grow (most of them). An access inside
 * the memory already paid for is answered without BigInt arithmetic.
 */
export function memoryGas(runState: RunState, offset: bigint, length: bigint, common: GasCommon): bigint {
  if (length === 0n) return 0n;
  if (offset <= MAX_SAFE && length <= MAX_SAFE && Number(offset) + Number(length) <= Number(runState.memoryWordCount) * WORD_BYTES) return 0n;
  return memoryExpansionCost(runState, offset, length, common.param('memoryGas'), common.param('quadCoefficientDivGas'));
}

const WORD = BigInt(WORD_BYTES);

/** The gas function of MLOAD and MSTORE: the stock one (memory growth for a word at the offset), not async. */
function wordMemoryGas(runState: RunState, gas: bigint, common: GasCommon): bigint {
  const cost = memoryGas(runState, runState.stack.peek()[0]!, WORD, common);
  return cost === 0n ? gas : gas + cost;
}

/** `opcode` (MLOAD or MSTORE) for `customOpcodes`: the stock base fee, wordMemoryGas and `logic`. */
function withWordMemoryGas(common: GasCommon, opcode: number, logic: AddOpcode['logicFunction']): AddOpcode {
  return { ...withStockGas(common, opcode, logic), gasFunction: wordMemoryGas };
}

/** MLOAD for `customOpcodes`: the stock logic, reading the store (evm/words.ts) instead of taking a view through `read`. */
export function mloadOpcode(common: GasCommon): AddOpcode {
  return withWordMemoryGas(common, MLOAD, (runState: RunState) => {
    const at = Number(runState.stack.pop());
    const memory = runState.memory;
    memory.extend(at, WORD_BYTES);
    runState.stack.push(readWord(memory._store, at));
  });
}

/** MSTORE for `customOpcodes`: the EVM's base fee, its memory-expansion gas (wordMemoryGas), this file's logic. */
export function mstoreOpcode(common: GasCommon): AddOpcode {
  return withWordMemoryGas(common, MSTORE, (runState: RunState) => {
    const [offset, word] = runState.stack.popN(2) as [bigint, bigint];
    const at = Number(offset);
    // As Memory.write: grow the store (the gas function has charged for it), then write.
    runState.memory.extend(at, WORD_BYTES);
    writeWord(runState.memory._store, at, word);
  });
}
