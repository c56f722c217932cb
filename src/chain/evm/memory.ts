/**
 * Memory expansion cost of touching [offset, offset+length), updating the frame's memory size:
 * the EVM's own `subMemUsage` (opcodes/util.ts of @ethereumjs/evm), which the package does not
 * export. Same arithmetic, with the two Common parameters passed in once instead of read per call.
 */
import type { RunState } from './types.js';

export function memoryExpansionCost(runState: RunState, offset: bigint, length: bigint, memoryGas: bigint, quadDivisor: bigint): bigint {
  if (length === 0n) return 0n;
  const words = (offset + length + 31n) / 32n;
  if (words <= runState.memoryWordCount) return 0n;
  let cost = words * memoryGas + (words * words) / quadDivisor;
  if (cost > runState.highestMemCost) {
    const previous = runState.highestMemCost;
    runState.highestMemCost = cost;
    cost -= previous;
  }
  runState.memoryWordCount = words;
  return cost;
}
