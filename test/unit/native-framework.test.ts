/**
 * The native-contract plumbing (src/chain/native/registry.ts, method.ts, abi.ts) on the EVM
 * itself: what a native contract learns of its frame (caller, origin, value, depth, static flag,
 * block, local call), how its results become the EVM's, and rskj's ABI decoding rules.
 */
import { describe, expect, it } from 'vitest';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { Execution } from '../../src/chain/exec/execution.js';
import { AbiDecodeError, decodeArguments, encodeBytes, javaBigIntegerBytes, selector } from '../../src/chain/native/abi.js';
import { mergedMiningTags } from '../../src/chain/native/block-header.js';
import { nativeContract } from '../../src/chain/native/method.js';
import { nativePrecompiles, trackNativeFrames } from '../../src/chain/native/registry.js';
import type { NativeCall, NativeContract } from '../../src/chain/native/types.js';

const PROBE = hexToBytes('0x00000000000000000000000000000000010000fe');
const A = createAddressFromString('0x00000000000000000000000000000000000000aa');
const S = createAddressFromString('0x00000000000000000000000000000000000000bb');
const D = createAddressFromString('0x00000000000000000000000000000000000000dd');
const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const MINER = hexToBytes('0x1111111111111111111111111111111111111111');

const word = (v: bigint | Uint8Array) => (typeof v === 'bigint' ? setLengthLeft(hexToBytes(`0x${v.toString(16).padStart(2, '0')}`), 32) : setLengthLeft(v, 32));

/** A native contract that answers with what it saw of its call, one 32-byte word each. */
const probe: NativeContract = {
  address: PROBE,
  name: 'probe',
  async call(call: NativeCall) {
    const out = new Uint8Array(32 * 9);
    const fields = [
      word(call.caller),
      word(call.origin),
      word(BigInt(call.depth)),
      word(call.value),
      word(call.isStatic ? 1n : 0n),
      word(call.block.number),
      word(call.block.coinbase),
      word(call.localCall ? 1n : 0n),
      word(call.gasLimit),
    ];
    fields.forEach((f, i) => out.set(f, 32 * i));
    return { returnValue: out, gasUsed: 100n };
  },
};

const common = createRskCommon(33, 'unit');
const execution = new Execution(common, async () => undefined);

async function probeEvm(): Promise<EVM> {
  const stateManager = new MerkleStateManager({ common });
  const evm = await createEVM({ common, stateManager, customPrecompiles: nativePrecompiles({ blockAt: async () => undefined }, [probe]) });
  trackNativeFrames(evm, [probe]);
  await stateManager.putAccount(CALLER, new Account(0n, 10n ** 18n));
  return evm;
}

const probeHex = bytesToHex(PROBE).slice(2);
/** CALL(gas, probe, 5 wei, no input) then return its return data. */
const CALL_WITH_VALUE = `6000600060006000` + `6005` + `73${probeHex}5af1503d600060003e3d6000f3`;
/** STATICCALL(gas, probe, no input) then return its return data. */
const STATIC_CALL = `6000600060006000` + `73${probeHex}5afa503d600060003e3d6000f3`;
/** DELEGATECALL(gas, probe, no input) then return its return data. */
const DELEGATE_CALL = `6000600060006000` + `73${probeHex}5af4503d600060003e3d6000f3`;

async function install(evm: EVM, address: Address, code: string, balance = 0n) {
  await evm.stateManager.putAccount(address, new Account(1n, balance));
  await evm.stateManager.putCode(address, hexToBytes(`0x${code}`));
}

function decode(out: Uint8Array) {
  const w = (i: number) => out.subarray(32 * i, 32 * i + 32);
  return {
    caller: bytesToHex(w(0).subarray(12)),
    origin: bytesToHex(w(1).subarray(12)),
    depth: bytesToBigInt(w(2)),
    value: bytesToBigInt(w(3)),
    isStatic: bytesToBigInt(w(4)),
    number: bytesToBigInt(w(5)),
    coinbase: bytesToHex(w(6).subarray(12)),
    localCall: bytesToBigInt(w(7)),
    gasLimit: bytesToBigInt(w(8)),
  };
}

