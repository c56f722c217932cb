/**
 * The Bridge's state as its RLP getters give it to the federation's clients and to debugging:
 * getStateForDebugging (rskj BridgeState.getEncoded), getStateForBtcReleaseClient
 * (StateForFederator.encodeToRlp) and getStateForSvpClient (StateForProposedFederator, or its
 * empty form; BridgeSupport.getStateForSvpClient). rskj's RLP.encodeList takes elements already
 * encoded, and several fields are RLP encoded twice (RLP.encodeElement of an encoded list): the
 * byte layouts below follow rskj's calls one for one.
 *
 * The peg-out collections are serialized as BridgeSerializationUtils does, each Bitcoin transaction
 * as bitcoinj's bitcoinSerialize gives it: with the federation's base witness on every input
 * (BitcoinUtils.createBaseWitnessThatSpendsFromErpRedeemScript: [empty, one empty per required
 * signature, empty for OP_NOTIF, redeem script]) and, waiting for signatures, the signatures
 * gathered so far in the slots (BitcoinUtils.signInput -> addSignatureToWitness: in the keys'
 * order, the remaining placeholders after them).
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes, intToUnpaddedBytes } from '@ethereumjs/util';
import type { Federation } from './federation.js';
import { rskjReleaseTxBytes } from './release-tx.js';
import type { FederationUtxo } from './utxos.js';
import type { PegoutRequest, PegoutState, PegoutWaitingForConfirmations, PegoutWaitingForSignatures } from './pegout-store.js';

/** RLP's short-list threshold: a payload of 56 bytes or more takes a length-of-length prefix. */
const SHORT_LIST_MAX = 55;

/** rskj RLP.encodeList(byte[]...): the list prefix over elements already encoded. */
function encodeList(...encoded: Uint8Array[]): Uint8Array {
  const payload = concatBytes(...encoded);
  if (payload.length <= SHORT_LIST_MAX) return concatBytes(Uint8Array.of(0xc0 + payload.length), payload);
  const lengthBytes = intToUnpaddedBytes(payload.length);
  return concatBytes(Uint8Array.of(0xf7 + lengthBytes.length), lengthBytes, payload);
}

/** rskj RLP.encodeElement: a byte string. */
function encodeElement(bytes: Uint8Array): Uint8Array {
  return RLP.encode(bytes);
}

/** rskj RLP.encodeBigInteger: the unsigned big-endian bytes as a string (0 is 0x80). */
function encodeBigInteger(value: bigint): Uint8Array {
  return RLP.encode(bigIntToUnpaddedBytes(value));
}

function uint32LE(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

/**
 * bitcoinj UTXO.serializeToStream: value (int64 LE), script length (uint32 LE), script, tx hash
 * (Sha256Hash.getBytes(), display order), output index (uint32 LE), height (uint32 LE), coinbase
 * flag (1 byte; federation UTXOs come from peg-ins and peg-out change, never a coinbase).
 */
export function serializeUtxo(utxo: FederationUtxo): Uint8Array {
  const value = new Uint8Array(8);
  new DataView(value.buffer).setBigInt64(0, utxo.value, true);
  return concatBytes(value, uint32LE(utxo.script.length), utxo.script, utxo.txid, uint32LE(utxo.vout), uint32LE(utxo.height), Uint8Array.of(0));
}

/** An empty map or list as BridgeSerializationUtils serializes it: RLP.encodeList() = 0xc0. */
const EMPTY_SERIALIZED_LIST = encodeList();

/** The 20-byte hash a P2PKH (76 a9 14 <h> 88 ac) or P2SH (a9 14 <h> 87) script pays: bitcoinj Address.getHash160. */
function destinationHash160(script: Uint8Array): Uint8Array {
  if (script.length === 25 && script[0] === 0x76 && script[1] === 0xa9 && script[2] === 20) return script.subarray(3, 23);
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 20) return script.subarray(2, 22);
  throw new Error('a peg-out request to a script that is neither P2PKH nor P2SH');
}

