/**
 * The one ABI coder of RSK's native contracts (Bridge, BlockHeader, HDWalletUtils, REMASC,
 * Environment). Written by hand because no ABI coder is a runtime dependency (ethers and viem are
 * dev-only); test/unit/abi-coder.test.ts checks every shape against viem's coder.
 *
 * Decoding is rskj's, for every native contract alike: Bridge.parseData, like the other native
 * contracts, calls `CallTransaction.Function.decode`, which reads with `SolidityType`
 * (org/ethereum/solidity/SolidityType.java, org/ethereum/util/Utils.java), so a malformed call
 * fails where rskj's fails and a short one succeeds where rskj's succeeds:
 * - The arguments are the call data after the 4-byte selector. When there are none at all, every
 *   integer, bool and address argument reads as 0 and every dynamic array as empty
 *   (IntType.decodeInt: "getGasForData might send an empty payload"); a `bytes`/`string`/`bytes32`
 *   argument then fails.
 * - Otherwise every read must lie inside the data (Utils.safeCopyOfRange), or decoding fails.
 * - Integers are signed two's complement whatever the type's name (`new BigInteger(bytes)`, no
 *   range check); offsets and lengths are their low 32 bits as a Java int (`intValue()`), and a
 *   bool is true when those low 32 bits are not 0.
 * - Strings are UTF-8, malformed sequences replaced (Java's `new String(bytes, UTF_8)`).
 *
 * Encoding is the standard head/tail `abi.encode` (`Function.encodeOutputs`); `encodeBytes`,
 * `encodeString` and `encodeUint` are its one-value forms. Selectors are Solidity's, with `int` ->
 * `int256` and `uint` -> `uint256` as in the published ABIs.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { javaInt } from '../base/bytes.js';

export type AbiType = 'int256' | 'uint256' | 'int64' | 'bool' | 'string' | 'bytes' | 'bytes32' | 'address' | 'bytes[]' | 'bytes32[]';
export type AbiValue = bigint | boolean | string | Uint8Array | Uint8Array[];

export class AbiDecodeError extends Error {}

const WORD = 32;
const ADDRESS_BYTES = 20;
const OUT_OF_PAYLOAD = 'The specified size exceeds the size of the payload'; // Utils.validateArrayAllegedSize
const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** Solidity's canonical spelling of an ABI type (`int` is `int256`, `uint` is `uint256`). */
export function canonicalType(type: string): string {
  return type.replace(/\b(u?int)(?!\d)/g, '$1256');
}

/** The 4-byte selector of `name(types)`. */
export function selector(name: string, inputs: readonly string[]): Uint8Array {
  return keccak_256(utf8Encoder.encode(`${name}(${inputs.map(canonicalType).join(',')})`)).subarray(0, 4);
}

/** The unsigned 32-byte word at `offset`; throws AbiDecodeError when it does not lie inside `data`. */
export function readWord(data: Uint8Array, offset: number): bigint {
  if (offset < 0 || offset + WORD > data.length) throw new AbiDecodeError(OUT_OF_PAYLOAD);
  let value = 0n;
  for (let i = 0; i < WORD; i++) value = (value << 8n) | BigInt(data[offset + i]!);
  return value;
}

/** IntType.decodeInt: the signed word at `offset`, or 0 when there are no arguments at all. */
function signedWord(args: Uint8Array, offset: number): bigint {
  if (args.length === 0) return 0n;
  return BigInt.asIntN(256, readWord(args, offset));
}

function bytesAt(args: Uint8Array, offset: number): Uint8Array {
  const length = javaInt(signedWord(args, offset));
  const start = offset + WORD;
  if (length < 0 || start + length > args.length) throw new AbiDecodeError(OUT_OF_PAYLOAD);
  return args.slice(start, start + length);
}

function bytesArrayAt(args: Uint8Array, offset: number): Uint8Array[] {
  if (args.length === 0) return [];
  const length = javaInt(signedWord(args, offset));
  const start = offset + WORD;
  if (length < 0 || start + length > args.length) throw new AbiDecodeError(OUT_OF_PAYLOAD);
  const out: Uint8Array[] = [];
  for (let i = 0; i < length; i++) {
    out.push(bytesAt(args, start + javaInt(signedWord(args, start + i * WORD))));
  }
  return out;
}

