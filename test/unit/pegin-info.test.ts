/**
 * The pure parts of peg-in (native/bridge/pegin-info.ts, pmt.ts, keys/federators.ts): sender
 * classification and RSKT payloads as rskj reads them, the partial merkle tree reader against the
 * node's writer and bitcoinj's rejections, and the federators' keys against rskj's public keys.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Script, Transaction, p2ms, p2pkh, p2sh, p2wpkh, p2wsh } from '@scure/btc-signer';
import { computeAddress } from 'ethers';
import { parseTransaction } from '../../src/chain/btc-chain/transaction.js';
import { merkleRoot, partialMerkleTree } from '../../src/chain/btc-chain/merkle.js';
import { lockSender, peginInformation, peginInstructions } from '../../src/chain/native/bridge/pegin-info.js';
import { PmtError, pmtContains, pmtHasExpectedSize, readPartialMerkleTree } from '../../src/chain/native/bridge/pmt.js';
import { FEDERATORS } from '../../src/chain/keys/federators.js';
import { GENESIS_FEDERATION_PUBLIC_KEYS } from '../../src/chain/native/bridge/constants.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const FEDERATION = '2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7';
const key = (name: string) => createHash('sha256').update(`pegin unit key ${name}`).digest();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const PREV = '11'.repeat(32);

/** A signed spend of a made-up output of `payment` to the federation, with extra outputs. */
function spendTx(priv: Uint8Array | Uint8Array[], payment: ReturnType<typeof p2pkh> | ReturnType<typeof p2sh> | ReturnType<typeof p2wpkh>, extra: Uint8Array[] = []) {
  const tx = new Transaction({ allowUnknownOutputs: true });
  if (payment.type === 'pkh') {
    // A P2PKH input signs over its previous transaction: any one paying this key will do.
    const prev = new Transaction();
    prev.addOutput({ script: payment.script, amount: 2_000_000n });
    prev.addInput({ txid: PREV, index: 0, finalScriptSig: Uint8Array.of(0x51) });
    tx.addInput({ txid: prev.id, index: 0, nonWitnessUtxo: prev.toBytes(true) });
  } else {
    const { redeemScript, witnessScript } = payment as { redeemScript?: Uint8Array; witnessScript?: Uint8Array };
    tx.addInput({ txid: PREV, index: 0, witnessUtxo: { script: payment.script, amount: 2_000_000n }, redeemScript, witnessScript });
  }
  tx.addOutputAddress(FEDERATION, 1_000_000n, REGTEST);
  for (const script of extra) tx.addOutput({ script, amount: 0n });
  for (const p of Array.isArray(priv) ? priv : [priv]) tx.sign(p);
  tx.finalize();
  return parseTransaction(tx.toBytes(true, true));
}

const rsktScript = (payload: Uint8Array) => Script.encode(['RETURN', payload]);
const rskt = (...rest: number[]) => Uint8Array.from([...Buffer.from('RSKT'), ...rest]);
const ADDRESS = Array.from({ length: 20 }, (_, i) => i + 1);

describe('peg-in senders (rskj BtcLockSenderProvider)', () => {
  it('P2PKH: the RSK address of the scriptSig key', () => {
    const priv = key('pkh');
    const sender = lockSender(spendTx(priv, p2pkh(secp256k1.getPublicKey(priv, true), REGTEST)))!;
    expect(sender.type).toBe('P2PKH');
    expect('0x' + hex(sender.rskAddress!)).toBe(computeAddress('0x' + hex(secp256k1.getPublicKey(priv, true))).toLowerCase());
  });

  it('P2SH-P2WPKH: the RSK address of the witness key', () => {
    const priv = key('sh-wpkh');
    const pub = secp256k1.getPublicKey(priv, true);
    const sender = lockSender(spendTx(priv, p2sh(p2wpkh(pub), REGTEST)))!;
    expect(sender.type).toBe('P2SHP2WPKH');
    expect('0x' + hex(sender.rskAddress!)).toBe(computeAddress('0x' + hex(pub)).toLowerCase());
  });

  it('native P2WPKH: no sender rskj can determine', () => {
    const priv = key('wpkh');
    expect(lockSender(spendTx(priv, p2wpkh(secp256k1.getPublicKey(priv, true), REGTEST)))).toBeUndefined();
  });

  it('P2SH-P2WSH multisig: a refundable multisig sender, with its P2SH address and no RSK address', () => {
    const privs = [key('ms1'), key('ms2')];
    const payment = p2sh(p2wsh(p2ms(1, privs.map((p) => secp256k1.getPublicKey(p, true)))), REGTEST);
    const sender = lockSender(spendTx(privs[0]!, payment))!;
    expect(sender.type).toBe('P2SHP2WSH');
    expect(sender.rskAddress).toBeUndefined();
    expect(hex(sender.address.hash)).toBe(hex(payment.hash));
  });
});