const block = (localCall = false) =>
  execution.contextBlock({ number: 7n, timestamp: 1n, difficulty: 1n, gasLimit: 6_800_000n, minimumGasPrice: 0n, miner: MINER, gasUsed: 0n, localCall });

describe('what a native contract sees of its frame', () => {
  it('called by a transaction: caller = origin = the sender, depth 0, the value sent, the block with its miner', async () => {
    const evm = await probeEvm();
    const result = await evm.runCall({ caller: CALLER, origin: CALLER, to: new Address(PROBE), value: 3n, gasLimit: 50_000n, block: block(true), skipBalance: true });
    expect(result.execResult.exceptionError).toBeUndefined();
    expect(result.execResult.executionGasUsed).toBe(100n);
    expect(decode(result.execResult.returnValue)).toEqual({
      caller: CALLER.toString(),
      origin: CALLER.toString(),
      depth: 0n,
      value: 3n,
      isStatic: 0n,
      number: 7n,
      coinbase: bytesToHex(MINER),
      localCall: 1n,
      gasLimit: 50_000n,
    });
  });

  it('called by a contract: the contract is the caller, the sender the origin, depth 1, the contract\'s value', async () => {
    const evm = await probeEvm();
    await install(evm, A, CALL_WITH_VALUE, 100n);
    const result = await evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 100_000n, block: block(false), skipBalance: true });
    expect(result.execResult.exceptionError).toBeUndefined();
    const seen = decode(result.execResult.returnValue);
    expect(seen.caller).toBe(A.toString());
    expect(seen.origin).toBe(CALLER.toString());
    expect(seen.depth).toBe(1n);
    expect(seen.value).toBe(5n);
    expect(seen.isStatic).toBe(0n);
    expect(seen.localCall).toBe(0n);
  });

  it('STATICCALL sets the static flag; DELEGATECALL keeps the original caller', async () => {
    const evm = await probeEvm();
    await install(evm, S, STATIC_CALL);
    await install(evm, D, DELEGATE_CALL);
    const viaStatic = await evm.runCall({ caller: CALLER, origin: CALLER, to: S, gasLimit: 100_000n, block: block(), skipBalance: true });
    expect(decode(viaStatic.execResult.returnValue)).toMatchObject({ caller: S.toString(), isStatic: 1n, depth: 1n, localCall: 0n });
    const viaDelegate = await evm.runCall({ caller: CALLER, origin: CALLER, to: D, value: 0n, gasLimit: 100_000n, block: block(), skipBalance: true });
    expect(decode(viaDelegate.execResult.returnValue)).toMatchObject({ caller: CALLER.toString(), depth: 1n });
  });

  it('a creation message (no code address) passes the tracker untouched', async () => {
    const evm = await probeEvm();
    // Init code that returns empty runtime code.
    const result = await evm.runCall({ caller: CALLER, origin: CALLER, data: hexToBytes('0x60006000f3'), gasLimit: 100_000n, block: block(), skipBalance: true });
    expect(result.execResult.exceptionError).toBeUndefined();
    expect(result.createdAddress).toBeDefined();
  });
});

