/**
 * Peg-in end to end, as a wallet and a dApp would do it: a Bitcoin key, faucet funds, a
 * transaction to the federation address built and signed with @scure/btc-signer, confirmations,
 * and the RBTC of the RSK address read with ethers. The node's federation registers the peg-in
 * (autoPegin) or, with it off, any account calls registerBtcTransaction itself. Event topics are
 * the hashes rootstock-integration-tests lists (lib/constants/pegin-constants.js), written out here.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AbiCoder, Contract, JsonRpcProvider, Wallet, computeAddress, zeroPadValue } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { COW, call, nodesClosedAfterEach, type TestNode } from '../helpers/node.js';
import { BRIDGE, bridgeContract } from '../helpers/bridge-contract.js';
import { merkleBranch } from '../helpers/btc-branch.js';
import { sendBtc, type Kind } from '../helpers/btc-wallet.js';
import { runCli } from '../helpers/cli.js';
import { BridgeStorage } from '../../src/chain/native/bridge/storage.js';
import { readFederationUtxos } from '../../src/chain/native/bridge/utxos.js';
import { RIT_BRIDGE_TOPICS } from '../fixtures/rit-bridge-topics.js';

const FEDERATION = '2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7';
const { pegin_btc: PEGIN_BTC, rejected_pegin: REJECTED_PEGIN, unrefundable_pegin: UNREFUNDABLE_PEGIN } = RIT_BRIDGE_TOPICS;
const WEI_PER_SATOSHI = 10n ** 10n;
const abi = AbiCoder.defaultAbiCoder();

const start = nodesClosedAfterEach();
const providers: JsonRpcProvider[] = [];
afterEach(() => providers.splice(0).forEach((p) => p.destroy()));

const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function key(name: string): Uint8Array {
  return createHash('sha256').update(`pegin test key ${name}`).digest();
}

/** The RSK address a v0 peg-in credits: the sender key's address (keccak256 of the uncompressed key). */
const rskAddressOf = (priv: Uint8Array) => computeAddress('0x' + hex(secp256k1.getPublicKey(priv, true))).toLowerCase();

/** An RSKT v1 payload: "RSKT", version 1, the RSK address (and optionally a refund address). */
function rsktPayload(rskAddress: string, extra: Uint8Array = new Uint8Array(0)): Uint8Array {
  return Uint8Array.from([...Buffer.from('RSKT'), 1, ...bytes(rskAddress), ...extra]);
}

interface Setup {
  t: TestNode;
  url: string;
  provider: JsonRpcProvider;
  bridge: Contract;
}

async function setup(autoPegin = true): Promise<Setup> {
  const t = await start({ autoPegin });
  const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  providers.push(provider);
  return { t, url: t.testnetUrl, provider, bridge: bridgeContract(provider) };
}

/** A peg-in as a wallet sends it (test/helpers/btc-wallet.ts): `amount` satoshis to the federation, pooled. */
const sendPegIn = (url: string, priv: Uint8Array, kind: Kind, amount: bigint, payload?: Uint8Array) =>
  sendBtc(url, priv, kind, [{ address: FEDERATION, amount }], payload);

async function bridgeLogs(provider: JsonRpcProvider, topic: string) {
  return provider.getLogs({ address: BRIDGE, fromBlock: 0, toBlock: 'latest', topics: [topic] });
}

