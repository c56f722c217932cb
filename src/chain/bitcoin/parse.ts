/**
 * Bitcoin transactions and blocks as a merged miner submits them (rskj's mnr_submit* forms): a
 * transaction in either serialization (BIP144 segwit or legacy), a block, an 80-byte header. Only
 * the structure is read (no scripts), and each part's txid is that of its non-witness form.
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256d } from '../base/bytes.js';
import { BTC_HEADER_SIZE } from './encoding.js';

/** Bitcoin data that cannot be parsed; the RPC layer answers invalid params with the reason. */
export class BitcoinDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BitcoinDataError';
  }
}

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  take(n: number, what: string): Uint8Array {
    if (n < 0 || this.offset + n > this.bytes.length) {
      throw new BitcoinDataError(`${what}: needs ${n} bytes at offset ${this.offset}, only ${this.bytes.length - this.offset} left`);
    }
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  varInt(what: string): number {
    const first = this.take(1, what)[0]!;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    const bytes = this.take(size, what);
    let n = 0n;
    for (let i = size - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
    // Every count is bounded by the bytes left; a larger one cannot be honest.
    if (n > BigInt(this.bytes.length)) throw new BitcoinDataError(`${what}: count ${n} is larger than the data`);
    return Number(n);
  }
}

/** One transaction: its serialization without witness (what its txid hashes) and the txid, internal order. */
export interface BtcTx {
  bytes: Uint8Array;
  txid: Uint8Array;
}

/** Reads a transaction in either serialization (BIP144 segwit or legacy); keeps the non-witness form. */
function readTransaction(r: Reader, what: string): BtcTx {
  const start = r.offset;
  const version = r.take(4, `${what} version`);
  let segwit = false;
  if (r.bytes[r.offset] === 0 && r.bytes[r.offset + 1] === 1) {
    segwit = true;
    r.take(2, `${what} segwit marker`);
  }
  const bodyStart = r.offset;
  const inputs = r.varInt(`${what} input count`);
  if (inputs === 0) throw new BitcoinDataError(`${what}: a transaction needs at least one input`);
  for (let i = 0; i < inputs; i++) {
    r.take(36, `${what} input ${i} outpoint`);
    r.take(r.varInt(`${what} input ${i} script length`), `${what} input ${i} script`);
    r.take(4, `${what} input ${i} sequence`);
  }
  const outputs = r.varInt(`${what} output count`);
  for (let i = 0; i < outputs; i++) {
    r.take(8, `${what} output ${i} value`);
    r.take(r.varInt(`${what} output ${i} script length`), `${what} output ${i} script`);
  }
  const body = r.bytes.subarray(bodyStart, r.offset);
  if (segwit) {
    for (let i = 0; i < inputs; i++) {
      const items = r.varInt(`${what} witness ${i} item count`);
      for (let j = 0; j < items; j++) r.take(r.varInt(`${what} witness ${i} item length`), `${what} witness ${i} item`);
    }
  }
  const lockTime = r.take(4, `${what} lock time`);
  const bytes = segwit ? concatBytes(version, body, lockTime) : r.bytes.subarray(start, r.offset);
  return { bytes, txid: sha256d(bytes) };
}

/** A serialized transaction, nothing before or after it. */
export function parseTransaction(bytes: Uint8Array, what = 'coinbase'): BtcTx {
  const r = new Reader(bytes);
  const tx = readTransaction(r, what);
  if (r.offset !== bytes.length) throw new BitcoinDataError(`${what}: ${bytes.length - r.offset} bytes follow the transaction`);
  return tx;
}

/** A serialized block: the 80-byte header, the transaction count and the transactions. */
export function parseBlock(bytes: Uint8Array): { header: Uint8Array; transactions: BtcTx[] } {
  const r = new Reader(bytes);
  const header = r.take(BTC_HEADER_SIZE, 'block header');
  const count = r.varInt('block transaction count');
  if (count === 0) throw new BitcoinDataError('block: no transactions, a merged-mined block needs its coinbase');
  const transactions: BtcTx[] = [];
  for (let i = 0; i < count; i++) transactions.push(readTransaction(r, i === 0 ? 'coinbase' : `transaction ${i}`));
  if (r.offset !== bytes.length) throw new BitcoinDataError(`block: ${bytes.length - r.offset} bytes follow its transactions`);
  return { header, transactions };
}

/** An 80-byte header, or a whole block whose header is taken (bitcoinj's makeBlock reads either). */
export function parseHeader(bytes: Uint8Array): Uint8Array {
  if (bytes.length === BTC_HEADER_SIZE) return bytes;
  if (bytes.length < BTC_HEADER_SIZE) throw new BitcoinDataError(`block header: ${bytes.length} bytes, a Bitcoin header has ${BTC_HEADER_SIZE}`);
  return parseBlock(bytes).header;
}

