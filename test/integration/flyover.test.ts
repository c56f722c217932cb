/**
 * Flyover's peg-in end to end, as a liquidity provider drives it: the user's BTC sent with
 * @scure/btc-signer to the flyover federation address derived from the deal's terms, mined and
 * confirmed on the node's Bitcoin chain, then the provider's Liquidity Bridge Contract (an LBC-like
 * fixture forwarding its calldata to the Bridge) calls registerFastBridgeBtcTransaction. The
 * derivation hash and flyover address are computed here from rskj's definitions
 * (PegUtils.getFlyoverDerivationHash, FlyoverRedeemScriptBuilderImpl), independently of the node.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AbiCoder, Contract, ContractFactory, Interface, JsonRpcProvider, Wallet, concat, getBytes, id, keccak256 } from 'ethers';
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { p2pkh, p2sh, p2wsh } from '@scure/btc-signer';
import { COW, call, nodesClosedAfterEach, type TestNode } from '../helpers/node.js';
import { REGTEST, paymentOf, sendBtc } from '../helpers/btc-wallet.js';
import { bridgeStorageOverRpc } from '../helpers/bridge-storage.js';
import fixtures from '../fixtures/contracts.json' with { type: 'json' };
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import { segwitPegoutTxSize } from '../../src/chain/native/bridge/getters.js';
import { readFederationUtxos } from '../../src/chain/native/bridge/utxos.js';

const BRIDGE = '0x0000000000000000000000000000000001000006';
const WEI_PER_SAT = 10n ** 10n;
/** FeePerKbRegTestConstants genesisFeePerKb, satoshis. */
const FEE_PER_KB = 100_000n;
/** LockingCapRegTestConstants initialValue (1,000 BTC) and BridgeConstants.getMaxRbtc (21 million BTC), satoshis. */
const LOCKING_CAP = 100_000_000_000n;
const MAX_RBTC = 2_100_000_000_000_000n;
const abi = AbiCoder.defaultAbiCoder();
/** The Bridge method as Flyover's LBC calls it, and the fixture's log of each answer. */
const LBC_ABI = [
  'function registerFastBridgeBtcTransaction(bytes btcTxSerialized, uint256 height, bytes pmtSerialized, bytes32 derivationArgumentsHash, bytes userRefundBtcAddress, address liquidityBridgeContractAddress, bytes liquidityProviderBtcAddress, bool shouldTransferToContract) returns (int256)',
  'event BridgeAnswered(bool ok, bytes out)',
];
const lbcInterface = new Interface(LBC_ABI);

const start = nodesClosedAfterEach();
const providers: JsonRpcProvider[] = [];
afterEach(() => providers.splice(0).forEach((p) => p.destroy()));

const key = (name: string) => createHash('sha256').update(`flyover test key ${name}`).digest();
const hash160 = (b: Uint8Array) => createHash('ripemd160').update(createHash('sha256').update(b).digest()).digest();

/** BridgeUtils.serializeBtcAddressWithVersion (RSKIP284) of a key's P2PKH address: 0x6f ‖ hash160. */
const versionedP2pkh = (priv: Uint8Array) => concat(['0x6f', hash160(secp256k1.getPublicKey(priv, true))]);

/** A deal's terms: what the LBC passes, and the address the user pays. */
interface Quote {
  derivationArgumentsHash: string;
  refund: string;
  lp: string;
  lbc: string;
  redeemScript: Uint8Array;
  address: string;
}

function quote(name: string, user: Uint8Array, lp: Uint8Array, lbc: string): Quote {
  const derivationArgumentsHash = id(`flyover quote ${name}`);
  const refund = versionedP2pkh(user);
  const lpAddress = versionedP2pkh(lp);
  // PegUtils.getFlyoverDerivationHash (refund, LBC, LP: in that order), then FlyoverRedeemScriptBuilderImpl:
  // <hash> OP_DROP <federation redeem script>.
  const derivationHash = keccak256(concat([derivationArgumentsHash, refund, lbc, lpAddress]));
  const redeemScript = getBytes(concat(['0x20', derivationHash, '0x75', GENESIS_FEDERATION.redeemScript]));
  // PegUtils.getFlyoverFederationOutputScript for a P2SH-P2WSH federation.
  const address = p2sh(p2wsh({ type: 'unknown', script: redeemScript } as never), REGTEST).address!;
  return { derivationArgumentsHash, refund, lp: lpAddress, lbc, redeemScript, address };
}

