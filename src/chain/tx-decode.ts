/** Turns submitted bytes into a legacy transaction, refusing what RSK refuses (reference 7). */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type LegacyTx, createLegacyTxFromBytesArray } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';
import { RSK_TX_PARAMS } from './common.js';
import { ChainError } from './errors.js';

const LEGACY_FIELD_COUNT = 9;

export function decodeRawTransaction(raw: Uint8Array, common: Common): LegacyTx {
  if (raw.length === 0) throw new ChainError('invalidTransaction', 'Invalid input: empty transaction');
  // An RLP list starts at 0xc0; a lower first byte is an EIP-2718 type byte.
  if (raw[0]! < 0xc0) {
    throw new ChainError(
      'invalidTransaction',
      `RSK accepts legacy transactions only: typed transaction envelopes (EIP-2718, here type 0x${raw[0]!.toString(16).padStart(2, '0')}) are not supported; send a type 0 transaction with a gasPrice`,
    );
  }
  let fields: Uint8Array[];
  try {
    const decoded = RLP.decode(raw);
    if (!Array.isArray(decoded) || decoded.length !== LEGACY_FIELD_COUNT || decoded.some((f) => !(f instanceof Uint8Array))) {
      throw new Error(`a legacy transaction is an RLP list of ${LEGACY_FIELD_COUNT} byte strings`);
    }
    fields = decoded as Uint8Array[];
  } catch (err) {
    throw new ChainError('invalidTransaction', `Invalid input: ${(err as Error).message}`);
  }
  const v = bytesToBigInt(fields[6]!);
  if (v >= 35n) {
    const chainId = (v - 35n) / 2n;
    if (chainId !== common.chainId()) throw new ChainError('invalidTransaction', `Invalid chainId: ${chainId}`);
  } else if (v !== 27n && v !== 28n) {
    throw new ChainError('invalidTransaction', `Invalid signature: v = ${v}`);
  }
  let tx: LegacyTx;
  try {
    tx = createLegacyTxFromBytesArray(fields, { common, params: RSK_TX_PARAMS });
    tx.getSenderAddress();
  } catch (err) {
    throw new ChainError('invalidTransaction', `Invalid signature: ${firstLine((err as Error).message)}`);
  }
  return tx;
}

/** ethereumjs appends its debug context to messages; keep the human part. */
function firstLine(message: string): string {
  return message.split(' (tx type=')[0]!.split('\n')[0]!;
}