/** UnsignedBytes.lexicographicalComparator. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** co.rsk.crypto.Keccak256.compareTo: unsigned, from the last byte to the first (a SortedMap's order). */
function compareKeccak256(a: Uint8Array, b: Uint8Array): number {
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** serializeRskTxsWaitingForSignatures: [hash_1, tx_1, ..., hash_n, tx_n] in the SortedMap's key order. */
export function serializeRskTxsWaitingForSignatures(entries: readonly PegoutWaitingForSignatures[], federation: Federation): Uint8Array {
  const sorted = [...entries].sort((a, b) => compareKeccak256(a.rskTxHash, b.rskTxHash));
  return encodeList(
    ...sorted.flatMap((e) => [encodeElement(e.rskTxHash), encodeElement(rskjReleaseTxBytes(e.unsigned, federation, e.signatures, e.redeemScripts))]),
  );
}

/** serializeReleaseRequestQueueWithTxHash: [hash160_1, amount_1, rskTxHash_1, ...] in queue (FIFO) order. */
export function serializeReleaseRequestQueueWithTxHash(queue: readonly PegoutRequest[]): Uint8Array {
  return encodeList(
    ...queue.flatMap((r) => [encodeElement(destinationHash160(r.script)), encodeBigInteger(r.amount), encodeElement(r.rskTxHash)]),
  );
}

/**
 * serializePegoutsWaitingForConfirmationsWithTxHash: [tx_1, block_1, rskTxHash_1, ...] ordered by
 * the serialized transactions' bytes (PegoutsWaitingForConfirmations.Entry.BTC_TX_COMPARATOR).
 */
export function serializePegoutsWaitingForConfirmationsWithTxHash(
  entries: readonly PegoutWaitingForConfirmations[],
  federation: Federation,
): Uint8Array {
  const withTx = entries.map((e) => ({ e, tx: rskjReleaseTxBytes(e.unsigned, federation, [], e.redeemScripts) }));
  withTx.sort((a, b) => compareBytes(a.tx, b.tx));
  return encodeList(...withTx.flatMap(({ e, tx }) => [encodeElement(tx), encodeBigInteger(e.blockNumber), encodeElement(e.rskTxHash)]));
}

/**
 * BridgeState.getEncoded (RSKIP146 "papyrus" encoding): [best BTC height, UTXOs, peg-outs waiting
 * for signatures, release request queue, peg-outs waiting for confirmations, next peg-out height].
 */
export function stateForDebugging(btcBestHeight: number, utxos: readonly FederationUtxo[], state: PegoutState, federation: Federation): Uint8Array {
  const utxoList = encodeList(...utxos.map((u) => encodeElement(serializeUtxo(u)))); // serializeUTXOList
  return encodeList(
    encodeBigInteger(BigInt(btcBestHeight)),
    encodeElement(utxoList),
    encodeElement(serializeRskTxsWaitingForSignatures(state.waitingForSignatures, federation)),
    encodeElement(serializeReleaseRequestQueueWithTxHash(state.queue)),
    encodeElement(serializePegoutsWaitingForConfirmationsWithTxHash(state.waitingForConfirmations, federation)),
    encodeElement(encodeBigInteger(state.nextPegoutHeight)), // serializeLong
  );
}

/** StateForFederator.encodeToRlp: RLP.encodeList(serializeRskTxsWaitingForSignatures(map)). */
export function stateForBtcReleaseClient(waitingForSignatures: readonly PegoutWaitingForSignatures[], federation: Federation): Uint8Array {
  return encodeList(serializeRskTxsWaitingForSignatures(waitingForSignatures, federation));
}

/**
 * BridgeSupport.getStateForSvpClient with no SVP spend tx waiting for signatures (no federation
 * change, so no SVP, on this node): RLP.encodeList(RLP.encodedEmptyList()). Regular peg-outs
 * waiting for signatures are not the SVP client's: they never appear here.
 */
export function stateForSvpClient(): Uint8Array {
  return encodeList(EMPTY_SERIALIZED_LIST);
}
