/**
 * The rest of rskj master's Bridge surface (issue 24), through a real node with ethers: every
 * method the node added for it, by eth_call and by a contract (CallTypeProbe) calling it, with
 * the answer rskj gives on a regtest node that has only the genesis federation; the call types
 * each accepts (RSKIP417); and the Union Bridge / super-event methods for authorised and
 * unauthorised callers, with their events.
 *
 * The signatures are written here from rskj's BridgeMethods.java, not taken from the node, and the
 * published ABI package (8.0.0) lacks some of them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, ZeroAddress, computeAddress, id, zeroPadValue, type Contract, type JsonRpcProvider, type TransactionReceipt, type Wallet } from 'ethers';
import { COW, COW1, call, type TestNode } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';
import { BRIDGE, deployCallTypeProbe } from '../helpers/bridge-contract.js';

const GAS_PRICE = 66_000_000n;
const ONE_RBTC = 10n ** 18n;
const WEIS_PER_SATOSHI = 10n ** 10n;
/** UnionBridgeRegTestConstants authorizers. */
const UNION_ADDRESS_AUTHORIZER = '0x6c9dfd950bf748bb26f893f7e5f693c7f60a8f85';
const UNION_CAP_AUTHORIZER = '0xff6f4ff09c54561e1476203e56fcfc834911aa64';

const bridgeIface = new Interface([
  // Methods the node had before issue 24 (rows at the end of TABLE).
  'function getFederationAddress() returns (string)',
  'function getFederationSize() returns (int256)',
  'function getFederationThreshold() returns (int256)',
  'function getFederationCreationTime() returns (int256)',
  'function getFederationCreationBlockNumber() returns (int256)',
  'function getFederatorPublicKeyOfType(int256,string) returns (bytes)',
  'function getMinimumLockTxValue() returns (int256)',
  'function getLockingCap() returns (int256)',
  'function getFeePerKb() returns (int256)',
  'function getBtcBlockchainBestChainHeight() returns (int256)',
  'function getBtcBlockchainInitialBlockHeight() returns (int256)',
  'function getBtcBlockchainBlockHashAtDepth(int256) returns (bytes)',
  'function isBtcTxHashAlreadyProcessed(string) returns (bool)',
  'function getBtcTxHashProcessedHeight(string) returns (int64)',
  'function voteFeePerKbChange(int256) returns (int256)',
  'function increaseLockingCap(int256) returns (bool)',
  'function addOneOffLockWhitelistAddress(string,int256) returns (int256)',
  'function addUnlimitedLockWhitelistAddress(string) returns (int256)',
  'function removeLockWhitelistAddress(string) returns (int256)',
  'function setLockWhitelistDisableBlockDelay(int256) returns (int256)',
  'function createFederation() returns (int256)',
  'function rollbackFederation() returns (int256)',
  'function commitFederation(bytes) returns (int256)',
  'function addFederatorPublicKeyMultikey(bytes,bytes,bytes) returns (int256)',
  'function getRetiringFederationAddress() returns (string)',
  'function getRetiringFederationSize() returns (int256)',
  'function getRetiringFederationThreshold() returns (int256)',
  'function getRetiringFederationCreationTime() returns (int256)',
  'function getRetiringFederationCreationBlockNumber() returns (int256)',
  'function getRetiringFederatorPublicKeyOfType(int256,string) returns (bytes)',
  'function getPendingFederationHash() returns (bytes)',
  'function getPendingFederationSize() returns (int256)',
  'function getPendingFederatorPublicKeyOfType(int256,string) returns (bytes)',
  'function getProposedFederationAddress() returns (string)',
  'function getProposedFederationSize() returns (int256)',
  'function getProposedFederationCreationTime() returns (int256)',
  'function getProposedFederationCreationBlockNumber() returns (int256)',
  'function getProposedFederatorPublicKeyOfType(int256,string) returns (bytes)',
  'function getActiveFederationCreationBlockHeight() returns (uint256)',
  'function getLockWhitelistSize() returns (int256)',
  'function getLockWhitelistAddress(int256) returns (string)',
  'function getLockWhitelistEntryByAddress(string) returns (int256)',
  'function getStateForBtcReleaseClient() returns (bytes)',
  'function getStateForSvpClient() returns (bytes)',
  'function getStateForDebugging() returns (bytes)',
  'function hasBtcBlockCoinbaseTransactionInformation(bytes32) returns (bool)',
  'function getEstimatedFeesForPegOutAmount(uint256) returns (uint256)',
  'function getUnionBridgeContractAddress() returns (address)',
  'function getUnionBridgeLockingCap() returns (uint256)',
  'function getSuperEvent() returns (bytes)',
  'function getBaseEvent() returns (bytes)',
  'function setUnionBridgeContractAddressForTestnet(address) returns (int256)',
  'function increaseUnionBridgeLockingCap(uint256) returns (int256)',
  'function requestUnionBridgeRbtc(uint256) returns (int256)',
  'function releaseUnionBridgeRbtc() returns (int256)',
  'function setUnionBridgeTransferPermissions(bool,bool) returns (int256)',
  'function setSuperEvent(bytes)',
  'function clearSuperEvent()',
  'function setBaseEvent(bytes)',
  'function clearBaseEvent()',
  'function registerFastBridgeBtcTransaction(bytes,uint256,bytes,bytes32,bytes,address,bytes,bool) returns (int256)',
  'event union_bridge_locking_cap_increased(address indexed caller, uint256 previousLockingCap, uint256 newLockingCap)',
  'event union_rbtc_requested(address indexed requester, uint256 amount)',
  'event union_rbtc_released(address indexed receiver, uint256 amount)',
  'event union_bridge_transfer_permissions_updated(address indexed caller, bool enablePowPegToUnionBridge, bool enableUnionBridgeToPowPeg)',
]);

