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
