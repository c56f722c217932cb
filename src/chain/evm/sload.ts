/**
 * SLOAD for `customOpcodes`: the stock semantics (opcodes/functions.ts of @ethereumjs/evm 10.1)
 * with the slot's bytes and the loaded word made by evm/words.ts. The stock opcode turns the slot
 * into bytes with `setLengthLeft(bigIntToBytes(key), 32)` twice, in its gas function and in its
 * logic, and the value back with `bytesToBigInt` (hex strings each way); profiled on eth_call
 * (ERC20 balanceOf) the gas function's copy alone was about 2.5% of a call's CPU.
 *
 * That gas function adds only EIP-2929's warm/cold charge (and EIP-6800/7864's witness charge); a
 * Common with none of them active (RSK's: Petersburg's SLOAD at 200, no access lists) gets SLOAD
 * with no gas function: its base fee alone, counted as other fixed fees are (evm/lean-run.ts).
 * A Common with one of them keeps the stock gas function.
 */
import { getOpcodesForHF } from '@ethereumjs/evm';
import { withStockGas } from './mstore.js';
import type { AddOpcode, GasCommon, RunState } from './types.js';
import { bytesWord, wordBytes } from './words.js';

const SLOAD = 0x54;
/** EIPs under which SLOAD's gas depends on more than its base fee (warm/cold slots, witnesses). */
const DYNAMIC_SLOAD_EIPS = [2929, 6800, 7864];
/** EIP-7928: block access lists, which record every storage read. */
const EIP_BLOCK_ACCESS_LISTS = 7928;

/**
 * The stock logic: the slot's value from the frame's state manager. `interpreter.storageLoad`, which
 * the stock logic calls, adds only EIP-7928's read tracking (`tracksReads`) and, as an async
 * function returning the state manager's promise, two more microtask turns per SLOAD.
 */
function sloadLogic(tracksReads: boolean): AddOpcode['logicFunction'] {
  return async (runState: RunState) => {
    const key = wordBytes(runState.stack.pop());
    const value = await (tracksReads ? runState.interpreter.storageLoad(key) : runState.stateManager.getStorage(runState.env.address, key));
    runState.stack.push(bytesWord(value));
  };
}

export function sloadOpcode(common: GasCommon): AddOpcode {
  const sload = sloadLogic(common.isActivatedEIP(EIP_BLOCK_ACCESS_LISTS));
  if (DYNAMIC_SLOAD_EIPS.some((eip) => common.isActivatedEIP(eip))) return withStockGas(common, SLOAD, sload);
  const info = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]).opcodes.get(SLOAD);
  if (info === undefined) throw new Error('the EVM has no SLOAD');
  return { opcode: SLOAD, opcodeName: info.name, baseFee: info.fee, logicFunction: sload };
}