/** A regtest P2PKH address with its version byte (BridgeUtils.deserializeBtcAddressWithVersion). */
const P2PKH_INFO = '0x6f' + '11'.repeat(20);
const flyoverArgs = (lbc: string, refund = P2PKH_INFO) => ['0x0100', 200, '0x00', id('derivation'), refund, lbc, P2PKH_INFO, true];

const FAIL = Symbol('the call fails');
type Expected = unknown | typeof FAIL;

/**
 * Every method the node added for issue 24, called by the default account with eth_call (rskj's
 * answers on a fresh regtest node; FAIL where rskj throws). `getter`: CallTypeHelper.ALLOW_STATIC_CALL.
 */
const TABLE: { method: string; args?: unknown[]; expected: Expected; getter: boolean }[] = [
  { method: 'getRetiringFederationAddress', expected: '', getter: true },
  { method: 'getRetiringFederationSize', expected: -1n, getter: true },
  { method: 'getRetiringFederationThreshold', expected: -1n, getter: true },
  { method: 'getRetiringFederationCreationTime', expected: -1n, getter: true },
  { method: 'getRetiringFederationCreationBlockNumber', expected: -1n, getter: true },
  { method: 'getRetiringFederatorPublicKeyOfType', args: [0, 'btc'], expected: '0x', getter: true },
  { method: 'getRetiringFederatorPublicKeyOfType', args: [0, 'eth'], expected: FAIL, getter: true },
  { method: 'getPendingFederationHash', expected: '0x', getter: true },
  { method: 'getPendingFederationSize', expected: -1n, getter: true },
  { method: 'getPendingFederatorPublicKeyOfType', args: [0, 'rsk'], expected: '0x', getter: true },
  { method: 'getPendingFederatorPublicKeyOfType', args: [0, 'x'], expected: FAIL, getter: true },
  { method: 'getProposedFederationAddress', expected: '', getter: true },
  { method: 'getProposedFederationSize', expected: -1n, getter: true },
  { method: 'getProposedFederationCreationTime', expected: -1n, getter: true },
  { method: 'getProposedFederationCreationBlockNumber', expected: -1n, getter: true },
  { method: 'getProposedFederatorPublicKeyOfType', args: [1, 'mst'], expected: '0x', getter: true },
  { method: 'getProposedFederatorPublicKeyOfType', args: [1, ''], expected: FAIL, getter: true },
  { method: 'getActiveFederationCreationBlockHeight', expected: 0n, getter: true },
  { method: 'getLockWhitelistSize', expected: 0n, getter: true },
  { method: 'getLockWhitelistAddress', args: [0], expected: '', getter: true },
  { method: 'getLockWhitelistEntryByAddress', args: ['mhxk5q8QdGFoaP4SJ3DPtXjrbxAgxjNm3C'], expected: -1n, getter: true },
  { method: 'getLockWhitelistEntryByAddress', args: ['not an address'], expected: -1n, getter: true },
  { method: 'getStateForBtcReleaseClient', expected: '0xc1c0', getter: true },
  { method: 'getStateForSvpClient', expected: '0xc1c0', getter: true },
  // [101, UTXOs [], waiting for signatures [], queue [], waiting for confirmations [], next peg-out 0], the lists RLP'd twice.
  { method: 'getStateForDebugging', expected: '0xcb6581c081c081c081c08180', getter: true },
  { method: 'hasBtcBlockCoinbaseTransactionInformation', args: [id('no such block')], expected: false, getter: true },
  { method: 'getEstimatedFeesForPegOutAmount', args: [249_999n * WEIS_PER_SATOSHI], expected: FAIL, getter: true },
  // At the minimum, but the federation has no UTXOs to simulate the batch with: rskj throws.
  { method: 'getEstimatedFeesForPegOutAmount', args: [250_000n * WEIS_PER_SATOSHI], expected: FAIL, getter: true },
  { method: 'getUnionBridgeContractAddress', expected: ZeroAddress, getter: true },
  { method: 'getUnionBridgeLockingCap', expected: ONE_RBTC, getter: true },
  { method: 'getSuperEvent', expected: '0x', getter: true },
  { method: 'getBaseEvent', expected: '0x', getter: true },
  // Not the authorizer: executeIfAuthorized throws.
  { method: 'setUnionBridgeContractAddressForTestnet', args: [COW1.address], expected: FAIL, getter: false },
  { method: 'increaseUnionBridgeLockingCap', args: [2n * ONE_RBTC], expected: FAIL, getter: false },
  { method: 'setUnionBridgeTransferPermissions', args: [false, false], expected: FAIL, getter: false },
  // Not the Union Bridge contract: UNAUTHORIZED_CALLER for the transfers, a failure for the events.
  { method: 'requestUnionBridgeRbtc', args: [1n], expected: -1n, getter: false },
  { method: 'releaseUnionBridgeRbtc', expected: -1n, getter: false },
  { method: 'setSuperEvent', args: ['0x01'], expected: FAIL, getter: false },
  { method: 'clearSuperEvent', expected: FAIL, getter: false },
  { method: 'setBaseEvent', args: ['0x01'], expected: FAIL, getter: false },
  { method: 'clearBaseEvent', expected: FAIL, getter: false },
  // A transaction's own call is not a contract's: UNPROCESSABLE_TX_NOT_CONTRACT_ERROR; a bad
  // address argument comes first: GENERIC_ERROR.
  { method: 'registerFastBridgeBtcTransaction', args: flyoverArgs(COW.address), expected: -300n, getter: false },
  { method: 'registerFastBridgeBtcTransaction', args: flyoverArgs(COW.address, '0x00' + '11'.repeat(20)), expected: -900n, getter: false },
  // Methods the node had before issue 24 that no other branch of the peg work changes.
  { method: 'getFederationAddress', expected: '2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7', getter: true },
  { method: 'getFederationSize', expected: 3n, getter: true },
  { method: 'getFederationThreshold', expected: 2n, getter: true },
  { method: 'getFederationCreationTime', expected: 1_451_606_400n, getter: true },
  { method: 'getFederationCreationBlockNumber', expected: 1n, getter: true },
  { method: 'getFederatorPublicKeyOfType', args: [0, 'btc'], expected: '0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1', getter: true },
  { method: 'getFederatorPublicKeyOfType', args: [3, 'btc'], expected: FAIL, getter: true },
  { method: 'getMinimumLockTxValue', expected: 500_000n, getter: true },
  { method: 'getLockingCap', expected: 100_000_000_000n, getter: true },
  { method: 'getFeePerKb', expected: 100_000n, getter: true },
  { method: 'getBtcBlockchainBestChainHeight', expected: 101n, getter: true },
  { method: 'getBtcBlockchainInitialBlockHeight', expected: 0n, getter: true },
  { method: 'getBtcBlockchainBlockHashAtDepth', args: [101], expected: '0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', getter: true },
  { method: 'getBtcBlockchainBlockHashAtDepth', args: [102], expected: FAIL, getter: true },
  { method: 'isBtcTxHashAlreadyProcessed', args: ['ab'.repeat(32)], expected: false, getter: true },
  { method: 'getBtcTxHashProcessedHeight', args: ['ab'.repeat(32)], expected: -1n, getter: true },
  // Settings whose authorizers are not the caller.
  { method: 'voteFeePerKbChange', args: [200_000], expected: -10n, getter: false },
  { method: 'increaseLockingCap', args: [150_000_000_000n], expected: false, getter: false },
  { method: 'increaseLockingCap', args: [0], expected: FAIL, getter: false },
  { method: 'addOneOffLockWhitelistAddress', args: ['mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q', 1000], expected: -10n, getter: false },
  { method: 'addUnlimitedLockWhitelistAddress', args: ['not base58'], expected: -2n, getter: false },
  { method: 'removeLockWhitelistAddress', args: ['mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q'], expected: -10n, getter: false },
  { method: 'setLockWhitelistDisableBlockDelay', args: [10], expected: -10n, getter: false },
  // Federation changes are not emulated: every caller is unauthorised.
  { method: 'createFederation', expected: -10n, getter: false },
  { method: 'rollbackFederation', expected: -10n, getter: false },
  { method: 'commitFederation', args: ['0x' + '00'.repeat(32)], expected: -10n, getter: false },
  { method: 'addFederatorPublicKeyMultikey', args: ['0x02', '0x02', '0x02'], expected: -10n, getter: false },
];

