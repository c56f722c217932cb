/**
 * src/chain/evm/frame-pool.ts (interpreters and memory reused between frames) and the zero-value
 * shortcut of lean-evm.ts: results and state as the stock EVM's, and no view of a reused memory
 * (LOG data, CALL input) changed by a later frame.
 */
import { describe, expect, it } from 'vitest';
import { EVM, type EVMResult, NobleBN254 } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { FramePool, MEMORY_CONTAINER_BYTES } from '../../src/chain/evm/frame-pool.js';
import { Execution } from '../../src/chain/exec/execution.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const A = createAddressFromString('0x00000000000000000000000000000000000000aa');
const B = createAddressFromString('0x00000000000000000000000000000000000000bb');
/** An address no state holds. */
const NOBODY = createAddressFromString('0x00000000000000000000000000000000000000dd');
/** An account that exists and is empty (nonce 0, balance 0, no code). */
const EMPTY_ONE = createAddressFromString('0x00000000000000000000000000000000000000ee');

const push32 = (byte: string) => `7f${byte.repeat(32)}`;
/** MSTORE a word of `byte`s at 0, LOG0 those 32 bytes, RETURN them. */
const LOG_WORD = (byte: string) => `0x${push32(byte)}60005260206000a060206000f3`;
/** RETURN 64 bytes of memory from 0 without writing any: a fresh frame's memory is zero. */
const RETURN_UNWRITTEN = '0x60406000f3';
/** B: returns its call data (CALLDATACOPY 0 0 CALLDATASIZE; RETURN 0 CALLDATASIZE). */
const ECHO = '0x366000600037366000f3';
/**
 * A: MSTORE 0x11…, CALL B with those 32 bytes as input (a view of A's memory) and its output at 32;
 * MSTORE 0x22… at 0, CALL B again with output at 64; RETURN 96 bytes.
 */
const CALL_TWICE = `0x${push32('11')}6000526020602060206000600073${B.toString().slice(2)}61fffff150${push32('22')}6000526020604060206000600073${B.toString().slice(2)}61fffff15060606000f3`;
/** EXTCODEHASH and BALANCE of CALLER, returned as two words. */
const LOOK_AT_CALLER = '0x333f600052333160205260406000f3';

/** The node's EVM (custom opcodes, MLOAD included) over an empty state with the test accounts. */
async function nodeEvm(): Promise<EVM> {
  const common = createRskCommon(33, 'unit');
  const execution = new Execution(common, async () => undefined);
  const evm = (await execution.vm(new MerkleStateManager({ common }))).evm as EVM;
  await fund(evm);
  return evm;
}

async function stockEvm(): Promise<EVM> {
  const common = createRskCommon(33, 'unit');
  const evm = new EVM({ common, stateManager: new MerkleStateManager({ common }), bn254: new NobleBN254() });
  await fund(evm);
  return evm;
}

async function fund(evm: EVM): Promise<void> {
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
  await evm.stateManager.putAccount(EMPTY_ONE, new Account());
}

async function install(evm: EVM, address: Address, code: string): Promise<void> {
  await evm.stateManager.putAccount(address, new Account(1n, 10n ** 18n));
  await evm.stateManager.putCode(address, hexToBytes(code as `0x${string}`));
}

function call(evm: EVM, to: Address, caller = CALLER): Promise<EVMResult> {
  return evm.runCall({ caller, origin: caller, to, gasLimit: 200_000n, skipBalance: true });
}

