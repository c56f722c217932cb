/**
 * RSK's call-gas rules as dynamic-gas functions for CALL, CALLCODE, DELEGATECALL, STATICCALL,
 * CREATE and CREATE2. RSK has no EIP-150 "all but 1/64" rule, which @ethereumjs/evm hard-codes in
 * `maxCallGas` (opcodes/util.ts) for every fork from Tangerine Whistle on; `customOpcodes` entries
 * with a `gasFunction` replace the opcode's dynamic-gas function, and the logic functions stay the
 * EVM's own (taken from `getOpcodesForHF`).
 *
 * Copied from @ethereumjs/evm 10.1 (opcodes/gas.ts and EIP7928.ts `callFamilyGas`) for the rules
 * that are active on our Common (Petersburg + EIPs 3855, 1153, 3860, 3541). Departures:
 *
 * 1. CALL family (rskj VM.java `getMessageCall`, RSKIP150): the callee gets
 *    min(requested + stipend, everything left after the call's own cost), never "all but 1/64",
 *    and asking for more than is left is not an error. The stipend (2,300 with a value) is part of
 *    what the caller pays: rskj adds the callee's gas, stipend included, to the opcode's cost and
 *    refunds what the callee leaves. ethereumjs instead credits the stipend to the caller for free
 *    (`interpreter.addStipend` in the CALL/CALLCODE logic). To keep that logic function we charge
 *    the stipend here, so the caller's net cost is the call cost plus the gas the callee used, as
 *    in rskj. With a value, a caller left with less than the stipend after the call cost runs out
 *    of gas (rskj `calculateGetMinimumTransferGas`); the same check falls out of charging it here.
 * 2. CREATE/CREATE2 (rskj Program.java `createContract`): the new contract's code runs with all the
 *    gas left after the opcode's cost (`getRemainingGas()`), not all but 1/64.
 * 3. New account (rskj VM.java `computeCallGas`): a CALL, with or without a value, to an account
 *    that does not exist costs 25,000 more. ethereumjs (EIP-161) charges it only with a value.
 *    rskj never stores an empty account (a zero-value transfer does not create one), while
 *    ethereumjs deletes touched empty accounts at the end of a transaction but may hold one
 *    within it, so "empty" here is the nearest equivalent of rskj's "does not exist". CALLCODE,
 *    DELEGATECALL and STATICCALL never pay it (rskj: `op == CALL`).
 * 4. The branches for EIPs our Common never activates (2929 warm/cold, 6800/7864 witnesses, 7702
 *    delegation, 7928 access lists, 8037 state gas) are left out; `createRskCommon` fixes the set.
 *
 * Unchanged: the opcodes' base costs (700, 32,000), memory expansion, the value-transfer cost
 * (9,000), EIP-3860's initcode word cost, CREATE2's hashing cost and the static-context checks.
 *
 * Every function runs on each call: no allocations beyond the EVM's own `stack.peek` and, for
 * CALL, one Address for the new-account check (as ethereumjs makes for a CALL with value; the
 * account read is a cache hit, since the EVM reads the callee's account for the call anyway).
 * Common parameters are read once.
 */
import { Hardfork } from '@ethereumjs/common';
import { EVMError, getOpcodesForHF } from '@ethereumjs/evm';
import { createAddressFromBigInt } from '@ethereumjs/util';
import { memoryExpansionCost } from './memory.js';
import type { AddOpcode, GasCommon, RunState } from './types.js';

const MASK_160 = (1n << 160n) - 1n;

/** Stops the frame with an EVM error, as the EVM's own `trap` (opcodes/util.ts). */
function trap(message: string): never {
  throw new EVMError(message as ConstructorParameters<typeof EVMError>[0]);
}

/**
 * The six opcodes with RSK's gas functions and the EVM's own logic functions, for `createEVM`'s
 * `customOpcodes`. Build once per Common: the Common's parameters are read here, not per call.
 */