const OP = { CALL: 0xf1, CALLCODE: 0xf2, DELEGATECALL: 0xf4, STATICCALL: 0xfa } as const;

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let probe: Contract;

ethersNodeForTests((node) => ({ t, provider, wallet } = node));
beforeAll(async () => {
  probe = await deployCallTypeProbe(wallet, GAS_PRICE);
});

const data = (method: string, args: unknown[] = []) => bridgeIface.encodeFunctionData(method, args);
/** Gas for the probed call: getStateForDebugging alone costs 3,000,000 (BridgeMethods fixedCost). */
const gasFor = (method: string) => (method === 'getStateForDebugging' ? 3_100_000n : 200_000n);
const decoded = (method: string, out: string) => {
  const values = bridgeIface.decodeFunctionResult(method, out);
  return values.length === 0 ? out : values[0];
};

describe('every Bridge method answers as rskj on a fresh regtest node', () => {
  it('by eth_call from an account', async () => {
    for (const { method, args, expected } of TABLE) {
      const out = await provider.call({ from: COW.address, to: BRIDGE, data: data(method, args) });
      // A Bridge exception in a transaction's own call: eth_call answers empty data.
      if (expected === FAIL) expect(out, method).toBe('0x');
      else expect(decoded(method, out), `${method}(${args ?? ''})`).toEqual(expected);
    }
  });

  it('by a contract calling it (CALL from CallTypeProbe)', async () => {
    for (const { method, args, expected } of TABLE) {
      if (method === 'registerFastBridgeBtcTransaction') continue; // from a contract: the next test
      const [ok, out] = await probe.probe!.staticCall(OP.CALL, BRIDGE, data(method, args), gasFor(method));
      if (expected === FAIL) expect([ok, out], method).toEqual([false, '0x']);
      else expect([ok, decoded(method, out)], `${method}(${args ?? ''})`).toEqual([true, expected]);
    }
  });

  it('registerFastBridgeBtcTransaction from a contract: INVALID_SENDER unless the contract is the LBC named, then the peg-in validations', async () => {
    const [ok, out] = await probe.probe!.staticCall(OP.CALL, BRIDGE, data('registerFastBridgeBtcTransaction', flyoverArgs(COW.address)), 200_000n);
    expect([ok, decoded('registerFastBridgeBtcTransaction', out)]).toEqual([true, -301n]);
    // Past the caller checks: height 200 is above the Bitcoin tip (101), so the validations fail (-303).
    const own = await probe.probe!.staticCall(OP.CALL, BRIDGE, data('registerFastBridgeBtcTransaction', flyoverArgs(await probe.getAddress())), 200_000n);
    expect([own[0], decoded('registerFastBridgeBtcTransaction', own[1])]).toEqual([true, -303n]);
  });

  it('local-only getters refuse a mined transaction (Bridge.validateLocalCall)', async () => {
    const tx = await probe.probeAndLog!(OP.CALL, BRIDGE, data('getStateForDebugging'), 3_100_000n, { type: 0, gasPrice: GAS_PRICE, gasLimit: 4_000_000n });
    const receipt = (await tx.wait())!;
    const [, ok] = probe.interface.decodeEventLog('Probed', receipt.logs[0]!.data, receipt.logs[0]!.topics);
    expect(ok).toBe(false);
    const open = await probe.probeAndLog!(OP.CALL, BRIDGE, data('getActiveFederationCreationBlockHeight'), 100_000n, { type: 0, gasPrice: GAS_PRICE });
    const log = (await open.wait())!.logs[0]!;
    expect(probe.interface.decodeEventLog('Probed', log.data, log.topics).slice(1, 3)).toEqual([true, AbiCoder.defaultAbiCoder().encode(['uint256'], [0n])]);
  });
});

