/**
 * EIP-712 typed-data hashing (eth_signTypedData_v4): keccak256(0x1901 ‖ domainSeparator ‖
 * hashStruct(message)). Written here because no runtime dependency has it (ethers and viem, which
 * do, are dev dependencies only; @ethereumjs/util and @noble/* have no EIP-712), on the node's own
 * Keccak. Tests check it against ethers' TypedDataEncoder and viem's hashTypedData.
 *
 * The input is the JSON object wallets send ({ types, primaryType, domain, message }); values come
 * as JSON gives them: integers as numbers or decimal/0x strings, bytes and addresses as 0x hex.
 * When `types` has no EIP712Domain, it is derived from the domain's fields (as ethers and MetaMask
 * do). Arrays and recursive structs are v4's; v3's inputs hash the same.
 */
import { bigIntToBytes, concatBytes, hexToBytes, setLengthLeft, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/hash.js';

/** Bad typed data: the caller's input, answered as invalid params. */
export class TypedDataError extends Error {}

export interface TypedField {
  name: string;
  type: string;
}

/** By name; a Map, so a field typed "constructor" or "__proto__" finds nothing it should not. */
type Types = Map<string, TypedField[]>;

const WORD = 32;
/** The domain fields EIP-712 names, in the order a derived EIP712Domain lists them. */
const DOMAIN_FIELDS: readonly TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ARRAY_SUFFIX = /^(.*)\[(\d*)\]$/;
const INTEGER_TYPE = /^(u?)int(\d*)$/;
const FIXED_BYTES_TYPE = /^bytes(\d+)$/;
const HEX = /^0x([0-9a-fA-F]{2})*$/;
/** Longest field type read ("uint256[][3]", "Permit"): far above any real one, and it bounds the array-suffix recursion. */
const MAX_TYPE_CHARS = 256;
/** Longest integer string read: a uint256 has 78 decimal digits (66 chars as 0x hex); sign and slack. */
const MAX_INTEGER_CHARS = 80;

/** The 32-byte digest a wallet signs for `typedData` (the JSON object, already parsed). */
export function typedDataHash(typedData: unknown): Uint8Array {
  const { types, primaryType, domain, message } = readTypedData(typedData);
  const domainSeparator = hashStruct('EIP712Domain', domain, types);
  // As eth-sig-util and viem: a primary type of EIP712Domain signs the domain alone.
  const parts = [Uint8Array.of(0x19, 0x01), domainSeparator];
  if (primaryType !== 'EIP712Domain') parts.push(hashStruct(primaryType, message, types));
  return keccak256(concatBytes(...parts));
}

function readTypedData(input: unknown): { types: Types; primaryType: string; domain: Record<string, unknown>; message: unknown } {
  if (!isObject(input)) throw new TypedDataError('typed data must be an object with types, primaryType, domain and message');
  const { types, primaryType, domain, message } = input;
  if (!isObject(types)) throw new TypedDataError('typed data has no "types" object');
  if (typeof primaryType !== 'string') throw new TypedDataError('typed data has no "primaryType" string');
  if (!isObject(domain)) throw new TypedDataError('typed data has no "domain" object');
  const checked: Types = new Map();
  for (const [name, fields] of Object.entries(types)) checked.set(name, readFields(name, fields));
  if (!checked.has('EIP712Domain')) checked.set('EIP712Domain', DOMAIN_FIELDS.filter((field) => domain[field.name] !== undefined && domain[field.name] !== null));
  for (const [name, fields] of checked) for (const field of fields) checkType(field.type, checked, `${name}.${field.name}`);
  if (!checked.has(primaryType)) throw new TypedDataError(`primaryType "${short(primaryType)}" is not one of the types`);
  if (primaryType !== 'EIP712Domain' && message === undefined) throw new TypedDataError('typed data has no "message"');
  return { types: checked, primaryType, domain, message };
}

function readFields(typeName: string, fields: unknown): TypedField[] {
  if (!IDENTIFIER.test(typeName)) throw new TypedDataError(`"${short(typeName)}" is not a valid type name`);
  if (!Array.isArray(fields)) throw new TypedDataError(`type ${typeName} must be an array of { name, type }`);
  return fields.map((field) => {
    if (!isObject(field) || typeof field.name !== 'string' || typeof field.type !== 'string') {
      throw new TypedDataError(`type ${typeName} has a field that is not { name: string, type: string }`);
    }
    if (field.type.length > MAX_TYPE_CHARS) throw new TypedDataError(`type ${typeName} has a field type longer than ${MAX_TYPE_CHARS} characters`);
    return { name: field.name, type: field.type };
  });
}

/** A struct of `types`, an atomic type, or an array of one of those. */
function checkType(type: string, types: Types, path: string): void {
  const base = baseType(type);
  if (types.has(base) || base === 'string' || base === 'bytes' || base === 'bool' || base === 'address') return;
  const fixed = FIXED_BYTES_TYPE.exec(base);
  if (fixed !== null && Number(fixed[1]) >= 1 && Number(fixed[1]) <= WORD) return;
  const integer = INTEGER_TYPE.exec(base);
  const bits = integer === null ? 0 : integer[2] === '' ? 256 : Number(integer[2]);
  if (bits >= 8 && bits <= 256 && bits % 8 === 0) return;
  throw new TypedDataError(`unknown type ${short(type)} at ${path}`);
}

function hashStruct(typeName: string, value: unknown, types: Types): Uint8Array {
  return keccak256(encodeData(typeName, value, types));
}

/** typeHash ‖ each field's 32-byte encoding. */
function encodeData(typeName: string, value: unknown, types: Types): Uint8Array {
  if (!isObject(value)) throw new TypedDataError(`a ${typeName} value must be an object`);
  const words = [typeHash(typeName, types)];
  for (const field of types.get(typeName)!) {
    if (!Object.hasOwn(value, field.name)) throw new TypedDataError(`${typeName}.${field.name} is missing`);
    words.push(encodeField(field.type, value[field.name], types, `${typeName}.${field.name}`));
  }
  return concatBytes(...words);
}

/** Type hashes by name, per typed data: computed once, not once per struct value (an array may hold thousands). */
const typeHashes = new WeakMap<Types, Map<string, Uint8Array>>();

function typeHash(typeName: string, types: Types): Uint8Array {
  let known = typeHashes.get(types);
  if (known === undefined) typeHashes.set(types, (known = new Map()));
  let hash = known.get(typeName);
  if (hash === undefined) known.set(typeName, (hash = keccak256(utf8ToBytes(encodeType(typeName, types)))));
  return hash;
}

/** "Mail(Person from,Person to,string contents)Person(string name,address wallet)": the type, then the structs it uses, by name. */
function encodeType(typeName: string, types: Types): string {
  const used = new Set<string>();
  collectStructs(typeName, types, used);
  used.delete(typeName);
  return [typeName, ...[...used].sort()].map((name) => `${name}(${types.get(name)!.map((f) => `${f.type} ${f.name}`).join(',')})`).join('');
}

function collectStructs(typeName: string, types: Types, used: Set<string>): void {
  if (used.has(typeName)) return;
  used.add(typeName);
  for (const field of types.get(typeName)!) {
    const base = baseType(field.type);
    if (types.has(base)) collectStructs(base, types, used);
  }
}

function baseType(type: string): string {
  const array = ARRAY_SUFFIX.exec(type);
  return array === null ? type : baseType(array[1]!);
}

function encodeField(type: string, value: unknown, types: Types, path: string): Uint8Array {
  if (types.has(type)) return hashStruct(type, value, types);
  const array = ARRAY_SUFFIX.exec(type);
  if (array !== null) {
    if (!Array.isArray(value)) throw new TypedDataError(`${path} must be an array (${type})`);
    if (array[2] !== '' && value.length !== Number(array[2])) throw new TypedDataError(`${path} must have ${array[2]} elements, got ${value.length}`);
    return keccak256(concatBytes(...value.map((item, i) => encodeField(array[1]!, item, types, `${path}[${i}]`))));
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw new TypedDataError(`${path} must be a string`);
    return keccak256(utf8ToBytes(value));
  }
  if (type === 'bytes') return keccak256(hexBytes(value, path));
  if (type === 'bool') return word(readBool(value, path) ? 1n : 0n);
  if (type === 'address') {
    const bytes = hexBytes(value, path);
    if (bytes.length !== 20) throw new TypedDataError(`${path} must be a 20-byte address`);
    return setLengthLeft(bytes, WORD);
  }
  const fixed = FIXED_BYTES_TYPE.exec(type);
  if (fixed !== null) {
    const size = Number(fixed[1]);
    const bytes = hexBytes(value, path);
    if (bytes.length !== size) throw new TypedDataError(`${path} must have ${size} bytes (${type}), got ${bytes.length}`);
    const out = new Uint8Array(WORD);
    out.set(bytes);
    return out;
  }
  const integer = INTEGER_TYPE.exec(type);
  // checkType let only integer types through to here.
  return word(readInteger(value, integer![1] === 'u', integer![2] === '' ? 256 : Number(integer![2]), type, path));
}

function readInteger(value: unknown, unsigned: boolean, bits: number, type: string, path: string): bigint {
  let n: bigint;
  if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && value.length <= MAX_INTEGER_CHARS && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value)) n = BigInt(value);
  else throw new TypedDataError(`${path} must be an integer (a safe JSON number, or a decimal or 0x string) for ${type}`);
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (n < min || n > max) throw new TypedDataError(`${path} is out of range for ${type}`);
  return BigInt.asUintN(256, n);
}

function readBool(value: unknown, path: string): boolean {
  // geth also takes the strings "true" and "false".
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new TypedDataError(`${path} must be a boolean`);
}

function hexBytes(value: unknown, path: string): Uint8Array {
  if (typeof value !== 'string' || !HEX.test(value)) throw new TypedDataError(`${path} must be 0x-prefixed hex with an even number of digits`);
  return hexToBytes(value as `0x${string}`);
}

function word(n: bigint): Uint8Array {
  return setLengthLeft(n === 0n ? new Uint8Array(0) : bigIntToBytes(n), WORD);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
