/**
 * The Bridge's peg-in handlers called directly on a state and a Bitcoin chain built here, for the
 * cases a wallet test cannot reach on this node: a multisig sender (refunded: the node's Bitcoin
 * chain does not verify multisig spends, the Bridge does not need to) and the coinbase
 * registration's own checks.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Transaction, p2ms, p2sh, p2wsh } from '@scure/btc-signer';
import { type BtcBlock, genesisBlock, mineBlock } from '../../src/chain/btc-chain/block.js';
import { BLOCK_VERSION, GENESIS_TIME } from '../../src/chain/btc-chain/constants.js';
import { parseTransaction } from '../../src/chain/btc-chain/transaction.js';
import { bridgeContract } from '../../src/chain/native/bridge/index.js';
import { bridgeEventTopic } from '../../src/chain/native/bridge/events.js';
import { readWaitingForConfirmations } from '../../src/chain/native/bridge/pegout-store.js';
import { RawTx, OutScript } from '@scure/btc-signer';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { coinbaseInformationKey, processedHeight } from '../../src/chain/native/bridge/processed.js';
import { coinbaseRegistration, pegInRegistration } from '../../src/chain/federation/pegin-duty.js';
import type { NativeBtcChain, NativeCall } from '../../src/chain/native/types.js';
import { selector } from '../../src/chain/native/abi.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const BRIDGE = new Address(Uint8Array.from(Buffer.from('0000000000000000000000000000000001000006', 'hex')));
const key = (name: string) => createHash('sha256').update(`pegin handler key ${name}`).digest();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A chain of `confirmations` blocks over genesis, `txs` in the first. */
function chainWith(txs: Uint8Array[], confirmations: number): NativeBtcChain & { blocks: BtcBlock[] } {
  const blocks = [genesisBlock()];
  for (let h = 1; h <= confirmations; h++) {
    blocks.push(
      mineBlock({
        height: h,
        parent: blocks[h - 1]!.hash,
        time: GENESIS_TIME + h,
        version: BLOCK_VERSION,
        coinbaseValue: 5_000_000_000n,
        coinbaseScript: Uint8Array.of(0x51),
        transactions: h === 1 ? txs.map(parseTransaction) : [],
      }),
    );
  }
  return {
    blocks,
    tip: blocks[blocks.length - 1]!,
    blockAt: (h) => blocks[h],
    blockByHash: (hash) => blocks.find((b) => hex(b.hash) === hex(hash)),
  };
}

async function bridgeState(): Promise<MerkleStateManager> {
  const state = new MerkleStateManager();
  await state.putAccount(BRIDGE, new Account(0n, 21_000_000n * 10n ** 18n));
  return state;
}

function callOf(data: Uint8Array, state: MerkleStateManager, btc: NativeBtcChain): NativeCall {
  return {
    data,
    gasLimit: 1_000_000n,
    caller: new Uint8Array(20).fill(1),
    origin: new Uint8Array(20).fill(1),
    value: 0n,
    depth: 0,
    isStatic: false,
    callType: 'CALL',
    localCall: false,
    block: { number: 7n, timestamp: 1n, coinbase: new Uint8Array(20), minimumGasPrice: 0n, gasLimit: 7_500_000n, difficulty: 1n },
    headerAt: async () => undefined,
    state,
    btc,
  };
}

/** A P2SH-P2WSH 1-of-2 multisig spend (of a made-up outpoint) paying the federation. */
function multisigPegIn() {
  const privs = [key('a'), key('b')];
  const payment = p2sh(p2wsh(p2ms(1, privs.map((p) => secp256k1.getPublicKey(p, true)))), REGTEST);
  const tx = new Transaction();
  tx.addInput({ txid: '22'.repeat(32), index: 0, witnessUtxo: { script: payment.script, amount: 3_000_000n }, redeemScript: payment.redeemScript, witnessScript: payment.witnessScript });
  tx.addOutputAddress('2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7', 2_000_000n, REGTEST);
  tx.sign(privs[0]!);
  tx.finalize();
  return { raw: tx.toBytes(true, true), payment };
}