function fixedBytesArrayAt(args: Uint8Array, offset: number): Uint8Array[] {
  const length = javaInt(signedWord(args, offset));
  const start = offset + WORD;
  if (length < 0 || start + length * WORD > args.length) throw new AbiDecodeError(OUT_OF_PAYLOAD);
  return Array.from({ length }, (_, i) => fixedBytesAt(args, start + i * WORD));
}

function fixedBytesAt(args: Uint8Array, offset: number): Uint8Array {
  if (offset + WORD > args.length) throw new AbiDecodeError(OUT_OF_PAYLOAD);
  return args.slice(offset, offset + WORD);
}

/** Decodes the arguments of a call (`data` includes the selector) by rskj's rules. Throws AbiDecodeError. */
export function decodeArguments(types: readonly AbiType[], data: Uint8Array): AbiValue[] {
  const args = data.subarray(4);
  return types.map((type, i) => {
    const head = i * WORD;
    switch (type) {
      case 'int256':
      case 'uint256':
      case 'int64':
        return signedWord(args, head);
      case 'bool':
        return javaInt(signedWord(args, head)) !== 0;
      case 'address':
        return encodeUint(signedWord(args, head)).slice(WORD - ADDRESS_BYTES);
      case 'bytes32':
        return fixedBytesAt(args, head);
      case 'bytes':
        return bytesAt(args, javaInt(signedWord(args, head)));
      case 'string':
        return utf8Decoder.decode(bytesAt(args, javaInt(signedWord(args, head))));
      case 'bytes[]':
        return bytesArrayAt(args, args.length === 0 ? 0 : javaInt(signedWord(args, head)));
      case 'bytes32[]':
        return fixedBytesArrayAt(args, javaInt(signedWord(args, head)));
    }
  });
}

/** ABI encoding of one integer word (two's complement for negatives). */
export function encodeUint(value: bigint): Uint8Array {
  const out = new Uint8Array(WORD);
  let v = BigInt.asUintN(256, value);
  for (let i = WORD - 1; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function padRight(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(bytes.length / WORD) * WORD);
  padded.set(bytes);
  return padded;
}

function encodeStatic(type: AbiType, value: AbiValue): Uint8Array {
  switch (type) {
    case 'int256':
    case 'uint256':
    case 'int64':
      return encodeUint(value as bigint);
    case 'bool':
      return encodeUint(value ? 1n : 0n);
    case 'bytes32': {
      const b = value as Uint8Array;
      if (b.length !== WORD) throw new Error('bytes32 needs 32 bytes');
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
  if (type === 'bytes[]') {
    const items = (value as Uint8Array[]).map((item) => encodeDynamic('bytes', item));
    const heads: Uint8Array[] = [];
    let offset = items.length * WORD;
    for (const item of items) {
      heads.push(encodeUint(BigInt(offset)));
      offset += item.length;
    }
    return concatBytes(encodeUint(BigInt(items.length)), ...heads, ...items);
  }
  const bytes = type === 'string' ? utf8Encoder.encode(value as string) : (value as Uint8Array);
  return concatBytes(encodeUint(BigInt(bytes.length)), padRight(bytes));
}

function isDynamic(type: AbiType): boolean {
  return type === 'string' || type === 'bytes' || type === 'bytes[]';
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
      heads.push(encodeUint(BigInt(tailOffset)));
      tails.push(tail);
      tailOffset += tail.length;
    } else {
      heads.push(encodeStatic(type, values[i]!));
    }
  });
  return concatBytes(...heads, ...tails);
}

/** ABI encoding of a single `bytes` return value (offset, length, data padded to 32). */
export function encodeBytes(value: Uint8Array): Uint8Array {
  return encodeAbi(['bytes'], [value]);
}

/** ABI encoding of a single `string` return value. */
export function encodeString(value: string): Uint8Array {
  return encodeAbi(['string'], [value]);
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
