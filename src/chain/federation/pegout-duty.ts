/**
 * The federation's peg-out duty (runner.ts), what a PowPeg node's release client does,
 * step by step from the Bridge's storage at the chain's head:
 *   1. a batch waiting for signatures: two federators sign it (addSignature, 2 of 3); once the
 *      addSignature that releases it is mined, the signed transaction goes into the next Bitcoin
 *      block, with PEGIN_MINIMUM_CONFIRMATIONS blocks mined so the peg-in duty registers the change;
 *   2. a batch with 3 RSK confirmations, or requests queued at or after the next peg-out height
 *      with UTXOs to pay them: updateCollections;
 *   3. otherwise, with automine on, the RSK blocks the next step waits for (the confirmations, the
 *      next peg-out height) are mined empty, so a peg-out completes in seconds. Without automine
 *      the duty waits for the chain's own blocks (interval mining, evm_mine).
 * Each step is one run of the loop; a step that changes nothing stops it.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { FederationDuty, FederationDutyContext } from './runner.js';
import { FEDERATORS } from '../keys/federators.js';
import { encodeAbi, selector } from '../native/abi.js';
import { PEGOUT_RSK_CONFIRMATIONS } from '../native/bridge/constants.js';
import { activeFederation } from '../native/bridge/getters.js';
import { PEGIN_MINIMUM_CONFIRMATIONS } from '../native/bridge/pegin.js';
import {
  readNextPegoutHeight,
  readPegoutQueue,
  readWaitingForConfirmations,
  readWaitingForSignatures,
  type PegoutWaitingForSignatures,
} from '../native/bridge/pegout-store.js';
import { releaseSighashes, signedReleaseTx } from '../native/bridge/release-tx.js';
import type { BridgeStorage } from '../native/bridge/storage.js';
import { readFederationUtxos } from '../native/bridge/utxos.js';

/** Steps of one run at most: sign, sign, batch, confirm, and the waits between them, with room. */
const MAX_STEPS = 12;

const UPDATE_COLLECTIONS = selector('updateCollections', []);

function addSignatureCall(publicKey: Uint8Array, signatures: Uint8Array[], rskTxHash: Uint8Array): Uint8Array {
  const body = encodeAbi(['bytes', 'bytes[]', 'bytes'], [publicKey, signatures, rskTxHash]);
  const head = selector('addSignature', ['bytes', 'bytes[]', 'bytes']);
  const data = new Uint8Array(head.length + body.length);
  data.set(head);
  data.set(body, head.length);
  return data;
}

/** The federators (in member order) whose keys the node holds, by their index in the redeem script's multisig. */
function signers(): { keyIndex: number; privateKey: Uint8Array; account: (typeof FEDERATORS)[number] }[] {
  const members = activeFederation().members;
  return FEDERATORS.map((account) => {
    const pub = secp256k1.getPublicKey(account.privateKey, true);
    return { keyIndex: members.findIndex((m) => m.every((b, i) => b === pub[i])), privateKey: account.privateKey, account };
  }).sort((a, b) => a.keyIndex - b.keyIndex);
}

/** A fingerprint of the peg-out's collections: a step that leaves it as it was made no progress. */
async function fingerprint(storage: BridgeStorage): Promise<string> {
  const signing = await readWaitingForSignatures(storage);
  return JSON.stringify([
    (await readPegoutQueue(storage)).length,
    (await readWaitingForConfirmations(storage)).length,
    signing.length,
    signing.map((e) => e.signatures.map((s) => s.length)),
  ]);
}

/** A fully signed release, kept until the addSignature that releases it is mined. */
interface Release {
  rskTxHash: Uint8Array;
  raw: Uint8Array;
}

/**
 * Signs `entry` as the next federator who has not, and sends it; returns the signed transaction
 * when that signature completes the threshold (what release_btc will carry), 'none' when every
 * federator whose key the node holds has signed.
 */