describe('registerBtcTransaction with a multisig sender', () => {
  it('is rejected (reason 2) and refunded: marked processed, the refund built to its P2SH (release_requested, pegout_transaction_created), no RBTC moved', async () => {
    const { raw, payment } = multisigPegIn();
    const btc = chainWith([raw], 3);
    const state = await bridgeState();
    const block = btc.blocks[1]!;
    // A segwit peg-in proves against the witness root: without the coinbase registered, it is ignored.
    const early = await bridgeContract.call(callOf(pegInRegistration(block, 1), state, btc));
    expect(early.error).toBeUndefined();
    expect(early.logs).toEqual([]);
    expect((await bridgeContract.call(callOf(coinbaseRegistration(block), state, btc))).error).toBeUndefined();
    const result = await bridgeContract.call(callOf(pegInRegistration(block, 1), state, btc));
    expect(result.error).toBeUndefined();
    const txid = parseTransaction(raw).txid;
    expect(result.logs!.map(([, topics]) => hex(topics[0]!))).toEqual([
      hex(bridgeEventTopic('rejected_pegin')),
      hex(bridgeEventTopic('release_requested')),
      hex(bridgeEventTopic('pegout_transaction_created')),
    ]);
    const [, rejectedTopics, rejectedData] = result.logs![0]!;
    expect([hex(rejectedTopics[1]!), hex(rejectedData)]).toEqual([hex(Uint8Array.from(txid).reverse()), '00'.repeat(31) + '02']);
    const storage = new BridgeStorage(state);
    expect(await processedHeight(storage, txid)).toBe(7n);
    // The refund: the peg-in's output back to the multisig's P2SH, less 1 input 1 output's fee (177 vB x 100 sat/vB).
    const [refund] = await readWaitingForConfirmations(storage);
    expect(refund!.outpointValues).toEqual([2_000_000n]);
    const refundTx = RawTx.decode(refund!.unsigned);
    expect(refundTx.inputs.map((i) => hex(i.txid))).toEqual([hex(Uint8Array.from(txid).reverse())]);
    expect(refundTx.outputs).toEqual([{ amount: 2_000_000n - 17_700n, script: OutScript.encode({ type: 'sh', hash: payment.hash }) }]);
    expect((await state.getAccount(BRIDGE))!.balance).toBe(21_000_000n * 10n ** 18n);
  });
});

describe('registerBtcCoinbaseTransaction', () => {
  it('fails for an unknown block and for a witness root the coinbase does not commit to', async () => {
    const { raw } = multisigPegIn();
    const btc = chainWith([raw], 3);
    const state = await bridgeState();
    const good = coinbaseRegistration(btc.blocks[1]!);
    // Arguments: tx, blockHash, pmt, witnessRoot, reserved; the head words at 4 + 32*i.
    const wrongRoot = Uint8Array.from(good);
    wrongRoot[4 + 32 * 3 + 31]! ^= 1;
    expect((await bridgeContract.call(callOf(wrongRoot, state, btc))).error).toBe('failure');
    const unknownBlock = Uint8Array.from(good);
    unknownBlock[4 + 32 * 1 + 31]! ^= 1;
    expect((await bridgeContract.call(callOf(unknownBlock, state, btc))).error).toBe('failure');
    // Block 2's coinbase and proof named as block 1's (blockHash word replaced): the proof's root is
    // not block 1's, so rskj ignores it (no failure, nothing recorded).
    const otherProof = coinbaseRegistration(btc.blocks[2]!);
    otherProof.set(good.subarray(4 + 32, 4 + 64), 4 + 32);
    expect((await bridgeContract.call(callOf(otherProof, state, btc))).error).toBeUndefined();
    const has = await bridgeContract.call(callOf(hasCoinbaseInformation(btc.blocks[1]!), state, btc));
    expect(hex(has.returnValue)).toBe('00'.repeat(32));
    expect((await bridgeContract.call(callOf(good, state, btc))).error).toBeUndefined();
    expect(hex((await bridgeContract.call(callOf(hasCoinbaseInformation(btc.blocks[1]!), state, btc))).returnValue)).toBe('00'.repeat(31) + '01');
  });

  it('stores under rskj\'s key coinbaseInformation-<block hash>, the entry hasBtcBlockCoinbaseTransactionInformation reads', async () => {
    const { raw } = multisigPegIn();
    const btc = chainWith([raw], 3);
    const state = await bridgeState();
    expect((await bridgeContract.call(callOf(coinbaseRegistration(btc.blocks[1]!), state, btc))).error).toBeUndefined();
    const displayHash = hex(Uint8Array.from(btc.blocks[1]!.hash).reverse());
    const storage = new BridgeStorage(state);
    expect(coinbaseInformationKey(displayHash)).toBe(`coinbaseInformation-${displayHash}`);
    const stored = await storage.get(`coinbaseInformation-${displayHash}`);
    expect(stored.length).toBe(32);
    // Cleared by hand, the getter no longer sees it: it reads that very entry.
    await storage.set(`coinbaseInformation-${displayHash}`, new Uint8Array(0));
    expect(hex((await bridgeContract.call(callOf(hasCoinbaseInformation(btc.blocks[1]!), state, btc))).returnValue)).toBe('00'.repeat(32));
    // Written by hand under that key, the getter sees it.
    await storage.set(`coinbaseInformation-${displayHash}`, stored);
    expect(hex((await bridgeContract.call(callOf(hasCoinbaseInformation(btc.blocks[1]!), state, btc))).returnValue)).toBe('00'.repeat(31) + '01');
  });
});

/** hasBtcBlockCoinbaseTransactionInformation(blockHash) call data. */
function hasCoinbaseInformation(block: BtcBlock): Uint8Array {
  return Uint8Array.from([...selector('hasBtcBlockCoinbaseTransactionInformation', ['bytes32']), ...Uint8Array.from(block.hash).reverse()]);
}
