/**
 * Positional parameter decoders.
 *
 * A `Decoder<T>` is a function `(value, label) => T` that throws `InvalidParams` with the message
 * `invalid <label>: <detail>`. It also carries:
 *   - `paramName`  the name shown in messages (`address`, `block`, ...); rename with `.as('slot')`;
 *   - `parse(v)`   the same check but throwing a bare `ParamError(detail)`, for composing decoders
 *                  (see `field` and `makeDecoder`);
 *   - `.optional`  a variant that maps `undefined`/`null` to `undefined`;
 *   - `.orDefault(v)` a variant that maps `undefined`/`null` to `v`.
 *
 * `params([...])` builds a method's `decode` from a list of decoders and infers the tuple type:
 *
 *   decode: params([address, blockSelector.orDefault(LATEST)])   // => [Address, BlockSelector]
 *   decode: params([hash32, bool.optional])                      // => [Uint8Array, boolean | undefined]
 *
 * Argument i is labelled `argument i (<paramName>)`, so a bad address gives
 * `invalid argument 0 (address): hex string has length 38, want 40 for RSK address` (geth's
 * "invalid argument N: ..." style plus our parameter name). Count errors follow geth:
 * `too many arguments, want at most N` and `missing value for required argument N (<name>)`;
 * a `null` in a required position counts as missing. Optional parameters must come last.
 *
 * Custom decoders: `makeDecoder('filter', (v) => { ...; throw new ParamError('detail') })`, using
 * `field(obj, 'key', decoder)` to read object members with `field "key": ...` prefixed details.
 */
import { Address, type PrefixedHexString, unprefixedHexToBytes } from '@ethereumjs/util';
import { hexDigitsToBytes } from '../util/hex.js';
import { InvalidParams } from './errors.js';
import type { BlockSelector, BlockTag, CallRequest } from './types.js';

/** A failed check with a detail message only; decoders turn it into `InvalidParams`. */
export class ParamError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'ParamError';
  }
}

/** Anything `params()` accepts: a callable decoder with a name and a required flag. */
export interface Param<T> {
  (value: unknown, label: string): T;
  readonly paramName: string;
  readonly required: boolean;
  /** Detail-only check: throws `ParamError`. */
  parse(value: unknown): T;
}

export interface OptionalParam<T> extends Param<T> {
  readonly required: false;
}

export interface Decoder<T> extends Param<T> {
  readonly required: true;
  /** `undefined`/`null` decode to `undefined`. */
  readonly optional: OptionalParam<T | undefined>;
  /** `undefined`/`null` decode to `value` (shared, treat as immutable). */
  orDefault(value: T): OptionalParam<T>;
  /** The same decoder under another name in messages. */
  as(paramName: string): Decoder<T>;
}

function wrap<T>(paramName: string, required: boolean, parse: (value: unknown) => T): Param<T> {
  const fn = (value: unknown, label: string): T => {
    try {
      return parse(value);
    } catch (err) {
      if (err instanceof ParamError) throw new InvalidParams(`invalid ${label}: ${err.message}`);
      throw err;
    }
  };
  return Object.assign(fn, { paramName, required, parse });
}

/** Builds a `Decoder<T>` from a detail-level parser that throws `ParamError`. */
export function makeDecoder<T>(paramName: string, parse: (value: unknown) => T): Decoder<T> {
  const optional = wrap(paramName, false, (v: unknown) =>
    v === undefined || v === null ? undefined : parse(v),
  ) as OptionalParam<T | undefined>;
  return Object.assign(wrap(paramName, true, parse), {
    optional,
    orDefault(value: T): OptionalParam<T> {
      return wrap(paramName, false, (v: unknown) =>
        v === undefined || v === null ? value : parse(v),
      ) as OptionalParam<T>;
    },
    as(name: string): Decoder<T> {
      return makeDecoder(name, parse);
    },
  }) as Decoder<T>;
}

/**
 * Reads `obj[key]` with `decoder`; `undefined`/`null` give `undefined`. Failures become
 * `ParamError('field "key": <detail>')`, so call this from inside a `makeDecoder` parser.
 */
export function field<T>(obj: Record<string, unknown>, key: string, decoder: Param<T>): T | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  try {
    return decoder.parse(v);
  } catch (err) {
    if (err instanceof ParamError) throw new ParamError(`field "${key}": ${err.message}`);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Detail-level helpers

/** Short description of a JSON value's type for messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const HEX_RE = /^[0-9a-fA-F]*$/;

function has0x(s: string): boolean {
  return s.length >= 2 && s.charCodeAt(0) === 48 /* 0 */ && (s[1] === 'x' || s[1] === 'X');
}

