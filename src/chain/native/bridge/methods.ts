/**
 * The Bridge's method table, from rskj co/rsk/peg/BridgeMethods.java (regtest: every RSKIP active,
 * so only the methods enabled after all upgrades are listed): wire signature, fixed gas cost,
 * whether rskj allows it only in local calls (`fixedPermission(true)`), whether STATICCALL may
 * reach it (`CallTypeHelper.ALLOW_STATIC_CALL`, RSKIP417), and how the node answers it.
 */
import type { AbiType } from '../abi.js';

export type Behaviour =
  /** Emulated: answered by GETTERS[name]. */
  | { kind: 'read' }
  /** Not emulated; fails as rskj fails for a caller outside the federation (VMException). */
  | { kind: 'federation-only' }
  /** Not emulated; returns rskj's response code for an unauthorised caller. */
  | { kind: 'unauthorised-code'; code: bigint }
  /** receiveHeader: rskj's codes against the network's Bitcoin chain (receive-header.ts). */
  | { kind: 'receive-header' }
  /** Answered by BRIDGE_HANDLERS[name] (handlers.ts), with the Bridge's storage. */
  | { kind: 'handler' };

export interface BridgeMethod {
  name: string;
  inputs: AbiType[];
  outputs: AbiType[];
  /** BridgeMethods fixedCost; the call also pays 2 gas per byte of call data (Bridge.getGasForData). */
  cost: bigint;
  /** BridgeMethods fixedPermission(true): refused outside local calls (Bridge.validateLocalCall, RSKIP88). */
  localOnly: boolean;
  /** CallTypeHelper.ALLOW_STATIC_CALL; the others are RESTRICTED_TO_CALL (Bridge.validateCallMessageType). */
  allowStatic: boolean;
  behaviour: Behaviour;
}

const READ = { kind: 'read' } as const;
const FED_ONLY = { kind: 'federation-only' } as const;
const HANDLER = { kind: 'handler' } as const;
/** FederationChangeResponseCode UNAUTHORIZED_CALLER. */
const UNAUTHORISED_10 = { kind: 'unauthorised-code', code: -10n } as const;

function m(
  name: string,
  inputs: AbiType[],
  outputs: AbiType[],
  cost: number,
  localOnly: boolean,
  allowStatic: boolean,
  behaviour: Behaviour,
): BridgeMethod {
  return { name, inputs, outputs, cost: BigInt(cost), localOnly, allowStatic, behaviour };
}

