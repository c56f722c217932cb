/**
 * Bitcoin's little-endian integers, CompactSize ("varint") counts and header hash, for building
 * Bitcoin structures byte for byte. Byte orders: "internal" is the raw SHA256d output as serialized
 * inside Bitcoin structures; "display" is its reverse, the way hashes are printed and compared as
 * numbers.
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256d } from '../base/bytes.js';

export const BTC_HEADER_SIZE = 80;

/** A CompactSize count (1, 3 or 5 bytes; counts past 2^32 do not occur here). */
export function varInt(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >>> 8);
  return concatBytes(Uint8Array.of(0xfe), u32le(n));
}

export function u32le(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
}

export function u64le(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
}

/** A reversed copy: internal byte order ↔ display byte order. */
export function reversed(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from(bytes).reverse();
}

/** Double SHA-256 of the 80-byte header, in display (reversed) byte order. */
export function btcHeaderHash(btcHeader: Uint8Array): Uint8Array {
  return sha256d(btcHeader).reverse();
}