describe('peg-in registered by the node federation', () => {
  it('a P2PKH peg-in: 3 confirmations and the sender key RSK address holds exactly amount x 10^10 wei, with pegin_btc', async () => {
    const { t, url, provider, bridge } = await setup();
    const priv = key('p2pkh');
    const receiver = rskAddressOf(priv);
    const amount = 1_234_567n;
    const txid = await sendPegIn(url, priv, 'pkh', amount);
    await call(url, 'btc_mine', [2]);
    expect(await provider.getBalance(receiver)).toBe(0n); // 2 confirmations: not yet
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(false);
    await call(url, 'btc_mine', [1]);
    expect(await provider.getBalance(receiver)).toBe(amount * WEI_PER_SATOSHI);

    const [log] = await bridgeLogs(provider, PEGIN_BTC);
    expect(log!.topics).toEqual([PEGIN_BTC, zeroPadValue(receiver, 32), '0x' + txid]);
    expect(log!.data).toBe(abi.encode(['int256', 'int256'], [amount, 0]));
    // Sent by federator 1 (its RSK key, from the integration tests' fed1.key) as an ordinary transaction.
    const registration = await provider.getTransaction(log!.transactionHash);
    expect(registration!.from.toLowerCase()).toBe('0x85845342b0d5260d516d6da5280a7df9a96d1925');
    expect(registration!.to).toBe(BRIDGE);
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(true);
    expect(await bridge.getBtcTxHashProcessedHeight!(txid)).toBe(BigInt(log!.blockNumber));
    // The Bridge paid it out of its own balance, and records the federation's new UTXO.
    expect(await provider.getBalance(BRIDGE)).toBe(21_000_000n * 10n ** 18n - amount * WEI_PER_SATOSHI);
    const chain = t.node.chains.testnet;
    const utxos = await readFederationUtxos(new BridgeStorage(chain.stateAt(chain.head.header.stateRoot)));
    expect(utxos.map((u) => [hex(u.txid), u.vout, u.value])).toEqual([[txid, 0, amount]]);
  });

  it('a v1 peg-in: the RSKT OP_RETURN destination is credited (segwit sender: the coinbase is registered first)', async () => {
    const { url, provider, bridge } = await setup();
    const destination = '0x1234567890abcdef1234567890abcdef12345678';
    const amount = 600_000n;
    const txid = await sendPegIn(url, key('v1'), 'wpkh', amount, rsktPayload(destination));
    await call(url, 'btc_mine', [3]);
    expect(await provider.getBalance(destination)).toBe(amount * WEI_PER_SATOSHI);
    const [log] = await bridgeLogs(provider, PEGIN_BTC);
    expect(log!.topics).toEqual([PEGIN_BTC, zeroPadValue(destination, 32), '0x' + txid]);
    expect(log!.data).toBe(abi.encode(['int256', 'int256'], [amount, 1]));
    const block = await call(url, 'btc_getTransaction', [txid]);
    expect(await bridge.hasBtcBlockCoinbaseTransactionInformation!('0x' + block.blockhash)).toBe(true);
  });

  it('a P2SH-P2WPKH peg-in credits the RSK address of the witness key', async () => {
    const { url, provider } = await setup();
    const priv = key('p2sh-p2wpkh');
    const amount = 2_000_000n;
    await sendPegIn(url, priv, 'sh-wpkh', amount);
    await call(url, 'btc_mine', [3]);
    expect(await provider.getBalance(rskAddressOf(priv))).toBe(amount * WEI_PER_SATOSHI);
  });

  it("getBtcTransactionConfirmations proves a segwit tx by its wtxid once the block's coinbase is registered (rskj isBlockMerkleRootValid, RSKIP143)", async () => {
    const { url, bridge } = await setup();
    const txid = await sendPegIn(url, key('wtxid-branch'), 'sh-wpkh', 1_000_000n);
    await call(url, 'btc_mine', [1]);
    const tx = await call(url, 'btc_getTransaction', [txid]);
    expect(tx.wtxid).not.toBe(tx.txid);
    const proof = await call(url, 'btc_getPartialMerkleTree', [txid, true]);
    const branch = merkleBranch(proof.pmt);
    const ask = () => bridge.getBtcTransactionConfirmations!('0x' + tx.wtxid, '0x' + proof.blockhash, branch.path, branch.hashes);
    // The wtxid's branch reduces to the witness root, not the header's: unproven until the coinbase
    // is registered, which the node's federation does with the peg-in at 3 confirmations.
    expect(await ask()).toBe(-5n);
    await call(url, 'btc_mine', [2]);
    expect(await bridge.hasBtcBlockCoinbaseTransactionInformation!('0x' + proof.blockhash)).toBe(true);
    expect(await ask()).toBe(3n);
  });

  it('a native P2WPKH sender without RSKT is rejected and unrefundable (undetermined sender), nothing credited', async () => {
    const { url, provider, bridge } = await setup();
    const priv = key('p2wpkh');
    const txid = await sendPegIn(url, priv, 'wpkh', 700_000n);
    await call(url, 'btc_mine', [3]);
    expect(await provider.getBalance(rskAddressOf(priv))).toBe(0n);
    const [rejected] = await bridgeLogs(provider, REJECTED_PEGIN);
    expect(rejected!.topics).toEqual([REJECTED_PEGIN, '0x' + txid]);
    expect(rejected!.data).toBe(abi.encode(['int256'], [3])); // LEGACY_PEGIN_UNDETERMINED_SENDER
    const [unrefundable] = await bridgeLogs(provider, UNREFUNDABLE_PEGIN);
    expect(unrefundable!.data).toBe(abi.encode(['int256'], [1]));
    // RSKIP551: a rejected peg-in is not marked processed.
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(false);
  });

  it('an invalid RSKT payload from a known sender is rejected and marked processed for a refund (reason 4)', async () => {
    const { url, provider, bridge } = await setup();
    const priv = key('bad payload');
    const txid = await sendPegIn(url, priv, 'pkh', 800_000n, Uint8Array.from([...Buffer.from('RSKT'), 1, 0xaa, 0xbb]));
    await call(url, 'btc_mine', [3]);
    expect(await provider.getBalance(rskAddressOf(priv))).toBe(0n);
    const [rejected] = await bridgeLogs(provider, REJECTED_PEGIN);
    expect(rejected!.data).toBe(abi.encode(['int256'], [4])); // PEGIN_V1_INVALID_PAYLOAD
    expect(await bridgeLogs(provider, UNREFUNDABLE_PEGIN)).toEqual([]);
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(true);
  });

  it('evm_revert undoes a peg-in: the balance and the processed flag', async () => {
    const { url, provider, bridge } = await setup();
    const priv = key('revert');
    const receiver = rskAddressOf(priv);
    const txid = await sendPegIn(url, priv, 'pkh', 900_000n);
    await call(url, 'btc_mine', [2]);
    const snapshot = await call(url, 'evm_snapshot');
    await call(url, 'btc_mine', [1]);
    expect(await provider.getBalance(receiver)).toBe(900_000n * WEI_PER_SATOSHI);
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(true);
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    expect(await provider.getBalance(receiver)).toBe(0n);
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(false);
    expect(await bridge.getBtcTxHashProcessedHeight!(txid)).toBe(-1n);
  });
});

