/**
 * The peg-out's collections in the Bridge's storage (storage.ts), under rskj's names
 * (P/BridgeStorageIndexKey.java): the request queue, the batches waiting for RSK confirmations,
 * the batches waiting for signatures, and the next peg-out height. Each is one RLP value; the
 * encodings are ours (rskj's are bitcoinj serializations), the contents are rskj's entries.
 *
 * A release transaction is kept without witnesses, so the redeem script each input is signed and
 * witnessed with (rskj's transaction carries it in the input's base witness) is kept beside it:
 * `redeemScripts`, written only when some input is not the federation's (a Flyover UTXO's), so
 * entries stored before Flyover existed read as the federation's (the genesis federation, the only
 * one a devnode's Bridge has) for every input.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, equalsBytes } from '@ethereumjs/util';
import { GENESIS_FEDERATION } from './federation.js';
import type { BridgeStorage } from './storage.js';

const QUEUE_KEY = 'releaseRequestQueueWithTxHash';
const WAITING_FOR_CONFIRMATIONS_KEY = 'releaseTransactionSetWithTxHash';
const WAITING_FOR_SIGNATURES_KEY = 'rskTxsWaitingFS';
const NEXT_PEGOUT_HEIGHT_KEY = 'nextPegoutHeight';

/** ReleaseRequestQueue.Entry (RSKIP146): where to, how much, and the request's RSK tx hash. */
export interface PegoutRequest {
  /** The destination's output script (P2PKH). */
  script: Uint8Array;
  /** Satoshis. */
  amount: bigint;
  rskTxHash: Uint8Array;
}

/** PegoutsWaitingForConfirmations.Entry: the unsigned batch, its RSK block and creating tx. */
export interface PegoutWaitingForConfirmations {
  /** The release transaction without witnesses (release-tx.ts). */
  unsigned: Uint8Array;
  /** The values of the outpoints it spends, in input order (RSKIP305 "releasesOutpointsValues"). */
  outpointValues: bigint[];
  /** The redeem script of each input, in input order. */
  redeemScripts: Uint8Array[];
  blockNumber: bigint;
  /** The updateCollections transaction that built it (RSKIP375: the waiting-for-signatures key). */
  rskTxHash: Uint8Array;
}

/** An entry of rskTxsWaitingFS, with the signatures gathered so far. */
export interface PegoutWaitingForSignatures {
  rskTxHash: Uint8Array;
  unsigned: Uint8Array;
  outpointValues: bigint[];
  /** The redeem script of each input, in input order. */
  redeemScripts: Uint8Array[];
  /** Per input, the DER signatures so far, by the index of their federator's key in the redeem script's multisig. */
  signatures: { keyIndex: number; der: Uint8Array }[][];
}

const big = (b: Uint8Array) => bytesToBigInt(b);
const enc = (n: bigint) => bigIntToUnpaddedBytes(n);

/** The stored redeem scripts of `inputs` inputs: absent means the federation's for each. */
function decodeRedeemScripts(stored: Uint8Array[] | undefined, inputs: number): Uint8Array[] {
  return stored ?? Array.from({ length: inputs }, () => GENESIS_FEDERATION.redeemScript);
}

/** Nothing when every input is the federation's (the encoding entries had before Flyover). */
function encodeRedeemScripts(scripts: readonly Uint8Array[]): Uint8Array[][] {
  const federationScript = GENESIS_FEDERATION.redeemScript;
  return scripts.every((s) => equalsBytes(s, federationScript)) ? [] : [[...scripts]];
}

async function readList(storage: BridgeStorage, key: string): Promise<unknown[]> {
  const raw = await storage.get(key);
  return raw.length === 0 ? [] : (RLP.decode(raw) as unknown[]);
}

async function writeList(storage: BridgeStorage, key: string, items: unknown[]): Promise<void> {
  await storage.set(key, items.length === 0 ? new Uint8Array(0) : RLP.encode(items as never));
}

