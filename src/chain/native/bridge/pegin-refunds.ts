/**
 * Peg-ins the Bridge must refund (rskj PeginProcessAction.REFUND: a multisig sender, or an invalid
 * RSKT payload from a known sender). rskj builds the refund right away (BridgeSupport
 * generateRejectionRelease: a transaction spending the peg-in's outputs to the refund address,
 * put in the peg-outs waiting for confirmations, with release_requested and
 * pegout_transaction_created). That set is peg-out's (branch pegout); until the peg-out side
 * builds refunds, the peg-in records here, under PEGIN_REFUNDS_KEY, everything it needs: the
 * peg-in's txid, the outputs to the federation it spends, the refund address and the amount.
 * Stored as one RLP list of [txid, [[vout, value]...], addressKind (1 P2PKH, 2 P2SH), hash, amount].
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToInt, intToUnpaddedBytes } from '@ethereumjs/util';
import type { BtcAddressHash } from './pegin-info.js';
import type { BridgeStorage } from './storage.js';

/** The Bridge storage value holding the refunds to build; the peg-out side takes them from here. */
export const PEGIN_REFUNDS_KEY = 'peginRefundsToBuild';

export interface PeginRefund {
  /** The peg-in's txid, display order. */
  peginTxid: Uint8Array;
  /** Its outputs to the federation: what the refund spends. */
  outputs: { vout: number; value: bigint }[];
  refundAddress: BtcAddressHash;
  /** Satoshis, before the refund's fee. */
  amount: bigint;
}

type Row = [Uint8Array, Uint8Array[][], Uint8Array, Uint8Array, Uint8Array];

export async function readPeginRefunds(storage: BridgeStorage): Promise<PeginRefund[]> {
  const raw = await storage.get(PEGIN_REFUNDS_KEY);
  if (raw.length === 0) return [];
  return (RLP.decode(raw) as unknown as Row[]).map(([txid, outputs, kind, hash, amount]) => ({
    peginTxid: txid,
    outputs: outputs.map(([vout, value]) => ({ vout: bytesToInt(vout!), value: bytesToBigInt(value!) })),
    refundAddress: { kind: bytesToInt(kind) === 1 ? 'p2pkh' : 'p2sh', hash },
    amount: bytesToBigInt(amount),
  }));
}

export async function recordPeginRefund(storage: BridgeStorage, refund: PeginRefund): Promise<void> {
  const rows = [...(await readPeginRefunds(storage)), refund].map((r) => [
    r.peginTxid,
    r.outputs.map((o) => [intToUnpaddedBytes(o.vout), bigIntToUnpaddedBytes(o.value)]),
    intToUnpaddedBytes(r.refundAddress.kind === 'p2pkh' ? 1 : 2),
    r.refundAddress.hash,
    bigIntToUnpaddedBytes(r.amount),
  ]);
  await storage.set(PEGIN_REFUNDS_KEY, RLP.encode(rows));
}
