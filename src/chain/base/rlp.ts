/**
 * RLP with fewer allocations. @ethereumjs/rlp's encode allocates a header array and a concatenated
 * copy for every item and every list (a branch trie node: about 40 typed arrays), and its decode a
 * result object and a remainder view for every item. The trie, the accounts and the blocks encode
 * and decode on every write: these allocations were the largest share of a transaction's garbage.
 *
 * rlpEncode measures the whole input first, then writes it into one buffer. rlpDecode walks the
 * input by index. Both give exactly what the library gives (decoded items are copies, as there);
 * an input the fast decoder does not accept as well formed goes to the library's decode, so
 * malformed input fails with the library's own error. useFastRlp installs both as `RLP.encode` and
 * `RLP.decode`, the functions every @ethereumjs package calls, so the trie and state manager use
 * them too.
 */
import { type Decoded, type Input, type NestedUint8Array, RLP } from '@ethereumjs/rlp';

const libraryEncode = RLP.encode;
const libraryDecode = RLP.decode;

/**
 * Encoded lengths found by the measuring pass, consumed in the same order by the writing pass:
 * for a list its payload length, for a value that is not bytes its encoding by the library.
 */
const listPayloads: number[] = [];
const converted: Uint8Array[] = [];
let nextPayload = 0;
let nextConverted = 0;

export function rlpEncode(input: Input): Uint8Array {
  // One byte below 0x80 is its own encoding: the library hands back the input itself.
  if (input instanceof Uint8Array && input.length === 1 && input[0]! < 0x80) return input;
  // Emptied, not replaced: a measure that threw leaves entries behind.
  listPayloads.length = 0;
  converted.length = 0;
  const out = new Uint8Array(measure(input));
  nextPayload = 0;
  nextConverted = 0;
  write(input, out, 0);
  listPayloads.length = 0;
  converted.length = 0;
  return out;
}

/** Makes every RLP.encode and RLP.decode call (ours and @ethereumjs') use rlpEncode and rlpDecode. */
export function useFastRlp(): void {
  RLP.encode = rlpEncode;
  RLP.decode = rlpDecode as typeof RLP.decode;
}

/** The encoded length of a list whose items' encodings add up to `payloadLength` bytes. */
export function rlpListLength(payloadLength: number): number {
  return headerLength(payloadLength) + payloadLength;
}

/** The length of the prefix of a string or list whose content is `length` bytes long. */
function headerLength(length: number): number {
  if (length < 56) return 1;
  let bytes = 1;
  while (length >= 2 ** (8 * bytes)) bytes++;
  return 1 + bytes;
}

function measure(item: Input): number {
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? 1 : headerLength(item.length) + item.length;
  if (Array.isArray(item)) {
    const slot = listPayloads.length;
    listPayloads.push(0);
    let payload = 0;
    for (let i = 0; i < item.length; i++) payload += measure(item[i] as Input);
    listPayloads[slot] = payload;
    return headerLength(payload) + payload;
  }
  // Strings, numbers, bigints and null: the library's own conversion (and its errors).
  const encoded = libraryEncode(item);
  converted.push(encoded);
  return encoded.length;
}

function write(item: Input, out: Uint8Array, at: number): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[at] = item[0]!;
      return at + 1;
    }
    at = writeHeader(out, at, 0x80, item.length);
    out.set(item, at);
    return at + item.length;
  }
  if (Array.isArray(item)) {
    at = writeHeader(out, at, 0xc0, listPayloads[nextPayload++]!);
    for (let i = 0; i < item.length; i++) at = write(item[i] as Input, out, at);
    return at;
  }
  const encoded = converted[nextConverted++]!;
  out.set(encoded, at);
  return at + encoded.length;
}

function writeHeader(out: Uint8Array, at: number, offset: number, length: number): number {
  if (length < 56) {
    out[at] = offset + length;
    return at + 1;
  }
  const bytes = headerLength(length) - 1;
  out[at++] = offset + 55 + bytes;
  for (let i = bytes - 1; i >= 0; i--) out[at++] = Math.floor(length / 2 ** (8 * i)) & 0xff;
  return at;
}

export function rlpDecode(input: Input, stream?: false): Uint8Array | NestedUint8Array;
export function rlpDecode(input: Input, stream: true): Decoded;
export function rlpDecode(input: Input, stream = false): Uint8Array | NestedUint8Array | Decoded {
  if (input === undefined || input === null || (input as { length?: number }).length === 0) return new Uint8Array(0);
  if (stream || !(input instanceof Uint8Array)) return libraryDecode(input, stream as true);
  malformed = false;
  const item = decodeItem(input, 0, input.length);
  // Malformed, or bytes left over: the library's decode throws its own error for it.
  if (malformed || decodedEnd !== input.length) return libraryDecode(input);
  return item;
}

/** Set by decodeItem: the input is not well formed RLP (the caller falls back to the library). */
let malformed = false;
/** Set by decodeItem: where the item it decoded ends. */
let decodedEnd = 0;

/** The item at `at`, which must end by `end`; sets decodedEnd, or malformed. */
function decodeItem(input: Uint8Array, at: number, end: number): Uint8Array | NestedUint8Array {
  const first = input[at]!;
  if (first < 0x80) {
    decodedEnd = at + 1;
    return input.slice(at, at + 1);
  }
  let start: number;
  let length: number;
  if (first <= 0xb7 || (first >= 0xc0 && first <= 0xf7)) {
    start = at + 1;
    length = first - (first <= 0xb7 ? 0x80 : 0xc0);
    // One byte below 0x80 must be its own encoding, not a one-byte string.
    if (first === 0x81 && start < end && input[start]! < 0x80) return fail();
  } else {
    const lengthBytes = first - (first <= 0xbf ? 0xb7 : 0xf7);
    start = at + 1 + lengthBytes;
    // The length has no leading zero and needs the long form (over 55 bytes).
    if (start > end || input[at + 1] === 0) return fail();
    length = 0;
    for (let i = at + 1; i < start; i++) length = length * 256 + input[i]!;
    if (length <= 55) return fail();
  }
  const itemEnd = start + length;
  if (itemEnd > end) return fail();
  if (first < 0xc0) {
    decodedEnd = itemEnd;
    return input.slice(start, itemEnd);
  }
  const list: NestedUint8Array = [];
  let next = start;
  while (next < itemEnd) {
    list.push(decodeItem(input, next, itemEnd));
    if (malformed) return list;
    next = decodedEnd;
  }
  decodedEnd = itemEnd;
  return list;
}

function fail(): Uint8Array {
  malformed = true;
  return new Uint8Array(0);
}
