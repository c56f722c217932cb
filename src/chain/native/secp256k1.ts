/**
 * secp256k1 point addition and scalar multiplication (RSKIP516, reed800, active on regtest from
 * genesis), at 0x0000000000000000000000000000000001000016 and …01000017, on @noble/curves.
 * rskj: co/rsk/pcc/secp256k1/Secp256k1{PrecompiledContract,Addition,Multiplication}.java and
 * org/ethereum/crypto/signature/Secp256k1ServiceBC.java (add, mul, getPoint, getOutput).
 *
 * - Input: 32-byte big-endian words, add (x1, y1, x2, y2), mul (x, y, k). Input past 128 / 96
 *   bytes is ignored (getMaxInput, Program.getInputLength); missing bytes read as zeros
 *   (ByteUtil.parseWord right-pads); no input at all is the point at infinity.
 * - (0, 0) is the point at infinity; any other pair must be a point on the curve with coordinates
 *   below the field prime, else the call fails (RSKIP197: the price is charged, no data returned).
 * - The scalar is any 256-bit value (BouncyCastle multiplies by k, i.e. by k mod n).
 * - Output: 64 bytes x ‖ y; the point at infinity is 64 zero bytes.
 * - Gas: 150 for add, 3,000 for mul, whatever the input.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToBigInt, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import type { NativeCall, NativeContract, NativeResult } from './types.js';

export const SECP256K1_ADD_ADDRESS = Uint8Array.from([...new Uint8Array(16), 0x01, 0x00, 0x00, 0x16]);
export const SECP256K1_MUL_ADDRESS = Uint8Array.from([...new Uint8Array(16), 0x01, 0x00, 0x00, 0x17]);

const Point = secp256k1.Point;
type Point = InstanceType<typeof Point>;
const ORDER = Point.Fn.ORDER;
const EMPTY = new Uint8Array(0);

/** The i-th 32-byte word of `data`, zero-padded on the right. */
function word(data: Uint8Array, i: number): bigint {
  const out = new Uint8Array(32);
  out.set(data.subarray(32 * i, 32 * i + 32));
  return bytesToBigInt(out);
}

/** Secp256k1ServiceBC.getPoint: (0,0) is infinity, else a valid affine point; undefined if invalid. */
function point(x: bigint, y: bigint): Point | undefined {
  if (x === 0n && y === 0n) return Point.ZERO;
  try {
    const p = Point.fromAffine({ x, y });
    p.assertValidity();
    return p;
  } catch {
    return undefined;
  }
}

function output(p: Point): Uint8Array {
  const out = new Uint8Array(64);
  if (p.is0()) return out;
  const { x, y } = p.toAffine();
  out.set(setLengthLeft(bigIntToBytes(x), 32), 0);
  out.set(setLengthLeft(bigIntToBytes(y), 32), 32);
  return out;
}

function precompile(address: Uint8Array, name: string, price: bigint, run: (data: Uint8Array) => Point | string): NativeContract {
  return {
    address,
    name,
    async call(call: NativeCall): Promise<NativeResult> {
      if (price > call.gasLimit) return { returnValue: EMPTY, gasUsed: call.gasLimit, error: 'out of gas' };
      const result = run(call.data);
      if (typeof result === 'string') return { returnValue: EMPTY, gasUsed: price, error: 'failure', message: result };
      return { returnValue: output(result), gasUsed: price };
    },
  };
}

export const secp256k1AddContract = precompile(SECP256K1_ADD_ADDRESS, 'secp256k1Add', 150n, (data) => {
  const p1 = point(word(data, 0), word(data, 1));
  if (p1 === undefined) return 'Invalid point coordinates for first point in add operation';
  const p2 = point(word(data, 2), word(data, 3));
  if (p2 === undefined) return 'Invalid point coordinates for second point in add operation';
  return p1.add(p2);
});

export const secp256k1MulContract = precompile(SECP256K1_MUL_ADDRESS, 'secp256k1Mul', 3000n, (data) => {
  const p = point(word(data, 0), word(data, 1));
  if (p === undefined) return 'Invalid point coordinates for mul operation';
  const k = word(data, 2) % ORDER;
  return k === 0n || p.is0() ? Point.ZERO : p.multiply(k);
});
