/**
 * getStateForDebugging's bytes with federation UTXOs recorded (rskj BridgeState.getEncoded over
 * bitcoinj's UTXO.serializeToStream), the expected value built here with ethers' RLP coder from
 * rskj's call sequence: [encodeBigInteger(height), encodeElement(encodeList(encodeElement(utxo)...)),
 * encodeElement(0xc0) x 3, encodeElement(encodeBigInteger(nextPegoutHeight))].
 */
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { Interface, concat, decodeRlp, encodeRlp, getBytes } from 'ethers';
import { RawTx } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { bridgeContract } from '../../src/chain/native/bridge/index.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { writeFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import {
  writeNextPegoutHeight,
  writePegoutQueue,
  writeWaitingForConfirmations,
  writeWaitingForSignatures,
} from '../../src/chain/native/bridge/pegout-store.js';
import type { NativeCall } from '../../src/chain/native/types.js';

/** Little-endian, `bytes` long. */
const le = (value: bigint, bytes: number) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return '0x' + bytesToHex(out.subarray(0, bytes));
};

describe('getStateForDebugging with federation UTXOs', () => {
  it('serializes each UTXO as bitcoinj does, inside rskj BridgeState RLP', async () => {
    const script = new Uint8Array(23).fill(0xa9);
    const txid = new Uint8Array(32).fill(0x42);
    const state = new MerkleStateManager();
    await writeFederationUtxos(new BridgeStorage(state), [{ txid, vout: 1, value: 500_000n, height: 104, script, redeemScript: GENESIS_FEDERATION.redeemScript }]);

    const utxo = concat([
      le(500_000n, 8), // value, int64 LE
      le(23n, 4), // script length, uint32 LE
      script,
      txid,
      '0x01000000', // index
      '0x68000000', // height 104
      '0x00', // not a coinbase
    ]);
    // Best height 0 (the genesis-only Bitcoin chain) and next peg-out height 0: RLP.encodeBigInteger(0) is 0x80.
    const expected = encodeRlp(['0x', encodeRlp([utxo]), '0xc0', '0xc0', '0xc0', '0x80']);

    expect(await callGetter(state, 'getStateForDebugging')).toBe(expected);
  });
});

/**
 * The getters with peg-outs pending: each collection written to storage, the getters' bytes decoded
 * with ethers' RLP decoder and each Bitcoin transaction compared with bytes assembled here by hand
 * from BIP144 (marker, flag, one witness per input) over the stored unsigned transaction.
 */
