/**
 * The byte and number helpers several folders of the chain share, so each exists once. Byte
 * equality is @ethereumjs/util's `equalsBytes`; this file holds what it has no form of.
 */

/** Java's `BigInteger.intValue()`: the low 32 bits, signed (rskj reads ABI offsets, lengths and indexes this way). */
export function javaInt(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}