describe('RSKT payloads (rskj PeginInstructionsProvider, PeginInstructionsVersion1)', () => {
  const priv = key('payload');
  const sender = p2pkh(secp256k1.getPublicKey(priv, true), REGTEST);

  it('v1 with 25 bytes: the destination, the refund address stays the sender', () => {
    const info = peginInformation(spendTx(priv, sender, [rsktScript(rskt(1, ...ADDRESS))]));
    expect(info.protocolVersion).toBe(1);
    expect([...info.rskDestination!]).toEqual(ADDRESS);
    expect(info.refundAddress!.kind).toBe('p2pkh');
  });

  it('v1 with 46 bytes: a P2SH refund address', () => {
    const instructions = peginInstructions(spendTx(priv, sender, [rsktScript(rskt(1, ...ADDRESS, 2, ...new Array(20).fill(7)))]));
    expect(instructions).toMatchObject({ kind: 'v1', refundAddress: { kind: 'p2sh' } });
  });

  it('invalid: other lengths, version 2, an unknown refund type, two RSKT outputs', () => {
    const cases = [
      [rsktScript(rskt(1, 1, 2))],
      [rsktScript(rskt(2, ...ADDRESS))],
      [rsktScript(rskt(1, ...ADDRESS, 3, ...new Array(20).fill(7)))],
      [rsktScript(rskt(1, ...ADDRESS)), rsktScript(rskt(1, ...ADDRESS))],
      [rsktScript(rskt(1))],
    ];
    for (const outputs of cases) expect(peginInstructions(spendTx(priv, sender, outputs)).kind).toBe('invalid');
  });

  it('none: no OP_RETURN, or one without the RSKT prefix', () => {
    expect(peginInstructions(spendTx(priv, sender)).kind).toBe('none');
    expect(peginInstructions(spendTx(priv, sender, [rsktScript(Uint8Array.from(Buffer.from('HELLO')))])).kind).toBe('none');
  });
});

describe('partial merkle trees as the Bridge reads them (bitcoinj PartialMerkleTree)', () => {
  const leaves = Array.from({ length: 7 }, (_, i) => createHash('sha256').update(`leaf ${i}`).digest());

  it("reads the node's trees back: the root and the one matched leaf", () => {
    for (let index = 0; index < leaves.length; index++) {
      const tree = partialMerkleTree(leaves, index);
      expect(pmtHasExpectedSize(tree)).toBe(true);
      const read = readPartialMerkleTree(tree);
      expect(hex(read.root)).toBe(hex(merkleRoot(leaves)));
      expect(pmtContains(read, leaves[index]!)).toBe(true);
      expect(read.matched).toHaveLength(1);
    }
  });

  it('a size that disagrees with the declared counts, or too short to hold them, is not the expected size', () => {
    const tree = partialMerkleTree(leaves, 3);
    expect(pmtHasExpectedSize(tree.subarray(0, tree.length - 1))).toBe(false);
    expect(pmtHasExpectedSize(Uint8Array.of(1, 0, 0, 0, 1))).toBe(false);
    expect(pmtHasExpectedSize(new Uint8Array(0))).toBe(false);
  });

  it('throws where bitcoinj does: no transactions, unused flag bytes, equal branches (CVE-2012-2459)', () => {
    const tree = partialMerkleTree(leaves, 3);
    const noTx = Uint8Array.from(tree);
    noTx.set([0, 0, 0, 0]);
    expect(() => readPartialMerkleTree(noTx)).toThrow(PmtError);
    const extraFlag = Uint8Array.from([...tree.subarray(0, tree.length - 2), 2, tree[tree.length - 1]!, 0]);
    expect(pmtHasExpectedSize(extraFlag)).toBe(true);
    expect(() => readPartialMerkleTree(extraFlag)).toThrow(PmtError);
    // Two leaves that are the same hash, both matched: left == right.
    const same = [leaves[0]!, leaves[0]!];
    const dup = Uint8Array.from([2, 0, 0, 0, 2, ...same[0]!, ...same[1]!, 1, 0b111]);
    expect(() => readPartialMerkleTree(dup)).toThrow(/duplicated/);
  });
});

describe('the regtest federators (rootstock-integration-tests fed1..3.key)', () => {
  it("derive rskj's DEFAULT_FEDERATION_PUBLIC_KEYS, in order, and the RSK addresses listed", () => {
    expect(FEDERATORS.map((f) => hex(secp256k1.getPublicKey(f.privateKey, true)))).toEqual([...GENESIS_FEDERATION_PUBLIC_KEYS]);
    for (const f of FEDERATORS) expect(computeAddress('0x' + hex(f.privateKey)).toLowerCase()).toBe(f.address);
  });
});
