/**
 * The small part of the Solidity ABI that RSK's native contracts speak, decoded the way rskj's
 * `CallTransaction.Function.decode` / `SolidityType` do it (so a malformed call fails where rskj's
 * fails), and encoded as `Function.encodeOutputs` does.
 *
 * rskj specifics (org/ethereum/solidity/SolidityType.java, org/ethereum/util/Utils.java):
 * - The arguments are the call data after the 4-byte selector. When there are none at all, every
 *   integer argument reads as 0 and every dynamic array as empty (IntType.decodeInt: "getGasForData
 *   might send an empty payload"); a `bytes`/`string` argument then fails.
 * - Otherwise every read must lie inside the data (Utils.safeCopyOfRange), or decoding fails.
 * - Integers are signed two's complement (`new BigInteger(bytes)`); offsets and lengths are their
 *   low 32 bits as a Java int (`intValue()`).
 * - Strings are UTF-8, malformed sequences replaced (Java's `new String(bytes, UTF_8)`).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';

export type AbiType = 'int256' | 'uint32' | 'bytes' | 'string' | 'bytes[]';
export type AbiValue = bigint | Uint8Array | string | Uint8Array[];

export class AbiDecodeError extends Error {}

const WORD = 32;
const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** The 4-byte selector of `name(types)`. */
export function selector(name: string, inputs: readonly AbiType[]): Uint8Array {
  return keccak_256(utf8Encoder.encode(`${name}(${inputs.join(',')})`)).subarray(0, 4);
}

function signedWord(args: Uint8Array, offset: number): bigint {
  if (args.length === 0) return 0n;
  if (offset < 0 || offset + WORD > args.length) throw new AbiDecodeError('The specified size exceeds the size of the payload');
  let value = 0n;
  for (let i = 0; i < WORD; i++) value = (value << 8n) | BigInt(args[offset + i]!);
  return BigInt.asIntN(256, value);
}

/** Java `BigInteger.intValue()`: the low 32 bits, signed. */
function javaInt(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}

function bytesAt(args: Uint8Array, offset: number): Uint8Array {
  const length = javaInt(signedWord(args, offset));
  const start = offset + WORD;
  if (length < 0 || start + length > args.length) throw new AbiDecodeError('The specified size exceeds the size of the payload');
  return args.slice(start, start + length);
}

function bytesArrayAt(args: Uint8Array, offset: number): Uint8Array[] {
  if (args.length === 0) return [];
  const length = javaInt(signedWord(args, offset));
  const start = offset + WORD;
  if (length < 0 || start + length > args.length) throw new AbiDecodeError('The specified size exceeds the size of the payload');
  const out: Uint8Array[] = [];
  for (let i = 0; i < length; i++) {
    out.push(bytesAt(args, start + javaInt(signedWord(args, start + i * WORD))));
  }
  return out;
}

/** Decodes the arguments of a call (`data` includes the selector). Throws AbiDecodeError. */
export function decodeArguments(types: readonly AbiType[], data: Uint8Array): AbiValue[] {
  const args = data.subarray(4);
  return types.map((type, i) => {
    const head = i * WORD;
    switch (type) {
      case 'int256':
        return signedWord(args, head);
      case 'uint32':
        return BigInt.asUintN(32, signedWord(args, head));
      case 'bytes':
        return bytesAt(args, javaInt(signedWord(args, head)));
      case 'string':
        return utf8Decoder.decode(bytesAt(args, javaInt(signedWord(args, head))));
      case 'bytes[]':
        return bytesArrayAt(args, args.length === 0 ? 0 : javaInt(signedWord(args, head)));
    }
  });
}

function word(value: bigint): Uint8Array {
  const out = new Uint8Array(WORD);
  let v = BigInt.asUintN(256, value);
  for (let i = WORD - 1; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** ABI encoding of a single `bytes` return value (offset, length, data padded to 32). */
export function encodeBytes(value: Uint8Array): Uint8Array {
  const padded = Math.ceil(value.length / WORD) * WORD;
  const out = new Uint8Array(2 * WORD + padded);
  out.set(word(BigInt(WORD)), 0);
  out.set(word(BigInt(value.length)), WORD);
  out.set(value, 2 * WORD);
  return out;
}

/** ABI encoding of a single `string` return value. */
export function encodeString(value: string): Uint8Array {
  return encodeBytes(utf8Encoder.encode(value));
}

/** ABI encoding of a single integer return value (uint32, uint256, int256). */
export function encodeUint(value: bigint): Uint8Array {
  return word(value);
}

/** Java's `BigInteger.toByteArray()` for a non-negative value: minimal two's complement, 0 → [0x00]. */
export function javaBigIntegerBytes(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
