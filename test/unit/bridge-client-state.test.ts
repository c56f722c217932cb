/**
 * getStateForDebugging's bytes with federation UTXOs recorded (rskj BridgeState.getEncoded over
 * bitcoinj's UTXO.serializeToStream), the expected value built here with ethers' RLP coder from
 * rskj's call sequence: [encodeBigInteger(height), encodeElement(encodeList(encodeElement(utxo)...)),
 * encodeElement(0xc0) x 3, encodeElement(encodeBigInteger(nextPegoutHeight))].
 */
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { Interface, concat, encodeRlp } from 'ethers';
import { describe, expect, it } from 'vitest';
import { bridgeContract } from '../../src/chain/native/bridge/index.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { writeFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import type { NativeCall } from '../../src/chain/native/types.js';

const iface = new Interface(['function getStateForDebugging() returns (bytes)']);
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
    await writeFederationUtxos(new BridgeStorage(state), [{ txid, vout: 1, value: 500_000n, height: 104, script }]);

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

    const result = await bridgeContract.call({
      data: hexToBytes(iface.encodeFunctionData('getStateForDebugging').slice(2)),
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
    expect(iface.decodeFunctionResult('getStateForDebugging', result.returnValue)[0]).toBe(expected);
  });
});
