/**
 * Bytes to hex through Buffer, one flat string. @ethereumjs/util's (and @noble/hashes')
 * `bytesToHex` on Node 20 (no `Uint8Array.prototype.toHex`) concatenates a string per byte, 33
 * strings and a flattening for a 32-byte hash; profiled on eth_call that was a few percent of
 * what a call allocated (trie node keys, the answer's hex).
 */

/** `bytes` as lower-case hex without a prefix. */
export function unprefixedHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** `bytes` as `0x`-prefixed lower-case hex (`0x` for none), as `bytesToHex` answers. */
export function prefixedHex(bytes: Uint8Array): string {
  return `0x${unprefixedHex(bytes)}`;
}

/** A hex digit's value, or -1 for any other character code. */
function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20; // A-F to a-f; no other character lands in a-f
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The bytes of the hex digits of `text` from `start` to its end (an even count), or undefined
 * when one of them is no hex digit: checking and decoding in one pass, with no substring and no
 * regular expression (an RPC param's address or hash; issue 25).
 */
export function hexDigitsToBytes(text: string, start: number): Uint8Array | undefined {
  const bytes = new Uint8Array((text.length - start) >> 1);
  for (let i = 0, at = start; i < bytes.length; i++, at += 2) {
    const high = digitValue(text.charCodeAt(at));
    const low = digitValue(text.charCodeAt(at + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}
