/** The Bridge native contract called directly (no EVM), with the published ABI through ethers. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Interface } from 'ethers';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import * as btc from '@scure/btc-signer';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { bridgeContract } from '../../src/chain/native/bridge/index.js';
import { BRIDGE_METHODS } from '../../src/chain/native/bridge/methods.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import { bridgeStateView } from '../../src/chain/native/bridge/state.js';
import type { NativeCall } from '../../src/chain/native/types.js';

const require = createRequire(import.meta.url);
const { abi } = require('@rsksmart/rsk-precompiled-abis').bridge as { abi: unknown[] };
const iface = new Interface(abi as never);

const EOA = hexToBytes('cd2a3d9f938e13cd947ec05abc7fe734df8dd826');
const CONTRACT = hexToBytes('1111111111111111111111111111111111111111');
const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

function nativeCall(data: string, over: Partial<NativeCall> = {}): NativeCall {
  return {
    data: hexToBytes(data.slice(2)),
    gasLimit: 1_000_000n,
    caller: EOA,
    origin: EOA,
    value: 0n,
    depth: 0,
    isStatic: false,
    callType: 'CALL',
    localCall: false,
    block: { number: 1n, timestamp: 1n, coinbase: new Uint8Array(20), minimumGasPrice: 0n, gasLimit: 7_500_000n, difficulty: 1n },
    headerAt: async () => undefined,
    // An empty state: the Bridge's storage reads as empty (no peg-in processed).
    state: new MerkleStateManager(),
    ...over,
  } as NativeCall;
}

async function read(name: string, args: unknown[] = [], over: Partial<NativeCall> = {}) {
  const data = iface.encodeFunctionData(name, args);
  const result = await bridgeContract.call(nativeCall(data, { localCall: true, ...over }));
  expect(result.error).toBeUndefined();
  return { value: iface.decodeFunctionResult(name, result.returnValue)[0], gasUsed: result.gasUsed, dataLength: (data.length - 2) / 2 };
}

describe('Bridge method table', () => {
  it('every method the node knows is in the published ABI with the same inputs and outputs', () => {
    // rskj master methods newer than the package's ABI (8.0.0): RSKIP540 and RSKIP529.
    const newerThanPackage = new Set(['getEstimatedFeesForPegOutAmount', 'getSuperEvent', 'setSuperEvent', 'clearSuperEvent', 'getBaseEvent', 'setBaseEvent', 'clearBaseEvent']);
    for (const m of BRIDGE_METHODS) {
      const fragment = iface.getFunction(m.name);
      if (newerThanPackage.has(m.name)) {
        expect(fragment, m.name).toBeNull();
        continue;
      }
      expect(fragment, m.name).not.toBeNull();
      if (m.name === 'receiveHeaders') continue; // array input, matched by selector
      expect(fragment!.inputs.map((i) => i.type), m.name).toEqual(m.inputs);
      expect(fragment!.outputs.map((o) => o.type), m.name).toEqual(m.outputs);
    }
  });
});

describe('Bridge read methods (rskj regtest values)', () => {
  const expected: Array<[string, unknown[], unknown, bigint]> = [
    ['getFederationAddress', [], '2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7', 11_000n],
    ['getFederationSize', [], 3n, 10_000n],
    ['getFederationThreshold', [], 2n, 11_000n],
    ['getFederationCreationTime', [], 1_451_606_400n, 10_000n],
    ['getFederationCreationBlockNumber', [], 1n, 10_000n],
    ['getMinimumLockTxValue', [], 500_000n, 2_000n],
    ['getLockingCap', [], 100_000_000_000n, 3_000n],
    ['getFeePerKb', [], 100_000n, 2_000n],
    ['getBtcBlockchainBestChainHeight', [], 0n, 19_000n],
    ['getBtcBlockchainInitialBlockHeight', [], 0n, 20_000n],
    ['getBtcBlockchainBlockHashAtDepth', [0], '0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', 20_000n],
    [
      'getBtcBlockchainBestBlockHeader',
      [],
      '0x0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000',
      3_800n,
    ],
    ['isBtcTxHashAlreadyProcessed', ['ab'.repeat(32)], false, 23_000n],
    ['getBtcTxHashProcessedHeight', ['ab'.repeat(32)], -1n, 22_000n],
    ['getNextPegoutCreationBlockNumber', [], 0n, 3_000n],
    ['getQueuedPegoutsCount', [], 0n, 3_000n],
    // 2 inputs, 2 outputs, P2SH-P2WSH segwit size 344 bytes x 100,000 sat/kB / 1000.
    ['getEstimatedFeesForNextPegOutEvent', [], 34_400n, 10_000n],
  ];
  for (const [name, args, value, cost] of expected) {
    it(`${name} = ${String(value)}, costing ${cost} + 2 per data byte`, async () => {
      const r = await read(name, args);
      expect(r.value).toEqual(value);
      expect(r.gasUsed).toBe(cost + 2n * BigInt(r.dataLength));
    });
  }

  it('getFederatorPublicKeyOfType returns the members sorted by key, the same key for btc/rsk/mst', async () => {
    const keys = [
      '0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1',
      '0x0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124',
      '0x03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db',
    ];
    for (let i = 0; i < 3; i++) {
      for (const type of ['btc', 'rsk', 'mst']) expect((await read('getFederatorPublicKeyOfType', [i, type])).value).toBe(keys[i]);
    }
  });

  it('getActivePowpegRedeemScript is the P2SH-P2WSH ERP script whose address getFederationAddress gives', async () => {
    const script = (await read('getActivePowpegRedeemScript')).value as string;
    expect(script).toBe('0x' + bytesToHex(GENESIS_FEDERATION.redeemScript));
    expect(script.length).toBe(2 + 252 * 2);
    // Independent derivation with @scure/btc-signer: the 2-of-3 default branch and the address.
    const multisig = btc.p2ms(2, GENESIS_FEDERATION.members).script;
    expect(script.slice(4, 4 + multisig.length * 2)).toBe(bytesToHex(multisig)); // after OP_NOTIF
    const address = btc.p2sh(btc.p2wsh({ type: 'unknown', script: hexToBytes(script.slice(2)) } as never, REGTEST), REGTEST).address;
    expect(address).toBe('2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7');
  });

  it('eth_bridgeState reads the same state as getBtcBlockchainBestChainHeight', async () => {
    const height = (await read('getBtcBlockchainBestChainHeight')).value as bigint;
    expect(await bridgeStateView(new MerkleStateManager(), 0)).toEqual({ rskTxsWaitingForSignatures: [], btcBlockchainBestChainHeight: Number(height) });
  });
});

describe('Bridge errors as rskj has them', () => {
  it('a local-only method outside a local call fails: from a contract, only the required gas is spent', async () => {
    const data = iface.encodeFunctionData('getFederationAddress');
    const r = await bridgeContract.call(nativeCall(data, { localCall: false, caller: CONTRACT, depth: 1 }));
    expect(r).toEqual({ returnValue: new Uint8Array(0), gasUsed: 11_000n + 8n, error: 'revert' });
  });

  it('a mined transaction (not a local call) is refused a local-only method, even sent directly', async () => {
    const data = iface.encodeFunctionData('getFederationSize');
    expect((await bridgeContract.call(nativeCall(data, { localCall: false }))).error).toBe('failure');
    expect((await bridgeContract.call(nativeCall(data, { localCall: true }))).error).toBeUndefined();
  });

  it('a local call reaches a local-only method even through a contract (rskj propagates isLocalCall)', async () => {
    const r = await read('getFederationSize', [], { caller: CONTRACT, depth: 1, localCall: true });
    expect(r.value).toBe(3n);
  });

  it('methods open to contracts (RSKIP220/271/293) answer non-local calls', async () => {
    const r = await read('getBtcBlockchainBestChainHeight', [], { caller: CONTRACT, depth: 1, localCall: false });
    expect(r.value).toBe(0n);
    expect((await read('getQueuedPegoutsCount', [], { caller: CONTRACT, depth: 1, localCall: false })).value).toBe(0n);
  });

  it('a mined transaction calling a failing method fails as an exception (whole gas, not a revert)', async () => {
    const data = iface.encodeFunctionData('increaseLockingCap', [0]); // a cap <= 0 throws
    const r = await bridgeContract.call(nativeCall(data, { localCall: false, gasLimit: 200_000n }));
    expect(r).toMatchObject({ returnValue: new Uint8Array(0), gasUsed: 200_000n, error: 'failure' });
  });

  it('an unparsable address answers INVALID_ADDRESS_FORMAT (-2) before the caller is checked when adding, after it when removing', async () => {
    // WhitelistSupportImpl.addOneOff/addUnlimitedLockWhitelistAddress parse first; remove checks the caller first.
    const badChecksum = 'mgy8yiUZYB7o9vvCu2Yun9fhNn2Q4bE3Z2';
    for (const [name, args, code] of [
      ['addOneOffLockWhitelistAddress', [badChecksum, 1000], -2n],
      ['addUnlimitedLockWhitelistAddress', [badChecksum], -2n],
      ['addUnlimitedLockWhitelistAddress', ['12ZEw5Hcv1hTb6YUQJ69y1V7uhcoDz92PH'], -2n], // a mainnet address
      ['removeLockWhitelistAddress', [badChecksum], -10n],
    ] as const) {
      const r = await bridgeContract.call(nativeCall(iface.encodeFunctionData(name, args as never), { localCall: false }));
      expect(iface.decodeFunctionResult(name, r.returnValue)[0], name).toBe(code);
    }
  });

  it('whitelist, fee and federation votes answer UNAUTHORIZED_CALLER (-10)', async () => {
    for (const [name, args] of [
      ['addOneOffLockWhitelistAddress', ['mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q', 1000]],
      ['addUnlimitedLockWhitelistAddress', ['mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q']],
      ['removeLockWhitelistAddress', ['mh5CE8Nbj38iND267s4XnvhSmhDW7yWc6Q']],
      ['setLockWhitelistDisableBlockDelay', [10]],
      ['voteFeePerKbChange', [200_000]],
      ['createFederation', []],
      ['rollbackFederation', []],
    ] as const) {
      const r = await bridgeContract.call(nativeCall(iface.encodeFunctionData(name, args as never), { localCall: false }));
      expect(r.error, name).toBeUndefined();
      expect(iface.decodeFunctionResult(name, r.returnValue)[0], name).toBe(-10n);
    }
  });

  it('increaseLockingCap answers false to an unauthorised caller and fails for a cap <= 0', async () => {
    const ok = await bridgeContract.call(nativeCall(iface.encodeFunctionData('increaseLockingCap', [1]), { localCall: false }));
    expect(iface.decodeFunctionResult('increaseLockingCap', ok.returnValue)[0]).toBe(false);
    const bad = await bridgeContract.call(nativeCall(iface.encodeFunctionData('increaseLockingCap', [0]), { localCall: false, depth: 1, caller: CONTRACT }));
    expect(bad.error).toBe('revert');
  });

  it('a state-changing method under STATICCALL fails (RSKIP417)', async () => {
    const data = iface.encodeFunctionData('voteFeePerKbChange', [1]);
    const r = await bridgeContract.call(nativeCall(data, { isStatic: true, callType: 'STATICCALL', depth: 1, caller: CONTRACT }));
    expect(r.error).toBe('revert');
  });

  it('DELEGATECALL and CALLCODE reach no method, getters included; a CALL inside a static frame is a CALL (RSKIP417)', async () => {
    const getter = iface.encodeFunctionData('getFeePerKb', []);
    const vote = iface.encodeFunctionData('voteFeePerKbChange', [1]);
    const cost = (data: string, fixed: bigint) => fixed + 2n * BigInt((data.length - 2) / 2);
    for (const callType of ['DELEGATECALL', 'CALLCODE'] as const) {
      for (const [data, fixed] of [[getter, 2_000n], [vote, 10_000n]] as const) {
        const r = await bridgeContract.call(nativeCall(data, { callType, depth: 1, caller: CONTRACT, localCall: true }));
        expect(r).toEqual({ returnValue: new Uint8Array(0), gasUsed: cost(data, fixed), error: 'revert' });
      }
    }
    const staticGetter = await bridgeContract.call(nativeCall(getter, { isStatic: true, callType: 'STATICCALL', depth: 1, caller: CONTRACT, localCall: true }));
    expect(staticGetter.error).toBeUndefined();
    const nestedCall = await bridgeContract.call(nativeCall(vote, { isStatic: true, callType: 'CALL', depth: 2, caller: CONTRACT }));
    expect(nestedCall.error).toBeUndefined();
    expect(iface.decodeFunctionResult('voteFeePerKbChange', nestedCall.returnValue)[0]).toBe(-10n);
  });

  it('bad arguments fail: unknown key type, index out of range, depth out of range, upper-case hash', async () => {
    const cases: Array<[string, unknown[]]> = [
      ['getFederatorPublicKeyOfType', [0, 'BTC']],
      ['getFederatorPublicKeyOfType', [3, 'btc']],
      ['getBtcBlockchainBlockHashAtDepth', [1]],
      ['getBtcBlockchainBlockHashAtDepth', [-1]],
      ['isBtcTxHashAlreadyProcessed', ['AB'.repeat(32)]],
      ['getBtcTxHashProcessedHeight', ['abc']],
    ];
    for (const [name, args] of cases) {
      const r = await bridgeContract.call(nativeCall(iface.encodeFunctionData(name, args), { localCall: true }));
      expect(r.error, `${name}(${args.join(',')})`).toBe('failure');
    }
  });

  it("unknown selectors and 1-3 bytes of data fail, charging releaseBtc's 23,000 for unparsable data", async () => {
    const r = await bridgeContract.call(nativeCall('0xdeadbeef', { depth: 1, caller: CONTRACT }));
    expect(r).toEqual({ returnValue: new Uint8Array(0), gasUsed: 23_000n, error: 'revert' });
    expect((await bridgeContract.call(nativeCall('0x01', { depth: 1, caller: CONTRACT }))).error).toBe('revert');
    expect((await bridgeContract.call(nativeCall('0x010203', { depth: 1, caller: CONTRACT }))).error).toBe('revert');
  });

  it('empty data is releaseBtc: a contract caller is rejected (reason 2) and the call succeeds, at 23,000 gas', async () => {
    const r = await bridgeContract.call(nativeCall('0x', { depth: 1, caller: CONTRACT, value: 10n ** 18n }));
    expect(r.error).toBeUndefined();
    expect(r.gasUsed).toBe(23_000n);
    const [[, topics, data]] = r.logs!;
    expect(bytesToHex(topics[0]!)).toBe('b607c3e1fbe6b38cd145b15b837f7b722b199caa60e3057b36c141adee3b75e7');
    expect(iface.getAbiCoder().decode(['uint256', 'int256'], data)).toEqual([10n ** 18n, 2n]);
  });

  it('too little gas for the method is out of gas', async () => {
    const data = iface.encodeFunctionData('getFederationAddress');
    const r = await bridgeContract.call(nativeCall(data, { gasLimit: 11_007n }));
    expect(r.error).toBe('out of gas');
    expect(r.gasUsed).toBe(11_007n);
  });
});
