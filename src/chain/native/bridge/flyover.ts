/**
 * Flyover's peg-in (RSKIP176): registerFastBridgeBtcTransaction, as rskj master runs it
 * (P/Bridge.java registerFlyoverBtcTransaction, P/BridgeSupport.java registerFlyoverBtcTransaction,
 * P/PegUtils.java getFlyoverDerivationHash / getFlyoverFederationOutputScript,
 * P/bitcoin/FlyoverRedeemScriptBuilderImpl.java, P/BridgeUtils.java validateFlyoverPeginValue;
 * read at d987a4c). A liquidity provider has already paid the user on RSK; the user's BTC went to
 * a federation address derived from the deal's terms, and the provider's Liquidity Bridge
 * Contract (LBC) proves that payment here to take the RBTC back.
 *
 * Every answer is a code (FlyoverTxResponseCodes), not a failed call: Bridge.java catches any
 * exception (a malformed tree, a transaction that does not parse) and answers GENERIC_ERROR. The
 * one failure left is a Bridge too poor to pay, which the locking cap check rules out while the
 * cap stays below the 21 million BTC the Bridge started with.
 */
import { Account, Address, equalsBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes } from '@noble/hashes/utils.js';
import { javaInt, sha256d } from '../../base/bytes.js';
import { BRIDGE_ADDRESS } from '../../base/addresses.js';
import { reversed } from '../../bitcoin/encoding.js';
import { BTC_REGTEST_P2SH_VERSION, MAX_RBTC_SATOSHIS, MINIMUM_PEGIN_TX_VALUE_SATOSHIS, WEIS_PER_SATOSHI } from './constants.js';
import { flyoverRedeemScript, p2shP2wshOutputScript } from './federation.js';
import { activeFederation } from './getters.js';
import { lockingCap } from './governance.js';
import type { BridgeContext, BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import { parseAndVerify, validationsForRegisterBtcTransaction } from './pegin.js';
import { settlePeginRefund, type RefundDestination } from './pegout.js';
import type { BridgeStorage } from './storage.js';
import { transferTo } from './transfer.js';
import { readFederationUtxos, writeFederationUtxos } from './utxos.js';

/** FlyoverTxResponseCodes (P/flyover/FlyoverTxResponseCodes.java). */
export const FLYOVER = {
  REFUNDED_USER: -100n,
  REFUNDED_LP: -200n,
  NOT_CONTRACT: -300n,
  INVALID_SENDER: -301n,
  ALREADY_PROCESSED: -302n,
  VALIDATIONS: -303n,
  VALUE_ZERO: -304n,
  BELOW_MINIMUM: -305n,
  GENERIC_ERROR: -900n,
} as const;

/** bitcoinj RegTestParams addressHeader: a regtest P2PKH address's version (p2shHeader: constants.ts). */
const BTC_REGTEST_P2PKH_VERSION = 111;
/** BridgeUtils.deserializeBtcAddressWithVersion (RSKIP284): 1 version byte + 20 hash bytes. */
const VERSIONED_ADDRESS_LENGTH = 21;
/** BridgeStorageProvider TRUE_VALUE: what marks a (tx, derivation hash) pair used. */
const USED = Uint8Array.of(1);

const answer = (code: bigint): BridgeHandlerResult => ({ values: [code] });

/** BridgeUtils.deserializeBtcAddressWithVersion on regtest: a P2PKH or P2SH address, else undefined (it throws). */
function regtestAddress(info: Uint8Array): RefundDestination | undefined {
  if (info.length !== VERSIONED_ADDRESS_LENGTH) return undefined;
  if (info[0] === BTC_REGTEST_P2PKH_VERSION) return { kind: 'p2pkh', hash: info.slice(1) };
  if (info[0] === BTC_REGTEST_P2SH_VERSION) return { kind: 'p2sh', hash: info.slice(1) };
  return undefined;
}

/**
 * PegUtils.getFlyoverDerivationHash: keccak256(derivationArgumentsHash ‖ refund address ‖ LBC
 * address ‖ LP address), in that order (the LBC before the LP, whatever the parameter list says),
 * each BTC address as BridgeUtils.serializeBtcAddressWithVersion writes it with RSKIP284 (one
 * version byte, then the hash160): on regtest the 21 bytes the caller passed.
 */
export function flyoverDerivationHash(derivationArgumentsHash: Uint8Array, refundAddress: Uint8Array, lpAddress: Uint8Array, lbcAddress: Uint8Array): Uint8Array {
  return keccak_256(concatBytes(derivationArgumentsHash, refundAddress, lbcAddress, lpAddress));
}

/**
 * PegUtils.getFlyoverFederationOutputScript for this federation (format P2SH_P2WSH_ERP_FEDERATION):
 * P2SH-P2WSH of the flyover redeem script. The address the user pays is its P2SH address.
 */
export function flyoverOutputScript(flyoverRedeem: Uint8Array): Uint8Array {
  return p2shP2wshOutputScript(flyoverRedeem);
}

/**
 * BridgeStorageProvider.getStorageKeyForFlyoverHash: FAST_BRIDGE_HASH_USED_IN_BTC_TX.getCompoundKey
 * ("-", btcTxHash.toString() + derivationHash.toString()): both as hex, the Bitcoin hash in
 * display order (Sha256Hash.toString), the derivation hash as it is (Keccak256.toString).
 */
const usedKey = (txHash: Uint8Array, derivationHash: Uint8Array) => `fastBridgeHashUsedInBtcTx-${bytesToHex(reversed(txHash))}${bytesToHex(derivationHash)}`;

/** BridgeStorageProvider.isFlyoverDerivationHashUsed; `txHash` in internal order. */
async function isUsed(storage: BridgeStorage, txHash: Uint8Array, derivationHash: Uint8Array): Promise<boolean> {
  return equalsBytes(await storage.get(usedKey(txHash, derivationHash)), USED);
}

/** BridgeStorageProvider.markFlyoverDerivationHashAsUsed (saved with the rest of the Bridge's storage). */
async function markUsed(storage: BridgeStorage, txHash: Uint8Array, derivationHash: Uint8Array): Promise<void> {
  await storage.set(usedKey(txHash, derivationHash), USED);
}

/**
 * BridgeSupport.verifyLockDoesNotSurpassLockingCap: the BTC the federation holds
 * (getBtcLockedInFederation: the maximum RBTC less the Bridge's balance, Coin.toBitcoin truncating)
 * plus `satoshis` must not exceed the locking cap.
 */
async function withinLockingCap({ call, storage }: BridgeContext, satoshis: bigint): Promise<boolean> {
  const bridge = (await call.state.getAccount(new Address(BRIDGE_ADDRESS))) ?? new Account();
  const locked = MAX_RBTC_SATOSHIS - bridge.balance / WEIS_PER_SATOSHI;
  return locked + satoshis <= (await lockingCap(storage));
}

/** Bridge.registerFlyoverBtcTransaction -> BridgeSupport.registerFlyoverBtcTransaction. */
const registerFastBridgeBtcTransaction: BridgeHandler = async (context) => {
  const { call, args, storage } = context;
  const [raw, heightArg, pmt, derivationArgumentsHash, refundInfo, lbcAddress, lpInfo, shouldTransferToContract] = args as [
    Uint8Array, bigint, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, boolean,
  ];
  // Bridge.java: the addresses are parsed first; one that is not a regtest address throws -> GENERIC_ERROR.
  const refund = regtestAddress(refundInfo);
  const lp = regtestAddress(lpInfo);
  if (refund === undefined || lp === undefined) return answer(FLYOVER.GENERIC_ERROR);
  // BridgeUtils.isContractTx: a transaction's own call is not a contract's.
  if (call.depth === 0) return answer(FLYOVER.NOT_CONTRACT);
  if (!equalsBytes(call.caller, lbcAddress)) return answer(FLYOVER.INVALID_SENDER);

  const height = javaInt(heightArg); // BigInteger.intValue
  const btcTxHash = sha256d(raw); // BtcTransactionFormatUtils.calculateBtcTxHash: the wtxid of a segwit tx
  const derivationHash = flyoverDerivationHash(derivationArgumentsHash, refundInfo, lpInfo, lbcAddress);
  if (await isUsed(storage, btcTxHash, derivationHash)) return answer(FLYOVER.ALREADY_PROCESSED);

  const validation = await validationsForRegisterBtcTransaction(context, btcTxHash, height, pmt, raw);
  if (validation === 'invalid') return answer(FLYOVER.VALIDATIONS);
  if (validation !== 'valid') return answer(FLYOVER.GENERIC_ERROR); // an exception, caught by Bridge.java
  const tx = parseAndVerify(raw);
  if ('fail' in tx) return answer(FLYOVER.GENERIC_ERROR);
  // The hash without witness: a segwit transaction may have been registered by it.
  if (!equalsBytes(tx.txid, btcTxHash) && (await isUsed(storage, tx.txid, derivationHash))) return answer(FLYOVER.ALREADY_PROCESSED);

  // createFlyoverFederationInformation: the flyover federation of the active one (no retiring one here).
  const redeemScript = flyoverRedeemScript(derivationHash, activeFederation().redeemScript);
  const script = flyoverOutputScript(redeemScript);
  const outputs = tx.outputs.flatMap((o, vout) => (equalsBytes(o.script, script) ? [{ vout, value: o.amount, script, redeemScript }] : []));
  // BridgeUtils.validateFlyoverPeginValue: nothing sent, then (RSKIP293) any output below the peg-in minimum.
  const total = outputs.reduce((sum, o) => sum + o.value, 0n);
  if (total === 0n) return answer(FLYOVER.VALUE_ZERO);
  if (outputs.some((o) => o.value < MINIMUM_PEGIN_TX_VALUE_SATOSHIS)) return answer(FLYOVER.BELOW_MINIMUM);

  if (!(await withinLockingCap(context, total))) {
    // Over the cap: marked used, the BTC go back (to the LP when the LBC asked for the RBTC, else to
    // the user) by a release waiting for confirmations and signatures like a peg-out's.
    await markUsed(storage, tx.txid, derivationHash);
    await settlePeginRefund(context, reversed(tx.txid), outputs, height, shouldTransferToContract ? lp : refund);
    return answer(shouldTransferToContract ? FLYOVER.REFUNDED_LP : FLYOVER.REFUNDED_USER);
  }

  if (!(await transferTo(context, lbcAddress, total * WEIS_PER_SATOSHI))) return { fail: 'the Bridge cannot cover the Flyover peg-in' };
  // saveFlyoverActiveFederationDataInStorage: the marker, and the outputs join the federation's UTXOs.
  await markUsed(storage, tx.txid, derivationHash);
  const utxos = outputs.map((o) => ({ txid: reversed(tx.txid), vout: o.vout, value: o.value, height, script, redeemScript }));
  await writeFederationUtxos(storage, [...(await readFederationUtxos(storage)), ...utxos]);
  return { values: [total * WEIS_PER_SATOSHI] };
};

export const FLYOVER_HANDLERS: Readonly<Record<string, BridgeHandler>> = { registerFastBridgeBtcTransaction };