async function signNext(context: FederationDutyContext, entry: PegoutWaitingForSignatures): Promise<Release | undefined | 'none'> {
  const federation = activeFederation();
  const signer = signers().find((s) => !entry.signatures[0]!.some((sig) => sig.keyIndex === s.keyIndex));
  if (signer === undefined) return 'none';
  const digests = releaseSighashes(entry.unsigned, entry.redeemScripts, entry.outpointValues);
  const signatures = digests.map((d) => secp256k1.sign(d, signer.privateKey, { prehash: false, format: 'der' }));
  await context.sendToBridge(addSignatureCall(federation.members[signer.keyIndex]!, signatures, entry.rskTxHash), signer.account);
  if (!entry.signatures.every((input) => input.length + 1 >= federation.threshold)) return undefined;
  // The signatures so far and this one, in key order, as the Bridge assembles them.
  const sigs = entry.signatures.map((input, i) =>
    [...input, { keyIndex: signer.keyIndex, der: signatures[i]! }].sort((a, b) => a.keyIndex - b.keyIndex).slice(0, federation.threshold).map((s) => s.der),
  );
  return { rskTxHash: entry.rskTxHash, raw: signedReleaseTx(entry.unsigned, entry.redeemScripts, sigs) };
}

const sameHash = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** What a step did: nothing to do now, updateCollections sent, or something else done. */
type Step = 'idle' | 'updateCollections' | 'done';

/** One step. `pending` holds a release whose last addSignature is not mined yet. */
async function step(context: FederationDutyContext, pending: { release?: Release }): Promise<Step> {
  const storage = context.bridgeAtHead();
  const next = context.headNumber() + 1n; // the block the duty's transaction goes into
  const signing = await readWaitingForSignatures(storage);
  const release = pending.release;
  if (release !== undefined && !signing.some((e) => sameHash(e.rskTxHash, release.rskTxHash))) {
    // release_btc is mined: broadcast, and confirm it enough for the peg-in duty to register the change.
    pending.release = undefined;
    await context.submitBtc(release.raw);
    await context.mineBtc(PEGIN_MINIMUM_CONFIRMATIONS);
    return 'done';
  }
  if (release !== undefined) return 'idle'; // its last signature waits in the pool
  if (signing.length > 0) {
    const signed = await signNext(context, signing[0]!);
    if (signed === 'none') return 'idle';
    pending.release = signed;
    return 'done';
  }

  const waiting = await readWaitingForConfirmations(storage);
  const queue = await readPegoutQueue(storage);
  const confirmedAt = waiting.length === 0 ? undefined : waiting.reduce((min, e) => (e.blockNumber < min ? e.blockNumber : min), waiting[0]!.blockNumber) + PEGOUT_RSK_CONFIRMATIONS;
  const utxoTotal = (await readFederationUtxos(storage)).reduce((sum, u) => sum + u.value, 0n);
  const payable = queue.length > 0 && utxoTotal >= queue.reduce((sum, r) => sum + r.amount, 0n);
  const batchAt = payable ? await readNextPegoutHeight(storage) : undefined;

  const due = [confirmedAt, batchAt].filter((h): h is bigint => h !== undefined);
  if (due.length === 0) return 'idle';
  const when = due.reduce((a, b) => (a < b ? a : b));
  if (when <= next) {
    await context.sendToBridge(UPDATE_COLLECTIONS);
    return 'updateCollections';
  }
  if (!context.automine()) return 'idle'; // the chain's own blocks will get there
  while (context.headNumber() + 1n < when) await context.mineRsk();
  return 'done';
}

/**
 * The duty for one chain. It looks at the Bridge after a block with a Bridge log (a request, a
 * batch, a signature) or while work is left from its last look (requests the UTXOs cannot pay
 * yet, or steps waiting for the chain's blocks). One run at a time: blocks its own transactions
 * mine do not start another. A step that changed nothing (updateCollections could not build the
 * batch) is not retried until the collections change.
 */
export function pegoutDuty(): FederationDuty {
  let running = false;
  let outstanding = false;
  let stuckAt: string | undefined;
  const pending: { release?: Release } = {};
  return {
    name: 'peg-out',
    async run(context, trigger) {
      if (trigger.kind !== 'rskBlock' || running || !(trigger.bridgeLogs || outstanding)) return;
      running = true;
      try {
        for (let i = 0; i < MAX_STEPS; i++) {
          const before = await fingerprint(context.bridgeAtHead());
          if (before === stuckAt) break;
          stuckAt = undefined;
          const did = await step(context, pending);
          if (did === 'idle') break;
          // Without automine a sent transaction waits in the pool: the next block goes on.
          if (!context.automine()) break;
          if (did === 'updateCollections' && (await fingerprint(context.bridgeAtHead())) === before) stuckAt = before;
        }
        outstanding = pending.release !== undefined || (await fingerprint(context.bridgeAtHead())) !== IDLE;
      } finally {
        running = false;
      }
    },
  };
}

/** The fingerprint of empty collections. */
const IDLE = JSON.stringify([0, 0, 0, []]);
