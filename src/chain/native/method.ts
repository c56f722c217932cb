/**
 * rskj's NativeContract dispatch (co/rsk/pcc/NativeContract.java, NativeMethod.java) for the
 * contracts built on it (HDWalletUtils, BlockHeader, Environment):
 *
 * - The call data picks a method by its selector and is decoded with the method's ABI. Data of 1-3
 *   bytes, no data (none of these contracts has a default method), an unknown selector, a disabled
 *   method or arguments that do not decode: the method cannot be parsed, so the call costs 0 gas
 *   (`getGasForData` returns 0) and then fails (`execute` throws "Invalid data given").
 * - Gas is the method's `getGas(arguments, data)`, charged before it runs; more than the call has
 *   → out of gas, all of it used (Program.callToPrecompiledAddress).
 * - A method rskj allows only in local calls fails outside eth_call/eth_estimateGas.
 * - Any exception in the method fails the call with only its price charged (RSKIP197); rskj
 *   returns no data then. A method result of null/empty Optional returns no data either.
 */
import { AbiDecodeError, type AbiType, type AbiValue, decodeArguments, selector } from './abi.js';
import type { NativeCall, NativeContract, NativeResult } from './types.js';

/** rskj's NativeContractIllegalArgumentException: the method refuses its arguments. */
export class NativeMethodError extends Error {}

export interface NativeMethod {
  name: string;
  inputs: readonly AbiType[];
  /** NativeMethod.getGas(parsedArguments, originalData). */
  gas(args: AbiValue[], data: Uint8Array): bigint;
  /** ABI-encoded return data, or undefined for rskj's null result (no return data). */
  execute(args: AbiValue[], call: NativeCall): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  onlyAllowsLocalCalls?: boolean;
  /** NativeMethod.isEnabled (all methods here are active on regtest from genesis). */
  isEnabled?: (call: NativeCall) => boolean;
}

/** NativeMethod's default price: twice the length of the call data. */
export const dataGas = (data: Uint8Array): bigint => BigInt(data.length) * 2n;

const EMPTY = new Uint8Array(0);

function fail(gasUsed: bigint, message: string): NativeResult {
  return { returnValue: EMPTY, gasUsed, error: 'failure', message };
}

export function nativeContract(address: Uint8Array, name: string, methods: readonly NativeMethod[]): NativeContract {
  // Hashed on the first call, not at load: the Bridge alone has over a hundred methods, and their
  // Keccak hashes were a few ms of every start (the JavaScript Keccak is cold then).
  let bySelector: Map<number, NativeMethod> | undefined;
  const selectorTable = () => {
    const table = new Map<number, NativeMethod>();
    for (const method of methods) {
      const sel = selector(method.name, method.inputs);
      table.set(new DataView(sel.buffer, sel.byteOffset, 4).getUint32(0), method);
    }
    return table;
  };

  return {
    address,
    name,
    async call(call: NativeCall): Promise<NativeResult> {
      const { data } = call;
      if (data.length < 4) return fail(0n, `Invalid data given: 0x${Buffer.from(data).toString('hex')}.`);
      const method = (bySelector ??= selectorTable()).get(new DataView(data.buffer, data.byteOffset, 4).getUint32(0));
      if (method === undefined || (method.isEnabled !== undefined && !method.isEnabled(call))) {
        return fail(0n, `Invalid data given: 0x${Buffer.from(data).toString('hex')}.`);
      }
      let args: AbiValue[];
      try {
        args = decodeArguments(method.inputs, data);
      } catch (err) {
        if (err instanceof AbiDecodeError) return fail(0n, `Invalid data given: 0x${Buffer.from(data).toString('hex')}.`);
        throw err;
      }
      const gas = method.gas(args, data);
      if (gas > call.gasLimit) return { returnValue: EMPTY, gasUsed: call.gasLimit, error: 'out of gas' };
      if (method.onlyAllowsLocalCalls === true && call.localCall !== true) {
        return fail(gas, `Non-local-call to ${method.name}. Returning without execution.`);
      }
      try {
        const out = await method.execute(args, call);
        return { returnValue: out ?? EMPTY, gasUsed: gas };
      } catch (err) {
        if (err instanceof NativeMethodError || err instanceof RangeError) {
          return fail(gas, `Error executing: ${method.name}: ${err.message}`);
        }
        throw err;
      }
    },
  };
}