describe('a federation duty that fails', () => {
  it('does not fail btc_mine: a federator without RBTC for gas leaves the peg-in unregistered, and anyone can register it', async () => {
    const s = await setup();
    await call(s.url, 'hardhat_setBalance', ['0x85845342b0d5260d516d6da5280a7df9a96d1925', '0x0']);
    const priv = key('broke federator');
    const txid = await sendPegIn(s.url, priv, 'pkh', 1_000_000n);
    expect(await call(s.url, 'btc_mine', [3])).toHaveLength(3);
    expect(await s.bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(false);
    const proof = await call(s.url, 'btc_getPartialMerkleTree', [txid]);
    const raw = '0x' + (await call(s.url, 'btc_getTransaction', [txid])).hex;
    const wallet = new Wallet(COW.privateKey, s.provider);
    await (await (s.bridge.connect(wallet) as Contract).registerBtcTransaction!(raw, proof.height, '0x' + proof.pmt, { gasLimit: 300_000, type: 0 })).wait();
    expect(await s.provider.getBalance(rskAddressOf(priv))).toBe(1_000_000n * WEI_PER_SATOSHI);
  });
});

describe('registerBtcTransaction called by anyone (autoPegin off)', () => {
  /** A peg-in mined with `confirmations`, and its arguments as btc_getPartialMerkleTree gives them. */
  async function minedPegIn(url: string, name: string, amount: bigint, confirmations: number) {
    const priv = key(name);
    const txid = await sendPegIn(url, priv, 'pkh', amount);
    await call(url, 'btc_mine', [confirmations]);
    const tx = await call(url, 'btc_getTransaction', [txid]);
    const proof = await call(url, 'btc_getPartialMerkleTree', [txid]);
    return { priv, txid, raw: '0x' + tx.hex, height: proof.height as number, pmt: '0x' + proof.pmt };
  }

  async function register(s: Setup, raw: string, height: number, pmt: string) {
    const wallet = new Wallet(COW.privateKey, s.provider);
    const sent = await (s.bridge.connect(wallet) as Contract).registerBtcTransaction!(raw, height, pmt, { gasLimit: 300_000, type: 0 });
    const receipt = await s.provider.send('eth_getTransactionReceipt', [sent.hash]);
    return { status: Number(receipt.status), logs: receipt.logs as unknown[], gasUsed: BigInt(receipt.gasUsed) };
  }

  it('the node registers nothing; a dev account registers the peg-in itself, and a duplicate is swallowed', async () => {
    const s = await setup(false);
    const p = await minedPegIn(s.url, 'manual', 1_000_000n, 3);
    const receiver = rskAddressOf(p.priv);
    expect(await s.provider.getBalance(receiver)).toBe(0n);
    const first = await register(s, p.raw, p.height, p.pmt);
    expect(first.status).toBe(1);
    expect(first.logs).toHaveLength(1);
    expect(await s.provider.getBalance(receiver)).toBe(1_000_000n * WEI_PER_SATOSHI);
    // Already processed: the call succeeds, with no event and no second credit.
    const again = await register(s, p.raw, p.height, p.pmt);
    expect(again).toMatchObject({ status: 1, logs: [] });
    expect(await s.provider.getBalance(receiver)).toBe(1_000_000n * WEI_PER_SATOSHI);
  });

  it("the peg-in's RBTC is an internal CALL from the Bridge in trace_transaction and callTracer (rskj BridgeSupport.transferTo's subtrace)", async () => {
    const s = await setup(false);
    const p = await minedPegIn(s.url, 'traced', 1_000_000n, 3);
    const receiver = rskAddressOf(p.priv);
    const wallet = new Wallet(COW.privateKey, s.provider);
    const sent = await (s.bridge.connect(wallet) as Contract).registerBtcTransaction!(p.raw, p.height, p.pmt, { gasLimit: 300_000, type: 0 });
    expect((await sent.wait())!.status).toBe(1);
    const value = '0x' + (1_000_000n * WEI_PER_SATOSHI).toString(16);

    const parity = await call(s.url, 'trace_transaction', [sent.hash]);
    expect(parity).toHaveLength(2);
    expect(parity[0]).toMatchObject({ action: { from: COW.address, to: BRIDGE }, subtraces: 1, traceAddress: [] });
    expect(parity[1]).toMatchObject({
      type: 'call',
      // rskj's trace_transaction gives every call entry the transaction's data as input (parity.ts).
      action: { callType: 'call', from: BRIDGE, to: receiver, gas: '0x0', input: sent.data, value },
      result: { gasUsed: '0x0', output: '0x' },
      subtraces: 0,
      traceAddress: [0],
    });

    const tree = await call(s.url, 'debug_traceTransaction', [sent.hash, { tracer: 'callTracer' }]);
    expect(tree).toMatchObject({ type: 'CALL', from: COW.address, to: BRIDGE });
    expect(tree.calls).toHaveLength(1);
    expect(tree.calls[0]).toMatchObject({ type: 'CALL', from: BRIDGE, to: receiver, value, gas: '0x0', gasUsed: '0x0', input: '0x' });

    // A duplicate registration transfers nothing: no subtrace.
    const again = await (s.bridge.connect(wallet) as Contract).registerBtcTransaction!(p.raw, p.height, p.pmt, { gasLimit: 300_000, type: 0 });
    await again.wait();
    expect(await call(s.url, 'trace_transaction', [again.hash])).toHaveLength(1);
  });

  it('unconfirmed (2 confirmations) is swallowed, and registers once the third comes', async () => {
    const s = await setup(false);
    const p = await minedPegIn(s.url, 'unconfirmed', 1_000_000n, 2);
    expect(await register(s, p.raw, p.height, p.pmt)).toMatchObject({ status: 1, logs: [] });
    expect(await s.bridge.isBtcTxHashAlreadyProcessed!(p.txid)).toBe(false);
    await call(s.url, 'btc_mine', [1]);
    expect((await register(s, p.raw, p.height, p.pmt)).logs).toHaveLength(1);
  });

  it('a tampered proof: a changed hash (root mismatch) is swallowed; a truncated tree fails the transaction', async () => {
    const s = await setup(false);
    const p = await minedPegIn(s.url, 'tampered', 1_000_000n, 3);
    const pmt = bytes(p.pmt);
    const changed = Uint8Array.from(pmt);
    changed[pmt.length - 3]! ^= 0xff; // inside the last hash: the root no longer matches the header
    expect(await register(s, p.raw, p.height, '0x' + hex(changed))).toMatchObject({ status: 1, logs: [] });
    // The declared counts no longer match the size: rskj throws (the whole gas limit goes).
    const truncated = await register(s, p.raw, p.height, '0x' + hex(pmt.subarray(0, pmt.length - 1)));
    expect(truncated).toMatchObject({ status: 0, logs: [], gasUsed: 300_000n });
    // The wrong height (the proof is for another block's root) is swallowed too.
    expect(await register(s, p.raw, p.height - 1, p.pmt)).toMatchObject({ status: 1, logs: [] });
    expect(await s.provider.getBalance(rskAddressOf(p.priv))).toBe(0n);
    expect((await register(s, p.raw, p.height, p.pmt)).logs).toHaveLength(1);
  });

  it('too small (< 500,000 sat): below BTC height 350 ignored silently (legacy classifier); from 350 rejected and unrefundable', async () => {
    const s = await setup(false);
    const low = await minedPegIn(s.url, 'small', 499_999n, 3);
    expect(low.height).toBeLessThan(350);
    expect(await register(s, low.raw, low.height, low.pmt)).toMatchObject({ status: 1, logs: [] });
    expect(await s.bridge.isBtcTxHashAlreadyProcessed!(low.txid)).toBe(false);

    const tip = (await call(s.url, 'btc_getInfo')).height as number;
    await call(s.url, 'btc_mine', [350 - tip]);
    const high = await minedPegIn(s.url, 'small again', 499_999n, 3);
    expect(high.height).toBeGreaterThanOrEqual(350);
    const result = await register(s, high.raw, high.height, high.pmt);
    expect(result.status).toBe(1);
    const receipt = await s.provider.getTransactionReceipt((await s.provider.getBlock('latest'))!.transactions[0]!);
    expect(receipt!.logs.map((l) => [l.topics[0], l.data])).toEqual([
      [REJECTED_PEGIN, abi.encode(['int256'], [5])], // INVALID_AMOUNT
      [UNREFUNDABLE_PEGIN, abi.encode(['int256'], [3])], // INVALID_AMOUNT
    ]);
    expect(await s.bridge.isBtcTxHashAlreadyProcessed!(high.txid)).toBe(false);
    expect(await s.provider.getBalance(rskAddressOf(high.priv))).toBe(0n);
  });
});

describe('peg-ins on a fork', () => {
  it("answers isBtcTxHashAlreadyProcessed / getBtcTxHashProcessedHeight from the remote's Bridge where its own storage has no entry", async () => {
    const remote = await setup();
    const txid = await sendPegIn(remote.url, key('fork'), 'pkh', 1_000_000n);
    await call(remote.url, 'btc_mine', [3]);
    const processedAt = await remote.bridge.getBtcTxHashProcessedHeight!(txid);
    expect(processedAt).toBeGreaterThan(0n);
    const forkBlock = await remote.provider.getBlockNumber();
    const fork = await start({ fork: { testnetUrl: remote.url, block: BigInt(forkBlock), retryBackoffMs: 1 } });
    const provider = new JsonRpcProvider(fork.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
    providers.push(provider);
    const bridge = bridgeContract(provider);
    expect(await bridge.isBtcTxHashAlreadyProcessed!(txid)).toBe(true);
    expect(await bridge.getBtcTxHashProcessedHeight!(txid)).toBe(processedAt);
    expect(await bridge.isBtcTxHashAlreadyProcessed!('ab'.repeat(32))).toBe(false);
    expect(await bridge.getBtcTxHashProcessedHeight!('ab'.repeat(32))).toBe(-1n);
  });
});

describe('--no-auto-pegin', () => {
  it('the CLI flag leaves a confirmed peg-in unregistered; without it the node registers it', async () => {
    for (const [flags, credited] of [[['--no-auto-pegin'], false], [[], true]] as const) {
      const cli = runCli(['--in-memory', '--port', '0', '--quiet', '--api-key', 'pegin-cli-key', ...flags], 1);
      try {
        await cli.started;
        const url = `${cli.baseUrl()}/pegin-cli-key`;
        const priv = key('cli');
        await sendPegIn(url, priv, 'pkh', 1_000_000n);
        await call(url, 'btc_mine', [3]);
        const balance = BigInt(await call(url, 'eth_getBalance', [rskAddressOf(priv), 'latest']));
        expect(balance, flags.join(' ')).toBe(credited ? 1_000_000n * WEI_PER_SATOSHI : 0n);
      } finally {
        expect(await cli.stop()).toBe(0);
      }
    }
  });
});
