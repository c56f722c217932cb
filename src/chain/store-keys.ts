/** Key layout of a network's LevelDB: one prefix byte per record kind, then a fixed-size id. */
import type { AbstractLevel } from 'abstract-level';
import { concatBytes } from '@ethereumjs/util';

export type Kv = AbstractLevel<string | Buffer | Uint8Array, Uint8Array, Uint8Array>;

const HEAD = Uint8Array.of(0x01);
const BLOCK = 0x02;
const RECEIPTS = 0x03;
const HASH_TO_NUMBER = 0x04;
const TX_LOCATION = 0x05;
const STATE_NODE = 0x06;
const META = 0x07;

export function headKey(): Uint8Array {
  return HEAD;
}

export function encodeNumber(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

export function decodeNumber(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset);
}

const prefixed = (prefix: number, id: Uint8Array) => concatBytes(Uint8Array.of(prefix), id);

export const blockKey = (n: bigint) => prefixed(BLOCK, encodeNumber(n));
export const receiptsKey = (n: bigint) => prefixed(RECEIPTS, encodeNumber(n));
export const hashToNumberKey = (hash: Uint8Array) => prefixed(HASH_TO_NUMBER, hash);
export const txLocationKey = (hash: Uint8Array) => prefixed(TX_LOCATION, hash);
export const stateNodeKey = (key: Uint8Array) => prefixed(STATE_NODE, key);
export const metaKey = (name: string) => prefixed(META, new TextEncoder().encode(name));
