/**
 * The peg-out end to end through a real node, as a dApp and the federators drive it with ethers:
 * RBTC sent to the Bridge, the batch (updateCollections), the signatures of two federators
 * (addSignature), the released Bitcoin transaction mined on the node's Bitcoin chain, and the BTC
 * in the user's address. The federation's UTXOs are seeded with a real Bitcoin payment to the
 * federation, written into the Bridge's storage through test/helpers/bridge-storage.ts (until the
 * peg-in registers them).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbiCoder, Contract, JsonRpcProvider, Wallet, decodeRlp, parseEther, type Log, type TransactionReceipt } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { Address as BtcAddress, OutScript, RawTx, Script, Transaction, p2pkh } from '@scure/btc-signer';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';
import { BRIDGE, bridgeContract } from '../helpers/bridge-contract.js';
import type { NodeOptions } from '../../src/index.js';
import { bridgeStorageOverRpc } from '../helpers/bridge-storage.js';
import { readFederationUtxos, writeFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import { readWaitingForSignatures } from '../../src/chain/native/bridge/pegout-store.js';
import { releaseSighashes } from '../../src/chain/native/bridge/release-tx.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import { segwitPegoutTxSize } from '../../src/chain/native/bridge/getters.js';
import { RIT_BRIDGE_TOPICS } from '../fixtures/rit-bridge-topics.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
/** rootstock-integration-tests config/node-keys/genesis-federation/fed2.key, fed3.key. */
const FED2 = '0x505334c7745df2fc61486dffb900784505776a898377172ffa77384892749179';
const FED3 = '0xbed0af2ce8aa8cb2bc3f9416c9d518fdee15d1ff15b8ded28376fcb23db6db69';
const WEI_PER_SAT = 10n ** 10n;
const FEE_PER_KB = 100_000n;
const abi = AbiCoder.defaultAbiCoder();

/** topic0 of each Bridge event: the hashes rootstock-integration-tests expects. */
const TOPIC = RIT_BRIDGE_TOPICS;
const EVENT_BY_TOPIC = new Map(Object.entries(TOPIC).map(([name, topic]) => [topic, name]));

const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const eventNames = (receipt: TransactionReceipt | null) => receipt!.logs.map((l) => EVENT_BY_TOPIC.get(l.topics[0] as never) ?? l.topics[0]);
const logOf = (receipt: TransactionReceipt | null, name: keyof typeof TOPIC): Log => receipt!.logs.find((l) => l.topics[0] === TOPIC[name])!;

let t: TestNode;
let provider: JsonRpcProvider;
let user: Wallet;
let fed2: Wallet;
let fed3: Wallet;
let bridge: Contract;

/** A node whose federation is driven by the test (autoPegout false) unless `auto`. */
async function start(auto = false, options: NodeOptions = {}): Promise<void> {
  t = await startTestNode({ autoPegout: auto, ...options });
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  user = new Wallet(COW.privateKey, provider);
  fed2 = new Wallet(FED2, provider);
  fed3 = new Wallet(FED3, provider);
  bridge = bridgeContract(provider);
}
beforeEach(() => start());
afterEach(async () => {
  provider?.destroy();
  await t?.close();
});

/** Pays the federation `satoshis` from the faucet in a mined Bitcoin block and records the UTXO in the Bridge. */
async function seedFederationUtxo(satoshis: number): Promise<{ txid: string; vout: number }> {
  const txid: string = await call(t.testnetUrl, 'btc_fund', [GENESIS_FEDERATION.address, satoshis]);
  await call(t.testnetUrl, 'btc_mine', [1]);
  const coins: { txid: string; vout: number; amount: number; height: number }[] = await call(t.testnetUrl, 'btc_listUnspent', [GENESIS_FEDERATION.address]);
  const coin = coins.find((c) => c.txid === txid)!;
  const script = OutScript.encode(BtcAddress(REGTEST).decode(GENESIS_FEDERATION.address));
  await writeFederationUtxos(bridgeStorageOverRpc(t.testnetUrl), [
    { txid: hexToBytes(coin.txid), vout: coin.vout, value: BigInt(coin.amount), height: coin.height, script, redeemScript: GENESIS_FEDERATION.redeemScript },
  ]);
  return coin;
}

