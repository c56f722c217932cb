/**
 * The peg-out batch's Bitcoin transaction, as rskj's ReleaseTransactionBuilder.buildBatchedPegouts
 * makes it with bitcoinj's Wallet.completeTx (P/ReleaseTransactionBuilder.java): version 2
 * (RSKIP201), one output per request in queue order (shuffleOutputs = false), the change back to
 * the federation, the fee paid by the recipients (recipientsPayFees = true), the inputs left
 * unsigned with the federation's base script (sr.signInputs = false; addSpendingFederationBaseScript).
 * And what addSignature needs of it: each input's BIP143 sighash and, once the threshold has
 * signed, the witness that spends the federation's P2SH-P2WSH output. Each input uses the redeem
 * script of the UTXO it spends (utxos.ts): the federation's, or a Flyover UTXO's flyover redeem
 * script (rskj's FlyoverCompatibleBtcWallet gives addSpendingFederationBaseScript that one).
 *
 * Our choices where bitcoinj's wallet is not reproduced byte for byte (docs/decisions.md, "Peg-out: the batch"):
 * - coins: bitcoinj's DefaultCoinSelector order (most confirmations first, then the larger value,
 *   then the hash), taken until they cover the requested total;
 * - size: BridgeUtils.calculatePegoutTxSize (getters.ts segwitPegoutTxSize), the formula rskj's
 *   own fee estimates use, for the chosen inputs and the outputs with the change;
 * - split: fee / recipients from each recipient, the first also pays the remainder (bitcoinj
 *   Wallet's recipientsPayFees rule).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { RawTx, Transaction } from '@scure/btc-signer';
import { sha256d } from '../../base/bytes.js';
import { reversed } from '../../bitcoin/encoding.js';
import { federationOutputScript, type Federation } from './federation.js';
import { segwitPegoutTxSize } from './getters.js';
import type { FederationUtxo } from './utxos.js';

/** bitcoinj BtcTransaction.BTC_TX_VERSION_2 (RSKIP201). */
const RELEASE_TX_VERSION = 2;
/** bitcoinj TransactionInput.NO_SEQUENCE: inputs are not replaceable and carry no relative lock. */
const FINAL_SEQUENCE = 0xffffffff;
/** bitcoinj Transaction.MIN_NONDUST_OUTPUT for a P2PKH output at the default relay fee: a smaller recipient output fails the build (DustySendRequested / CouldNotAdjustDownwards). */
export const RELEASE_DUST_SATOSHIS = 546n;
const SIGHASH_ALL = 1;
/**
 * bitcoinj Transaction.MAX_STANDARD_TX_SIZE: Wallet.completeTx throws ExceededMaxTransactionSize
 * for a larger unsafeBitcoinSerialize() (the unsigned batch with its base witnesses), and
 * BridgeSupport.processPegoutsInBatch then halves the batch (pegout.ts).
 */
export const MAX_STANDARD_TX_SIZE = 100_000;
const OP_0 = 0x00;

export interface ReleaseRecipient {
  /** The output script (a P2PKH script for a peg-out request). */
  script: Uint8Array;
  /** Satoshis requested (before the fee share). */
  amount: bigint;
}

export interface ReleaseTx {
  /** Serialized without witnesses: the inputs carry only the federation's base scriptSig. */
  unsigned: Uint8Array;
  /** Display-order txid (bitcoinj Sha256Hash.getBytes()). */
  txid: Uint8Array;
  /** The UTXOs spent, in input order. */
  spent: FederationUtxo[];
  /** The fee, in satoshis. */
  fee: bigint;
  /** What each recipient receives, in output order. */
  received: bigint[];
  /** The change back to the federation (0 when there is none). */
  change: bigint;
}

export type ReleaseBuild = { tx: ReleaseTx } | { error: 'INSUFFICIENT_MONEY' | 'COULD_NOT_ADJUST_DOWNWARDS' | 'EXCEED_MAX_TRANSACTION_SIZE' };