describe('frames reuse their depth\'s interpreter and memory (evm/frame-pool.ts)', () => {
  it('LOG data (a copy of memory) stays as logged after later frames write that memory', async () => {
    const evm = await nodeEvm();
    await install(evm, A, LOG_WORD('ff'));
    await install(evm, B, LOG_WORD('11'));
    const first = await call(evm, A);
    const second = await call(evm, B);
    expect(bytesToHex(first.execResult.logs![0]![2])).toBe(`0x${'ff'.repeat(32)}`);
    expect(bytesToHex(second.execResult.logs![0]![2])).toBe(`0x${'11'.repeat(32)}`);
    expect(bytesToHex(first.execResult.returnValue)).toBe(`0x${'ff'.repeat(32)}`);
  });

  it('CALL input, a view of the caller\'s memory, reads as on the stock EVM after later frames wrote that memory', async () => {
    const seen: string[][] = [];
    for (const evm of [await stockEvm(), await nodeEvm()]) {
      await install(evm, A, CALL_TWICE);
      await install(evm, B, ECHO);
      // As a tracer might: keep each inner message's data without copying it.
      const inputs: Uint8Array[] = [];
      evm.events.on('beforeMessage', (message: { depth: number; data: Uint8Array }) => {
        if (message.depth === 1) inputs.push(message.data);
      });
      await call(evm, A);
      await call(evm, A);
      seen.push(inputs.map((input) => bytesToHex(input)));
    }
    expect(seen[1]).toEqual(seen[0]);
    // The view shows what the caller's memory held when its frame ended.
    expect(seen[0]).toEqual(Array(4).fill(`0x${'22'.repeat(32)}`));
  });

  it('a frame\'s memory starts zeroed after a frame that wrote it', async () => {
    const evm = await nodeEvm();
    await install(evm, A, `0x${push32('ab')}600052${push32('cd')}60205260406000f3`);
    await install(evm, B, RETURN_UNWRITTEN);
    expect(bytesToHex((await call(evm, A)).execResult.returnValue)).toBe(`0x${'ab'.repeat(32)}${'cd'.repeat(32)}`);
    expect(bytesToHex((await call(evm, B)).execResult.returnValue)).toBe(`0x${'00'.repeat(64)}`);
  });

  it('sibling CALLs at one depth get their input intact, and the results are the stock EVM\'s', async () => {
    const results: string[] = [];
    for (const evm of [await stockEvm(), await nodeEvm()]) {
      await install(evm, A, CALL_TWICE);
      await install(evm, B, ECHO);
      const result = await call(evm, A);
      expect(result.execResult.exceptionError).toBeUndefined();
      results.push(`${bytesToHex(result.execResult.returnValue)} ${result.execResult.executionGasUsed}`);
    }
    expect(results[1]).toBe(results[0]);
    expect(results[1]!.split(' ')[0]).toBe(`0x${'22'.repeat(32)}${'11'.repeat(32)}${'22'.repeat(32)}`);
  });

  it('a depth whose interpreter is busy gets a new one, and a memory that grew or was viewed is replaced', async () => {
    const evm = await nodeEvm();
    const pool = new FramePool();
    const made: unknown[] = [];
    const create = () => {
      const interpreter = { _runState: { memory: { _store: new Uint8Array(MEMORY_CONTAINER_BYTES), read: () => new Uint8Array(0) }, stack: { _len: 3 } } };
      made.push(interpreter);
      return interpreter as never;
    };
    const env = { gasRefund: 0n } as never;
    const first = pool.take(evm, 0, env, 1n, create);
    const second = pool.take(evm, 0, env, 1n, create);
    expect([first.pooled, second.pooled, made.length]).toEqual([true, false, 2]);
    const memory = (first.interpreter as unknown as { _runState: { memory: { _store: Uint8Array; read(o: number, s: number, v?: boolean): Uint8Array } } })._runState.memory;
    const kept = memory._store;
    kept[5] = 7;
    pool.release(0);
    expect(memory._store).toBe(kept);
    expect(kept[5]).toBe(0);
    pool.take(evm, 0, env, 1n, create);
    memory.read(0, 32, true);
    pool.release(0);
    expect(memory._store).not.toBe(kept);
    expect(made.length).toBe(2);
  });
});

describe('a message without value writes back only accounts that exist and are not empty (lean-evm.ts)', () => {
  it('a zero-value call from an address no state holds sees it as the stock EVM does', async () => {
    const seen: string[] = [];
    for (const evm of [await stockEvm(), await nodeEvm()]) {
      await install(evm, A, LOOK_AT_CALLER);
      const result = await call(evm, A, NOBODY);
      expect(result.execResult.exceptionError).toBeUndefined();
      seen.push(bytesToHex(result.execResult.returnValue));
    }
    expect(seen[1]).toBe(seen[0]);
  });

  it('an existing empty account called without value is touched (for EIP-161) as by the stock EVM', async () => {
    const touched: boolean[] = [];
    for (const evm of [await stockEvm(), await nodeEvm()]) {
      await call(evm, EMPTY_ONE);
      touched.push((evm.journal as unknown as { touched: Set<string> }).touched.has(EMPTY_ONE.toString().slice(2)));
    }
    expect(touched).toEqual([true, true]);
  });
});