/**
 * Returns the hex digits after `0x`, checking string type, prefix, length and characters. The
 * length goes first (`tooLong` names the error): scanning or parsing a 15 MB string would hold the
 * event loop for everyone.
 */
function hexBody(v: unknown, what: string, maxDigits = Infinity, tooLong?: (digits: number) => string): string {
  if (typeof v !== 'string') throw new ParamError(`expected a 0x-prefixed hex ${what}, got ${describe(v)}`);
  if (!has0x(v)) throw new ParamError('hex string without 0x prefix');
  if (v.length - 2 > maxDigits) throw new ParamError(tooLong?.(v.length - 2) ?? 'hex string too long');
  const body = v.slice(2);
  if (!HEX_RE.test(body)) throw new ParamError('invalid hex string');
  return body;
}

function fixedBytes(v: unknown, size: number, forWhat: string): Uint8Array {
  // The common case, `0x` and the right number of digits, is checked and decoded in one pass.
  if (typeof v === 'string' && v.length === size * 2 + 2 && has0x(v)) {
    const bytes = hexDigitsToBytes(v, 2);
    if (bytes === undefined) throw new ParamError('invalid hex string');
    return bytes;
  }
  const wrongLength = (digits: number) => `hex string has length ${digits}, want ${size * 2} for ${forWhat}`;
  const body = hexBody(v, 'string', size * 2, wrongLength);
  if (body.length !== size * 2) throw new ParamError(wrongLength(body.length));
  return unprefixedHexToBytes(body);
}

const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT256_DECIMAL_DIGITS = 78;
const MAX_INT64 = (1n << 63n) - 1n;

/** Strict QUANTITY: `0x` + hex digits, no leading zeros except `0x0`, at most 256 bits. */
function parseQuantity(v: unknown): bigint {
  const body = hexBody(v, 'quantity', 64, () => 'hex number > 256 bits');
  if (body.length === 0) throw new ParamError('hex string "0x"');
  if (body.length > 1 && body.charCodeAt(0) === 48) throw new ParamError('hex number with leading zero digits');
  if (body.length > 64) throw new ParamError('hex number > 256 bits');
  return BigInt('0x' + body);
}

// ---------------------------------------------------------------------------------------------
// Leaf decoders

/**
 * An Address that keeps its lowercase hex text. ethereumjs's `toString` rebuilds the text byte by
 * byte, a string of 21 pieces that every Map lookup by it (the state reads key accounts by it)
 * must first copy flat; this one is built once, from the param's text (issue 25).
 */
class ParsedAddress extends Address {
  /** A private field: JSON and deep equality see an Address's members only. */
  readonly #text: PrefixedHexString;

  constructor(bytes: Uint8Array, text: PrefixedHexString) {
    super(bytes);
    this.#text = text;
  }

  override toString(): PrefixedHexString {
    return this.#text;
  }
}

/** 20-byte address, `0x`-prefixed, any letter case (checksums are not enforced). */
export const address: Decoder<Address> = makeDecoder('address', (v) => {
  const bytes = fixedBytes(v, 20, 'RSK address');
  // fixedBytes accepted v: `0x` (or `0X`) and 40 hex digits, whose lowercase is the text ethereumjs writes.
  return new ParsedAddress(bytes, (v as string).toLowerCase() as PrefixedHexString);
});

/** 32-byte hash. */
export const hash32: Decoder<Uint8Array> = makeDecoder('hash', (v) => fixedBytes(v, 32, '32-byte hash'));

/** DATA: `0x`-prefixed even-length hex; `0x` is empty. */
export const data: Decoder<Uint8Array> = makeDecoder('data', (v) => {
  const body = hexBody(v, 'string');
  if (body.length % 2 !== 0) throw new ParamError('hex string of odd length');
  return unprefixedHexToBytes(body);
});

/**
 * A storage slot: up to 32 bytes of hex, leading zeros allowed (geth decodes the key as a hash,
 * and viem sends slots zero-padded to 32 bytes). Returned as a number.
 */
export const storageSlot: Decoder<bigint> = makeDecoder('slot', (v) => {
  const body = hexBody(v, 'storage slot', 64, () => 'storage slot > 32 bytes');
  if (body.length === 0) throw new ParamError('hex string "0x"');
  if (!/^[0-9a-fA-F]+$/.test(body)) throw new ParamError('invalid hex string');
  return BigInt('0x' + body);
});

/** QUANTITY: strict hex (geth rules), 0 ≤ n ≤ 2^256-1. */
export const quantity: Decoder<bigint> = makeDecoder('quantity', parseQuantity);

