/**
 * A Bitcoin transaction of the node's chain: its bytes as submitted (with witnesses), its txid and
 * wtxid (internal byte order), inputs and outputs. Parsing is @scure/btc-signer's RawTx.
 */
import { RawTx } from '@scure/btc-signer';
import { sha256d } from '../base/bytes.js';
import { reversed } from '../bitcoin/encoding.js';

export interface BtcInput {
  /** Internal byte order. */
  txid: Uint8Array;
  vout: number;
  scriptSig: Uint8Array;
  witness: Uint8Array[];
  sequence: number;
}

export interface BtcOutput {
  amount: bigint;
  script: Uint8Array;
}

export interface BtcTransaction {
  raw: Uint8Array;
  /** Double SHA-256 of the serialization without witnesses, internal order. */
  txid: Uint8Array;
  /** Double SHA-256 of `raw` (BIP141), internal order; the txid when there is no witness. */
  wtxid: Uint8Array;
  hasWitness: boolean;
  /** BIP141 weight: the size without witnesses × 3 plus the full size. */
  weight: number;
  inputs: BtcInput[];
  outputs: BtcOutput[];
}

/** Parses a serialized transaction (legacy or BIP144); throws on malformed or trailing bytes. */
export function parseTransaction(raw: Uint8Array): BtcTransaction {
  const parsed = RawTx.decode(raw);
  const stripped = RawTx.encode({ ...parsed, segwitFlag: false, witnesses: undefined });
  const txid = sha256d(stripped);
  const hasWitness = parsed.segwitFlag === true;
  return {
    raw: Uint8Array.from(raw),
    txid,
    wtxid: hasWitness ? sha256d(raw) : txid,
    hasWitness,
    weight: stripped.length * 3 + raw.length,
    // RawTx reads a txid in display order (it reverses the 32 bytes).
    inputs: parsed.inputs.map((input, i) => ({
      txid: reversed(input.txid),
      vout: input.index,
      scriptSig: input.finalScriptSig,
      witness: parsed.witnesses?.[i] ?? [],
      sequence: input.sequence,
    })),
    outputs: parsed.outputs.map((o) => ({ amount: o.amount, script: o.script })),
  };
}