export async function readPegoutQueue(storage: BridgeStorage): Promise<PegoutRequest[]> {
  return (await readList(storage, QUEUE_KEY)).map((item) => {
    const [script, amount, rskTxHash] = item as Uint8Array[];
    return { script: script!, amount: big(amount!), rskTxHash: rskTxHash! };
  });
}

export async function writePegoutQueue(storage: BridgeStorage, queue: readonly PegoutRequest[]): Promise<void> {
  await writeList(storage, QUEUE_KEY, queue.map((r) => [r.script, enc(r.amount), r.rskTxHash]));
}

export async function readWaitingForConfirmations(storage: BridgeStorage): Promise<PegoutWaitingForConfirmations[]> {
  return (await readList(storage, WAITING_FOR_CONFIRMATIONS_KEY)).map((item) => {
    const [unsigned, values, blockNumber, rskTxHash, scripts] = item as [Uint8Array, Uint8Array[], Uint8Array, Uint8Array, Uint8Array[]?];
    return { unsigned, outpointValues: values.map(big), redeemScripts: decodeRedeemScripts(scripts, values.length), blockNumber: big(blockNumber), rskTxHash };
  });
}

export async function writeWaitingForConfirmations(storage: BridgeStorage, entries: readonly PegoutWaitingForConfirmations[]): Promise<void> {
  await writeList(
    storage,
    WAITING_FOR_CONFIRMATIONS_KEY,
    entries.map((e) => [e.unsigned, e.outpointValues.map(enc), enc(e.blockNumber), e.rskTxHash, ...encodeRedeemScripts(e.redeemScripts)]),
  );
}

export async function readWaitingForSignatures(storage: BridgeStorage): Promise<PegoutWaitingForSignatures[]> {
  return (await readList(storage, WAITING_FOR_SIGNATURES_KEY)).map((item) => {
    const [rskTxHash, unsigned, values, signatures, scripts] = item as [Uint8Array, Uint8Array, Uint8Array[], Uint8Array[][][], Uint8Array[]?];
    return {
      rskTxHash,
      unsigned,
      outpointValues: values.map(big),
      redeemScripts: decodeRedeemScripts(scripts, values.length),
      signatures: signatures.map((input) => input.map(([keyIndex, der]) => ({ keyIndex: Number(big(keyIndex!)), der: der! }))),
    };
  });
}

export async function writeWaitingForSignatures(storage: BridgeStorage, entries: readonly PegoutWaitingForSignatures[]): Promise<void> {
  await writeList(
    storage,
    WAITING_FOR_SIGNATURES_KEY,
    entries.map((e) => [
      e.rskTxHash,
      e.unsigned,
      e.outpointValues.map(enc),
      e.signatures.map((input) => input.map((s) => [enc(BigInt(s.keyIndex)), s.der])),
      ...encodeRedeemScripts(e.redeemScripts),
    ]),
  );
}

/** BridgeSupport.getNextPegoutCreationBlockNumber: absent means 0 (the first batch at once). */
export async function readNextPegoutHeight(storage: BridgeStorage): Promise<bigint> {
  return big(await storage.get(NEXT_PEGOUT_HEIGHT_KEY));
}

export async function writeNextPegoutHeight(storage: BridgeStorage, height: bigint): Promise<void> {
  await storage.set(NEXT_PEGOUT_HEIGHT_KEY, enc(height));
}

/** The peg-out collections and the next peg-out height together (client-state.ts serializes them). */
export interface PegoutState {
  queue: PegoutRequest[];
  waitingForConfirmations: PegoutWaitingForConfirmations[];
  waitingForSignatures: PegoutWaitingForSignatures[];
  nextPegoutHeight: bigint;
}

export async function readPegoutState(storage: BridgeStorage): Promise<PegoutState> {
  return {
    queue: await readPegoutQueue(storage),
    waitingForConfirmations: await readWaitingForConfirmations(storage),
    waitingForSignatures: await readWaitingForSignatures(storage),
    nextPegoutHeight: await readNextPegoutHeight(storage),
  };
}