describe('RSKIP417 call types of the added methods', () => {
  it('getters take CALL and STATICCALL, the others CALL only; DELEGATECALL and CALLCODE reach none', async () => {
    const seen = new Set<string>();
    for (const { method, args, getter } of TABLE) {
      if (seen.has(method)) continue;
      seen.add(method);
      const calldata = data(method, args);
      const reached = async (op: keyof typeof OP) => {
        const [ok] = await probe.probe!.staticCall(OP[op], BRIDGE, calldata, gasFor(method));
        return ok as boolean;
      };
      expect(await reached('DELEGATECALL'), `${method} DELEGATECALL`).toBe(false);
      expect(await reached('CALLCODE'), `${method} CALLCODE`).toBe(false);
      if (getter && method !== 'getEstimatedFeesForPegOutAmount') expect(await reached('STATICCALL'), `${method} STATICCALL`).toBe(true);
      if (!getter) expect(await reached('STATICCALL'), `${method} STATICCALL`).toBe(false);
    }
    expect(seen.size).toBe(37 + 24);
  });
});

/** Sends `method` from `from` (unlocked by impersonation or a dev key) and returns its receipt. */
async function send(from: string, method: string, args: unknown[] = [], value = 0n): Promise<TransactionReceipt> {
  const hash = await call(t.testnetUrl, 'eth_sendTransaction', [
    { from, to: BRIDGE, data: data(method, args), value: `0x${value.toString(16)}`, gas: '0x30d40', gasPrice: `0x${GAS_PRICE.toString(16)}` },
  ]);
  return (await provider.waitForTransaction(hash))!;
}

