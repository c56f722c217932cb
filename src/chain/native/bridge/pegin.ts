/**
 * Peg-in: registerBtcTransaction and registerBtcCoinbaseTransaction as rskj master runs them
 * (co/rsk/peg/BridgeSupport.java registerBtcTransaction, validationsForRegisterBtcTransaction,
 * registerPegIn, executePegIn, registerNewUtxos, registerBtcCoinbaseTransaction; PegUtils.java
 * getTransactionType and evaluatePegin; PegUtilsLegacy.java getTransactionType), read at d987a4c.
 *
 * rskj answers a bad peg-in in one of two ways, and so do we: most checks are *swallowed*
 * (RegisterBtcTransactionException is caught: the call succeeds, nothing changes, no event), while
 * a malformed partial merkle tree, a transaction that does not parse or verify, or an input count
 * of zero *throws* (the call fails). The checks run in rskj's order, since the order decides which
 * of the two a doubly-bad input gets.
 */
import { equalsBytes } from '@ethereumjs/util';
import { concatBytes } from '@noble/hashes/utils.js';
import { javaInt, sha256d } from '../../base/bytes.js';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import { type BtcTransaction, parseTransaction } from '../../btc-chain/transaction.js';
import type { BridgeContext, BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import { bridgeLog } from './events.js';
import { encodeAbi, readWord, selector } from '../abi.js';
import { BTC_TX_NOT_PROCESSED_HEIGHT, MINIMUM_PEGIN_TX_VALUE_SATOSHIS } from './constants.js';
import { activeFederation } from './getters.js';
import { federationOutputScript, isFederationRedeemScript } from './federation.js';
import { PeginParseError, peginInformation, type BtcAddressHash } from './pegin-info.js';
import { PmtError, pmtContains, pmtHasExpectedSize, readPartialMerkleTree } from './pmt.js';
import { coinbaseWitnessRoot, markProcessed, processedHeight, processedHeightByDisplayHex, setCoinbaseWitnessRoot } from './processed.js';
import { readFederationUtxos, writeFederationUtxos } from './utxos.js';
import { settlePeginRefund } from './pegout.js';
import { reversed } from '../../bitcoin/encoding.js';
import { transferTo } from './transfer.js';

/** BridgeRegTestConstants btc2RskMinimumAcceptableConfirmations. */
export const PEGIN_MINIMUM_CONFIRMATIONS = 3;
/**
 * BridgeRegTestConstants btcHeightWhenPegoutTxIndexActivates (250) + pegoutTxIndexGracePeriodInBtcBlocks
 * (100): from this Bitcoin height PegUtils classifies with the RSKIP379 rules, below it with
 * PegUtilsLegacy's (PegUtils.isPegoutTxIndexEnabled).
 */
export const PEGOUT_TX_INDEX_HEIGHT = 350;
/** 1 satoshi = 10^10 wei (co.rsk.core.Coin.fromBitcoin). */
export const WEI_PER_SATOSHI = 10_000_000_000n;
/** bitcoinj NetworkParameters.MAX_MONEY: 21 million BTC in satoshis. */
const MAX_MONEY = 2_100_000_000_000_000n;
/** bitcoinj Block.MAX_BLOCK_SIZE, the largest transaction verify() accepts. */
const MAX_BLOCK_SIZE = 1_000_000;
const WITNESS_COMMITMENT_HEADER = Uint8Array.of(0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed);

/** RejectedPeginReason values (BridgeEvents rejected_pegin). */
export const REJECTED_PEGIN = { MULTISIG_SENDER: 2n, UNDETERMINED_SENDER: 3n, INVALID_V1_PAYLOAD: 4n, INVALID_AMOUNT: 5n } as const;
/**
 * NonRefundablePeginReason values (BridgeEvents unrefundable_pegin). PEGIN_V1_REFUND_ADDRESS_NOT_SET
 * (2) needs protocol version 1 with an invalid payload, which rskj's parse never leaves (the
 * version is set only after the payload parsed), and OUTPUTS_SENT_TO_DIFFERENT_TYPES_OF_FEDS (4) a
 * second live federation: neither can happen here.
 */
export const UNREFUNDABLE_PEGIN = { UNDETERMINED_SENDER: 1n, INVALID_AMOUNT: 3n } as const;

const ok: BridgeHandlerResult = { values: [] };



/**
 * BtcTransactionFormatUtils.getInputsCount / getInputsCountForSegwit (RSKIP143): the CompactSize
 * after the version, or after the segwit marker and flag when that one is zero. Throws (as Java's
 * index errors do) on bytes too short to hold it.
 */
function inputsCount(raw: Uint8Array): number {
  const at = (offset: number): number => {
    const first = raw[offset];
    if (first === undefined) throw new PmtError('transaction too short');
    return first < 0xfd ? first : 0xfd; // any multi-byte count is non-zero
  };
  const count = at(4);
  return count !== 0 ? count : at(6);
}

/** bitcoinj BtcTransaction.verify: the structural checks; a message where bitcoinj throws. */
function verifyFailure(tx: BtcTransaction): string | undefined {
  if (tx.inputs.length === 0 || tx.outputs.length === 0) return 'Transaction had no inputs or no outputs.';
  if (tx.raw.length > MAX_BLOCK_SIZE) return 'Transaction larger than MAX_BLOCK_SIZE';
  let total = 0n;
  for (const output of tx.outputs) {
    if (output.amount < 0n) return 'Transaction output negative';
    total += output.amount;
    if (output.amount > MAX_MONEY || total > MAX_MONEY) return 'Total transaction output value greater than possible';
  }
  const outpoints = new Set(tx.inputs.map((i) => `${Buffer.from(i.txid).toString('hex')}:${i.vout}`));
  if (outpoints.size !== tx.inputs.length) return 'Duplicated outpoint';
  const isNull = (i: BtcTransaction['inputs'][number]) => i.vout === 0xffffffff && i.txid.every((b) => b === 0);
  if (tx.inputs.length === 1 && isNull(tx.inputs[0]!)) {
    const length = tx.inputs[0]!.scriptSig.length;
    if (length < 2 || length > 100) return 'Coinbase script size out of range';
  } else if (tx.inputs.some(isNull)) return 'Coinbase input as input in non-coinbase transaction';
  return undefined;
}

type PegTxType = 'PEGIN' | 'PEGOUT_OR_MIGRATION' | 'UNKNOWN';

/** Whether an input spends from the federation: its witness script is the federation's redeem script or a flyover one (flyover.ts). */
function spendsFromFederation(tx: BtcTransaction): boolean {
  const federation = activeFederation();
  return tx.inputs.some((input) => input.witness.length > 0 && isFederationRedeemScript(input.witness[input.witness.length - 1]!, federation));
}

/**
 * PegUtils.getTransactionType. Below PEGOUT_TX_INDEX_HEIGHT, PegUtilsLegacy.getTransactionType:
 * a transaction paying the federation is a peg-in only if no output to it is below the minimum
 * (isValidPegInTx with RSKIP293), otherwise UNKNOWN (ignored without an event). From that height,
 * any output to the federation makes it a peg-in (evaluatePegin then rejects small amounts with
 * events). A transaction spending the federation's coins is a peg-out (or migration): rskj's
 * legacy rule tests the inputs' scripts, the RSKIP379 one the peg-out's sighash that the Bridge
 * recorded when it built it; we test the inputs' witness script at both heights (no SVP here).
 */
function transactionType(tx: BtcTransaction, height: number): PegTxType {
  if (spendsFromFederation(tx)) return 'PEGOUT_OR_MIGRATION';
  const fedScript = federationOutputScript(activeFederation());
  const toFederation = tx.outputs.filter((o) => equalsBytes(o.script, fedScript));
  if (toFederation.length === 0) return 'UNKNOWN';
  if (height < PEGOUT_TX_INDEX_HEIGHT && toFederation.some((o) => o.amount < MINIMUM_PEGIN_TX_VALUE_SATOSHIS)) return 'UNKNOWN';
  return 'PEGIN';
}

/** BridgeSupport.registerNewUtxos: the outputs to the federation join its UTXOs; the tx is processed. */
async function registerNewUtxos(context: BridgeContext, tx: BtcTransaction, height: number): Promise<void> {
  const fedScript = federationOutputScript(activeFederation());
  const redeemScript = activeFederation().redeemScript;
  const added = tx.outputs.flatMap((o, vout) => (equalsBytes(o.script, fedScript) ? [{ txid: reversed(tx.txid), vout, value: o.amount, height, script: o.script, redeemScript }] : []));
  if (added.length > 0) await writeFederationUtxos(context.storage, [...(await readFederationUtxos(context.storage)), ...added]);
  await markProcessed(context.storage, tx.txid, context.call.block.number);
}

type Evaluation =
  | { action: 'REGISTER' }
  | { action: 'REFUND'; rejected: bigint; refundAddress: BtcAddressHash }
  | { action: 'NO_REFUND'; rejected: bigint; unrefundable: bigint };

/** BridgeSupport.registerPegIn with RSKIP379: PegUtils.evaluatePegin, then register, refund or reject. */
async function registerPegIn(context: BridgeContext, tx: BtcTransaction, height: number): Promise<BridgeHandlerResult> {
  const fedScript = federationOutputScript(activeFederation());
  const toFederation = tx.outputs.filter((o) => equalsBytes(o.script, fedScript));
  const total = toFederation.reduce((sum, o) => sum + o.amount, 0n);
  const txHash = reversed(tx.txid);

  let evaluation: Evaluation;
  if (toFederation.some((o) => o.amount < MINIMUM_PEGIN_TX_VALUE_SATOSHIS)) {
    evaluation = { action: 'NO_REFUND', rejected: REJECTED_PEGIN.INVALID_AMOUNT, unrefundable: UNREFUNDABLE_PEGIN.INVALID_AMOUNT };
  } else {
    const info = peginInformation(tx);
    if (info.invalidPayload !== undefined) {
      // PEGIN_V1_INVALID_PAYLOAD: refunded to the sender when known; the version stays 0, so "undetermined sender".
      evaluation = info.refundAddress
        ? { action: 'REFUND', rejected: REJECTED_PEGIN.INVALID_V1_PAYLOAD, refundAddress: info.refundAddress }
        : { action: 'NO_REFUND', rejected: REJECTED_PEGIN.INVALID_V1_PAYLOAD, unrefundable: UNREFUNDABLE_PEGIN.UNDETERMINED_SENDER };
    } else if (info.protocolVersion === 1) {
      evaluation = { action: 'REGISTER' };
    } else {
      switch (info.sender?.type) {
        case 'P2PKH':
        case 'P2SHP2WPKH':
          evaluation = { action: 'REGISTER' };
          break;
        case 'P2SHMULTISIG':
        case 'P2SHP2WSH':
          // One live federation here, so never "outputs to different types of federations".
          evaluation = { action: 'REFUND', rejected: REJECTED_PEGIN.MULTISIG_SENDER, refundAddress: info.sender.address };
          break;
        default:
          evaluation = { action: 'NO_REFUND', rejected: REJECTED_PEGIN.UNDETERMINED_SENDER, unrefundable: UNREFUNDABLE_PEGIN.UNDETERMINED_SENDER };
      }
    }
    if (evaluation.action === 'REGISTER') {
      // executePegIn: transfer, pegin_btc (amount in satoshis), then the UTXOs and the processed mark.
      const receiver = info.rskDestination!;
      if (!(await transferTo(context, receiver, total * WEI_PER_SATOSHI))) return { fail: 'the Bridge cannot cover the peg-in' };
      context.logs.push(bridgeLog('pegin_btc', [receiver, txHash], [total, BigInt(info.protocolVersion)]));
      await registerNewUtxos(context, tx, height);
      return ok;
    }
  }

  context.logs.push(bridgeLog('rejected_pegin', [txHash], [evaluation.rejected]));
  if (evaluation.action === 'REFUND') {
    // handleRefundablePegin: the refund is built at once (generateRejectionRelease, pegout.ts) and
    // waits for confirmations and signatures like a peg-out batch; the peg-in is marked processed.
    const redeemScript = activeFederation().redeemScript;
    const outputs = tx.outputs.flatMap((o, vout) => (equalsBytes(o.script, fedScript) ? [{ vout, value: o.amount, script: o.script, redeemScript }] : []));
    await settlePeginRefund(context, txHash, outputs, height, evaluation.refundAddress);
    await markProcessed(context.storage, tx.txid, context.call.block.number);
    return ok;
  }
  // handleNonRefundablePegin: since RSKIP551 (Vetiver) not marked processed, so it can be sent again.
  context.logs.push(bridgeLog('unrefundable_pegin', [txHash], [evaluation.unrefundable]));
  return ok;
}

/** BridgeSupport.isBlockMerkleRootValid: the header's root, or the registered witness root (RSKIP143). */
async function merkleRootMatches(context: Pick<BridgeContext, 'btc' | 'storage'>, root: Uint8Array, height: number): Promise<boolean> {
  const block = context.btc.blockAt(height)!;
  if (equalsBytes(block.header.subarray(36, 68), root)) return true;
  const witnessRoot = await coinbaseWitnessRoot(context.storage, block.hash);
  return witnessRoot !== undefined && equalsBytes(witnessRoot, root);
}

/**
 * BridgeSupport.validationsForRegisterBtcTransaction, shared with the Flyover peg-in (flyover.ts):
 * 'valid', 'invalid' (rskj returns false: the caller swallows it, or Flyover answers -303), or
 * `fail` with the message of the exception rskj throws. `hash` is sha256d of `raw` (internal order).
 */
export async function validationsForRegisterBtcTransaction(
  context: Pick<BridgeContext, 'btc' | 'storage'>,
  hash: Uint8Array,
  height: number,
  pmt: Uint8Array,
  raw: Uint8Array,
): Promise<'valid' | 'invalid' | { fail: string }> {
  // validateHeightAndConfirmations: a negative height (its exception is caught) or fewer than 3 confirmations.
  if (height < 0 || context.btc.tip.height - height + 1 < PEGIN_MINIMUM_CONFIRMATIONS) return 'invalid';
  // PartialMerkleTreeFormatUtils.hasExpectedSize: throws.
  if (!pmtHasExpectedSize(pmt)) return { fail: "PartialMerkleTree doesn't have expected size" };
  // BridgeUtils.calculateMerkleRoot: a tree bitcoinj cannot read throws; the tx not in it is invalid.
  let root: Uint8Array;
  try {
    const contents = readPartialMerkleTree(pmt);
    if (!pmtContains(contents, hash)) return 'invalid';
    root = contents.root;
  } catch (err) {
    if (err instanceof PmtError) return { fail: err.message };
    throw err;
  }
  // BridgeUtils.validateInputsCount (segwit-aware): no inputs throws.
  try {
    if (inputsCount(raw) === 0) return { fail: 'Transaction had no inputs or no outputs.' };
  } catch {
    return { fail: 'transaction too short to hold its input count' };
  }
  // The root against the header at `height` on the best chain, or the registered witness root.
  return (await merkleRootMatches(context, root, height)) ? 'valid' : 'invalid';
}

/** `new BtcTransaction(params, raw)` then `verify()`: the parsed transaction, or the message bitcoinj throws. */
export function parseAndVerify(raw: Uint8Array): BtcTransaction | { fail: string } {
  let tx: BtcTransaction;
  try {
    tx = parseTransaction(raw);
  } catch (err) {
    return { fail: `not a Bitcoin transaction: ${(err as Error).message}` };
  }
  const failure = verifyFailure(tx);
  return failure === undefined ? tx : { fail: failure };
}

/** Bridge.registerBtcTransaction(bytes tx, int256 height, bytes pmt), public since RSKIP199. */
const registerBtcTransaction: BridgeHandler = async (context) => {
  const [raw, heightArg, pmt] = context.args as [Uint8Array, bigint, Uint8Array];
  const height = javaInt(heightArg); // BigInteger.intValue
  const hash = sha256d(raw); // BtcTransactionFormatUtils.calculateBtcTxHash: the wtxid of a segwit tx
  // 1. Already processed: swallowed.
  if ((await processedHeight(context.storage, hash)) !== undefined) return ok;
  // 2-6. Height and confirmations, the tree, the inputs count, the merkle root: false is swallowed.
  const validation = await validationsForRegisterBtcTransaction(context, hash, height, pmt, raw);
  if (validation !== 'valid') return validation === 'invalid' ? ok : validation;
  // 7. Parse and verify (both throw), then the processed check again with the txid.
  const tx = parseAndVerify(raw);
  if ('fail' in tx) return tx;
  if ((await processedHeight(context.storage, tx.txid)) !== undefined) return ok;
  // 8. Classify and act.
  try {
    switch (transactionType(tx, height)) {
      case 'PEGIN':
        return await registerPegIn(context, tx, height);
      case 'PEGOUT_OR_MIGRATION':
        await registerNewUtxos(context, tx, height);
        return ok;
      case 'UNKNOWN':
        return ok;
    }
  } catch (err) {
    if (err instanceof PeginParseError) return { fail: err.message };
    throw err;
  }
};

/** BridgeSupport.findWitnessCommitment: the last coinbase output whose script starts with the commitment header. */
function witnessCommitment(coinbase: BtcTransaction): Uint8Array | undefined {
  for (let i = coinbase.outputs.length - 1; i >= 0; i--) {
    const script = coinbase.outputs[i]!.script;
    if (script.length >= 38 && WITNESS_COMMITMENT_HEADER.every((b, j) => script[j] === b)) return script.slice(6, 38);
  }
  return undefined;
}

/**
 * Bridge.registerBtcCoinbaseTransaction(bytes tx, bytes32 blockHash, bytes pmt, bytes32
 * witnessMerkleRoot, bytes32 witnessReservedValue) (RSKIP143): records the block's witness root
 * once the coinbase (serialized without its witness) is proven in the block and commits to it.
 * Hashes are taken as bitcoinj's Sha256Hash.wrap takes them: display order.
 */
const registerBtcCoinbaseTransaction: BridgeHandler = async (context) => {
  const [raw, blockHash, pmt, witnessRootDisplay, reserved] = context.args as Uint8Array[];
  const hash = sha256d(raw!);
  // witnessReservedValue is a bytes32 on the wire, so its 32-byte check always holds here.
  if (!pmtHasExpectedSize(pmt!)) return { fail: "PartialMerkleTree doesn't have expected size" };
  let root: Uint8Array;
  try {
    const contents = readPartialMerkleTree(pmt!);
    if (!pmtContains(contents, hash)) return ok;
    root = contents.root;
  } catch (err) {
    if (err instanceof PmtError) return { fail: `Partial merkle tree could not be parsed. ${err.message}` };
    throw err;
  }
  const block = context.btc.blockByHash(reversed(blockHash!));
  if (block === undefined) return { fail: 'Block not yet registered' };
  if (!equalsBytes(block.header.subarray(36, 68), root)) return ok;
  let coinbase: BtcTransaction;
  try {
    coinbase = parseTransaction(raw!);
  } catch (err) {
    return { fail: `not a Bitcoin transaction: ${(err as Error).message}` };
  }
  const failure = verifyFailure(coinbase);
  if (failure !== undefined) return { fail: failure };
  const witnessRoot = reversed(witnessRootDisplay!);
  const expected = witnessCommitment(coinbase);
  if (expected === undefined || !equalsBytes(expected, sha256d(concatBytes(witnessRoot, reserved!)))) {
    return { fail: 'Witness commitment does not match' };
  }
  await setCoinbaseWitnessRoot(context.storage, block.hash, witnessRoot);
  return ok;
};

/** Bridge.hasBtcBlockCoinbaseTransactionInformation(bytes32 blockHash): whether its coinbase was registered. */
const hasBtcBlockCoinbaseTransactionInformation: BridgeHandler = async (context) => {
  const [blockHash] = context.args as Uint8Array[];
  return { values: [(await coinbaseWitnessRoot(context.storage, reversed(blockHash!))) !== undefined] };
};

/** bitcoinj Sha256Hash.wrap(String): 64 lower-case hex digits, else the getter throws. */
const BTC_TX_HASH = /^[0-9a-f]{64}$/;

/**
 * The RSK block that processed `hash`: the Bridge's storage, and on a fork, where the storage has
 * no entry, the remote Bridge's answer (getBtcTxHashProcessedHeight asked with eth_call at the fork
 * block, as index.ts asks the read methods), since peg-ins the remote processed are not in our
 * storage. Undefined when not processed; 'fail' when the remote's call failed.
 */
async function processedHeightOf(context: BridgeContext, hash: string): Promise<bigint | undefined | 'fail'> {
  const local = await processedHeightByDisplayHex(context.storage, hash);
  const { call } = context;
  if (local !== undefined || call.remote === undefined) return local;
  const block = call.block.number < call.remote.forkBlock ? call.block.number : call.remote.forkBlock;
  const data = concatBytes(selector('getBtcTxHashProcessedHeight', ['string']), encodeAbi(['string'], [hash]));
  const { returnData } = await call.remote.callAt(block, BRIDGE_ADDRESS, data);
  if (returnData.length < 32) return 'fail';
  const height = BigInt.asIntN(64, readWord(returnData, 0));
  return height < 0n ? undefined : height;
}

/** Bridge.isBtcTxHashAlreadyProcessed(string hash), the hash in display hex. */
const isBtcTxHashAlreadyProcessed: BridgeHandler = async (context) => {
  const hash = context.args[0] as string;
  if (!BTC_TX_HASH.test(hash)) return { fail: `invalid hash ${hash}` };
  const height = await processedHeightOf(context, hash);
  return height === 'fail' ? { fail: 'the remote Bridge failed' } : { values: [height !== undefined] };
};

/** Bridge.getBtcTxHashProcessedHeight(string hash): the RSK block that processed it, or -1. */
const getBtcTxHashProcessedHeight: BridgeHandler = async (context) => {
  const hash = context.args[0] as string;
  if (!BTC_TX_HASH.test(hash)) return { fail: `invalid hash ${hash}` };
  const height = await processedHeightOf(context, hash);
  return height === 'fail' ? { fail: 'the remote Bridge failed' } : { values: [height ?? BTC_TX_NOT_PROCESSED_HEIGHT] };
};

export const PEGIN_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  registerBtcTransaction,
  registerBtcCoinbaseTransaction,
  hasBtcBlockCoinbaseTransactionInformation,
  isBtcTxHashAlreadyProcessed,
  getBtcTxHashProcessedHeight,
};
