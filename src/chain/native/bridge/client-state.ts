/**
 * The Bridge's state as its RLP getters give it to the federation's clients and to debugging:
 * getStateForDebugging (rskj BridgeState.getEncoded), getStateForBtcReleaseClient
 * (StateForFederator.encodeToRlp) and getStateForSvpClient (StateForProposedFederator, or its
 * empty form; BridgeSupport.getStateForSvpClient). rskj's RLP.encodeList takes elements already
 * encoded, and several fields are RLP encoded twice (RLP.encodeElement of an encoded list): the
 * byte layouts below follow rskj's calls one for one.
 *
 * Peg-out state (the release request queue, peg-outs waiting for confirmations or signatures) is
 * not serialized in rskj's bitcoinj layouts yet: a state that is not empty is refused rather than
 * misreported (the caller fails with a message); an empty one is rskj's empty encoding.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes, intToUnpaddedBytes } from '@ethereumjs/util';
import type { FederationUtxo } from './utxos.js';
import type { PegoutStateSummary } from './pegout-store.js';

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

function requireNoPegoutState(state: PegoutStateSummary): void {
  if (state.queuedPegouts > 0 || state.pegoutsWaitingForConfirmations > 0 || state.pegoutsWaitingForSignatures > 0) {
    throw new Error('the peg-out state is not serialized by this node yet');
  }
}

/**
 * BridgeState.getEncoded (RSKIP146 "papyrus" encoding): [best BTC height, UTXOs, peg-outs waiting
 * for signatures, release request queue, peg-outs waiting for confirmations, next peg-out height].
 */
export function stateForDebugging(btcBestHeight: number, utxos: readonly FederationUtxo[], state: PegoutStateSummary): Uint8Array {
  requireNoPegoutState(state);
  const utxoList = encodeList(...utxos.map((u) => encodeElement(serializeUtxo(u)))); // serializeUTXOList
  return encodeList(
    encodeBigInteger(BigInt(btcBestHeight)),
    encodeElement(utxoList),
    encodeElement(EMPTY_SERIALIZED_LIST), // serializeRskTxsWaitingForSignatures
    encodeElement(EMPTY_SERIALIZED_LIST), // serializeReleaseRequestQueueWithTxHash
    encodeElement(EMPTY_SERIALIZED_LIST), // serializePegoutsWaitingForConfirmationsWithTxHash
    encodeElement(encodeBigInteger(state.nextPegoutHeight)), // serializeLong
  );
}

/** StateForFederator.encodeToRlp: RLP.encodeList(serializeRskTxsWaitingForSignatures(map)). */
export function stateForBtcReleaseClient(state: PegoutStateSummary): Uint8Array {
  requireNoPegoutState(state);
  return encodeList(EMPTY_SERIALIZED_LIST);
}

/**
 * BridgeSupport.getStateForSvpClient with no SVP spend tx waiting for signatures (no federation
 * change, so no SVP, on this node): RLP.encodeList(RLP.encodedEmptyList()).
 */
export function stateForSvpClient(): Uint8Array {
  return encodeList(EMPTY_SERIALIZED_LIST);
}
