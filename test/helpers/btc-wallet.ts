/**
 * A Bitcoin wallet as a test's user has one: a key, its address funded from the node's faucet,
 * and payments built and signed with @scure/btc-signer. Used by the peg-in and Flyover tests.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Script, Transaction, p2pkh, p2sh, p2wpkh } from '@scure/btc-signer';
import { call } from './node.js';

/** @scure/btc-signer's network description of Bitcoin regtest. */
export const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

/** The kind of address a key pays from: P2PKH, P2SH-P2WPKH or native P2WPKH. */
export type Kind = 'pkh' | 'sh-wpkh' | 'wpkh';

export function paymentOf(priv: Uint8Array, kind: Kind) {
  const pub = secp256k1.getPublicKey(priv, true);
  if (kind === 'pkh') return p2pkh(pub, REGTEST);
  if (kind === 'wpkh') return p2wpkh(pub, REGTEST);
  return p2sh(p2wpkh(pub), REGTEST);
}

const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));

/** An address's payment as @scure/btc-signer describes it (what spending its outputs needs). */
export interface Spendable {
  address?: string;
  script: Uint8Array;
  redeemScript?: Uint8Array;
  /** P2TR key path: the key the output commits to. */
  tapInternalKey?: Uint8Array;
}

/**
 * Adds every unspent output of `payment`'s address (btc_listUnspent) to `tx` as an input with what
 * signing it needs: the previous transaction for P2PKH, the output and any redeem script or
 * taproot key for the others. Returns their total in satoshis.
 */
export async function addUnspentInputs(url: string, tx: Transaction, kind: Kind | 'tr', payment: Spendable): Promise<bigint> {
  const utxos = await call(url, 'btc_listUnspent', [payment.address]);
  let total = 0n;
  for (const u of utxos) {
    total += BigInt(u.amount);
    if (kind === 'pkh') {
      const prev = await call(url, 'btc_getTransaction', [u.txid]);
      tx.addInput({ txid: u.txid, index: u.vout, nonWitnessUtxo: bytes(prev.hex) });
    } else {
      const { redeemScript, tapInternalKey } = payment;
      tx.addInput({
        txid: u.txid,
        index: u.vout,
        witnessUtxo: { script: payment.script, amount: BigInt(u.amount) },
        ...(redeemScript !== undefined ? { redeemScript } : {}),
        ...(tapInternalKey !== undefined ? { tapInternalKey } : {}),
      });
    }
  }
  return total;
}

/** What the faucet adds above the payment, for the fee. */
const FEE_MARGIN = 100_000n;
/** The fee the payment leaves. */
const FEE = 2_000n;

/**
 * Funds `priv`'s address from the faucet (mined), then sends `outputs` from it (and an OP_RETURN
 * with `payload`, if given), the change back to the sender. The payment is pooled, not mined.
 * Returns its txid (display order).
 */
export async function sendBtc(
  url: string,
  priv: Uint8Array,
  kind: Kind,
  outputs: readonly { address: string; amount: bigint }[],
  payload?: Uint8Array,
): Promise<string> {
  const payment = paymentOf(priv, kind);
  const amount = outputs.reduce((sum, o) => sum + o.amount, 0n);
  await call(url, 'btc_fund', [payment.address, Number(amount + FEE_MARGIN)]);
  await call(url, 'btc_mine', [1]);
  const tx = new Transaction({ allowUnknownOutputs: true });
  const total = await addUnspentInputs(url, tx, kind, payment);
  for (const o of outputs) tx.addOutputAddress(o.address, o.amount, REGTEST);
  if (payload !== undefined) tx.addOutput({ script: Script.encode(['RETURN', payload]), amount: 0n });
  tx.addOutputAddress(payment.address!, total - amount - FEE, REGTEST);
  tx.sign(priv);
  tx.finalize();
  return call(url, 'btc_sendRawTransaction', [tx.hex]);
}