/** A QUANTITY, a decimal string, or a non-negative JSON safe integer (evm_increaseTime and friends). */
export const quantityOrDecimal: Decoder<bigint> = makeDecoder('quantity', (v) => {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new ParamError(`expected an integer, got ${v}`);
    if (v < 0) throw new ParamError(`negative value ${v}`);
    return BigInt(v);
  }
  if (typeof v === 'string' && !has0x(v)) {
    // Length first: BigInt of a megabyte-long string would block the event loop for seconds.
    if (v.length > MAX_UINT256_DECIMAL_DIGITS) throw new ParamError('number > 256 bits');
    if (!/^[0-9]+$/.test(v)) throw new ParamError(`invalid number '${v.length > 80 ? v.slice(0, 80) + '...' : v}'`);
    const n = BigInt(v);
    if (n > MAX_UINT256) throw new ParamError('number > 256 bits');
    return n;
  }
  if (typeof v !== 'string') throw new ParamError(`expected a hex or decimal number, got ${describe(v)}`);
  return parseQuantity(v);
});

/** `decoder` refusing values above `max`, which `what` names in the message ("2^64-1, ..."). */
export function atMost(decoder: Decoder<bigint>, max: bigint, what: string): Decoder<bigint> {
  return makeDecoder(decoder.paramName, (v) => {
    const n = decoder.parse(v);
    if (n > max) throw new ParamError(`${n} is larger than ${what}`);
    return n;
  });
}

/** JSON boolean. */
export const bool: Decoder<boolean> = makeDecoder('bool', (v) => {
  if (typeof v !== 'boolean') throw new ParamError(`expected a boolean, got ${describe(v)}`);
  return v;
});

const TAGS: ReadonlySet<string> = new Set<BlockTag>(['latest', 'earliest', 'pending', 'safe', 'finalized']);
/** One frozen selector per tag: most calls name `latest`, and none needs an object of its own. */
const TAG_SELECTORS: ReadonlyMap<string, BlockSelector> = new Map([...TAGS].map((tag) => [tag, Object.freeze({ tag: tag as BlockTag })]));
const HEX_NUMBER_RE = /^0[xX][0-9a-fA-F]+$/;
const DECIMAL_RE = /^[0-9]+$/;

function badIdentifier(v: unknown): ParamError {
  return new ParamError(`Invalid block identifier '${typeof v === 'string' ? shortened(v) : shown(v)}'`);
}

const SHOWN_CHARS = 80;

/**
 * A JSON value as a message shows it: at most SHOWN_CHARS characters. Params nested thousands of
 * levels deep overflow JSON.stringify's stack; they are shown by type.
 */
export function shown(v: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    return describe(v);
  }
  if (text === undefined) return describe(v);
  return shortened(text);
}

/** `text` cut to SHOWN_CHARS characters for a message (a 15 MB param must not come back whole). */
export function shortened(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text;
}

/** Longest block number string worth parsing: int64 in decimal is 19 digits, in hex 0x + 16 (leading zeros allowed, up to 80 characters). */
const MAX_BLOCK_NUMBER_CHARS = 80;

/**
 * Tag or number string (no hash). Like rskj, hex numbers may have leading zeros and decimal strings
 * are accepted; numbers are capped at int64 like geth.
 */
function parseTagOrNumber(v: string): BlockSelector {
  const tagged = TAG_SELECTORS.get(v);
  if (tagged !== undefined) return tagged;
  let n: bigint;
  // Length before any regex or BigInt: a 15 MB string must not hold the event loop.
  if (v.length > MAX_BLOCK_NUMBER_CHARS && (DECIMAL_RE.test(v.slice(0, 2)) || has0x(v))) throw new ParamError('block number larger than int64');
  if (HEX_NUMBER_RE.test(v) || DECIMAL_RE.test(v)) {
    n = BigInt(v);
  } else {
    throw badIdentifier(v);
  }
  if (n > MAX_INT64) throw new ParamError('block number larger than int64');
  return { number: n };
}

function parseRequireCanonical(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  // rskj accepts the strings "true"/"false" too.
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  throw new ParamError('Invalid input: requireCanonical must be a boolean');
}

/**
 * Block selector: a tag, a QUANTITY (or decimal string), a 32-byte hash string, or an EIP-1898
 * object `{ blockHash, requireCanonical? }` / `{ blockNumber }` (blockNumber may also be a tag).
 */