async function fundFederators(): Promise<void> {
  const cow = new Wallet(COW.privateKey, provider);
  for (const fed of [fed2, fed3]) await (await cow.sendTransaction({ to: fed.address, value: parseEther('1') })).wait();
}

async function updateCollections(from: Wallet): Promise<TransactionReceipt | null> {
  return (await (bridge.connect(from) as Contract).updateCollections!({ gasLimit: 300_000 })).wait();
}

/** What a federator's signer does: read the batch waiting for signatures, sign each input's BIP143 sighash. */
async function signAsFederator(fed: Wallet, rskTxHash: string): Promise<TransactionReceipt | null> {
  const waiting = await readWaitingForSignatures(bridgeStorageOverRpc(t.testnetUrl));
  const entry = waiting.find((e) => `0x${bytesToHex(e.rskTxHash)}` === rskTxHash)!;
  const digests = releaseSighashes(entry.unsigned, entry.redeemScripts, entry.outpointValues);
  const key = hexToBytes(fed.privateKey.slice(2));
  const sigs = digests.map((d) => `0x${bytesToHex(secp256k1.sign(d, key, { prehash: false, format: 'der' }))}`);
  const pubKey = `0x${bytesToHex(secp256k1.getPublicKey(key, true))}`;
  return (await (bridge.connect(fed) as Contract).addSignature!(pubKey, sigs, rskTxHash, { gasLimit: 300_000 })).wait();
}

