/**
 * RSK's EVM rules on the EVM itself (src/chain/evm/, rsk-common.ts), with hand-assembled code so that
 * every expected gas figure can be added up by hand from rskj's rules (VM.java, Program.java,
 * PrecompiledContracts.java). The same rules through JSON-RPC: test/integration/rsk-evm.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { EVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { Execution } from '../../src/chain/exec/execution.js';

const A = createAddressFromString('0x00000000000000000000000000000000000000aa');
const B = createAddressFromString('0x00000000000000000000000000000000000000bb');
const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const MAX = 'ff'.repeat(32);

const common = createRskCommon(33, 'unit');
const execution = new Execution(common, async () => undefined);
let evm: EVM;

beforeEach(async () => {
  const state = new MerkleStateManager({ common });
  evm = (await execution.vm(state)).evm as EVM;
  await state.putAccount(CALLER, new Account(0n, 10n ** 18n));
});

async function install(address: Address, code: string, balance = 0n) {
  await evm.stateManager.putAccount(address, new Account(1n, balance));
  await evm.stateManager.putCode(address, hexToBytes(`0x${code}`));
}

function run(to: Address | undefined, gasLimit: bigint, data = '') {
  return evm.runCall({ caller: CALLER, origin: CALLER, to, gasLimit, data: hexToBytes(`0x${data}`), skipBalance: true });
}

/** Returns the gas left when it starts (GAS, then return it as one word). Uses 17 gas. */
const REPORT_GAS = '5a60005260206000f3';
const REPORT_GAS_USED = 2n + 3n + 6n + 3n + 3n;

/** CALL(gas, B, value, in 0/0, out 0/32), then return the 32 bytes written at 0. */
function callB(gas: string, value: number): string {
  const pushGas = gas.length === 64 ? `7f${gas}` : `61${gas}`;
  return `6020600060006000600${value.toString(16)}73${B.toString().slice(2)}${pushGas}f160206000f3`;
}