export function rskCallOpcodes(common: GasCommon): AddOpcode[] {
  if (common.isActivatedEIP(2929) || common.isActivatedEIP(7702) || common.isActivatedEIP(7928) || common.isActivatedEIP(8037)) {
    throw new Error('rskCallOpcodes: written for a Petersburg-based Common without access lists, delegation or state gas');
  }
  if (!common.gteHardfork(Hardfork.SpuriousDragon)) throw new Error('rskCallOpcodes: needs EIP-161 rules (Petersburg)');
  const { handlers } = getOpcodesForHF(common as Parameters<typeof getOpcodesForHF>[0]);
  const logic = (opcode: number): AddOpcode['logicFunction'] => {
    const handler = handlers.get(opcode);
    if (handler === undefined) throw new Error(`rskCallOpcodes: the EVM has no opcode 0x${opcode.toString(16)}`);
    return handler as AddOpcode['logicFunction'];
  };

  const memoryGas = common.param('memoryGas');
  const quadDivisor = common.param('quadCoefficientDivGas');
  const valueTransferGas = common.param('callValueTransferGas');
  const newAccountGas = common.param('callNewAccountGas');
  const stipend = common.param('callStipendGas');
  const initCodeWordGas = common.isActivatedEIP(3860) ? common.param('initCodeWordGas') : 0n;
  const keccakWordGas = common.param('keccak256WordGas');
  const memory = (runState: RunState, offset: bigint, length: bigint) => memoryExpansionCost(runState, offset, length, memoryGas, quadDivisor);

  /**
   * rskj VM.getMessageCall: `calleeGas = min(remainingGas, userSpecifiedGas + minimumTransferGas)`.
   * `gas` is the call's own cost; `transferStipend` is 2,300 with a value, else 0. Returns what the
   * caller is charged now (see the file comment: the stipend is charged here and handed back by
   * the EVM's CALL logic, which also adds it to the callee's gas).
   */
  const forward = (runState: RunState, gas: bigint, requested: bigint, transferStipend: bigint): bigint => {
    const gasLeft = runState.interpreter.getGasLeft();
    const charged = gas + transferStipend;
    if (charged > gasLeft) trap(EVMError.errorMessages.OUT_OF_GAS);
    const available = gasLeft - gas;
    const wanted = requested + transferStipend;
    runState.messageGasLimit = (wanted < available ? wanted : available) - transferStipend;
    return charged;
  };

  /** CALL (`isCall`) and CALLCODE. */
  const callWithValue = async (runState: RunState, gas: bigint, isCall: boolean): Promise<bigint> => {
    const [requested, to, value, inOffset, inLength, outOffset, outLength] = runState.stack.peek(7);
    if (isCall && value !== 0n && runState.interpreter.isStatic()) trap(EVMError.errorMessages.STATIC_STATE_CHANGE);
    gas += memory(runState, inOffset, inLength);
    gas += memory(runState, outOffset, outLength);
    if (isCall) {
      // rskj VM.computeCallGas: 25,000 for a CALL to an account that does not exist, with or
      // without a value (see the file comment for "does not exist").
      const account = await runState.stateManager.getAccount(createAddressFromBigInt(to & MASK_160));
      if (account === undefined || account.isEmpty()) gas += newAccountGas;
    }
    if (value === 0n) return forward(runState, gas, requested, 0n);
    gas += valueTransferGas;
    return forward(runState, gas, requested, stipend);
  };

  const callWithoutValue = (runState: RunState, gas: bigint): bigint => {
    const [requested, , inOffset, inLength, outOffset, outLength] = runState.stack.peek(6);
    gas += memory(runState, inOffset, inLength);
    gas += memory(runState, outOffset, outLength);
    return forward(runState, gas, requested, 0n);
  };

  /** rskj Program.createContract: `long gasLimit = getRemainingGas()`. */
  const createGas = (runState: RunState, gas: bigint): bigint => {
    runState.messageGasLimit = runState.interpreter.getGasLeft() - gas;
    return gas;
  };

  return [
    {
      opcode: 0xf0,
      opcodeName: 'CREATE',
      baseFee: Number(common.param('createGas')),
      gasFunction: (runState: RunState, gas: bigint) => {
        const [, offset, length] = runState.stack.peek(3);
        if (runState.interpreter.isStatic()) trap(EVMError.errorMessages.STATIC_STATE_CHANGE);
        gas += ((length + 31n) / 32n) * initCodeWordGas;
        gas += memory(runState, offset, length);
        return createGas(runState, gas);
      },
      logicFunction: logic(0xf0),
    },
    {
      opcode: 0xf1,
      opcodeName: 'CALL',
      baseFee: Number(common.param('callGas')),
      gasFunction: (runState: RunState, gas: bigint) => callWithValue(runState, gas, true),
      logicFunction: logic(0xf1),
    },
    {
      opcode: 0xf2,
      opcodeName: 'CALLCODE',
      baseFee: Number(common.param('callcodeGas')),
      gasFunction: (runState: RunState, gas: bigint) => callWithValue(runState, gas, false),
      logicFunction: logic(0xf2),
    },
    {
      opcode: 0xf4,
      opcodeName: 'DELEGATECALL',
      baseFee: Number(common.param('delegatecallGas')),
      gasFunction: callWithoutValue,
      logicFunction: logic(0xf4),
    },
    {
      opcode: 0xf5,
      opcodeName: 'CREATE2',
      baseFee: Number(common.param('create2Gas')),
      gasFunction: (runState: RunState, gas: bigint) => {
        const [, offset, length] = runState.stack.peek(4);
        if (runState.interpreter.isStatic()) trap(EVMError.errorMessages.STATIC_STATE_CHANGE);
        const words = (length + 31n) / 32n;
        gas += memory(runState, offset, length);
        gas += words * initCodeWordGas;
        gas += words * keccakWordGas;
        return createGas(runState, gas);
      },
      logicFunction: logic(0xf5),
    },
    {
      opcode: 0xfa,
      opcodeName: 'STATICCALL',
      baseFee: Number(common.param('staticcallGas')),
      gasFunction: callWithoutValue,
      logicFunction: logic(0xfa),
    },
  ];
}