describe('peg-out', () => {
  it('ends with the BTC in the user\'s address, every event of the lifecycle in order', async () => {
    await seedFederationUtxo(5_000_000);
    await fundFederators();
    const bridgeBefore = await provider.getBalance(BRIDGE);
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    const requested = 1_000_000n; // satoshis

    // 1. The request: RBTC to the Bridge with empty data, as a wallet sends it (ethers estimates the gas).
    const request = await (await user.sendTransaction({ to: BRIDGE, value: requested * WEI_PER_SAT })).wait();
    expect(request!.status).toBe(1);
    expect(eventNames(request)).toEqual(['release_request_received']);
    const received = logOf(request, 'release_request_received');
    expect(received.topics[1]).toBe(word(COW.address));
    expect(abi.decode(['string', 'uint256'], received.data).toArray()).toEqual([destination, requested * WEI_PER_SAT]);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(1n);
    expect(await bridge.getNextPegoutCreationBlockNumber!()).toBe(0n);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore + requested * WEI_PER_SAT);

    // 2. The batch, at or after the next peg-out height (0: at once).
    const batch = await updateCollections(fed2);
    expect(eventNames(batch)).toEqual(['update_collections', 'release_requested', 'pegout_transaction_created', 'batch_pegout_created']);
    expect(abi.decode(['address'], logOf(batch, 'update_collections').data)[0]).toBe(fed2.address);
    const releaseRequested = logOf(batch, 'release_requested');
    expect(releaseRequested.topics[1]).toBe(batch!.hash);
    const btcTxHash = releaseRequested.topics[2]!;
    expect(abi.decode(['uint256'], releaseRequested.data)[0]).toBe(requested);
    const created = logOf(batch, 'pegout_transaction_created');
    expect(created.topics[1]).toBe(btcTxHash);
    expect(abi.decode(['bytes'], created.data)[0]).toBe('0xfe404b4c00'); // VarInt(5,000,000)
    const batchCreated = logOf(batch, 'batch_pegout_created');
    expect(batchCreated.topics[1]).toBe(btcTxHash);
    expect(abi.decode(['bytes'], batchCreated.data)[0]).toBe(request!.hash);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
    expect(await bridge.getNextPegoutCreationBlockNumber!()).toBe(BigInt(batch!.blockNumber) + 50n);

    // 3. Three RSK confirmations (block - batch block >= 3), then updateCollections moves it to waiting-for-signatures.
    await call(t.testnetUrl, 'evm_mine');
    const early = await updateCollections(fed3); // two blocks after the batch
    expect(early!.blockNumber - batch!.blockNumber).toBe(2);
    expect(eventNames(early)).toEqual(['update_collections']);
    const confirm = await updateCollections(fed3);
    expect(eventNames(confirm)).toEqual(['update_collections', 'pegout_confirmed']);
    const confirmed = logOf(confirm, 'pegout_confirmed');
    expect(confirmed.topics[1]).toBe(btcTxHash);
    expect(abi.decode(['uint256'], confirmed.data)[0]).toBe(BigInt(batch!.blockNumber));
    expect((await call(t.testnetUrl, 'eth_bridgeState')).rskTxsWaitingForSignatures).toEqual([batch!.hash.slice(2)]);

    // 4. Two of three federators sign; the second signature releases the transaction.
    const first = await signAsFederator(fed2, batch!.hash);
    expect(eventNames(first)).toEqual(['add_signature']);
    const added = logOf(first, 'add_signature');
    expect(added.topics.slice(1)).toEqual([batch!.hash, word(fed2.address)]);
    expect(abi.decode(['bytes'], added.data)[0]).toBe(`0x${bytesToHex(secp256k1.getPublicKey(hexToBytes(FED2.slice(2)), true))}`);
    // What a federator's client reads meanwhile (regression: getStateForBtcReleaseClient failed while
    // peg-outs were pending): the batch keyed by its creation tx, with fed2's signature in its witness.
    const [waitingForSignatures] = decodeRlp(await bridge.getStateForBtcReleaseClient!()) as string[][];
    expect(waitingForSignatures).toHaveLength(2);
    expect(waitingForSignatures![0]).toBe(batch!.hash);
    const pending = RawTx.decode(hexToBytes(waitingForSignatures![1]!.slice(2)));
    expect(pending.outputs[0]!.script).toEqual(OutScript.encode(BtcAddress(REGTEST).decode(destination)));
    const [witness] = pending.witnesses!;
    expect(witness!.map((item) => item.length > 0)).toEqual([false, true, false, false, true]); // [0, fed2 sig, placeholder, NOTIF, script]
    expect(witness![4]).toEqual(GENESIS_FEDERATION.redeemScript);
    const second = await signAsFederator(fed3, batch!.hash);
    expect(eventNames(second)).toEqual(['add_signature', 'release_btc']);
    const release = logOf(second, 'release_btc');
    expect(release.topics[1]).toBe(batch!.hash);
    const rawTx = abi.decode(['bytes'], release.data)[0] as string;
    expect((await call(t.testnetUrl, 'eth_bridgeState')).rskTxsWaitingForSignatures).toEqual([]);

    // 5. The released transaction on the Bitcoin chain: the user's P2PKH gets the amount minus its fee share.
    const txid: string = await call(t.testnetUrl, 'btc_sendRawTransaction', [rawTx]);
    expect(`0x${txid}`).toBe(btcTxHash);
    await call(t.testnetUrl, 'btc_mine', [1]);
    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 2))) / 1000n;
    const coins = await call(t.testnetUrl, 'btc_listUnspent', [destination]);
    expect(coins).toEqual([expect.objectContaining({ txid, vout: 0, amount: Number(requested - fee), confirmations: 1 })]);
    const federationCoins: { txid: string; amount: number }[] = await call(t.testnetUrl, 'btc_listUnspent', [GENESIS_FEDERATION.address]);
    expect(federationCoins.filter((c) => c.txid === txid).map((c) => c.amount)).toEqual([5_000_000 - Number(requested)]);
  });

  it('regression (issue 24 D1): RBTC sent to the Bridge with empty data no longer fails burning the whole gas limit', async () => {
    const receipt = await (await user.sendTransaction({ to: BRIDGE, value: parseEther('0.01'), gasLimit: 1_000_000 })).wait();
    expect(receipt!.status).toBe(1);
    expect(receipt!.gasUsed).toBe(21_000n + 23_000n); // intrinsic + releaseBtc's fixed cost, no data
    expect(eventNames(receipt)).toEqual(['release_request_received']);
  });

  it('refunds a request below 250,000 sat in wei (release_request_rejected, reason LOW_AMOUNT)', async () => {
    const value = 249_999n * WEI_PER_SAT + 1n;
    const before = await provider.getBalance(user.address);
    const bridgeBefore = await provider.getBalance(BRIDGE);
    const receipt = await (await user.sendTransaction({ to: BRIDGE, value })).wait();
    expect(eventNames(receipt)).toEqual(['release_request_rejected']);
    const log = logOf(receipt, 'release_request_rejected');
    expect(log.topics[1]).toBe(word(user.address));
    expect(abi.decode(['uint256', 'int256'], log.data).toArray()).toEqual([value, 1n]);
    // Only the gas is gone: the value came back to the wei.
    expect(await provider.getBalance(user.address)).toBe(before - receipt!.gasUsed * receipt!.gasPrice);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
  });

  it("rejects a contract's request (reason CALLER_CONTRACT) and the Bridge keeps the value", async () => {
    // Runtime: CALL the Bridge with CALLVALUE and no data; init copies it.
    const runtime = '6000600060006000347300000000000000000000000000000000010000065af100';
    const init = `0x60${(runtime.length / 2).toString(16)}600c60003960${(runtime.length / 2).toString(16)}6000f3${runtime}`;
    const deployed = await (await user.sendTransaction({ data: init })).wait();
    const relay = deployed!.contractAddress!;
    const value = parseEther('0.01');
    const bridgeBefore = await provider.getBalance(BRIDGE);
    const receipt = await (await user.sendTransaction({ to: relay, value, gasLimit: 200_000 })).wait();
    expect(eventNames(receipt)).toEqual(['release_request_rejected']);
    const log = logOf(receipt, 'release_request_rejected');
    expect(log.topics[1]).toBe(word(relay));
    expect(abi.decode(['uint256', 'int256'], log.data).toArray()).toEqual([value, 2n]);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore + value);
    expect(await provider.getBalance(relay)).toBe(0n);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
  });

  it('evm_revert undoes a queued request', async () => {
    const bridgeBefore = await provider.getBalance(BRIDGE);
    const snapshot = await call(t.testnetUrl, 'evm_snapshot');
    await (await user.sendTransaction({ to: BRIDGE, value: parseEther('0.01') })).wait();
    expect(await bridge.getQueuedPegoutsCount!()).toBe(1n);
    expect(await call(t.testnetUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
    expect(await provider.getBalance(BRIDGE)).toBe(bridgeBefore);
  });

  it('updateCollections and addSignature fail for a caller outside the federation', async () => {
    const asUser = bridge.connect(user) as Contract;
    const mined = async (sent: Promise<{ hash: string }>) => provider.getTransactionReceipt((await sent).hash);
    const update = await mined(asUser.updateCollections!({ gasLimit: 300_000 }));
    expect(update!.status).toBe(0);
    expect(update!.logs).toEqual([]);
    const sign = await mined(asUser.addSignature!(`0x${bytesToHex(GENESIS_FEDERATION.members[0]!)}`, ['0x3006020101020101'], `0x${'11'.repeat(32)}`, { gasLimit: 300_000 }));
    expect(sign!.status).toBe(0);
  });

  it('estimates the next peg-out fee from a simulated batch once the federation has UTXOs (RSKIP540)', async () => {
    expect(await bridge.getEstimatedFeesForNextPegOutEvent!()).toBe(34_400n); // no UTXOs: the size formula
    await seedFederationUtxo(5_000_000);
    // The simulation: one 250,000-sat peg-out from one UTXO, with change.
    const oneOut = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 2))) / 1000n;
    expect(await bridge.getEstimatedFeesForNextPegOutEvent!()).toBe(oneOut);
    const amountAbi = ['function getEstimatedFeesForPegOutAmount(uint256) view returns (uint256)'];
    const feeFor = new Contract(BRIDGE, amountAbi, provider);
    expect(await feeFor.getEstimatedFeesForPegOutAmount!(1_000_000n * WEI_PER_SAT)).toBe(oneOut);
    await expect(feeFor.getEstimatedFeesForPegOutAmount!(249_999n * WEI_PER_SAT)).rejects.toThrow();
  });

  it("is carried through by the node's federation on its own: a peg-out in seconds, the change back in the Bridge's UTXOs", async () => {
    await t.close();
    provider.destroy();
    await start(true);
    const utxo = await seedFederationUtxo(5_000_000);
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    const requested = 1_000_000n;
    const request = await (await user.sendTransaction({ to: BRIDGE, value: requested * WEI_PER_SAT })).wait();
    expect(eventNames(request)).toEqual(['release_request_received']);

    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 2))) / 1000n;
    // Done by the time the send answered: the federation's steps run before it does.
    const coins: { txid: string; amount: number; confirmations: number }[] = await call(t.testnetUrl, 'btc_listUnspent', [destination]);
    expect(coins).toEqual([expect.objectContaining({ amount: Number(requested - fee), confirmations: 3 })]);
    const releaseTxid = coins[0]!.txid;

    // Every event of the lifecycle, in order, from the Bridge.
    const logs = await provider.getLogs({ address: BRIDGE, fromBlock: request!.blockNumber });
    // The seed (a faucet payment from a native P2WPKH) reached 3 confirmations with the release's
    // blocks, and the peg-in duty registered it as rskj would: rejected, unrefundable (sender undetermined).
    const seedTopic = `0x${utxo.txid}`;
    expect(logs.filter((l) => l.topics[1] === seedTopic).map((l) => l.topics[0])).toEqual([
      '0x708ce1ead20561c5894a93be3fee64b326b2ad6c198f8253e4bb56f1626053d6',
      '0x35be155c87e408cbbcb753dc12f95fc5a242a29460a3d7189e807e63d7c185a7',
    ]);
    const names = logs.filter((l) => l.topics[1] !== seedTopic).map((l) => EVENT_BY_TOPIC.get(l.topics[0] as never));
    expect(names.filter((n) => n !== 'update_collections')).toEqual([
      'release_request_received',
      'release_requested',
      'pegout_transaction_created',
      'batch_pegout_created',
      'pegout_confirmed',
      'add_signature',
      'add_signature',
      'release_btc',
    ]);
    const released = logs.find((l) => l.topics[0] === TOPIC.release_btc)!;
    const batchTx = logs.find((l) => l.topics[0] === TOPIC.release_requested)!.transactionHash;
    expect(released.topics[1]).toBe(batchTx);
    expect(logs.find((l) => l.topics[0] === TOPIC.pegout_confirmed)!.blockNumber - logs.find((l) => l.topics[0] === TOPIC.release_requested)!.blockNumber).toBeGreaterThanOrEqual(3);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
    expect((await call(t.testnetUrl, 'eth_bridgeState')).rskTxsWaitingForSignatures).toEqual([]);

    // The change came back to the federation and the peg-in duty registered it (a peg-out type tx).
    const recorded = await readFederationUtxos(bridgeStorageOverRpc(t.testnetUrl));
    expect(recorded.map((u) => [bytesToHex(u.txid), u.value])).toEqual([[releaseTxid, 5_000_000n - requested]]);
  });

  it('without automine, goes on with the blocks the user mines (evm_mine)', async () => {
    await t.close();
    provider.destroy();
    await start(true, { mining: false });
    await seedFederationUtxo(5_000_000);
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    const sent = await user.sendTransaction({ to: BRIDGE, value: 1_000_000n * WEI_PER_SAT, gasLimit: 100_000 });
    const startBlock = await provider.getBlockNumber();
    // Each evm_mine answers once the federation has pooled its next step, which the next evm_mine mines.
    let coins: { amount: number }[] = [];
    let mined = 0;
    while (coins.length === 0 && mined < 20) {
      await call(t.testnetUrl, 'evm_mine');
      mined++;
      coins = await call(t.testnetUrl, 'btc_listUnspent', [destination]);
    }
    // The request, the batch, 3 confirmations (the batch block + 3), two signatures: 7 blocks.
    expect(mined).toBe(7);
    expect(coins).toHaveLength(1);
    expect((await provider.getTransactionReceipt(sent.hash))!.status).toBe(1);
    expect((await provider.getBlockNumber()) - startBlock).toBe(7);
  });

  it("refunds a rejected peg-in (invalid RSKT payload from a P2PKH sender) to the sender's address, through the same batch lifecycle", async () => {
    await t.close();
    provider.destroy();
    await start(true);
    const key = hexToBytes('44'.repeat(32));
    const sender = p2pkh(secp256k1.getPublicKey(key, true), REGTEST);
    const fundTxid: string = await call(t.testnetUrl, 'btc_fund', [sender.address, 1_000_000]);
    await call(t.testnetUrl, 'btc_mine', [1]);
    const prev = await call(t.testnetUrl, 'btc_getTransaction', [fundTxid]);
    const vout = (prev.vout as { n: number; address: string }[]).find((o) => o.address === sender.address)!.n;
    const pegin = new Transaction({ allowUnknownOutputs: true });
    pegin.addInput({ txid: fundTxid, index: vout, nonWitnessUtxo: hexToBytes(prev.hex) });
    pegin.addOutputAddress(GENESIS_FEDERATION.address, 800_000n, REGTEST);
    pegin.addOutput({ script: Script.encode(['RETURN', Uint8Array.from([...Buffer.from('RSKT'), 1, 0xaa])]), amount: 0n });
    pegin.addOutputAddress(sender.address!, 190_000n, REGTEST);
    pegin.sign(key);
    pegin.finalize();
    const peginTxid: string = await call(t.testnetUrl, 'btc_sendRawTransaction', [pegin.hex]);
    await call(t.testnetUrl, 'btc_mine', [3]); // the peg-in duty registers it: rejected_pegin(4), REFUND

    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 1))) / 1000n;
    // Done by the time btc_mine answered: the registration, then the refund's whole lifecycle.
    const coins: { txid: string; amount: number }[] = await call(t.testnetUrl, 'btc_listUnspent', [sender.address]);
    const refund = coins.find((c) => c.txid !== peginTxid)!;
    expect(refund.amount).toBe(800_000 - Number(fee));
    const refundTx = await call(t.testnetUrl, 'btc_getTransaction', [refund.txid]);
    expect(refundTx.vin).toEqual([{ txid: peginTxid, vout: 0 }]);

    const logs = await provider.getLogs({ address: BRIDGE, fromBlock: 0 });
    const names = logs.map((l) => EVENT_BY_TOPIC.get(l.topics[0] as never) ?? l.topics[0]).filter((n) => n !== 'update_collections');
    expect(names).toEqual([
      'rejected_pegin',
      'release_requested',
      'pegout_transaction_created',
      'pegout_confirmed',
      'add_signature',
      'add_signature',
      'release_btc',
    ]);
    const requestedLog = logs.find((l) => l.topics[0] === TOPIC.release_requested)!;
    expect(requestedLog.topics[2]).toBe(`0x${refund.txid}`);
    expect(abi.decode(['uint256'], requestedLog.data)[0]).toBe(800_000n);
    // Keyed by the registerBtcTransaction transaction that built the refund.
    expect(requestedLog.topics[1]).toBe(logs[0]!.transactionHash);
  });

  it("pays a second peg-out from the first one's change, the federation mining up to the next peg-out height (+50)", async () => {
    await t.close();
    provider.destroy();
    await start(true);
    await seedFederationUtxo(2_000_000);
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    await (await user.sendTransaction({ to: BRIDGE, value: 1_000_000n * WEI_PER_SAT })).wait();
    const firstBatch = (await provider.getLogs({ address: BRIDGE, fromBlock: 0, topics: [TOPIC.batch_pegout_created] }))[0]!;
    expect(await bridge.getNextPegoutCreationBlockNumber!()).toBe(BigInt(firstBatch.blockNumber) + 50n);

    const second = await (await user.sendTransaction({ to: BRIDGE, value: 500_000n * WEI_PER_SAT })).wait();
    const batches = await provider.getLogs({ address: BRIDGE, fromBlock: 0, topics: [TOPIC.batch_pegout_created] });
    expect(batches).toHaveLength(2);
    expect(batches[1]!.blockNumber).toBe(firstBatch.blockNumber + 50);
    expect(batches[1]!.blockNumber).toBeGreaterThan(second!.blockNumber);
    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 2))) / 1000n;
    const coins: { amount: number }[] = await call(t.testnetUrl, 'btc_listUnspent', [destination]);
    expect(coins.map((c) => c.amount).sort((a, b) => a - b)).toEqual([Number(500_000n - fee), Number(1_000_000n - fee)]);
    // The second spent the first's change (1,000,000 left), and its own change came back.
    const recorded = await readFederationUtxos(bridgeStorageOverRpc(t.testnetUrl));
    expect(recorded.map((u) => u.value)).toEqual([500_000n]);
  });
});
