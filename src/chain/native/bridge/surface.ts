/**
 * The rest of rskj master's Bridge surface (issue 24), read in rskj co/rsk/peg/Bridge.java (the
 * answer when there is nothing to report) and BridgeSupport / federation/FederationSupportImpl /
 * whitelist/WhitelistSupportImpl (the logic). On a devnode the active federation is the regtest
 * genesis one forever: no retiring, pending or proposed federation exists and no federation change
 * is recorded (the votes for one answer UNAUTHORIZED, methods.ts).
 */
import { stateForBtcReleaseClient, stateForDebugging, stateForSvpClient } from './client-state.js';
import type { AbiValue } from '../abi.js';
import type { BridgeHandler, BridgeHandlerResult } from './handler-types.js';
import { activeFederation } from './getters.js';
import { readPegoutState, readWaitingForSignatures } from './pegout-store.js';
import { readFederationUtxos } from './utxos.js';

/** FederationChangeResponseCode.FEDERATION_NON_EXISTENT: sizes, thresholds, times and heights of a federation that does not exist. */
const FEDERATION_NON_EXISTENT = -1n;
const EMPTY = new Uint8Array(0);


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

  // registerFastBridgeBtcTransaction: flyover.ts.
};
