/**
 * The peg-out's Bitcoin transaction (native/bridge/release-tx.ts): coin selection, the fee split
 * among the recipients, and the federation's 2-of-3 spend as btc-chain/verify.ts checks it.
 */
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { Address, OutScript, RawTx, p2pkh } from '@scure/btc-signer';
import { parseTransaction } from '../../src/chain/btc-chain/transaction.js';
import { verifySignatures } from '../../src/chain/btc-chain/verify.js';
import { REGTEST_NETWORK } from '../../src/chain/btc-chain/constants.js';
import { GENESIS_FEDERATION } from '../../src/chain/native/bridge/federation.js';
import { segwitPegoutTxSize } from '../../src/chain/native/bridge/getters.js';
import { buildReleaseTx, releaseSighashes, signedReleaseTx, splitFee } from '../../src/chain/native/bridge/release-tx.js';
import type { FederationUtxo } from '../../src/chain/native/bridge/utxos.js';
import { pegoutMinimum } from '../../src/chain/native/bridge/pegout.js';

/** rootstock-integration-tests config/node-keys/genesis-federation/fed2.key and fed3.key. */
const FED2 = hexToBytes('505334c7745df2fc61486dffb900784505776a898377172ffa77384892749179');
const FED3 = hexToBytes('bed0af2ce8aa8cb2bc3f9416c9d518fdee15d1ff15b8ded28376fcb23db6db69');
const STRANGER = hexToBytes('11'.repeat(32));
const FEE_PER_KB = 100_000n;

const federationScript = OutScript.encode(Address(REGTEST_NETWORK).decode(GENESIS_FEDERATION.address));
const alice = p2pkh(secp256k1.getPublicKey(hexToBytes('22'.repeat(32)), true), REGTEST_NETWORK);
const bob = p2pkh(secp256k1.getPublicKey(hexToBytes('33'.repeat(32)), true), REGTEST_NETWORK);

function utxo(byte: number, value: bigint, height: number): FederationUtxo {
  return { txid: new Uint8Array(32).fill(byte), vout: 0, value, height, script: federationScript, redeemScript: GENESIS_FEDERATION.redeemScript };
}

/** The member index (position in the multisig) of a private key. */
function keyIndex(privateKey: Uint8Array): number {
  const pub = secp256k1.getPublicKey(privateKey, true);
  return GENESIS_FEDERATION.members.findIndex((m) => m.every((b, i) => b === pub[i]));
}

function sign(privateKey: Uint8Array, digest: Uint8Array): Uint8Array {
  return secp256k1.sign(digest, privateKey, { prehash: false, format: 'der' });
}

describe('release transaction builder', () => {
  it('pays the requests in queue order, returns the change to the federation, and splits the fee equally', () => {
    const utxos = [utxo(0xaa, 1_000_000n, 110), utxo(0xbb, 2_000_000n, 105)];
    const build = buildReleaseTx(GENESIS_FEDERATION, utxos, [{ script: alice.script, amount: 600_000n }, { script: bob.script, amount: 300_000n }], FEE_PER_KB);
    if ('error' in build) throw new Error(build.error);
    const { tx } = build;
    // DefaultCoinSelector order: the older UTXO (height 105) alone covers 900,000.
    expect(tx.spent.map((u) => u.txid[0])).toEqual([0xbb]);
    const fee = (FEE_PER_KB * BigInt(segwitPegoutTxSize(GENESIS_FEDERATION, 1, 3))) / 1000n;
    expect(tx.fee).toBe(fee);
    const [first, second] = splitFee(fee, 2);
    expect(tx.received).toEqual([600_000n - first!, 300_000n - second!]);
    expect(tx.change).toBe(2_000_000n - 900_000n);
    const raw = RawTx.decode(tx.unsigned);
    expect(raw.version).toBe(2);
    expect(raw.outputs.map((o) => o.amount)).toEqual([...tx.received, tx.change]);
    expect(raw.outputs[0]!.script).toEqual(alice.script);
    expect(raw.outputs[1]!.script).toEqual(bob.script);
    expect(raw.outputs[2]!.script).toEqual(federationScript);
  });

  it('puts the remainder of an uneven split on the first recipient', () => {
    expect(splitFee(100n, 3)).toEqual([34n, 33n, 33n]);
    expect(splitFee(99n, 3)).toEqual([33n, 33n, 33n]);
  });

  it('refuses a batch the UTXOs do not cover, and one whose fee share leaves a recipient with dust', () => {
    expect(buildReleaseTx(GENESIS_FEDERATION, [utxo(1, 100_000n, 101)], [{ script: alice.script, amount: 200_000n }], FEE_PER_KB)).toEqual({ error: 'INSUFFICIENT_MONEY' });
    expect(buildReleaseTx(GENESIS_FEDERATION, [utxo(1, 100_000n, 101)], [{ script: alice.script, amount: 20_000n }], FEE_PER_KB)).toEqual({ error: 'COULD_NOT_ADJUST_DOWNWARDS' });
  });
});