describe('getStateFor* with peg-outs pending', () => {
  const fed = GENESIS_FEDERATION;
  const hash = (first: number, last: number) => {
    const h = new Uint8Array(32).fill(0x11);
    h[0] = first;
    h[31] = last;
    return h;
  };
  const p2pkh = (fill: number) => Uint8Array.from([0x76, 0xa9, 20, ...new Uint8Array(20).fill(fill), 0x88, 0xac]);
  const unsignedTx = (prevFill: number, inputs: number) =>
    RawTx.encode({
      version: 2,
      segwitFlag: false,
      inputs: Array.from({ length: inputs }, (_, i) => ({
        txid: new Uint8Array(32).fill(prevFill),
        index: i,
        finalScriptSig: Uint8Array.of(0x22, 0x00, 0x20, ...new Uint8Array(32).fill(0x33)),
        sequence: 0xffffffff,
      })),
      outputs: [{ amount: 400_000n, script: p2pkh(0x44) }],
      witnesses: [],
      lockTime: 0,
    });
  const varInt = (n: number) => (n < 0xfd ? Uint8Array.of(n) : Uint8Array.of(0xfd, n & 0xff, n >> 8));
  const item = (b: Uint8Array) => concat([varInt(b.length), b]);
  /** BIP144: version, 00 01, the legacy body, each input's witness stack, lock time. */
  const withWitnesses = (unsigned: Uint8Array, stacks: Uint8Array[][]) =>
    concat([
      unsigned.subarray(0, 4),
      '0x0001',
      unsigned.subarray(4, unsigned.length - 4),
      ...stacks.map((stack) => concat([varInt(stack.length), ...stack.map(item)])),
      unsigned.subarray(unsigned.length - 4),
    ]);
  const empty = new Uint8Array(0);
  const baseWitness = () => [empty, ...Array.from({ length: fed.threshold }, () => empty), empty, fed.redeemScript];

  it('serializes the queue, the peg-outs waiting for confirmations and for signatures in rskj order', async () => {
    const state = new MerkleStateManager();
    const storage = new BridgeStorage(state);
    const queue = [
      { script: p2pkh(0xaa), amount: 300_000n, rskTxHash: hash(0x01, 0x01) },
      { script: p2pkh(0xbb), amount: 1_000_000n, rskTxHash: hash(0x02, 0x02) },
    ];
    await writePegoutQueue(storage, queue);
    // Waiting for confirmations: stored 0x99 first, serialized by the transactions' bytes (0x55 first).
    const confirmA = { unsigned: unsignedTx(0x99, 1), outpointValues: [500_000n], redeemScripts: [GENESIS_FEDERATION.redeemScript], blockNumber: 7n, rskTxHash: hash(0x03, 0x03) };
    const confirmB = { unsigned: unsignedTx(0x55, 1), outpointValues: [600_000n], redeemScripts: [GENESIS_FEDERATION.redeemScript], blockNumber: 9n, rskTxHash: hash(0x04, 0x04) };
    await writeWaitingForConfirmations(storage, [confirmA, confirmB]);
    // Waiting for signatures: Keccak256.compareTo reads from the last byte, so 0x02..01 sorts before 0x01..02.
    const der = hexToBytes('3044' + '0220' + '01'.repeat(32) + '0220' + '02'.repeat(32));
    const signA = { rskTxHash: hash(0x01, 0x02), unsigned: unsignedTx(0x66, 2), outpointValues: [1n, 2n], redeemScripts: [GENESIS_FEDERATION.redeemScript, GENESIS_FEDERATION.redeemScript], signatures: [[{ keyIndex: 1, der }], []] };
    const signB = { rskTxHash: hash(0x02, 0x01), unsigned: unsignedTx(0x77, 1), outpointValues: [3n], redeemScripts: [GENESIS_FEDERATION.redeemScript], signatures: [[]] };
    await writeWaitingForSignatures(storage, [signA, signB]);
    await writeNextPegoutHeight(storage, 57n);

    const signedInputA = [empty, getBytes(concat([der, '0x01'])), ...Array.from({ length: fed.threshold - 1 }, () => empty), empty, fed.redeemScript];
    const expectedSignatures = [
      '0x' + bytesToHex(signB.rskTxHash),
      withWitnesses(signB.unsigned, [baseWitness()]),
      '0x' + bytesToHex(signA.rskTxHash),
      withWitnesses(signA.unsigned, [signedInputA, baseWitness()]),
    ];
    const release = decodeRlp(await callGetter(state, 'getStateForBtcReleaseClient'));
    expect(release).toEqual([expectedSignatures]);

    const debug = decodeRlp(await callGetter(state, 'getStateForDebugging')) as string[];
    expect(debug).toHaveLength(6);
    expect(debug[0]).toBe('0x');
    expect(decodeRlp(debug[2]!)).toEqual(expectedSignatures);
    expect(decodeRlp(debug[3]!)).toEqual([
      '0x' + 'aa'.repeat(20), '0x0493e0', '0x' + bytesToHex(queue[0]!.rskTxHash),
      '0x' + 'bb'.repeat(20), '0x0f4240', '0x' + bytesToHex(queue[1]!.rskTxHash),
    ]);
    expect(decodeRlp(debug[4]!)).toEqual([
      withWitnesses(confirmB.unsigned, [baseWitness()]), '0x09', '0x' + bytesToHex(confirmB.rskTxHash),
      withWitnesses(confirmA.unsigned, [baseWitness()]), '0x07', '0x' + bytesToHex(confirmA.rskTxHash),
    ]);
    expect(decodeRlp(debug[5]!)).toBe('0x39');
    // The SVP client's state holds only an SVP spend transaction, never a regular peg-out.
    expect(await callGetter(state, 'getStateForSvpClient')).toBe('0xc1c0');
  });
});

/** Calls the Bridge's getter `name` (no arguments, returns bytes) on `state`; its bytes as hex. */
async function callGetter(state: MerkleStateManager, name: string): Promise<string> {
  const getter = new Interface([`function ${name}() returns (bytes)`]);
  const result = await bridgeContract.call({
    data: hexToBytes(getter.encodeFunctionData(name).slice(2)),
    gasLimit: 4_000_000n,
    caller: new Uint8Array(20),
    origin: new Uint8Array(20),
    value: 0n,
    depth: 0,
    isStatic: false,
    callType: 'CALL',
    localCall: true,
    block: { number: 1n, timestamp: 1n, coinbase: new Uint8Array(20), minimumGasPrice: 0n, gasLimit: 7_500_000n, difficulty: 1n },
    headerAt: async () => undefined,
    state,
  } satisfies NativeCall);
  expect(result.error).toBeUndefined();
  return getter.decodeFunctionResult(name, result.returnValue)[0] as string;
}