export const blockSelector: Decoder<BlockSelector> = makeDecoder('block', (v) => {
  if (typeof v === 'string') {
    if (v.length === 66 && has0x(v)) {
      const hash = hexDigitsToBytes(v, 2);
      if (hash === undefined) throw badIdentifier(v);
      return { hash, requireCanonical: false };
    }
    return parseTagOrNumber(v);
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const h = o.blockHash;
    const n = o.blockNumber;
    const hasHash = h !== undefined && h !== null;
    const hasNumber = n !== undefined && n !== null;
    if (hasHash && hasNumber) throw new ParamError('cannot specify both blockHash and blockNumber, choose one or the other');
    if (hasHash) {
      return { hash: field(o, 'blockHash', hash32)!, requireCanonical: parseRequireCanonical(o.requireCanonical) };
    }
    if (hasNumber) {
      if (typeof n !== 'string') throw new ParamError(`field "blockNumber": expected a hex string, got ${describe(n)}`);
      try {
        return parseTagOrNumber(n);
      } catch (err) {
        if (err instanceof ParamError) throw new ParamError(`field "blockNumber": ${err.message}`);
        throw err;
      }
    }
    throw new ParamError('Invalid block input');
  }
  throw badIdentifier(v);
});

/**
 * Call object. `gasLimit` is an alias of `gas` (rskj); `input` and `data` are aliases and must
 * agree when both are set (geth); `to: null` means contract creation; unknown fields (EIP-1559
 * fee fields, `type`, `accessList`, `chainId`, ...) are ignored.
 */
export const callRequest: Decoder<CallRequest> = makeDecoder('call', (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ParamError(`expected a call object, got ${describe(v)}`);
  }
  const o = v as Record<string, unknown>;
  const req: CallRequest = {};
  const from = field(o, 'from', address);
  if (from !== undefined) req.from = from;
  const to = field(o, 'to', address);
  if (to !== undefined) req.to = to;
  const gas = field(o, 'gas', quantity) ?? field(o, 'gasLimit', quantity);
  if (gas !== undefined) req.gas = gas;
  const gasPrice = field(o, 'gasPrice', quantity);
  if (gasPrice !== undefined) req.gasPrice = gasPrice;
  const value = field(o, 'value', quantity);
  if (value !== undefined) req.value = value;
  const nonce = field(o, 'nonce', quantity);
  if (nonce !== undefined) req.nonce = nonce;
  const input = field(o, 'input', data);
  const d = field(o, 'data', data);
  if (input !== undefined && d !== undefined && !bytesEqual(input, d)) {
    throw new ParamError('both "data" and "input" are set and not equal');
  }
  const payload = input ?? d;
  if (payload !== undefined) req.data = payload;
  return req;
});

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Tuple combinator

/** The decoded tuple type of a decoder list. */
export type Decoded<D extends readonly Param<unknown>[]> = {
  -readonly [K in keyof D]: D[K] extends Param<infer T> ? T : never;
};

/** One positional parameter as `params()` was given it: what docs/methods.md lists. */
export interface ParamInfo {
  readonly name: string;
  readonly required: boolean;
}

/** The parameter list of every `decode` that `params()` built, keyed by that function. */
const SIGNATURES = new WeakMap<object, readonly ParamInfo[]>();

/** The parameters a method's `decode` takes, or undefined when neither `params()` nor `declareParams` gave them. */
export function paramsOf(decode: (raw: unknown[]) => unknown): readonly ParamInfo[] | undefined {
  return SIGNATURES.get(decode);
}

/** Records the parameters of a hand-written `decode` (one `params()` cannot express), for the docs. */
export function declareParams<F extends (raw: unknown[]) => unknown>(list: readonly ParamInfo[], decode: F): F {
  SIGNATURES.set(decode, list);
  return decode;
}

/**
 * Builds a method's `decode` from positional decoders (required ones first, then optional ones).
 * Checks the argument count, then decodes each position with label `argument i (<paramName>)`.
 */
export function params<const D extends readonly Param<unknown>[]>(decoders: D): (raw: unknown[]) => Decoded<D> {
  const n = decoders.length;
  let required = 0;
  for (let i = 0; i < n; i++) {
    if (decoders[i]!.required) {
      if (required !== i) throw new Error(`params(): required argument ${i} follows an optional one`);
      required++;
    }
  }
  const labels = decoders.map((d, i) => `argument ${i} (${d.paramName})`);
  const tooMany = `too many arguments, want at most ${n}`;
  const decode = (raw: unknown[]): Decoded<D> => {
    if (raw.length > n) throw new InvalidParams(tooMany);
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const v = raw[i];
      if (i < required && (v === undefined || v === null)) {
        throw new InvalidParams(`missing value for required argument ${i} (${decoders[i]!.paramName})`);
      }
      out[i] = decoders[i]!(v, labels[i]!);
    }
    return out as Decoded<D>;
  };
  SIGNATURES.set(decode, decoders.map((d) => ({ name: d.paramName, required: d.required })));
  return decode;
}

/** `decode` for methods without parameters (rejects any argument). */
export const noParams: (raw: unknown[]) => [] = params([]);
