/**
 * The rest of rskj master's Bridge surface (issue 24), read in rskj co/rsk/peg/Bridge.java (the
 * answer when there is nothing to report) and BridgeSupport / federation/FederationSupportImpl /
 * whitelist/WhitelistSupportImpl (the logic). On a devnode the active federation is the regtest
 * genesis one forever: no retiring, pending or proposed federation exists and no federation change
 * is recorded (the votes for one answer UNAUTHORIZED, methods.ts).
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { stateForBtcReleaseClient, stateForDebugging, stateForSvpClient } from './client-state.js';
import type { AbiValue } from '../abi.js';
import type { BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import { activeFederation } from './getters.js';
import { readPegoutState, readWaitingForSignatures } from './pegout-store.js';
import { readFederationUtxos } from './utxos.js';

/** FederationChangeResponseCode.FEDERATION_NON_EXISTENT: sizes, thresholds, times and heights of a federation that does not exist. */
const FEDERATION_NON_EXISTENT = -1n;
const EMPTY = new Uint8Array(0);

/** FlyoverTxResponseCodes. */
const FLYOVER = {
  NOT_CONTRACT: -300n,
  INVALID_SENDER: -301n,
  GENERIC_ERROR: -900n,
} as const;
/** bitcoinj RegTestParams addressHeader / p2shHeader: the versions a regtest Address accepts. */
const BTC_REGTEST_ADDRESS_VERSIONS = new Set([111, 196]);
/** BridgeUtils.deserializeBtcAddressWithVersion (RSKIP284): 1 version byte + 20 hash bytes. */
const VERSIONED_ADDRESS_LENGTH = 21;

const answer = (...values: AbiValue[]): BridgeHandlerResult => ({ values });
const constant = (value: bigint | string | Uint8Array): BridgeHandler => async () => ({ values: [value] });

/**
 * A federator key getter of a federation that does not exist: FederationMember.KeyType.byValue
 * throws first for an unknown type (the call fails), then rskj answers empty bytes.
 */
const noFederatorKey =
  (name: string): BridgeHandler =>
  async ({ args }) => {
    const type = args[1] as string;
    if (type !== 'btc' && type !== 'rsk' && type !== 'mst') return { fail: `Exception in ${name}` };
    return { values: [EMPTY] };
  };

function validRegtestAddress(info: Uint8Array): boolean {
  return info.length === VERSIONED_ADDRESS_LENGTH && BTC_REGTEST_ADDRESS_VERSIONS.has(info[0]!);
}

export const SURFACE_HANDLERS: Readonly<Record<string, BridgeHandler>> = {
  // Bridge.getRetiringFederation*: "" for the address, FEDERATION_NON_EXISTENT for the numbers.
  getRetiringFederationAddress: constant(''),
  getRetiringFederationSize: constant(FEDERATION_NON_EXISTENT),
  getRetiringFederationThreshold: constant(FEDERATION_NON_EXISTENT),
  getRetiringFederationCreationTime: constant(FEDERATION_NON_EXISTENT),
  getRetiringFederationCreationBlockNumber: constant(FEDERATION_NON_EXISTENT),
  getRetiringFederatorPublicKeyOfType: noFederatorKey('getRetiringFederatorPublicKeyOfType'),
  // Bridge.getPendingFederationHashSerialized: empty bytes; FederationSupportImpl.getPendingFederationSize: -1.
  getPendingFederationHash: constant(EMPTY),
  getPendingFederationSize: constant(FEDERATION_NON_EXISTENT),
  getPendingFederatorPublicKeyOfType: noFederatorKey('getPendingFederatorPublicKeyOfType'),
  // Bridge.getProposedFederation* (RSKIP419): "" / -1 (creation time: a literal -1L).
  getProposedFederationAddress: constant(''),
  getProposedFederationSize: constant(FEDERATION_NON_EXISTENT),
  getProposedFederationCreationTime: constant(-1n),
  getProposedFederationCreationBlockNumber: constant(FEDERATION_NON_EXISTENT),
  getProposedFederatorPublicKeyOfType: noFederatorKey('getProposedFederatorPublicKeyOfType'),
  // FederationSupportImpl.getActiveFederationCreationBlockHeight: no federation change stored -> 0
  // (the genesis federation's creation block number, 1, is another value).
  getActiveFederationCreationBlockHeight: constant(0n),

  getStateForDebugging: async ({ storage, btc }) =>
    answer(stateForDebugging(btc.tip.height, await readFederationUtxos(storage), await readPegoutState(storage), activeFederation())),
  getStateForBtcReleaseClient: async ({ storage }) =>
    answer(stateForBtcReleaseClient(await readWaitingForSignatures(storage), activeFederation())),
  getStateForSvpClient: async () => answer(stateForSvpClient()),

  // hasBtcBlockCoinbaseTransactionInformation: pegin.ts (what registerBtcCoinbaseTransaction stores);
  // getEstimatedFeesForPegOutAmount: pegout.ts (the simulated batch).

  // Bridge.registerFlyoverBtcTransaction + BridgeSupport.registerFlyoverBtcTransaction: the address
  // arguments first (a bad one is GENERIC_ERROR), then the caller: a transaction's own call is not
  // a contract's (NOT_CONTRACT), and the calling contract must be the LBC named (INVALID_SENDER).
  // What follows (derivation hash, the peg-in's validations and transfer) is not emulated: the call
  // fails rather than answer a code rskj might not give.
  registerFastBridgeBtcTransaction: async ({ call, args }) => {
    const [, , , , refundAddress, lbcAddress, lpAddress] = args as Uint8Array[];
    if (!validRegtestAddress(refundAddress!) || !validRegtestAddress(lpAddress!)) return answer(FLYOVER.GENERIC_ERROR);
    if (call.depth === 0) return answer(FLYOVER.NOT_CONTRACT);
    if (bytesToHex(call.caller) !== bytesToHex(lbcAddress!)) return answer(FLYOVER.INVALID_SENDER);
    return { fail: 'registerFastBridgeBtcTransaction: the Flyover peg-in is not emulated by this node yet' };
  },
};
