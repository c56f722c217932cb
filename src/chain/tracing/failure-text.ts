/**
 * A failed frame's error as the two tracer families word it: rskj's exception (class and message,
 * from Program.ExceptionHelper) for the struct-log tracer and trace_*, geth's error strings
 * (core/vm/errors.go) for callTracer. The input is ethereumjs's EVMError text.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Frame } from './recorder.js';
import { actualByte, opcodeName, stackInputs } from './opcode-names.js';

const PROGRAM = 'org.ethereum.vm.program.Program';
const RUNTIME = 'java.lang.RuntimeException';
const MAX_STACK = 1024;
const MAX_INITCODE_SIZE = 49152;
const MAX_CODE_SIZE = 24576;
const CODE_DEPOSIT_GAS_PER_BYTE = 200n;

export interface JavaException {
  className: string;
  message: string;
}

/** rskj's exception for a frame that failed with something other than REVERT; undefined otherwise. */
export function rskjException(frame: Frame, txHash: Uint8Array): JavaException | undefined {
  const error = frame.error;
  if (error === undefined || error === 'revert') return undefined;
  const tx = bytesToHex(txHash);
  const step = frame.lastStep;
  const op = step === undefined ? 'STOP' : (opcodeName(step.opcode) ?? 'STOP');
  switch (error) {
    case 'out of gas':
      return {
        className: `${PROGRAM}$OutOfGasException`,
        message: `Not enough gas for '${op}' operation executing: opGas[${step?.fee ?? 0n}], programGas[${step?.gasLeft ?? 0n}], tx[${tx}]`,
      };
    case 'code store out of gas': {
      const storageCost = CODE_DEPOSIT_GAS_PER_BYTE * BigInt(frame.output.length);
      const used = step === undefined ? 0n : frame.gas - step.gasLeft + step.fee;
      return {
        className: `${PROGRAM}$OutOfGasException`,
        message: `Not enough gas for 'No gas to return just created contract' cause spending: invokeGas[${frame.gas}], gas[${storageCost}], usedGas[${used}], tx[${tx}]`,
      };
    }
    case 'invalid opcode': {
      const byte = actualByte(frame);
      return { className: `${PROGRAM}$IllegalOperationException`, message: `Invalid operation code: opcode[${byte.toString(16).padStart(2, '0')}], tx[${tx}]` };
    }
    case 'invalid JUMP':
      return { className: `${PROGRAM}$BadJumpDestinationException`, message: `Operation with pc isn't 'JUMPDEST': PC[${step?.stackTop ?? 0n}], tx[${tx}]` };
    case 'stack underflow':
      return {
        className: `${PROGRAM}$StackTooSmallException`,
        message: `Expected stack size ${step === undefined ? 0 : stackInputs(step.opcode)} but actual ${step?.stackLength ?? 0}, tx: ${tx}`,
      };
    case 'stack overflow':
      return { className: `${PROGRAM}$StackTooLargeException`, message: `Expected: overflow ${MAX_STACK} elements stack limit` };
    case 'static state change':
      return { className: `${PROGRAM}$StaticCallModificationException`, message: `Attempt to call a state modifying opcode inside STATICCALL: tx[${tx}]` };
    case 'create collision':
      return {
        className: `${PROGRAM}$AddressCollisionException`,
        message: `Trying to create a contract with existing contract address: ${frame.address === undefined ? '0x' : bytesToHex(frame.address)}, tx: ${tx}`,
      };
    case 'initcode exceeds max initcode size':
      return { className: RUNTIME, message: `Maximum initcode size allowed ${MAX_INITCODE_SIZE} but actual was ${frame.input.length}, tx: ${tx}` };
    case 'code size to deposit exceeds maximum code size':
      return { className: RUNTIME, message: `Maximum contract size allowed ${MAX_CODE_SIZE} but actual ${frame.output.length}, tx: ${tx}` };
    case 'invalid bytecode deployed':
      return { className: RUNTIME, message: `Contract code cannot start with 0xEF byte (RSKIP544/EIP-3541), tx: ${tx}` };
    default:
      return { className: RUNTIME, message: error };
  }
}

/** Java's Class.toString(): "class <name>" (DetailedProgramTrace.error). */
export function javaClassAndMessage(e: JavaException): string {
  return `class ${e.className}: ${e.message}`;
}

/** Java's Throwable.toString(): "<name>: <message>" (trace_* subtraces). */
export function javaThrowableString(e: JavaException): string {
  return `${e.className}: ${e.message}`;
}

/** geth's error text for a failed frame (what callTracer shows in `error`). */
export function gethError(frame: Frame): string | undefined {
  const error = frame.error;
  if (error === undefined) return undefined;
  const step = frame.lastStep;
  switch (error) {
    case 'revert':
      return 'execution reverted';
    case 'out of gas':
      return 'out of gas';
    case 'code store out of gas':
      return 'contract creation code storage out of gas';
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded';
    case 'invalid JUMP':
      return 'invalid jump destination';
    case 'invalid opcode': {
      const byte = actualByte(frame);
      const name = opcodeName(byte);
      return `invalid opcode: ${name ?? `opcode 0x${byte.toString(16)} not defined`}`;
    }
    case 'stack underflow':
      return `stack underflow (${step?.stackLength ?? 0} <=> ${step === undefined ? 0 : stackInputs(step.opcode)})`;
    case 'stack overflow':
      return `stack limit reached ${MAX_STACK} (${MAX_STACK - 1})`;
    case 'static state change':
      return 'write protection';
    case 'create collision':
      return 'contract address collision';
    case 'initcode exceeds max initcode size':
      return 'max initcode size exceeded';
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef';
    case 'insufficient balance':
      return 'insufficient balance for transfer';
    default:
      return error;
  }
}
