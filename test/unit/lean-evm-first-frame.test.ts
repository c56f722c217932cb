/**
 * LeanEVM's first frame in a process (a file of its own: the Interpreter class is module state).
 * It used to run through the stock method, which has no time-limit check, to find the class.
 */
import { expect, it, vi } from 'vitest';
import { EVM, NobleBN254 } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { LeanEVM } from '../../src/chain/evm/lean-evm.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const A = createAddressFromString('0x00000000000000000000000000000000000000aa');
/** A loop of 100 JUMPIs, then RETURN. */
const LOOP = '0x60645b600190038060025760005260206000f3';

async function evmWithLoop(Kind: typeof EVM): Promise<EVM> {
  const common = createRskCommon(33, 'unit');
  const stateManager = new MerkleStateManager({ common });
  const evm = new Kind({ common, stateManager, bn254: new NobleBN254() });
  await stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
  await stateManager.putAccount(A, new Account(1n, 0n));
  await stateManager.putCode(A, hexToBytes(LOOP));
  return evm;
}

it("runs a process's first frame itself, with ethereumjs's Interpreter class, and no extra step reaches a tracer", async () => {
  const stockMethod = vi.spyOn(EVM.prototype as unknown as { runInterpreter: () => unknown }, 'runInterpreter');
  try {
    const traced = async (Kind: typeof EVM) => {
      const evm = await evmWithLoop(Kind);
      const steps: string[] = [];
      evm.events.on('step', (step) => steps.push(step.opcode.name));
      const result = await evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 200_000n, skipBalance: true });
      return { evm, result, steps };
    };
    const lean = await traced(LeanEVM);
    expect(stockMethod.mock.contexts).not.toContain(lean.evm);
    const stock = await traced(EVM);
    expect(lean.result.execResult.runState!.interpreter.constructor).toBe(stock.result.execResult.runState!.interpreter.constructor);
    expect(lean.result.execResult.returnValue).toEqual(stock.result.execResult.returnValue);
    expect(lean.steps).toEqual(stock.steps);
  } finally {
    stockMethod.mockRestore();
  }
});
