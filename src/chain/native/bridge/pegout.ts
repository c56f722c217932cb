/**
 * The peg-out, as rskj master's Bridge does it on regtest (P/BridgeSupport.java, read at d987a4c):
 * a request (RBTC sent to the Bridge with empty data: releaseBtc / requestRelease), the batch
 * (updateCollections: processPegoutRequests, processConfirmedPegouts), the federators' signatures
 * (addSignature, pegout-signatures.ts), the refunds of rejected peg-ins, and the getters that read
 * the queue. Storage in pegout-store.ts, the Bitcoin transactions in release-tx.ts.
 */
import { Account, Address } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { equalBytes } from '@noble/curves/utils.js';
import { CompactSize, OutScript, p2pkh } from '@scure/btc-signer';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import { sha256d } from '../../base/bytes.js';
import { reversed } from '../../bitcoin/encoding.js';
import { REGTEST_NETWORK } from '../../btc-chain/constants.js';
import type { AbiValue } from '../abi.js';
import type { NativeCall } from '../types.js';
import { MINIMUM_PEGOUT_TX_VALUE_SATOSHIS, PEGOUT_FEE_GAP_PERCENT, PEGOUT_BATCH_INTERVAL_BLOCKS, PEGOUT_RSK_CONFIRMATIONS, WEIS_PER_SATOSHI } from './constants.js';
import { bridgeLog } from './events.js';
import { feePerKb } from './governance.js';
import { memberIndexOfRskAddress, type Federation } from './federation.js';
import { activeFederation, estimatedFeesForNextPegOutEvent, segwitPegoutTxSize } from './getters.js';
import type { BridgeContext, BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import {
  readNextPegoutHeight,
  readPegoutQueue,
  readWaitingForConfirmations,
  readWaitingForSignatures,
  writeNextPegoutHeight,
  writePegoutQueue,
  writeWaitingForConfirmations,
  writeWaitingForSignatures,
  type PegoutRequest,
} from './pegout-store.js';
import { buildRefundTx, buildReleaseTx, type ReleaseBuild, type ReleaseRecipient, type ReleaseTx } from './release-tx.js';
import { addSignatureHandler } from './pegout-signatures.js';
import { readFederationUtxos, writeFederationUtxos } from './utxos.js';

/** RejectedPegoutReason (P/pegout/RejectedPegoutReason.java). */
const LOW_AMOUNT = 1n;
const CALLER_CONTRACT = 2n;
const FEE_ABOVE_VALUE = 3n;

/**
 * BridgeSupport.getEstimatedFeesFromPegoutTransactionSimulation: the recipient of the simulated
 * extra peg-out, P2PKH of this fixed public key.
 */
const SIMULATION_RECIPIENT = p2pkh(secp256k1.Point.fromHex('0329f519f8d13a7e3dd35fa5c2480c6bf6c0489da40081e8311a91813492083953').toBytes(true), REGTEST_NETWORK);

/** An updateCollections run outside a transaction (eth_call) has no tx hash; its writes are discarded anyway. */
const NO_TX_HASH = new Uint8Array(32);

const ok = (values: AbiValue[] = []): BridgeHandlerResult => ({ values });

/** rskRepository.transfer(from, to, value). */
async function transfer(call: NativeCall, from: Uint8Array, to: Uint8Array, value: bigint): Promise<void> {
  const fromAddress = new Address(from);
  const toAddress = new Address(to);
  const source = await call.state.getAccount(fromAddress);
  if (source === undefined || source.balance < value) throw new Error('Bridge transfer: insufficient balance');
  source.balance -= value;
  await call.state.putAccount(fromAddress, source);
  const target = (await call.state.getAccount(toAddress)) ?? new Account();
  target.balance += value;
  await call.state.putAccount(toAddress, target);
}

/**
 * BridgeSupport.requestRelease's minimum (RSKIP219): max(minimumPegoutTxValue, fee of a 2-input
 * 2-output peg-out plus the 20 % gap); which of the two wins decides the rejection reason.
 */
export function pegoutMinimum(federation: Federation, feePerKb: bigint): { minimum: bigint; feeWins: boolean } {
  let forFee = (feePerKb * BigInt(segwitPegoutTxSize(federation, 2, 2))) / 1000n;
  forFee += (forFee * PEGOUT_FEE_GAP_PERCENT) / 100n;
  return forFee > MINIMUM_PEGOUT_TX_VALUE_SATOSHIS ? { minimum: forFee, feeWins: true } : { minimum: MINIMUM_PEGOUT_TX_VALUE_SATOSHIS, feeWins: false };
}

/**
 * Bridge.releaseBtc -> BridgeSupport.releaseBtc / requestRelease. `isContractTx` is rskj's test for
 * an internal transaction: here a Bridge frame below the transaction's own (depth > 0).
 */
const releaseBtc: BridgeHandler = async ({ call, storage, logs }) => {
  const value = call.value;
  if (call.depth > 0) {
    // RSKIP185: the value stays in the Bridge.
    logs.push(bridgeLog('release_request_rejected', [call.caller], [value, CALLER_CONTRACT]));
    return ok();
  }
  const federation = activeFederation();
  const satoshis = value / WEIS_PER_SATOSHI; // co.rsk.core.Coin.toBitcoin truncates
  const { minimum, feeWins } = pegoutMinimum(federation, await feePerKb(storage));
  if (satoshis < minimum) {
    // refundAndEmitRejectEvent: RSKIP427 refunds the wei as sent.
    await transfer(call, BRIDGE_ADDRESS, call.caller, value);
    logs.push(bridgeLog('release_request_rejected', [call.caller], [value, feeWins ? FEE_ABOVE_VALUE : LOW_AMOUNT]));
    return ok();
  }
  // BridgeUtils.recoverBtcAddressFromEthTransaction: P2PKH of the signature's compressed key.
  // eth_call / eth_estimateGas sign nothing; their effects are discarded, so any key will do.
  const signer = call.tx === undefined ? federation.members[0]! : call.tx.signerPublicKey;
  if (signer === undefined) return { fail: 'releaseBtc: an impersonated transaction has no signature to derive the BTC destination from' };
  const destination = p2pkh(signer, REGTEST_NETWORK);
  const queue = await readPegoutQueue(storage);
  queue.push({ script: destination.script, amount: satoshis, rskTxHash: call.tx?.hash ?? NO_TX_HASH });
  await writePegoutQueue(storage, queue);
  logs.push(bridgeLog('release_request_received', [call.caller], [destination.address!, value]));
  return ok();
};

function recipientsOf(queue: readonly PegoutRequest[]): ReleaseRecipient[] {
  return queue.map((r) => ({ script: r.script, amount: r.amount }));
}

/** UtxoUtils.encodeOutpointValues (RSKIP428): each value as a Bitcoin VarInt. */
function encodeOutpointValues(values: readonly bigint[]): Uint8Array {
  const parts = values.map((v) => CompactSize.encode(v));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * BridgeSupport.settleReleaseRequest / settleReleaseRejection: the built transaction waits for
 * confirmations (keyed by the transaction that built it), with release_requested (`amount`: what
 * was requested, satoshis) and pegout_transaction_created (RSKIP428).
 */
async function settleRelease({ call, storage, logs }: BridgeContext, tx: ReleaseTx, rskTxHash: Uint8Array, amount: bigint): Promise<void> {
  const outpointValues = tx.spent.map((u) => u.value);
  const waiting = await readWaitingForConfirmations(storage);
  waiting.push({ unsigned: tx.unsigned, outpointValues, redeemScripts: tx.spent.map((u) => u.redeemScript), blockNumber: call.block.number, rskTxHash });
  await writeWaitingForConfirmations(storage, waiting);
  logs.push(bridgeLog('release_requested', [rskTxHash, tx.txid], [amount]));
  logs.push(bridgeLog('pegout_transaction_created', [tx.txid], [encodeOutpointValues(outpointValues)]));
}

/** Where a rejected peg-in is refunded: its sender's P2PKH, or a P2SH (its RSKT refund address). */
export interface RefundDestination {
  kind: 'p2pkh' | 'p2sh';
  hash: Uint8Array;
}

/**
 * BridgeSupport.generateRejectionRelease (a REFUND peg-in, handleRefundablePegin) and
 * generateFlyoverRejectionReleaseWithWalletProvider (a Flyover peg-in over the locking cap): a
 * transaction spending the peg-in's outputs to the federation (or to the flyover federation, with
 * its redeem script) back to `destination`, waiting for confirmations like a batch. rskj logs and
 * panics when it cannot be built (the BTC stay with the federation, unrecorded); so do we, without
 * the panic.
 */
export async function settlePeginRefund(
  context: BridgeContext,
  peginTxid: Uint8Array,
  outputs: readonly { vout: number; value: bigint; script: Uint8Array; redeemScript: Uint8Array }[],
  height: number,
  destination: RefundDestination,
): Promise<void> {
  const utxos = outputs.map((o) => ({ txid: peginTxid, vout: o.vout, value: o.value, height, script: o.script, redeemScript: o.redeemScript }));
  const script = OutScript.encode({ type: destination.kind === 'p2pkh' ? 'pkh' : 'sh', hash: destination.hash });
  const build = buildRefundTx(activeFederation(), utxos, script, await feePerKb(context.storage));
  if ('error' in build) return;
  const total = outputs.reduce((sum, o) => sum + o.value, 0n);
  await settleRelease(context, build.tx, context.call.tx?.hash ?? NO_TX_HASH, total);
}

/**
 * BridgeSupport.processPegoutsInBatch (RSKIP271). A batch over bitcoinj's maximum transaction size
 * is halved (the first half of the queue, then its first half, ...) until it fits or one request
 * is left; the rest stay queued, and the next peg-out height is set only once the queue is empty,
 * so the next updateCollections batches them. As rskj, release_requested carries the whole
 * queue's total even when only part of it was batched.
 */
async function processPegoutRequests(context: BridgeContext, rskTxHash: Uint8Array): Promise<void> {
  const { call, storage, logs } = context;
  const blockNumber = call.block.number;
  if (blockNumber < (await readNextPegoutHeight(storage))) return;
  const queue = await readPegoutQueue(storage);
  const utxos = await readFederationUtxos(storage);
  const total = queue.reduce((sum, r) => sum + r.amount, 0n);
  if (utxos.reduce((sum, u) => sum + u.value, 0n) < total) return; // wallet balance below the queue: wait
  let remaining = queue;
  if (queue.length > 0) {
    const fee = await feePerKb(storage);
    let batch = queue;
    let build: ReleaseBuild = buildReleaseTx(activeFederation(), utxos, recipientsOf(batch), fee);
    while (batch.length > 1 && 'error' in build && build.error === 'EXCEED_MAX_TRANSACTION_SIZE') {
      batch = batch.slice(0, Math.floor(batch.length / 2));
      build = buildReleaseTx(activeFederation(), utxos, recipientsOf(batch), fee);
    }
    if ('error' in build) return; // "Couldn't build a pegout BTC tx": the requests stay queued
    const { tx } = build;
    // settleReleaseRequest: spent UTXOs out, the batch waits for confirmations, the events.
    await writeFederationUtxos(storage, utxos.filter((u) => !tx.spent.includes(u)));
    await settleRelease(context, tx, rskTxHash, total);
    remaining = queue.slice(batch.length);
    await writePegoutQueue(storage, remaining);
    const hashes = new Uint8Array(32 * batch.length);
    batch.forEach((r, i) => hashes.set(r.rskTxHash, 32 * i));
    logs.push(bridgeLog('batch_pegout_created', [tx.txid], [hashes]));
  }
  if (remaining.length === 0) await writeNextPegoutHeight(storage, blockNumber + PEGOUT_BATCH_INTERVAL_BLOCKS);
}

/**
 * BridgeSupport.processConfirmedPegouts: one batch with enough RSK confirmations moves to the
 * waiting-for-signatures map, keyed by its creation tx hash (RSKIP375). Returns rskj's
 * IllegalStateException message when that key is taken.
 */
async function processConfirmedPegouts({ call, storage, logs }: BridgeContext): Promise<string | undefined> {
  const waiting = await readWaitingForConfirmations(storage);
  const index = waiting.findIndex((e) => call.block.number - e.blockNumber >= PEGOUT_RSK_CONFIRMATIONS);
  if (index < 0) return undefined;
  const entry = waiting[index]!;
  const signing = await readWaitingForSignatures(storage);
  if (signing.some((s) => equalBytes(s.rskTxHash, entry.rskTxHash))) {
    return 'An entry for the given rskTxHash already exists. Entry overriding is not allowed for pegoutsWaitingForSignatures map.';
  }
  signing.push({
    rskTxHash: entry.rskTxHash,
    unsigned: entry.unsigned,
    outpointValues: entry.outpointValues,
    redeemScripts: entry.redeemScripts,
    signatures: entry.outpointValues.map(() => []),
  });
  await writeWaitingForSignatures(storage, signing);
  waiting.splice(index, 1);
  await writeWaitingForConfirmations(storage, waiting);
  const txid = reversed(sha256d(entry.unsigned)); // the unsigned serialization has no witness: it hashes to the txid
  logs.push(bridgeLog('pegout_confirmed', [txid], [entry.blockNumber]));
  return undefined;
}

/** Bridge.updateCollections (activeAndRetiringFederationOnly) -> BridgeSupport.updateCollections. */
const updateCollections: BridgeHandler = async (context) => {
  const { call, logs } = context;
  if (memberIndexOfRskAddress(activeFederation(), call.caller) < 0) {
    return { fail: "The sender is not a member of the active or retiring federations and is therefore not authorized to invoke the function: 'updateCollections'" };
  }
  logs.push(bridgeLog('update_collections', [], [call.caller]));
  await processPegoutRequests(context, call.tx?.hash ?? NO_TX_HASH);
  const failure = await processConfirmedPegouts(context);
  return failure === undefined ? ok() : { fail: `Exception onBlock: ${failure}` };
};

/** BridgeSupport.getEstimatedFeesFromPegoutTransactionSimulation: the fee of the queue plus one peg-out of `amount`. */
async function simulatedFee(storage: BridgeContext['storage'], amount: bigint): Promise<bigint | undefined> {
  const queue = await readPegoutQueue(storage);
  const recipients = [...recipientsOf(queue), { script: SIMULATION_RECIPIENT.script, amount }];
  const build = buildReleaseTx(activeFederation(), await readFederationUtxos(storage), recipients, await feePerKb(storage));
  return 'error' in build ? undefined : build.tx.fee;
}

export const PEGOUT_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  releaseBtc,
  updateCollections,
  addSignature: addSignatureHandler,
  getQueuedPegoutsCount: async ({ storage }) => ok([BigInt((await readPegoutQueue(storage)).length)]),
  getNextPegoutCreationBlockNumber: async ({ storage }) => ok([await readNextPegoutHeight(storage)]),
  // RSKIP305 + RSKIP540: simulate the queue plus a minimum peg-out; without the UTXOs for it, the size formula.
  getEstimatedFeesForNextPegOutEvent: async ({ storage }) => {
    const fee = await simulatedFee(storage, MINIMUM_PEGOUT_TX_VALUE_SATOSHIS);
    if (fee !== undefined) return ok([fee]);
    const queued = (await readPegoutQueue(storage)).length;
    return ok([estimatedFeesForNextPegOutEvent(queued, await feePerKb(storage), activeFederation())]);
  },
  // RSKIP540: throws below the minimum peg-out or when the simulation cannot be built.
  getEstimatedFeesForPegOutAmount: async ({ args, storage }) => {
    const amount = (args[0] as bigint) / WEIS_PER_SATOSHI;
    if (amount < MINIMUM_PEGOUT_TX_VALUE_SATOSHIS) return { fail: `Peg-out amount ${amount} is below the minimum peg-out value ${MINIMUM_PEGOUT_TX_VALUE_SATOSHIS}` };
    const fee = await simulatedFee(storage, amount);
    return fee === undefined ? { fail: 'Cannot simulate peg-out btc transaction' } : ok([fee]);
  },
};