describe('CALL family: no "all but 1/64" rule (rskj VM.getMessageCall, RSKIP150)', () => {
  // callB's prologue: five PUSH1, a PUSH20 and a PUSH: 21 gas. CALL: 700 + one memory word (3).
  const PROLOGUE = 21n;
  const CALL_COST = 703n;

  it('asking for more than is left gives the callee everything left', async () => {
    await install(A, callB(MAX, 0));
    await install(B, REPORT_GAS);
    for (const gasLimit of [100_000n, 1_000_000n, 5_000_000n]) {
      const result = await run(A, gasLimit);
      expect(result.execResult.exceptionError).toBeUndefined();
      // B's GAS opcode (2) sees everything A had after the CALL's own cost.
      expect(bytesToBigInt(result.execResult.returnValue)).toBe(gasLimit - PROLOGUE - CALL_COST - 2n);
      expect(result.execResult.executionGasUsed).toBe(PROLOGUE + CALL_COST + REPORT_GAS_USED + 6n);
    }
  });

  it('a smaller request is given exactly', async () => {
    await install(A, callB('03e8', 0));
    await install(B, REPORT_GAS);
    const result = await run(A, 1_000_000n);
    expect(bytesToBigInt(result.execResult.returnValue)).toBe(1000n - 2n);
  });

  it('with a value, the callee gets request + 2,300 and the caller pays the stipend (no free 2,300)', async () => {
    await install(A, callB('03e8', 1), 10n);
    await install(B, REPORT_GAS);
    const result = await run(A, 1_000_000n);
    expect(bytesToBigInt(result.execResult.returnValue)).toBe(1000n + 2300n - 2n);
    // 9,000 for the value; the callee's unused gas (stipend included) comes back, nothing more.
    expect(result.execResult.executionGasUsed).toBe(PROLOGUE + CALL_COST + 9000n + REPORT_GAS_USED + 6n);
  });

  it('with a value and everything requested, the callee gets everything left', async () => {
    await install(A, callB(MAX, 1), 10n);
    await install(B, REPORT_GAS);
    const result = await run(A, 1_000_000n);
    expect(bytesToBigInt(result.execResult.returnValue)).toBe(1_000_000n - PROLOGUE - CALL_COST - 9000n - 2n);
  });

  it('with a value, less than the stipend left after the call cost is out of gas (calculateGetMinimumTransferGas)', async () => {
    await install(A, callB('0000', 1), 10n);
    await install(B, REPORT_GAS);
    const enough = PROLOGUE + CALL_COST + 9000n + 2300n;
    const ok = await run(A, enough);
    expect(ok.execResult.exceptionError).toBeUndefined();
    expect(bytesToBigInt(ok.execResult.returnValue)).toBe(2300n - 2n);
    const short = await run(A, enough - 1n);
    expect(short.execResult.exceptionError?.error).toBe('out of gas');
  });

  it('a CALL to an account that does not exist costs 25,000 more, with or without a value (computeCallGas)', async () => {
    // B is not installed: no account. The call runs no code and hands back all the callee's gas.
    await install(A, callB('03e8', 0), 10n);
    const zero = await run(A, 1_000_000n);
    expect(zero.execResult.exceptionError).toBeUndefined();
    expect(zero.execResult.executionGasUsed).toBe(PROLOGUE + CALL_COST + 25_000n + 6n);
    await install(A, callB('03e8', 1), 10n);
    const withValue = await run(A, 1_000_000n);
    expect(withValue.execResult.executionGasUsed).toBe(PROLOGUE + CALL_COST + 25_000n + 9000n + 6n);
  });

  it('STATICCALL to an account that does not exist pays no new-account cost', async () => {
    await install(A, `6020600060006000 73${B.toString().slice(2)} 6103e8 fa 60206000f3`.replaceAll(' ', ''));
    const result = await run(A, 1_000_000n);
    expect(result.execResult.executionGasUsed).toBe(18n + 703n + 6n);
  });

  it('DELEGATECALL and STATICCALL forward everything left too', async () => {
    await install(B, REPORT_GAS);
    // DELEGATECALL / STATICCALL (gas, B, in 0/0, out 0/32): four PUSH1, PUSH20, PUSH32 = 18 gas.
    for (const opcode of ['f4', 'fa']) {
      await install(A, `6020600060006000 73${B.toString().slice(2)} 7f${MAX} ${opcode} 60206000f3`.replaceAll(' ', ''));
      const result = await run(A, 1_000_000n);
      expect(bytesToBigInt(result.execResult.returnValue)).toBe(1_000_000n - 18n - 703n - 2n);
    }
  });
});

describe('CREATE and CREATE2 give all the gas left (rskj Program.createContract)', () => {
  // Child init code: GAS, PUSH1 0, SSTORE (stores the gas it started with in slot 0), STOP.
  const INIT = '5a600055';

  it('CREATE', async () => {
    // PUSH4 init, PUSH1 0, MSTORE (12 with one memory word); PUSH1 4, PUSH1 28, PUSH1 0 (9);
    // CREATE 32,000 + 2 (EIP-3860 word); return the address.
    await install(A, `63${INIT}600052600460 1c6000f060005260206000f3`.replaceAll(' ', ''));
    for (const gasLimit of [200_000n, 2_000_000n]) {
      const result = await run(A, gasLimit);
      expect(result.execResult.exceptionError).toBeUndefined();
      const child = new Address(result.execResult.returnValue.slice(12));
      const seen = bytesToBigInt(await evm.stateManager.getStorage(child, new Uint8Array(32)));
      expect(seen).toBe(gasLimit - 12n - 9n - 32_002n - 2n);
      await evm.stateManager.deleteAccount(child);
    }
  });

  it('CREATE2', async () => {
    // As CREATE, with PUSH1 salt first (3 more) and 6 per word of hashing.
    await install(A, `63${INIT}6000526007600460 1c6000f560005260206000f3`.replaceAll(' ', ''));
    const result = await run(A, 1_000_000n);
    expect(result.execResult.exceptionError).toBeUndefined();
    const child = new Address(result.execResult.returnValue.slice(12));
    const seen = bytesToBigInt(await evm.stateManager.getStorage(child, new Uint8Array(32)));
    expect(seen).toBe(1_000_000n - 12n - 12n - 32_008n - 2n);
  });
});

