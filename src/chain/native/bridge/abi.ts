/**
 * The few ABI encodings the Bridge's methods use (int256/uint256/int64, bool, string, bytes,
 * bytes32 as arguments and results). Written by hand because no ABI coder is a runtime dependency
 * (ethers and viem are dev-only); the unit test checks every shape against viem's coder.
 * Selectors are Solidity's, with `int` -> `int256` and `uint` -> `uint256` as in the published ABI.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

export type AbiType = 'int256' | 'uint256' | 'int64' | 'bool' | 'string' | 'bytes' | 'bytes32' | 'address';
export type AbiValue = bigint | boolean | string | Uint8Array;

const WORD = 32;
const TWO_256 = 1n << 256n;

/** Solidity's canonical spelling of an ABI type (`int` is `int256`, `uint` is `uint256`). */
export function canonicalType(type: string): string {
  return type.replace(/\b(u?int)(?!\d)/g, '$1256');
}

export function selectorOf(name: string, inputTypes: readonly string[]): Uint8Array {
  const signature = `${name}(${inputTypes.map(canonicalType).join(',')})`;
  return keccak_256(utf8ToBytes(signature)).subarray(0, 4);
}

export function selectorHex(selector: Uint8Array): string {
  return bytesToHex(selector);
}

function word(value: bigint): Uint8Array {
  const v = ((value % TWO_256) + TWO_256) % TWO_256; // two's complement for negatives
  return hexToBytes(v.toString(16).padStart(64, '0'));
}

function padRight(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(bytes.length / WORD) * WORD);
  padded.set(bytes);
  return padded;
}

function isDynamic(type: AbiType): boolean {
  return type === 'string' || type === 'bytes';
}

function encodeStatic(type: AbiType, value: AbiValue): Uint8Array {
  switch (type) {
    case 'int256':
    case 'uint256':
    case 'int64':
      return word(BigInt(value as bigint));
    case 'bool':
      return word(value ? 1n : 0n);
    case 'bytes32': {
      const b = value as Uint8Array;
      if (b.length !== 32) throw new Error('bytes32 needs 32 bytes');
      return b;
    }
    case 'address': {
      const b = value as Uint8Array;
      const w = new Uint8Array(WORD);
      w.set(b, WORD - b.length);
      return w;
    }
    default:
      throw new Error(`not a static type: ${type}`);
  }
}

function encodeDynamic(type: AbiType, value: AbiValue): Uint8Array {
  const bytes = type === 'string' ? utf8ToBytes(value as string) : (value as Uint8Array);
  return concatBytes(word(BigInt(bytes.length)), padRight(bytes));
}

/** abi.encode(values) for a tuple of the types above. */
export function encodeAbi(types: readonly AbiType[], values: readonly AbiValue[]): Uint8Array {
  if (types.length !== values.length) throw new Error('types and values differ in length');
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  let tailOffset = types.length * WORD;
  types.forEach((type, i) => {
    if (isDynamic(type)) {
      const tail = encodeDynamic(type, values[i]!);
      heads.push(word(BigInt(tailOffset)));
      tails.push(tail);
      tailOffset += tail.length;
    } else {
      heads.push(encodeStatic(type, values[i]!));
    }
  });
  return concatBytes(...heads, ...tails);
}

export class AbiDecodeError extends Error {}

function readWord(data: Uint8Array, offset: number): bigint {
  if (offset + WORD > data.length) throw new AbiDecodeError('data too short');
  return BigInt('0x' + bytesToHex(data.subarray(offset, offset + WORD)));
}

function toSigned(v: bigint, bits: number): bigint {
  const limit = 1n << BigInt(bits - 1);
  return v >= limit ? v - (1n << BigInt(bits)) : v;
}

/** Decodes abi.encode(types) from `data` (the call data after the selector). */
export function decodeAbi(types: readonly AbiType[], data: Uint8Array): AbiValue[] {
  return types.map((type, i) => {
    const head = readWord(data, i * WORD);
    switch (type) {
      case 'int256':
        return toSigned(head, 256);
      case 'int64': {
        const v = toSigned(head, 256);
        if (v < -(1n << 63n) || v >= 1n << 63n) throw new AbiDecodeError('int64 out of range');
        return v;
      }
      case 'uint256':
        return head;
      case 'bool':
        if (head > 1n) throw new AbiDecodeError('bad bool');
        return head === 1n;
      case 'bytes32':
        return data.slice(i * WORD, i * WORD + WORD);
      case 'address':
        return data.slice(i * WORD + 12, i * WORD + WORD);
      case 'string':
      case 'bytes': {
        if (head > BigInt(data.length)) throw new AbiDecodeError('offset out of range');
        const offset = Number(head);
        const length = readWord(data, offset);
        if (BigInt(offset) + 32n + length > BigInt(data.length)) throw new AbiDecodeError('length out of range');
        const bytes = data.slice(offset + WORD, offset + WORD + Number(length));
        return type === 'string' ? new TextDecoder('utf-8', { fatal: false }).decode(bytes) : bytes;
      }
    }
  });
}