export const BRIDGE_METHODS: BridgeMethod[] = [
  // Read methods the node answers (issue 10's list).
  m('getFederationAddress', [], ['string'], 11_000, true, true, READ),
  m('getFederationSize', [], ['int256'], 10_000, true, true, READ),
  m('getFederationThreshold', [], ['int256'], 11_000, true, true, READ),
  m('getFederationCreationTime', [], ['int256'], 10_000, true, true, READ),
  m('getFederationCreationBlockNumber', [], ['int256'], 10_000, true, true, READ),
  m('getFederatorPublicKeyOfType', ['int256', 'string'], ['bytes'], 10_000, true, true, READ),
  m('getMinimumLockTxValue', [], ['int256'], 2_000, true, true, READ),
  m('getLockingCap', [], ['int256'], 3_000, true, true, HANDLER),
  m('getFeePerKb', [], ['int256'], 2_000, true, true, HANDLER),
  // getBtcBlockchainBestChainHeightOnlyAllowsLocalCalls: local-only until RSKIP220, open after.
  m('getBtcBlockchainBestChainHeight', [], ['int256'], 19_000, false, true, READ),
  m('getBtcBlockchainInitialBlockHeight', [], ['int256'], 20_000, true, true, READ),
  m('getBtcBlockchainBlockHashAtDepth', ['int256'], ['bytes'], 20_000, true, true, READ),
  m('getBtcBlockchainBestBlockHeader', [], ['bytes'], 3_800, false, true, READ),
  // RSKIP220: open to contracts; an unknown block answers empty bytes (Bridge.java catches and returns EMPTY_BYTE_ARRAY).
  m('getBtcBlockchainBlockHeaderByHash', ['bytes32'], ['bytes'], 4_600, false, true, READ),
  m('getBtcBlockchainBlockHeaderByHeight', ['uint256'], ['bytes'], 5_000, false, true, READ),
  m('getBtcBlockchainParentBlockHeaderByHash', ['bytes32'], ['bytes'], 4_900, false, true, READ),
  // RSKIP122: its cost depends on the block's depth and the branch (confirmations.ts confirmationsCost).
  m('getBtcTransactionConfirmations', ['bytes32', 'bytes32', 'uint256', 'bytes32[]'], ['int256'], 27_000, false, true, READ),
  // Read the Bridge's storage (pegin.ts): handlers, since storage reads are async.
  m('isBtcTxHashAlreadyProcessed', ['string'], ['bool'], 23_000, true, true, HANDLER),
  m('getBtcTxHashProcessedHeight', ['string'], ['int64'], 22_000, true, true, HANDLER),
  // RSKIP143: BridgeMethods HAS_BTC_BLOCK_COINBASE_TRANSACTION_INFORMATION, fixedCost 5,000, open to contracts.
  m('hasBtcBlockCoinbaseTransactionInformation', ['bytes32'], ['bool'], 5_000, false, true, HANDLER),
  m('getActivePowpegRedeemScript', [], ['bytes'], 30_000, false, true, READ),
  // The peg-out's getters read the Bridge's storage (pegout.ts).
  m('getNextPegoutCreationBlockNumber', [], ['uint256'], 3_000, false, true, HANDLER),
  m('getQueuedPegoutsCount', [], ['uint256'], 3_000, false, true, HANDLER),
  m('getEstimatedFeesForNextPegOutEvent', [], ['uint256'], 10_000, false, true, HANDLER),
  // RSKIP540 (Vetiver).
  m('getEstimatedFeesForPegOutAmount', ['uint256'], ['uint256'], 10_000, false, true, HANDLER),

  // Issue 24: the rest of master's surface, answered by handlers (surface.ts, union.ts).
  // Federations that a devnode never has (no federation change is emulated): rskj's "none" answers.
  m('getRetiringFederationAddress', [], ['string'], 3_000, true, true, HANDLER),
  m('getRetiringFederationSize', [], ['int256'], 3_000, true, true, HANDLER),
  m('getRetiringFederationThreshold', [], ['int256'], 3_000, true, true, HANDLER),
  m('getRetiringFederationCreationTime', [], ['int256'], 3_000, true, true, HANDLER),
  m('getRetiringFederationCreationBlockNumber', [], ['int256'], 3_000, true, true, HANDLER),
  m('getRetiringFederatorPublicKeyOfType', ['int256', 'string'], ['bytes'], 3_000, true, true, HANDLER),
  m('getPendingFederationHash', [], ['bytes'], 3_000, true, true, HANDLER),
  m('getPendingFederationSize', [], ['int256'], 3_000, true, true, HANDLER),
  m('getPendingFederatorPublicKeyOfType', ['int256', 'string'], ['bytes'], 3_000, true, true, HANDLER),
  m('getProposedFederationAddress', [], ['string'], 3_000, true, true, HANDLER),
  m('getProposedFederationSize', [], ['int256'], 3_000, true, true, HANDLER),
  m('getProposedFederationCreationTime', [], ['int256'], 3_000, true, true, HANDLER),
  m('getProposedFederationCreationBlockNumber', [], ['int256'], 3_000, true, true, HANDLER),
  m('getProposedFederatorPublicKeyOfType', ['int256', 'string'], ['bytes'], 3_000, true, true, HANDLER),
  m('getActiveFederationCreationBlockHeight', [], ['uint256'], 3_000, false, true, HANDLER),
  m('getLockWhitelistSize', [], ['int256'], 16_000, true, true, HANDLER),
  m('getLockWhitelistAddress', ['int256'], ['string'], 16_000, true, true, HANDLER),
  m('getLockWhitelistEntryByAddress', ['string'], ['int256'], 16_000, true, true, HANDLER),
  m('getStateForBtcReleaseClient', [], ['bytes'], 4_000, true, true, HANDLER),
  m('getStateForSvpClient', [], ['bytes'], 4_000, true, true, HANDLER),
  m('getStateForDebugging', [], ['bytes'], 3_000_000, true, true, HANDLER),
  // RSKIP502 (Union Bridge) and RSKIP529 (super/base events).
  m('getUnionBridgeContractAddress', [], ['address'], 3_000, false, true, HANDLER),
  m('getUnionBridgeLockingCap', [], ['uint256'], 3_000, false, true, HANDLER),
  m('getSuperEvent', [], ['bytes'], 3_000, false, true, HANDLER),
  m('getBaseEvent', [], ['bytes'], 3_000, false, true, HANDLER),
  m('setUnionBridgeContractAddressForTestnet', ['address'], ['int256'], 8_000, false, false, HANDLER),
  m('increaseUnionBridgeLockingCap', ['uint256'], ['int256'], 8_000, false, false, HANDLER),
  m('requestUnionBridgeRbtc', ['uint256'], ['int256'], 8_000, false, false, HANDLER),
  m('releaseUnionBridgeRbtc', [], ['int256'], 8_000, false, false, HANDLER),
  m('setUnionBridgeTransferPermissions', ['bool', 'bool'], ['int256'], 8_000, false, false, HANDLER),
  m('setSuperEvent', ['bytes'], [], 8_000, false, false, HANDLER),
  m('clearSuperEvent', [], [], 8_000, false, false, HANDLER),
  m('setBaseEvent', ['bytes'], [], 8_000, false, false, HANDLER),
  m('clearBaseEvent', [], [], 8_000, false, false, HANDLER),
  // Flyover (RSKIP176): flyover.ts.
  m('registerFastBridgeBtcTransaction', ['bytes', 'uint256', 'bytes', 'bytes32', 'bytes', 'address', 'bytes', 'bool'], ['int256'], 25_000, false, false, HANDLER),

  // State-changing methods. The federation votes are not emulated (they answer as for a caller
  // without authority); the authorizers' settings are handlers (governance.ts); the peg's are
  // handlers too: peg-in (pegin.ts), peg-out (pegout.ts).
  // Public since RSKIP199 (Bridge.registerBtcTransactionIsPublic).
  m('registerBtcTransaction', ['bytes', 'int256', 'bytes'], [], 22_000, false, false, HANDLER),
  // RSKIP143: BridgeMethods REGISTER_BTC_COINBASE_TRANSACTION, fixedCost 10,000, any caller.
  m('registerBtcCoinbaseTransaction', ['bytes', 'bytes32', 'bytes', 'bytes32', 'bytes32'], [], 10_000, false, false, HANDLER),
  m('receiveHeaders', [], [], 0, false, false, FED_ONLY), // inputs bytes[]: matched by DYNAMIC_SELECTORS
  // Federation-only as rskj checks it.
  m('updateCollections', [], [], 48_000, false, false, HANDLER),
  m('addSignature', ['bytes', 'bytes[]', 'bytes'], [], 70_000, false, false, HANDLER),
  m('addOneOffLockWhitelistAddress', ['string', 'int256'], ['int256'], 25_000, false, false, HANDLER),
  m('addUnlimitedLockWhitelistAddress', ['string'], ['int256'], 25_000, false, false, HANDLER),
  m('removeLockWhitelistAddress', ['string'], ['int256'], 24_000, false, false, HANDLER),
  m('setLockWhitelistDisableBlockDelay', ['int256'], ['int256'], 24_000, false, false, HANDLER),
  m('voteFeePerKbChange', ['int256'], ['int256'], 10_000, false, false, HANDLER),
  m('createFederation', [], ['int256'], 11_000, false, false, UNAUTHORISED_10),
  m('addFederatorPublicKeyMultikey', ['bytes', 'bytes', 'bytes'], ['int256'], 13_000, false, false, UNAUTHORISED_10),
  m('commitFederation', ['bytes'], ['int256'], 38_000, false, false, UNAUTHORISED_10),
  m('rollbackFederation', [], ['int256'], 12_000, false, false, UNAUTHORISED_10),
  m('increaseLockingCap', ['int256'], ['bool'], 8_000, false, false, HANDLER),
  // Bridge.parseData: empty call data is releaseBtc (a peg-out request, pegout.ts).
  m('releaseBtc', [], [], 23_000, false, false, HANDLER),
  m('receiveHeader', ['bytes'], ['int256'], 10_600, false, false, { kind: 'receive-header' }),
];

/**
 * Methods whose inputs include arrays: matched by selector alone, their arguments not decoded, since
 * they fail as rskj fails for them on a devnode whatever the arguments.
 * receiveHeaders(bytes[]): BridgeMethods cost is Bridge.receiveHeadersGetCost (25,000 + 3,500 per
 * extra header after RSKIP132); we charge the one-header cost.
 */
export const DYNAMIC_SELECTORS: Record<string, string> = {
  receiveHeaders: 'receiveHeaders(bytes[])',
};
export const RECEIVE_HEADERS_BASE_COST = 25_000n;

/** Bridge.getGasForData charges releaseBtc's cost when the data does not parse (no data cost). */
export const UNPARSABLE_DATA_COST = 23_000n;