describe('EIP-3541 (RSKIP544)', () => {
  // Init code returning one byte: PUSH1 b, PUSH1 0, MSTORE8, PUSH1 1, PUSH1 0, RETURN.
  const returning = (byte: string) => `60${byte}60005360016000f3`;

  it('refuses code starting with 0xEF and burns the gas given', async () => {
    const result = await run(undefined, 100_000n, returning('ef'));
    expect(result.execResult.exceptionError?.error).toBe('invalid bytecode deployed');
    expect(result.execResult.executionGasUsed).toBe(100_000n);
  });

  it('accepts other first bytes', async () => {
    for (const byte of ['ee', 'fe', '00']) {
      const result = await run(undefined, 100_000n, returning(byte));
      expect(result.execResult.exceptionError).toBeUndefined();
      expect(bytesToHex(await evm.stateManager.getCode(result.createdAddress!))).toBe(`0x${byte}`);
    }
  });
});

describe('precompiles 0x01-0x09 (rskj PrecompiledContracts.java)', () => {
  const at = (n: number) => createAddressFromString(`0x${n.toString(16).padStart(40, '0')}`);

  it('bn128 add, mul and pairing are priced as EIP-1108 (RSKIP137)', async () => {
    const add = await run(at(6), 100_000n, '00'.repeat(128));
    expect(add.execResult.exceptionError).toBeUndefined();
    expect(add.execResult.executionGasUsed).toBe(150n);
    expect(bytesToHex(add.execResult.returnValue)).toBe(`0x${'00'.repeat(64)}`);
    const mul = await run(at(7), 100_000n, '00'.repeat(96));
    expect(mul.execResult.executionGasUsed).toBe(6000n);
    const pairing = await run(at(8), 100_000n, '');
    expect(pairing.execResult.executionGasUsed).toBe(45_000n);
    expect(bytesToBigInt(pairing.execResult.returnValue)).toBe(1n);
  });

  it('modexp keeps EIP-198 pricing', async () => {
    // 3^5 mod 7 with 1-byte operands: complexity 1, adjusted exponent length 2 → 2 / 20 = 0 gas.
    const input = `${'00'.repeat(31)}01${'00'.repeat(31)}01${'00'.repeat(31)}01030507`;
    const result = await run(at(5), 100_000n, input);
    expect(bytesToBigInt(result.execResult.returnValue)).toBe(5n);
    expect(result.execResult.executionGasUsed).toBe(0n);
  });

  it('a failing precompile costs only its price (RSKIP197)', async () => {
    const badPoint = `${'00'.repeat(31)}01${'00'.repeat(31)}03${'00'.repeat(64)}`;
    const add = await run(at(6), 100_000n, badPoint);
    expect(add.execResult.exceptionError).toBeDefined();
    expect(add.execResult.executionGasUsed).toBe(150n);
    const pairing = await run(at(8), 100_000n, '00'.repeat(100));
    expect(pairing.execResult.exceptionError).toBeDefined();
    expect(pairing.execResult.executionGasUsed).toBe(45_000n);
    const blake = await run(at(9), 100_000n, '00'.repeat(212));
    expect(blake.execResult.exceptionError).toBeDefined();
    expect(blake.execResult.executionGasUsed).toBe(0n);
  });

  it('out of gas for its price burns all the gas given', async () => {
    const add = await run(at(6), 149n, '00'.repeat(128));
    expect(add.execResult.exceptionError?.error).toBe('out of gas');
    expect(add.execResult.executionGasUsed).toBe(149n);
  });

  it('nothing at 0x0a', async () => {
    const result = await run(at(10), 100_000n, '00'.repeat(32));
    expect(result.execResult.exceptionError).toBeUndefined();
    expect(result.execResult.executionGasUsed).toBe(0n);
    expect(result.execResult.returnValue.length).toBe(0);
  });
});
