/** Signature checks of Bitcoin inputs (chain/btc-chain/verify.ts): what passes, and the refusals a wallet can hit. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Transaction, p2wpkh } from '@scure/btc-signer';
import { parseTransaction } from '../../src/chain/btc-chain/transaction.js';
import { verifySignatures } from '../../src/chain/btc-chain/verify.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const key = createHash('sha256').update('btc-verify unit key').digest();
const other = createHash('sha256').update('btc-verify other key').digest();
const payment = p2wpkh(secp256k1.getPublicKey(key, true), REGTEST);
const spent = [{ amount: 100_000n, script: payment.script }];

/** A P2WPKH spend of `spent`, signed; `edit` changes its witness before serialization. */
function spend(edit?: (witness: Uint8Array[]) => Uint8Array[]): Uint8Array {
  const tx = new Transaction();
  tx.addInput({ txid: '11'.repeat(32), index: 0, witnessUtxo: spent[0] });
  tx.addOutputAddress(payment.address!, 90_000n, REGTEST);
  tx.sign(key);
  tx.finalize();
  if (edit !== undefined) tx.updateInput(0, { finalScriptWitness: edit(tx.getInput(0).finalScriptWitness!) }, true);
  return tx.toBytes(true, true);
}

describe('Bitcoin signature checks', () => {
  it('accepts a P2WPKH spend signed by its key', () => {
    expect(() => verifySignatures(parseTransaction(spend()), spent)).not.toThrow();
  });

  it('refuses a high-S signature (bitcoind relays only low S), though it is the same signature mathematically', () => {
    const highS = spend(([sig, pub]) => {
      const der = sig!.subarray(0, -1);
      const s = secp256k1.Signature.fromBytes(der, 'der');
      const flipped = new secp256k1.Signature(s.r, secp256k1.Point.CURVE().n - s.s).toBytes('der');
      return [Uint8Array.of(...flipped, sig![sig!.length - 1]!), pub!];
    });
    expect(() => verifySignatures(parseTransaction(highS), spent)).toThrow(/does not verify \(strict DER and low S required\)/);
  });

  it("refuses a witness key that is not the output's", () => {
    const wrongKey = spend(([sig]) => [sig!, secp256k1.getPublicKey(other, true)]);
    expect(() => verifySignatures(parseTransaction(wrongKey), spent)).toThrow(/does not hash to the output's address/);
  });

  it('refuses a signature over other amounts (BIP143 commits to the amount spent)', () => {
    expect(() => verifySignatures(parseTransaction(spend()), [{ ...spent[0]!, amount: 100_001n }])).toThrow(/does not verify/);
  });

  it('refuses a witness without its public key', () => {
    expect(() => verifySignatures(parseTransaction(spend(([sig]) => [sig!])), spent)).toThrow(/witness is <signature> <public key>/);
  });
});
