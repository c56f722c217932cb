/**
 * Opcodes RSK has that @ethereumjs/common will not enable on a Petersburg base (see rsk-common.ts).
 * Each re-implements the yellow-paper semantics the EVM package uses for later forks.
 */
import { memoryExpansionCost } from './memory.js';
import type { CustomOpcode, GasCommon, RunState } from './types.js';

const GAS_BASE = 2;
const GAS_LOW = 5;
const GAS_VERYLOW = 3;

function wordCount(length: bigint): bigint {
  return (length + 31n) / 32n;
}

export const RSK_CUSTOM_OPCODES: CustomOpcode[] = [
  {
    // The EVM's coinbase is the REMASC contract, where fees go (execution.ts); COINBASE must still
    // push the block's miner, which the execution block context carries in `prevRandao`.
    opcode: 0x41,
    opcodeName: 'COINBASE',
    baseFee: GAS_BASE,
    logicFunction: (runState: RunState) => runState.stack.push(runState.interpreter.getBlockPrevRandao()),
  },
  {
    opcode: 0x46,
    opcodeName: 'CHAINID',
    baseFee: GAS_BASE,
    logicFunction: (runState: RunState) => runState.stack.push(runState.interpreter.getChainId()),
  },
  {
    opcode: 0x47,
    opcodeName: 'SELFBALANCE',
    baseFee: GAS_LOW,
    logicFunction: (runState: RunState) => runState.stack.push(runState.interpreter.getSelfBalance()),
  },
  {
    // RSKIP412: BASEFEE pushes the block's minimumGasPrice; the execution block context carries
    // it in `baseFeePerGas` (see Execution.contextBlock).
    opcode: 0x48,
    opcodeName: 'BASEFEE',
    baseFee: GAS_BASE,
    logicFunction: (runState: RunState) => runState.stack.push(runState.interpreter.getBlockBaseFee()),
  },
  {
    // RSKIP445 (EIP-5656).
    opcode: 0x5e,
    opcodeName: 'MCOPY',
    baseFee: GAS_VERYLOW,
    gasFunction: (runState: RunState, gas: bigint, common: GasCommon) => {
      const [dst, src, length] = runState.stack.peek(3);
      gas += BigInt(GAS_VERYLOW) * wordCount(length);
      gas += memoryExpansionCost(runState, src, length, common.param('memoryGas'), common.param('quadCoefficientDivGas'));
      gas += memoryExpansionCost(runState, dst, length, common.param('memoryGas'), common.param('quadCoefficientDivGas'));
      return gas;
    },
    logicFunction: (runState: RunState) => {
      const [dst, src, length] = runState.stack.popN(3);
      // The source as a view of the store, not through `read(…, avoidCopy)`: this view dies here,
      // so the frame's memory stays reusable (evm/frame-pool.ts). `write` copies it.
      const memory = runState.memory;
      const from = Number(src);
      const size = Number(length);
      memory.extend(from, size);
      memory.write(Number(dst), size, memory._store.subarray(from, from + size));
    },
  },
];