interface Setup {
  t: TestNode;
  url: string;
  provider: JsonRpcProvider;
  lbc: Contract;
  lbcAddress: string;
}

async function setup(): Promise<Setup> {
  const t = await start();
  const url = t.testnetUrl;
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  providers.push(provider);
  const cow = new Wallet(COW.privateKey, provider);
  const { abi: fixtureAbi, bytecode } = fixtures.FlyoverLbc;
  const deployed = await new ContractFactory(fixtureAbi, bytecode, cow).deploy();
  await deployed.waitForDeployment();
  const lbcAddress = (await deployed.getAddress()).toLowerCase();
  return { t, url, provider, lbc: new Contract(lbcAddress, LBC_ABI, cow), lbcAddress };
}

/** The user's payment to the flyover address(es), mined with `confirmations`; the LBC's arguments for it. */
async function paid(url: string, user: Uint8Array, outputs: { address: string; amount: bigint }[], confirmations: number) {
  const txid = await sendBtc(url, user, 'pkh', outputs);
  await call(url, 'btc_mine', [confirmations]);
  const tx = await call(url, 'btc_getTransaction', [txid]);
  const proof = await call(url, 'btc_getPartialMerkleTree', [txid]);
  return { txid, raw: '0x' + tx.hex, height: proof.height as number, pmt: '0x' + proof.pmt };
}

type Payment = Awaited<ReturnType<typeof paid>>;
const argsOf = (p: Payment, q: Quote, shouldTransferToContract = true) =>
  [p.raw, p.height, p.pmt, q.derivationArgumentsHash, q.refund, q.lbc, q.lp, shouldTransferToContract] as const;

/** The LBC's call mined: its status and the Bridge's answer, read from the fixture's log. */
async function register(s: Setup, args: readonly unknown[]): Promise<{ status: number; answer: bigint; hash: string }> {
  const sent = await s.lbc.registerFastBridgeBtcTransaction!(...args, { gasLimit: 1_000_000 });
  const receipt = (await sent.wait())!;
  const log = receipt.logs.find((l: { address: string }) => l.address.toLowerCase() === s.lbcAddress)!;
  const [ok, out] = lbcInterface.decodeEventLog('BridgeAnswered', log.data, log.topics);
  expect(ok).toBe(true);
  return { status: receipt.status!, answer: abi.decode(['int256'], out)[0] as bigint, hash: sent.hash };
}