async function returned(from: string, method: string, args: unknown[] = [], value = 0n): Promise<unknown> {
  const out = await provider.call({ from, to: BRIDGE, data: data(method, args), value });
  return out === '0x' ? FAIL : decoded(method, out);
}

const topicOf = (address: string) => zeroPadValue(address, 32);

function events(receipt: TransactionReceipt) {
  return receipt.logs.map((log) => {
    const parsed = bridgeIface.parseLog(log)!;
    return { address: log.address.toLowerCase(), topics: log.topics, name: parsed.name, args: [...parsed.args] };
  });
}

describe('the Union Bridge (RSKIP502) and its super/base events (RSKIP529)', () => {
  it('take effect for rskj regtest authorizers, with their events, and answer codes or fail for others', async () => {
    for (const account of [UNION_ADDRESS_AUTHORIZER, UNION_CAP_AUTHORIZER]) {
      await call(t.testnetUrl, 'hardhat_impersonateAccount', [account]);
      await call(t.testnetUrl, 'hardhat_setBalance', [account, `0x${ONE_RBTC.toString(16)}`]);
    }
    await call(t.testnetUrl, 'hardhat_impersonateAccount', [COW1.address]);

    // An unauthorised transaction fails; the authorizer's sets the address (COW1 plays the Union Bridge).
    expect((await send(COW.address, 'setUnionBridgeContractAddressForTestnet', [COW1.address])).status).toBe(0);
    expect((await send(UNION_ADDRESS_AUTHORIZER, 'setUnionBridgeContractAddressForTestnet', [COW1.address])).status).toBe(1);
    expect(((await returned(COW.address, 'getUnionBridgeContractAddress')) as string).toLowerCase()).toBe(COW1.address);

    // The locking cap: more than double, or not more, is INVALID_VALUE (-2); double is accepted.
    expect(await returned(UNION_CAP_AUTHORIZER, 'increaseUnionBridgeLockingCap', [2n * ONE_RBTC + 1n])).toBe(-2n);
    expect(await returned(UNION_CAP_AUTHORIZER, 'increaseUnionBridgeLockingCap', [ONE_RBTC])).toBe(-2n);
    const capped = await send(UNION_CAP_AUTHORIZER, 'increaseUnionBridgeLockingCap', [2n * ONE_RBTC]);
    expect(capped.status).toBe(1);
    expect(events(capped)).toEqual([
      {
        address: BRIDGE,
        topics: [id('union_bridge_locking_cap_increased(address,uint256,uint256)'), topicOf(UNION_CAP_AUTHORIZER)],
        name: 'union_bridge_locking_cap_increased',
        args: [expect.stringMatching(/^0x[fF]{2}6[fF]4[fF]/), ONE_RBTC, 2n * ONE_RBTC],
      },
    ]);
    expect(await returned(COW.address, 'getUnionBridgeLockingCap')).toBe(2n * ONE_RBTC);

    // requestUnionBridgeRbtc: the Bridge pays the Union Bridge, within the cap.
    expect(await returned(COW1.address, 'requestUnionBridgeRbtc', [2n * ONE_RBTC + 1n])).toBe(-2n);
    const bridgeBefore = await provider.getBalance(BRIDGE);
    const unionBefore = await provider.getBalance(COW1.address);
    const requested = await send(COW1.address, 'requestUnionBridgeRbtc', [ONE_RBTC / 2n]);
    const gasPaid = requested.gasUsed * GAS_PRICE;
    expect(events(requested).map((e) => [e.topics, e.args])).toEqual([[[id('union_rbtc_requested(address,uint256)'), topicOf(COW1.address)], [expect.any(String), ONE_RBTC / 2n]]]);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore - ONE_RBTC / 2n);
    expect(await provider.getBalance(COW1.address)).toBe(unionBefore + ONE_RBTC / 2n - gasPaid);

    // releaseUnionBridgeRbtc: the value sent stays in the Bridge; from anyone else it comes back with -1.
    expect(await returned(COW.address, 'releaseUnionBridgeRbtc', [], ONE_RBTC)).toBe(-1n);
    const cowBefore = await provider.getBalance(COW.address);
    const refused = await send(COW.address, 'releaseUnionBridgeRbtc', [], ONE_RBTC);
    expect(await provider.getBalance(COW.address)).toBe(cowBefore - refused.gasUsed * GAS_PRICE);
    const released = await send(COW1.address, 'releaseUnionBridgeRbtc', [], ONE_RBTC / 5n);
    expect(events(released).map((e) => [e.name, e.topics[1], e.args[1]])).toEqual([['union_rbtc_released', topicOf(COW1.address), ONE_RBTC / 5n]]);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore - ONE_RBTC / 2n + ONE_RBTC / 5n);

    // Transfer permissions: only the authorizer; a change logs, the same values do not.
    const disabled = await send(UNION_CAP_AUTHORIZER, 'setUnionBridgeTransferPermissions', [false, true]);
    expect(events(disabled).map((e) => [e.name, e.topics[1], e.args.slice(1)])).toEqual([
      ['union_bridge_transfer_permissions_updated', topicOf(UNION_CAP_AUTHORIZER), [false, true]],
    ]);
    expect(events(await send(UNION_CAP_AUTHORIZER, 'setUnionBridgeTransferPermissions', [false, true]))).toEqual([]);
    expect(await returned(COW1.address, 'requestUnionBridgeRbtc', [1n])).toBe(-3n);

    // Releasing more than was requested: INVALID_VALUE, both directions disabled by the Bridge itself, value refunded.
    const over = await send(COW1.address, 'releaseUnionBridgeRbtc', [], ONE_RBTC);
    expect(events(over).map((e) => [e.name, e.topics[1], e.args.slice(1)])).toEqual([
      ['union_bridge_transfer_permissions_updated', topicOf(BRIDGE), [false, false]],
    ]);
    expect(await returned(COW1.address, 'releaseUnionBridgeRbtc', [], 1n)).toBe(-3n);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore - ONE_RBTC / 2n + ONE_RBTC / 5n);

    // Super and base events: the Union Bridge only, at most 128 bytes.
    expect((await send(COW.address, 'setSuperEvent', ['0x1234'])).status).toBe(0);
    expect((await send(COW1.address, 'setSuperEvent', ['0x1234'])).status).toBe(1);
    expect((await send(COW1.address, 'setBaseEvent', ['0x' + 'ab'.repeat(128)])).status).toBe(1);
    expect((await send(COW1.address, 'setBaseEvent', ['0x' + 'ab'.repeat(129)])).status).toBe(0);
    expect(await returned(COW.address, 'getSuperEvent')).toBe('0x1234');
    expect(await returned(COW.address, 'getBaseEvent')).toBe('0x' + 'ab'.repeat(128));
    expect((await send(COW1.address, 'clearSuperEvent')).status).toBe(1);
    expect((await send(COW.address, 'clearBaseEvent')).status).toBe(0);
    expect(await returned(COW.address, 'getSuperEvent')).toBe('0x');
    expect(await returned(COW.address, 'getBaseEvent')).toBe('0x' + 'ab'.repeat(128));
  });
});

