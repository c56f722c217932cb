/**
 * SHA-256 with access to the intermediate state ("midstate").
 *
 * RSK stores a merged-mining coinbase as the SHA-256 state after a 64-byte-aligned prefix plus the
 * remaining bytes (reference 6.3), and validation resumes hashing from that state. No well-kept
 * JavaScript library exposes the SHA-256 chaining state (@noble/hashes and node:crypto keep it
 * private), so this is a small hand-written implementation of FIPS 180-4; the tests compare it
 * with @noble/hashes on random inputs.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const IV = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The message schedule, reused by every call (compressBlocks is synchronous and never reentered). */
const w = new Uint32Array(64);

/** Applies the compression function to every 64-byte block of `data` (length must be a multiple of 64). */
function compressBlocks(state: Uint32Array, data: Uint8Array): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let off = 0; off < data.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = w[i - 15]!;
      const w2 = w[i - 2]!;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
    let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0]! += a;
    state[1]! += b;
    state[2]! += c;
    state[3]! += d;
    state[4]! += e;
    state[5]! += f;
    state[6]! += g;
    state[7]! += h;
  }
}

function stateToBytes(state: Uint32Array): Uint8Array {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  state.forEach((word, i) => view.setUint32(i * 4, word));
  return out;
}

/**
 * Hashes `prefix` (length a multiple of 64) without finalising and returns the eight state words
 * as 32 big-endian bytes. An empty prefix gives the SHA-256 initial value.
 */
export function sha256Midstate(prefix: Uint8Array): Uint8Array {
  if (prefix.length % 64 !== 0) throw new Error(`midstate prefix length ${prefix.length} is not a multiple of 64`);
  const state = Uint32Array.from(IV);
  compressBlocks(state, prefix);
  return stateToBytes(state);
}

/**
 * Resumes SHA-256 from a 32-byte `midstate` after `byteCount` bytes, hashes `tail` and finalises.
 * The count only enters the length padding; it is taken modulo 2^64 like a Java `long`.
 */
export function sha256Resume(midstate: Uint8Array, byteCount: bigint, tail: Uint8Array): Uint8Array {
  if (midstate.length !== 32) throw new Error(`midstate must be 32 bytes, got ${midstate.length}`);
  const stateView = new DataView(midstate.buffer, midstate.byteOffset, 32);
  const state = new Uint32Array(8);
  for (let i = 0; i < 8; i++) state[i] = stateView.getUint32(i * 4);

  const full = tail.length - (tail.length % 64);
  compressBlocks(state, tail.subarray(0, full));

  const rest = tail.length - full;
  const last = new Uint8Array(rest < 56 ? 64 : 128);
  last.set(tail.subarray(full));
  last[rest] = 0x80;
  const bitLength = BigInt.asUintN(64, (byteCount + BigInt(tail.length)) * 8n);
  new DataView(last.buffer).setBigUint64(last.length - 8, bitLength);
  compressBlocks(state, last);
  return stateToBytes(state);
}