describe('registerFastBridgeBtcTransaction from a Liquidity Bridge Contract', () => {
  it('pays the LBC exactly the amount, marks the deal used (-302), and a later peg-out spends the flyover UTXO to the user', async () => {
    const s = await setup();
    const user = key('user');
    const q = quote('1', user, key('lp'), s.lbcAddress);
    const amount = 3_000_000n;
    const p = await paid(s.url, user, [{ address: q.address, amount }], 3);

    // The return value: the total sent to the flyover address, in wei (Coin.fromBitcoin).
    expect(await s.lbc.registerFastBridgeBtcTransaction!.staticCall(...argsOf(p, q))).toBe(amount * WEI_PER_SAT);
    const before = await s.provider.getBalance(s.lbcAddress);
    const bridgeBefore = await s.provider.getBalance(BRIDGE);
    const registered = await register(s, argsOf(p, q));
    expect(registered).toMatchObject({ status: 1, answer: amount * WEI_PER_SAT });
    expect(await s.provider.getBalance(s.lbcAddress)).toBe(before + amount * WEI_PER_SAT);
    // BridgeSupport.transferTo's subtrace: a CALL from the Bridge to the LBC under the LBC's call to the Bridge.
    const tree = await call(s.url, 'debug_traceTransaction', [registered.hash, { tracer: 'callTracer' }]);
    expect(tree.calls[0]).toMatchObject({ type: 'CALL', from: s.lbcAddress, to: BRIDGE });
    expect(tree.calls[0].calls).toEqual([
      expect.objectContaining({ type: 'CALL', from: BRIDGE, to: s.lbcAddress, value: '0x' + (amount * WEI_PER_SAT).toString(16), gas: '0x0' }),
    ]);
    expect(await s.provider.getBalance(BRIDGE)).toBe(bridgeBefore - amount * WEI_PER_SAT);
    // No Bridge event: rskj logs none for a Flyover peg-in.
    expect(await s.provider.getLogs({ address: BRIDGE, fromBlock: 0 })).toEqual([]);

    // The same deal again: already processed, nothing paid.
    expect(await register(s, argsOf(p, q))).toMatchObject({ status: 1, answer: -302n });
    expect(await s.provider.getBalance(s.lbcAddress)).toBe(before + amount * WEI_PER_SAT);

    // The flyover output joined the federation's UTXOs, with the flyover redeem script to spend it with.
    const [utxo] = await readFederationUtxos(bridgeStorageOverRpc(s.url));
    expect(bytesToHex(utxo!.txid)).toBe(p.txid);
    expect([utxo!.value, bytesToHex(utxo!.redeemScript)]).toEqual([amount, bytesToHex(q.redeemScript)]);

    // A peg-out, carried by the node's federation: the release spends the flyover UTXO and pays the user.
    const cow = new Wallet(COW.privateKey, s.provider);
    const destination = p2pkh(secp256k1.getPublicKey(hexToBytes(COW.privateKey.slice(2)), true), REGTEST).address!;
    const requested = 1_000_000n;
    await (await cow.sendTransaction({ to: BRIDGE, value: requested * WEI_PER_SAT })).wait();
    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 2))) / 1000n;
    const coins: { txid: string; amount: number; confirmations: number }[] = await call(s.url, 'btc_listUnspent', [destination]);
    expect(coins).toEqual([expect.objectContaining({ amount: Number(requested - fee), confirmations: 3 })]);
    const release = await call(s.url, 'btc_getTransaction', [coins[0]!.txid]);
    expect(release.vin).toEqual([{ txid: p.txid, vout: 0 }]);
    // The change is the federation's own, registered back by the peg-in duty as a peg-out's.
    const recorded = await readFederationUtxos(bridgeStorageOverRpc(s.url));
    expect(recorded.map((u) => [bytesToHex(u.txid), u.value, bytesToHex(u.redeemScript)])).toEqual([
      [coins[0]!.txid, amount - requested, bytesToHex(GENESIS_FEDERATION.redeemScript)],
    ]);
  });

  it('answers -303 unconfirmed, -304 nothing sent to the address, -305 an output below the minimum, -900 a malformed tree; nothing paid', async () => {
    const s = await setup();
    const user = key('user');
    const q = quote('2', user, key('lp'), s.lbcAddress);
    const ask = (args: readonly unknown[]) => s.lbc.registerFastBridgeBtcTransaction!.staticCall(...args);

    const young = await paid(s.url, user, [{ address: q.address, amount: 1_000_000n }], 2);
    expect(await ask(argsOf(young, q))).toBe(-303n); // 2 confirmations of 3
    await call(s.url, 'btc_mine', [1]);
    // Confirmed, but a tree of the wrong size: rskj throws, and Bridge.java answers GENERIC_ERROR.
    expect(await ask([young.raw, young.height, '0x00', q.derivationArgumentsHash, q.refund, q.lbc, q.lp, true])).toBe(-900n);
    // Another deal's terms: its flyover address got nothing from this transaction.
    expect(await ask(argsOf(young, quote('other', user, key('lp'), s.lbcAddress)))).toBe(-304n);

    // Two outputs to the address, one under the 500,000-satoshi peg-in minimum.
    const split = await paid(s.url, key('split user'), [{ address: q.address, amount: 600_000n }, { address: q.address, amount: 100_000n }], 3);
    const before = await s.provider.getBalance(s.lbcAddress);
    expect(await register(s, argsOf(split, q))).toMatchObject({ status: 1, answer: -305n });
    expect(await s.provider.getBalance(s.lbcAddress)).toBe(before);
    expect(await readFederationUtxos(bridgeStorageOverRpc(s.url))).toEqual([]);
    // Refused, not used: the confirmed first payment still registers.
    expect(await register(s, argsOf(young, q))).toMatchObject({ status: 1, answer: 1_000_000n * WEI_PER_SAT });
  });

  it('over the locking cap refunds the BTC: to the LP (-200) when the LBC asked for the RBTC, else to the user (-100)', async () => {
    const s = await setup();
    // The federation already holds the whole cap: the Bridge's balance is 21M BTC less the cap.
    await call(s.url, 'hardhat_setBalance', [BRIDGE, '0x' + ((MAX_RBTC - LOCKING_CAP) * WEI_PER_SAT).toString(16)]);
    const user = key('user');
    const lp = key('lp');
    const amount = 2_000_000n;
    const before = await s.provider.getBalance(s.lbcAddress);
    const refundFee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 1))) / 1000n;

    const toLp = quote('cap lp', user, lp, s.lbcAddress);
    const first = await paid(s.url, user, [{ address: toLp.address, amount }], 3);
    const refunded = await register(s, argsOf(first, toLp, true));
    expect(refunded).toMatchObject({ status: 1, answer: -200n });
    // settleReleaseRejection's events: release_requested (keyed by the LBC call's transaction, the
    // amount in satoshis) and pegout_transaction_created (topics from rootstock-integration-tests' pegout-constants.js).
    const bridgeLogs = (await s.provider.getTransactionReceipt(refunded.hash))!.logs.filter((l) => l.address.toLowerCase() === BRIDGE);
    expect(bridgeLogs.map((l) => l.topics[0])).toEqual([
      '0x7a7c29481528ac8c2b2e93aee658fddd4dc15304fa723a5c2b88514557bcc790',
      '0x9ee5d520fd5e6eaea3fd2e3ae4e35e9a9c0fb05c9d8f84b507f287da84b5117c',
    ]);
    expect(bridgeLogs[0]!.topics[1]).toBe(refunded.hash);
    expect(abi.decode(['uint256'], bridgeLogs[0]!.data)[0]).toBe(amount);
    // The refund went through the federation's release lifecycle and is mined to the LP's address.
    const lpCoins: { txid: string; amount: number }[] = await call(s.url, 'btc_listUnspent', [paymentOf(lp, 'pkh').address]);
    expect(lpCoins.map((c) => c.amount)).toEqual([Number(amount - refundFee)]);
    expect((await call(s.url, 'btc_getTransaction', [lpCoins[0]!.txid])).vin).toEqual([{ txid: first.txid, vout: 0 }]);
    expect(await register(s, argsOf(first, toLp, true))).toMatchObject({ status: 1, answer: -302n });

    const toUser = quote('cap user', user, lp, s.lbcAddress);
    const second = await paid(s.url, user, [{ address: toUser.address, amount }], 3);
    const userAddress = paymentOf(user, 'pkh').address!;
    const userCoinsBefore: { txid: string }[] = await call(s.url, 'btc_listUnspent', [userAddress]);
    expect(await register(s, argsOf(second, toUser, false))).toMatchObject({ status: 1, answer: -100n });
    const userCoins: { txid: string; amount: number }[] = await call(s.url, 'btc_listUnspent', [userAddress]);
    const refund = userCoins.filter((c) => !userCoinsBefore.some((b) => b.txid === c.txid));
    expect(refund.map((c) => c.amount)).toEqual([Number(amount - refundFee)]);

    expect(await s.provider.getBalance(s.lbcAddress)).toBe(before);
    expect(await readFederationUtxos(bridgeStorageOverRpc(s.url))).toEqual([]);
  });
});
