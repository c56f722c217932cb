/**
 * A peg-out batch over bitcoinj's maximum transaction size (Transaction.MAX_STANDARD_TX_SIZE,
 * 100,000 bytes, the real limit): BridgeSupport.processPegoutsInBatch halves the batch until it
 * fits, the rest stay queued and the next updateCollections batches them. 400 requests of 490,000
 * sat over 400 federation UTXOs of 500,000 sat need ~392 inputs (~130 kB with their base
 * witnesses); half of them (200 requests, ~196 inputs) fit.
 */
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { hexToBytes } from '@noble/hashes/utils.js';
import { Interface } from 'ethers';
import { RawTx } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { bridgeContract } from '../../src/chain/native/bridge/index.js';
import { bridgeEventTopic } from '../../src/chain/native/bridge/events.js';
import { GENESIS_FEDERATION, federationOutputScript } from '../../src/chain/native/bridge/federation.js';
import {
  readNextPegoutHeight,
  readPegoutQueue,
  readWaitingForConfirmations,
  writePegoutQueue,
} from '../../src/chain/native/bridge/pegout-store.js';
import { MAX_STANDARD_TX_SIZE, buildReleaseTx, rskjReleaseTxBytes } from '../../src/chain/native/bridge/release-tx.js';
import { feePerKb } from '../../src/chain/native/bridge/governance.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { readFederationUtxos, writeFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import type { NativeCall } from '../../src/chain/native/types.js';

const BRIDGE = new Address(hexToBytes('0000000000000000000000000000000001000006'));
/** The genesis federation's first federator (rootstock-integration-tests fed1.key). */
const FED1 = hexToBytes('85845342b0d5260d516d6da5280a7df9a96d1925');
const REQUESTS = 400;
const UTXO_SAT = 500_000n;
const REQUEST_SAT = 490_000n;
const iface = new Interface(['function updateCollections()']);

const p2pkh = (i: number) => Uint8Array.from([0x76, 0xa9, 20, ...new Uint8Array(18), i >> 8, i & 0xff, 0x88, 0xac]);
const hash = (i: number, tag: number) => {
  const h = new Uint8Array(32);
  h[0] = tag;
  h[30] = i >> 8;
  h[31] = i & 0xff;
  return h;
};

async function updateCollections(state: MerkleStateManager, blockNumber: bigint, txTag: number) {
  const result = await bridgeContract.call({
    data: hexToBytes(iface.encodeFunctionData('updateCollections').slice(2)),
    gasLimit: 10_000_000n,
    caller: FED1,
    origin: FED1,
    value: 0n,
    depth: 0,
    isStatic: false,
    callType: 'CALL',
    localCall: false,
    block: { number: blockNumber, timestamp: 1n, coinbase: new Uint8Array(20), minimumGasPrice: 0n, gasLimit: 7_500_000n, difficulty: 1n },
    headerAt: async () => undefined,
    state,
    tx: { hash: hash(0, txTag), signerPublicKey: undefined },
  } satisfies NativeCall);
  expect(result.error).toBeUndefined();
  return result.logs!;
}

describe('a peg-out batch over the maximum Bitcoin transaction size', () => {
  it('is halved: the first half is batched, the second half by the next updateCollections', async () => {
    const state = new MerkleStateManager();
    await state.putAccount(BRIDGE, new Account(0n, 21_000_000n * 10n ** 18n));
    const storage = new BridgeStorage(state);
    const script = federationOutputScript(GENESIS_FEDERATION);
    await writeFederationUtxos(
      storage,
      Array.from({ length: REQUESTS }, (_, i) => ({ txid: hash(i, 0xee), vout: 0, value: UTXO_SAT, height: 1, script, redeemScript: GENESIS_FEDERATION.redeemScript })),
    );
    const queue = Array.from({ length: REQUESTS }, (_, i) => ({ script: p2pkh(i), amount: REQUEST_SAT, rskTxHash: hash(i, 0x01) }));
    await writePegoutQueue(storage, queue);

    // The whole queue in one transaction is over the limit.
    const whole = buildReleaseTx(GENESIS_FEDERATION, await readFederationUtxos(storage), queue, await feePerKb(storage));
    expect(whole).toEqual({ error: 'EXCEED_MAX_TRANSACTION_SIZE' });

    const first = await updateCollections(state, 10n, 0xa1);
    const batchTopic = '0x' + Buffer.from(bridgeEventTopic('batch_pegout_created')).toString('hex');
    const batch = first.find(([, topics]) => '0x' + Buffer.from(topics[0]!).toString('hex') === batchTopic)!;
    // batch_pegout_created lists the first half's request hashes, in queue order.
    const [, , data] = batch;
    const listed = Buffer.from(data).toString('hex');
    expect(listed).toContain(Buffer.from(queue[0]!.rskTxHash).toString('hex'));
    expect(listed).toContain(Buffer.from(queue[REQUESTS / 2 - 1]!.rskTxHash).toString('hex'));
    expect(listed).not.toContain(Buffer.from(queue[REQUESTS / 2]!.rskTxHash).toString('hex'));

    const [waiting] = await readWaitingForConfirmations(storage);
    const tx = RawTx.decode(waiting!.unsigned);
    expect(tx.outputs.length).toBe(REQUESTS / 2); // 196 inputs cover 200 x 490,000 sat exactly: no change
    expect(rskjReleaseTxBytes(waiting!.unsigned, GENESIS_FEDERATION).length).toBeLessThanOrEqual(MAX_STANDARD_TX_SIZE);
    expect((await readPegoutQueue(storage)).map((r) => r.rskTxHash)).toEqual(queue.slice(REQUESTS / 2).map((r) => r.rskTxHash));
    // The queue is not empty: the next peg-out height is left as it was, so the rest go at once.
    expect(await readNextPegoutHeight(storage)).toBe(0n);

    await updateCollections(state, 11n, 0xa2);
    expect(await readPegoutQueue(storage)).toEqual([]);
    expect(await readWaitingForConfirmations(storage)).toHaveLength(2);
    expect(await readNextPegoutHeight(storage)).toBe(11n + 50n);
    const spent = (await readWaitingForConfirmations(storage)).reduce((n, e) => n + RawTx.decode(e.unsigned).inputs.length, 0);
    expect((await readFederationUtxos(storage)).length).toBe(REQUESTS - spent);
  });
});