describe("the regtest authorizers' settings: fee per kB, locking cap, lock whitelist", () => {
  const iface = new Interface([
    'function voteFeePerKbChange(int256) returns (int256)',
    'function getFeePerKb() returns (int256)',
    'function increaseLockingCap(int256) returns (bool)',
    'function getLockingCap() returns (int256)',
    'function addOneOffLockWhitelistAddress(string,int256) returns (int256)',
    'function addUnlimitedLockWhitelistAddress(string) returns (int256)',
    'function removeLockWhitelistAddress(string) returns (int256)',
    'function setLockWhitelistDisableBlockDelay(int256) returns (int256)',
    'function getLockWhitelistSize() returns (int256)',
    'function getLockWhitelistAddress(int256) returns (string)',
    'function getLockWhitelistEntryByAddress(string) returns (int256)',
  ]);
  // FeePerKbRegTestConstants, LockingCapRegTestConstants, WhitelistRegTestConstants: one key each.
  const FEE = computeAddress('0x0430c7d0146029db553d60cf11e8d39df1c63979ee2e4cd1e4d4289a5d88cfcbf3a09b06b5cbc88b5bfeb4b87a94cefab81c8d44655e7e813fc3e18f51cfe7e8a0');
  const CAP = computeAddress('0x04450bbaab83ec48b3cb8fbb077c950ee079733041c039a8c4f1539e5181ca1a27589eeaf0fbf430e49d2909f14c767bf6909ad6845831f683416ee12b832e36ed');
  const LIST = computeAddress('0x04641fb250d7ca7a1cb4f530588e978013038ec4294d084d248869dd54d98873e45c61d00ceeaeeb9e35eab19fa5fbd8f07cb8a5f0ddba26b4d4b18349c09199ad');
  /** Regtest addresses: P2PKH of hash160 0x11…, P2SH of hash160 0x05… (sorted first by hash160). */
  const P2PKH = 'mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q';
  const P2SH = '2MshmP1dBRx9TELRpoFu6oLqwLK6JASifGy';

  const ask = async (from: string, method: string, args: unknown[] = []) => {
    const out = await provider.call({ from, to: BRIDGE, data: iface.encodeFunctionData(method, args) });
    return out === '0x' ? FAIL : iface.decodeFunctionResult(method, out)[0];
  };
  const tx = async (from: string, method: string, args: unknown[]) => {
    const hash = await call(t.testnetUrl, 'eth_sendTransaction', [
      { from, to: BRIDGE, data: iface.encodeFunctionData(method, args), gas: '0x30d40', gasPrice: `0x${GAS_PRICE.toString(16)}` },
    ]);
    const receipt = (await provider.waitForTransaction(hash))!;
    expect(receipt.status, method).toBe(1);
  };

  beforeAll(async () => {
    for (const account of [FEE, CAP, LIST]) {
      await call(t.testnetUrl, 'hardhat_impersonateAccount', [account]);
      await call(t.testnetUrl, 'hardhat_setBalance', [account, `0x${ONE_RBTC.toString(16)}`]);
    }
  });

  it('voteFeePerKbChange: the authorizer\'s one vote wins at once; others get -10; bounds -1 / -2', async () => {
    expect(await ask(COW.address, 'voteFeePerKbChange', [200_000])).toBe(-10n);
    expect(await ask(FEE, 'voteFeePerKbChange', [0])).toBe(-1n);
    expect(await ask(FEE, 'voteFeePerKbChange', [5_000_001])).toBe(-2n);
    expect(await ask(FEE, 'voteFeePerKbChange', [5_000_000])).toBe(1n);
    await tx(FEE, 'voteFeePerKbChange', [200_000]);
    expect(await ask(COW.address, 'getFeePerKb')).toBe(200_000n);
  });

  it('increaseLockingCap: up to twice the cap for the authorizer, false for others, a cap <= 0 fails', async () => {
    expect(await ask(COW.address, 'increaseLockingCap', [150_000_000_000n])).toBe(false);
    expect(await ask(CAP, 'increaseLockingCap', [0])).toBe(FAIL);
    expect(await ask(CAP, 'increaseLockingCap', [99_999_999_999n])).toBe(false);
    expect(await ask(CAP, 'increaseLockingCap', [200_000_000_001n])).toBe(false);
    await tx(CAP, 'increaseLockingCap', [200_000_000_000n]);
    expect(await ask(COW.address, 'getLockingCap')).toBe(200_000_000_000n);
  });

  it('the lock whitelist: entries sorted by hash, one-off max values, removal, the disable delay', async () => {
    expect(await ask(COW.address, 'addUnlimitedLockWhitelistAddress', [P2SH])).toBe(-10n);
    await tx(LIST, 'addOneOffLockWhitelistAddress', [P2PKH, 1000]);
    expect(await ask(LIST, 'addUnlimitedLockWhitelistAddress', [P2PKH])).toBe(-1n);
    await tx(LIST, 'addUnlimitedLockWhitelistAddress', [P2SH]);
    expect(await ask(COW.address, 'getLockWhitelistSize')).toBe(2n);
    expect([await ask(COW.address, 'getLockWhitelistAddress', [0]), await ask(COW.address, 'getLockWhitelistAddress', [1]), await ask(COW.address, 'getLockWhitelistAddress', [2])]).toEqual([P2SH, P2PKH, '']);
    expect(await ask(COW.address, 'getLockWhitelistEntryByAddress', [P2PKH])).toBe(1000n);
    expect(await ask(COW.address, 'getLockWhitelistEntryByAddress', [P2SH])).toBe(0n); // UNLIMITED_MODE
    await tx(LIST, 'removeLockWhitelistAddress', [P2PKH]);
    expect(await ask(LIST, 'removeLockWhitelistAddress', [P2PKH])).toBe(-1n);
    expect(await ask(COW.address, 'getLockWhitelistSize')).toBe(1n);
    expect(await ask(LIST, 'setLockWhitelistDisableBlockDelay', [0])).toBe(-2n);
    await tx(LIST, 'setLockWhitelistDisableBlockDelay', [10]);
    expect(await ask(LIST, 'setLockWhitelistDisableBlockDelay', [10])).toBe(-1n);
  });
});