/** OP_0 <sha256(redeemScript)>: the witness program the federation's P2SH commits to. */
export function witnessProgram(redeemScript: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(OP_0, 32), sha256(redeemScript));
}

/** The P2SH-P2WSH scriptSig: one push of the witness program (ErpFederation / addSpendingFederationBaseScript). */
function baseScriptSig(redeemScript: Uint8Array): Uint8Array {
  const program = witnessProgram(redeemScript);
  return concatBytes(Uint8Array.of(program.length), program);
}

/** bitcoinj DefaultCoinSelector.sortOutputs: more confirmations (lower height) first, then the larger value, then the hash. */
function selectionOrder(a: FederationUtxo, b: FederationUtxo): number {
  if (a.height !== b.height) return a.height - b.height;
  if (a.value !== b.value) return a.value > b.value ? -1 : 1;
  for (let i = 0; i < 32; i++) if (a.txid[i] !== b.txid[i]) return a.txid[i]! - b.txid[i]!;
  return a.vout - b.vout;
}

/** Equal shares of `fee` for `recipients` outputs; the first share carries the remainder. */
export function splitFee(fee: bigint, recipients: number): bigint[] {
  const n = BigInt(recipients);
  const share = fee / n;
  return Array.from({ length: recipients }, (_, i) => (i === 0 ? share + (fee - share * n) : share));
}

/** ReleaseTransactionBuilder.buildBatchedPegouts over the federation's UTXOs. */
export function buildReleaseTx(
  federation: Federation,
  utxos: readonly FederationUtxo[],
  recipients: readonly ReleaseRecipient[],
  feePerKb: bigint,
): ReleaseBuild {
  const requested = recipients.reduce((sum, r) => sum + r.amount, 0n);
  const spent: FederationUtxo[] = [];
  let total = 0n;
  for (const utxo of [...utxos].sort(selectionOrder)) {
    if (total >= requested) break;
    spent.push(utxo);
    total += utxo.value;
  }
  if (total < requested) return { error: 'INSUFFICIENT_MONEY' };
  const change = total - requested;
  const outputs = recipients.length + (change > 0n ? 1 : 0);
  const fee = (feePerKb * BigInt(segwitPegoutTxSize(federation, spent.length, outputs))) / 1000n;
  const shares = splitFee(fee, recipients.length);
  const received = recipients.map((r, i) => r.amount - shares[i]!);
  if (received.some((v) => v < RELEASE_DUST_SATOSHIS)) return { error: 'COULD_NOT_ADJUST_DOWNWARDS' };
  // ReleaseTransactionBuilder: the change goes to the federation's own address (never a flyover one).
  const changeScript = federationOutputScript(federation);
  const unsigned = RawTx.encode({
    version: RELEASE_TX_VERSION,
    segwitFlag: false,
    inputs: spent.map((u) => ({ txid: u.txid, index: u.vout, finalScriptSig: baseScriptSig(u.redeemScript), sequence: FINAL_SEQUENCE })),
    outputs: [
      ...recipients.map((r, i) => ({ amount: received[i]!, script: r.script })),
      ...(change > 0n ? [{ amount: change, script: changeScript }] : []),
    ],
    witnesses: undefined,
    lockTime: 0,
  });
  if (rskjReleaseTxBytes(unsigned, federation, [], spent.map((u) => u.redeemScript)).length > MAX_STANDARD_TX_SIZE) return { error: 'EXCEED_MAX_TRANSACTION_SIZE' };
  return { tx: { unsigned, txid: reversed(sha256d(unsigned)), spent, fee, received, change } };
}

/**
 * ReleaseTransactionBuilder.buildEmptyWalletTo over a wallet of `utxos` alone (a rejected peg-in's
 * outputs to the federation, BridgeSupport.generateRejectionRelease): everything to `script`, less
 * the fee, no change.
 */