describe('results into the EVM (rskj NativeContract, RSKIP197)', () => {
  const methods = nativeContract(PROBE, 'methods', [
    { name: 'ok', inputs: ['int256'], gas: () => 1_000n, execute: ([v]) => encodeBytes(javaBigIntegerBytes(v as bigint)) },
    {
      name: 'boom',
      inputs: [],
      gas: () => 2_000n,
      execute: () => {
        throw new (class extends Error {})('not a NativeMethodError');
      },
    },
  ]);
  const call = (data: Uint8Array, gasLimit = 10_000n): NativeCall => ({
    data,
    gasLimit,
    localCall: false,
    caller: new Uint8Array(20),
    origin: new Uint8Array(20),
    value: 0n,
    depth: 0,
    isStatic: false,
    callType: 'CALL',
    block: { number: 1n, timestamp: 0n, coinbase: new Uint8Array(20), minimumGasPrice: 0n, gasLimit: 0n, difficulty: 0n },
    headerAt: async () => undefined,
    state: undefined as never,
  });
  const sel = (name: string, inputs: Parameters<typeof selector>[1]) => selector(name, inputs);

  it('a method runs at its price; too little gas is out of gas using everything', async () => {
    const data = new Uint8Array([...sel('ok', ['int256']), ...word(255n)]);
    const ok = await methods.call(call(data));
    expect(ok.error).toBeUndefined();
    expect(ok.gasUsed).toBe(1_000n);
    expect(bytesToHex(ok.returnValue)).toBe(bytesToHex(encodeBytes(hexToBytes('0x00ff'))));
    expect(await methods.call(call(data, 999n))).toMatchObject({ error: 'out of gas', gasUsed: 999n });
  });

  it('no selector match, 1-3 bytes of data, or undecodable arguments: failure at price 0', async () => {
    expect(await methods.call(call(hexToBytes('0xdeadbeef')))).toMatchObject({ error: 'failure', gasUsed: 0n });
    expect(await methods.call(call(hexToBytes('0xdead')))).toMatchObject({ error: 'failure', gasUsed: 0n });
    const truncated = new Uint8Array([...sel('ok', ['int256']), 1, 2, 3]);
    expect(await methods.call(call(truncated))).toMatchObject({ error: 'failure', gasUsed: 0n });
  });

  it('an unexpected exception inside a method is not swallowed', async () => {
    await expect(methods.call(call(sel('boom', [])))).rejects.toThrow('not a NativeMethodError');
  });
});

describe('rskj ABI decoding (SolidityType, Utils.safeCopyOfRange)', () => {
  const sel = selector('f', ['int256']);
  it('no arguments at all: integers read 0 and arrays empty, but bytes fail', () => {
    expect(decodeArguments(['int256', 'bytes[]'], sel)).toEqual([0n, []]);
    expect(() => decodeArguments(['bytes'], sel)).toThrow(AbiDecodeError);
  });
  it('integers are signed; reads past the data fail', () => {
    expect(decodeArguments(['int256'], new Uint8Array([...sel, ...new Uint8Array(32).fill(0xff)]))).toEqual([-1n]);
    expect(() => decodeArguments(['int256', 'int256'], new Uint8Array([...sel, ...new Uint8Array(32)]))).toThrow(AbiDecodeError);
  });
  it('Java BigInteger.toByteArray: 0 is [0], a set top bit gets a 0x00 prefix', () => {
    expect(bytesToHex(javaBigIntegerBytes(0n))).toBe('0x00');
    expect(bytesToHex(javaBigIntegerBytes(0x7fn))).toBe('0x7f');
    expect(bytesToHex(javaBigIntegerBytes(0x80n))).toBe('0x0080');
    expect(bytesToHex(javaBigIntegerBytes(0x1234n))).toBe('0x1234');
  });
});

describe('getMergedMiningTags (rskj GetMergedMiningTags)', () => {
  const tag = new TextEncoder().encode('RSKBLOCK:');
  it('answers what follows the last tag and its 32-byte hash; nothing without a tag', () => {
    const tx = new Uint8Array([1, 2, ...tag, ...new Uint8Array(32).fill(9), ...tag, ...new Uint8Array(32).fill(7), 0xaa, 0xbb]);
    expect(bytesToHex(mergedMiningTags(tx))).toBe('0xaabb');
    expect(mergedMiningTags(new Uint8Array([1, 2, 3])).length).toBe(0);
  });
  it('a tag too close to the end for its hash fails, as Arrays.copyOfRange does', () => {
    expect(() => mergedMiningTags(new Uint8Array([...tag, 1, 2]))).toThrow();
  });
});