describe('peg-out request minimum (BridgeSupport.requestRelease, RSKIP219)', () => {
  it('is 250,000 sat on regtest, where the fee-based minimum is lower', () => {
    // 2 inputs, 2 outputs: 344 vbytes x 100 sat/vB = 34,400, + 20 % = 41,280.
    expect(pegoutMinimum(GENESIS_FEDERATION, FEE_PER_KB)).toEqual({ minimum: 250_000n, feeWins: false });
  });

  it('is the fee plus the 20 % gap when that is higher, which makes a rejection FEE_ABOVE_VALUE', () => {
    expect(pegoutMinimum(GENESIS_FEDERATION, 1_000_000n)).toEqual({ minimum: 412_800n, feeWins: true });
  });
});

describe("the federation's spend (btc-chain/verify.ts)", () => {
  const utxos = [utxo(0xcc, 1_500_000n, 120), utxo(0xdd, 700_000n, 120)];
  const build = buildReleaseTx(GENESIS_FEDERATION, utxos, [{ script: alice.script, amount: 2_000_000n }], FEE_PER_KB);
  if ('error' in build) throw new Error(build.error);
  const { tx } = build;
  const values = tx.spent.map((u) => u.value);
  const scripts = tx.spent.map((u) => u.redeemScript);
  const spent = tx.spent.map((u) => ({ amount: u.value, script: u.script }));
  const digests = releaseSighashes(tx.unsigned, scripts, values);
  const bySigner = (keys: Uint8Array[]) =>
    digests.map((d) => [...keys].sort((a, b) => keyIndex(a) - keyIndex(b)).map((k) => sign(k, d)));

  it('spends two inputs signed by two federators (BIP143, witness [empty, sig, sig, empty, redeem script])', () => {
    const signed = parseTransaction(signedReleaseTx(tx.unsigned, scripts, bySigner([FED2, FED3])));
    expect(signed.inputs).toHaveLength(2);
    expect(() => verifySignatures(signed, spent)).not.toThrow();
    // The witness does not change the txid the Bridge announced.
    expect(Buffer.from(signed.txid).reverse()).toEqual(Buffer.from(tx.txid));
  });

  it('refuses a signature by a key outside the federation', () => {
    const signed = parseTransaction(signedReleaseTx(tx.unsigned, scripts, bySigner([FED2, STRANGER])));
    expect(() => verifySignatures(signed, spent)).toThrow(/do not verify against its keys in order/);
  });

  it('refuses one signature where the threshold is two', () => {
    const signed = parseTransaction(signedReleaseTx(tx.unsigned, scripts, bySigner([FED2])));
    expect(() => verifySignatures(signed, spent)).toThrow(/\[empty, 2 signatures, empty, redeem script\]/);
  });

  it('refuses the signatures in the wrong order (OP_CHECKMULTISIG walks the keys once)', () => {
    const reversedOrder = bySigner([FED2, FED3]).map((sigs) => [...sigs].reverse());
    const signed = parseTransaction(signedReleaseTx(tx.unsigned, scripts, reversedOrder));
    expect(() => verifySignatures(signed, spent)).toThrow(/do not verify/);
  });

  it('refuses signatures over other amounts', () => {
    const signed = parseTransaction(signedReleaseTx(tx.unsigned, scripts, bySigner([FED2, FED3])));
    expect(() => verifySignatures(signed, spent.map((s) => ({ ...s, amount: s.amount + 1n })))).toThrow(/do not verify/);
  });
});