export function buildRefundTx(federation: Federation, utxos: readonly FederationUtxo[], script: Uint8Array, feePerKb: bigint): ReleaseBuild {
  const total = utxos.reduce((sum, u) => sum + u.value, 0n);
  const fee = (feePerKb * BigInt(segwitPegoutTxSize(federation, utxos.length, 1))) / 1000n;
  if (total - fee < RELEASE_DUST_SATOSHIS) return { error: 'COULD_NOT_ADJUST_DOWNWARDS' };
  const unsigned = RawTx.encode({
    version: RELEASE_TX_VERSION,
    segwitFlag: false,
    inputs: utxos.map((u) => ({ txid: u.txid, index: u.vout, finalScriptSig: baseScriptSig(u.redeemScript), sequence: FINAL_SEQUENCE })),
    outputs: [{ amount: total - fee, script }],
    witnesses: undefined,
    lockTime: 0,
  });
  if (rskjReleaseTxBytes(unsigned, federation, [], utxos.map((u) => u.redeemScript)).length > MAX_STANDARD_TX_SIZE) return { error: 'EXCEED_MAX_TRANSACTION_SIZE' };
  return { tx: { unsigned, txid: reversed(sha256d(unsigned)), spent: [...utxos], fee, received: [total - fee], change: 0n } };
}

function parsed(unsigned: Uint8Array): Transaction {
  return Transaction.fromRaw(unsigned, { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true, allowUnknownVersion: true });
}

/**
 * BridgeSupport.generateSigHashForSegwitTransactionInput: the BIP143 SIGHASH_ALL digest of each
 * input, with its redeem script as the script code and the stored outpoint value.
 */
export function releaseSighashes(unsigned: Uint8Array, redeemScripts: readonly Uint8Array[], outpointValues: readonly bigint[]): Uint8Array[] {
  const tx = parsed(unsigned);
  return outpointValues.map((value, i) => tx.preimageWitnessV0(i, redeemScripts[i]!, SIGHASH_ALL, value));
}

/**
 * bitcoinSerialize of a release transaction as rskj holds it (getStateFor*, client-state.ts; the
 * size bitcoinj's Wallet.completeTx checks): every input's witness is the
 * federation's base witness, with `signatures[i]` (input i's, by key index) in the first slots,
 * and `redeemScripts[i]` (the federation's when not given) last.
 */
export function rskjReleaseTxBytes(
  unsigned: Uint8Array,
  federation: Pick<Federation, 'redeemScript' | 'threshold'>,
  signatures: readonly (readonly { keyIndex: number; der: Uint8Array }[])[] = [],
  redeemScripts: readonly Uint8Array[] = [],
): Uint8Array {
  const raw = RawTx.decode(unsigned);
  const empty = new Uint8Array(0);
  const witnesses = raw.inputs.map((_, i) => {
    const sigs = [...(signatures[i] ?? [])].sort((a, b) => a.keyIndex - b.keyIndex).map((s) => concatBytes(s.der, Uint8Array.of(SIGHASH_ALL)));
    const placeholders = Array.from({ length: Math.max(0, federation.threshold - sigs.length) }, () => empty);
    return [empty, ...sigs, ...placeholders, empty, redeemScripts[i] ?? federation.redeemScript];
  });
  return RawTx.encode({ ...raw, segwitFlag: true, witnesses });
}

/**
 * The fully signed transaction: each input's witness spends its redeem script's first branch,
 * [empty (CHECKMULTISIG's extra pop), signatures in the keys' order, empty (OP_NOTIF takes the
 * multisig branch), redeem script]. `signatures[i]` are input i's DER signatures (without the
 * sighash byte), already in the order of the keys in the script; `redeemScripts[i]` its script
 * (a flyover one pushes its hash and drops it before the same OP_NOTIF).
 */
export function signedReleaseTx(unsigned: Uint8Array, redeemScripts: readonly Uint8Array[], signatures: readonly Uint8Array[][]): Uint8Array {
  const raw = RawTx.decode(unsigned);
  const empty = new Uint8Array(0);
  const witnesses = signatures.map((sigs, i) => [
    empty,
    ...sigs.map((der) => concatBytes(der, Uint8Array.of(SIGHASH_ALL))),
    empty,
    redeemScripts[i]!,
  ]);
  return RawTx.encode({ ...raw, segwitFlag: true, witnesses });
}
