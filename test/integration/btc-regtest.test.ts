/**
 * The Bitcoin regtest chain of each network and its btc_ methods, driven as a wallet would with
 * @scure/btc-signer: faucet funds, confirmations, signed spends (P2WPKH, P2PKH, P2TR, P2SH-P2WPKH), balances.
 * Proof of work and partial merkle trees are checked here independently of the node's code.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secp256k1, schnorr } from '@noble/curves/secp256k1.js';
import { Transaction, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh } from '@scure/btc-signer';
import { createNode } from '../../src/index.js';
import { extractMatches, sha256d } from '../helpers/btc.js';
import { addUnspentInputs } from '../helpers/btc-wallet.js';
import { TESTNET_KEY, call, nodesClosedAfterEach, rpcError } from '../helpers/node.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const start = nodesClosedAfterEach();

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const rev = (b: Uint8Array) => Uint8Array.from(b).reverse();

/** A fixed key per name, so failures are reproducible. */
function key(name: string): Uint8Array {
  return createHash('sha256').update(`btc-regtest test key ${name}`).digest();
}
const wpkhOf = (priv: Uint8Array) => p2wpkh(secp256k1.getPublicKey(priv, true), REGTEST);
const pkhOf = (priv: Uint8Array) => p2pkh(secp256k1.getPublicKey(priv, true), REGTEST);
const trOf = (priv: Uint8Array) => p2tr(schnorr.getPublicKey(priv), undefined, REGTEST);
const shWpkhOf = (priv: Uint8Array) => p2sh(p2wpkh(secp256k1.getPublicKey(priv, true)), REGTEST);

/** compact bits → target, written here from Bitcoin's definition (not the node's code). */
function target(bits: number): bigint {
  return BigInt(bits & 0xffffff) * 256n ** BigInt((bits >>> 24) - 3);
}

/** Spends every unspent output of `priv`'s `kind` address to `to` (amount) with the change back. */
async function spend(url: string, priv: Uint8Array, kind: 'wpkh' | 'pkh' | 'tr' | 'sh-wpkh', to: string, amount: bigint, fee = 1_000n): Promise<string> {
  const payment = { wpkh: wpkhOf, pkh: pkhOf, tr: trOf, 'sh-wpkh': shWpkhOf }[kind](priv);
  const tx = new Transaction();
  const total = await addUnspentInputs(url, tx, kind, kind === 'tr' ? { ...payment, tapInternalKey: schnorr.getPublicKey(priv) } : payment);
  tx.addOutputAddress(to, amount, REGTEST);
  tx.addOutputAddress(payment.address!, total - amount - fee, REGTEST);
  tx.sign(priv);
  tx.finalize();
  return call(url, 'btc_sendRawTransaction', [tx.hex]);
}

describe('the Bitcoin regtest chain', () => {
  it('starts at the regtest genesis with 101 blocks premined to the faucet', async () => {
    const { testnetUrl } = await start();
    const info = await call(testnetUrl, 'btc_getInfo');
    expect(info.height).toBe(101);
    expect(info.federation.address).toBe('2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7');
    expect(info.faucet.address).toBe(wpkhOf(bytes(info.faucet.privateKey)).address);
    expect(info.faucet.confirmed).toBe(101 * 50 * 100_000_000);
    // Coinbases mature after 100 blocks: those of blocks 1 and 2 can be spent in block 102.
    expect(info.faucet.spendable).toBe(2 * 50 * 100_000_000);
    expect(info.bestblockhash).toBe('4947de51e6f6d272035c62f1cab9b40e643b9f20cfa7219a2123e9f7d985fdf1');
    const genesis = await call(testnetUrl, 'btc_getBlock', [0]);
    expect(genesis.hash).toBe('0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206');
    expect(genesis.merkleroot).toBe('4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
  });

  it('funds a key from the faucet, confirms it, spends it with a signed transaction, and balances follow (P2WPKH, P2PKH, P2TR, P2SH-P2WPKH)', async () => {
    const { testnetUrl: url } = await start();
    const alice = key('alice');
    const bob = key('bob');
    const aliceAddress = wpkhOf(alice).address!;
    const fundTxid = await call(url, 'btc_fund', [aliceAddress, 100_000_000]);
    expect(await call(url, 'btc_getBalance', [aliceAddress])).toEqual({ address: aliceAddress, confirmed: 0, unconfirmed: 100_000_000 });
    expect((await call(url, 'btc_getTransaction', [fundTxid])).confirmations).toBe(0);

    const [hash] = await call(url, 'btc_mine', [1]);
    const funding = await call(url, 'btc_getTransaction', [fundTxid]);
    expect(funding.blockhash).toBe(hash);
    expect(funding.confirmations).toBe(1);
    expect(funding.vout[0]).toMatchObject({ value: 100_000_000, address: aliceAddress });
    expect((await call(url, 'btc_getBlock', [hash])).tx).toContain(fundTxid);
    await call(url, 'btc_mine', [2]);
    expect((await call(url, 'btc_getTransaction', [fundTxid])).confirmations).toBe(3);
    expect(await call(url, 'btc_getBalance', [aliceAddress])).toMatchObject({ confirmed: 100_000_000, unconfirmed: 0 });

    // Alice (P2WPKH) pays Bob's P2PKH address; Bob pays on to his P2TR address; then back to Alice.
    const bobLegacy = pkhOf(bob).address!;
    const bobTaproot = trOf(bob).address!;
    await spend(url, alice, 'wpkh', bobLegacy, 40_000_000n);
    await call(url, 'btc_mine', [1]);
    expect(await call(url, 'btc_getBalance', [bobLegacy])).toMatchObject({ confirmed: 40_000_000 });
    expect(await call(url, 'btc_getBalance', [aliceAddress])).toMatchObject({ confirmed: 100_000_000 - 40_000_000 - 1_000 });
    await spend(url, bob, 'pkh', bobTaproot, 30_000_000n);
    await call(url, 'btc_mine', [1]);
    await spend(url, bob, 'tr', aliceAddress, 10_000_000n);
    await call(url, 'btc_mine', [1]);
    // P2SH-P2WPKH, the other sender kind rskj's peg-in accepts: funded, then spent.
    const carol = key('carol');
    await call(url, 'btc_fund', [shWpkhOf(carol).address, 2_000_000]);
    await call(url, 'btc_mine', [1]);
    await spend(url, carol, 'sh-wpkh', aliceAddress, 1_000_000n);
    await call(url, 'btc_mine', [1]);
    expect(await call(url, 'btc_getBalance', [shWpkhOf(carol).address])).toMatchObject({ confirmed: 1_000_000 - 1_000 });
    expect(await call(url, 'btc_getBalance', [bobTaproot])).toMatchObject({ confirmed: 30_000_000 - 10_000_000 - 1_000 });
    expect(await call(url, 'btc_getBalance', [bobLegacy])).toMatchObject({ confirmed: 40_000_000 - 30_000_000 - 1_000 });
    expect(await call(url, 'btc_getBalance', [aliceAddress])).toMatchObject({ confirmed: 60_000_000 - 1_000 + 10_000_000 + 1_000_000 });
  });

  it('pays the coinbase (subsidy plus fees) to the address given, spendable only after 100 blocks', async () => {
    const { testnetUrl: url } = await start();
    const miner = key('miner');
    const minerAddress = wpkhOf(miner).address!;
    await call(url, 'btc_fund', [wpkhOf(key('x')).address, 10_000]);
    const [hash] = await call(url, 'btc_mine', [1, minerAddress]);
    const block = await call(url, 'btc_getBlock', [hash]);
    const coinbase = await call(url, 'btc_getTransaction', [block.tx[0]]);
    const funding = await call(url, 'btc_getTransaction', [block.tx[1]]);
    const spent = await call(url, 'btc_getTransaction', [funding.vin[0].txid]);
    const fee = spent.vout[funding.vin[0].vout].value - funding.vout.reduce((sum: number, o: { value: number }) => sum + o.value, 0);
    expect(fee).toBeGreaterThan(0);
    expect(block.height).toBe(102);
    expect(coinbase.vout[0]).toMatchObject({ address: minerAddress, value: 50 * 100_000_000 + fee });
    expect(funding.vout[0]).toMatchObject({ value: 10_000 });
    const immature = await (async () => {
      try {
        await spend(url, miner, 'wpkh', minerAddress, 1_000_000n);
      } catch (err) {
        return (err as Error).message;
      }
      return 'spent';
    })();
    expect(immature).toContain('-32010');
    expect(immature).toContain('coinbase maturity 100');
    await call(url, 'btc_mine', [99]);
    await spend(url, miner, 'wpkh', minerAddress, 1_000_000n);
  });

  it('refuses double spends, bad signatures, unknown inputs, overspends and malformed bytes with clear errors', async () => {
    const { testnetUrl: url } = await start();
    const alice = key('alice');
    const aliceAddress = wpkhOf(alice).address!;
    await call(url, 'btc_fund', [aliceAddress, 50_000_000]);
    await call(url, 'btc_mine', [1]);
    const [utxo] = await call(url, 'btc_listUnspent', [aliceAddress]);
    const build = (amount: bigint, signer = alice) => {
      const tx = new Transaction();
      tx.addInput({ txid: utxo.txid, index: utxo.vout, witnessUtxo: { script: wpkhOf(alice).script, amount: 50_000_000n } });
      tx.addOutputAddress(wpkhOf(key('bob')).address!, amount, REGTEST);
      tx.sign(signer);
      tx.finalize();
      return tx.hex;
    };
    const good = build(49_000_000n);
    // Overspend: btc-signer will not sign one, so raise the output of a signed transaction (49,000,000 → 50,000,001 sat).
    const overspend = good.replace('40aeeb0200000000', '81f0fa0200000000');
    expect(overspend).not.toBe(good);
    expect(await rpcError(url, 'btc_sendRawTransaction', [overspend])).toMatchObject({ code: -32010, message: expect.stringContaining('outputs exceed inputs by 1 satoshis') });
    // A signature that does not verify: one byte of it changed.
    const parsed = Transaction.fromRaw(bytes(good));
    const [signature, publicKey] = parsed.getInput(0).finalScriptWitness!;
    const flipped = Uint8Array.from(signature!);
    flipped[10]! ^= 1; // inside r
    parsed.updateInput(0, { finalScriptWitness: [flipped, publicKey!] }, true);
    const tampered = hex(parsed.toBytes(true, true));
    expect(tampered).not.toBe(good);
    expect((await rpcError(url, 'btc_sendRawTransaction', [tampered])).code).toBe(-32010);
    expect(await call(url, 'btc_sendRawTransaction', [good])).toMatch(/^[0-9a-f]{64}$/);
    expect(await rpcError(url, 'btc_sendRawTransaction', [good])).toMatchObject({ code: -32010, message: expect.stringContaining('already known') });
    expect(await rpcError(url, 'btc_sendRawTransaction', [build(48_000_000n)])).toMatchObject({ code: -32010, message: expect.stringContaining('already spent by pooled transaction') });
    const unknown = new Transaction();
    unknown.addInput({ txid: 'ab'.repeat(32), index: 0, witnessUtxo: { script: wpkhOf(alice).script, amount: 1000n } });
    unknown.addOutputAddress(aliceAddress, 500n, REGTEST);
    unknown.sign(alice);
    unknown.finalize();
    expect(await rpcError(url, 'btc_sendRawTransaction', [unknown.hex])).toMatchObject({ code: -32010, message: expect.stringContaining('not an unspent output') });
    // A script spend (P2WSH) is beyond the templates the node verifies: refused, saying which it verifies.
    const script = p2wsh(p2pk(secp256k1.getPublicKey(alice, true)), REGTEST);
    await call(url, 'btc_fund', [script.address, 100_000]);
    await call(url, 'btc_mine', [1]);
    const [locked] = await call(url, 'btc_listUnspent', [script.address]);
    const scriptSpend = new Transaction();
    scriptSpend.addInput({ txid: locked.txid, index: locked.vout, witnessUtxo: { script: script.script, amount: 100_000n }, witnessScript: script.witnessScript });
    scriptSpend.addOutputAddress(aliceAddress, 90_000n, REGTEST);
    scriptSpend.sign(alice);
    scriptSpend.finalize();
    expect(await rpcError(url, 'btc_sendRawTransaction', [scriptSpend.hex])).toMatchObject({ code: -32010, message: expect.stringContaining('this node verifies P2PKH, P2WPKH, P2SH-P2WPKH, P2TR key-path and federation (P2SH-P2WSH ERP multisig branch) spends') });
    expect((await rpcError(url, 'btc_sendRawTransaction', ['0x0100'])).code).toBe(-32602);
    expect((await rpcError(url, 'btc_sendRawTransaction', ['zz'])).code).toBe(-32602);
    expect((await rpcError(url, 'btc_fund', ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 1000])).code).toBe(-32602);
    expect((await rpcError(url, 'btc_fund', [aliceAddress, 10])).code).toBe(-32602);
    expect((await rpcError(url, 'btc_mine', [1001])).code).toBe(-32602);
    expect((await rpcError(url, 'btc_mine', [0])).code).toBe(-32602);
    expect(await call(url, 'btc_getBlock', [10_000])).toBeNull();
    expect(await call(url, 'btc_getTransaction', ['00'.repeat(32)])).toBeNull();
  });

  it('mines every block with real proof of work: double SHA-256 of the 80-byte header at most the target of its bits, each on its parent', async () => {
    const { testnetUrl: url } = await start();
    await call(url, 'btc_mine', [20]);
    const height = (await call(url, 'btc_getInfo')).height;
    let parent = '00'.repeat(32);
    for (let h = 0; h <= height; h++) {
      const header = bytes(await call(url, 'btc_getBlockHeader', [h]));
      expect(header.length).toBe(80);
      const hash = sha256d(header);
      const bits = new DataView(header.buffer, header.byteOffset).getUint32(72, true);
      expect(bits).toBe(0x207fffff);
      expect(BigInt('0x' + hex(rev(hash)))).toBeLessThanOrEqual(target(bits));
      expect(hex(rev(header.subarray(4, 36)))).toBe(parent);
      parent = hex(rev(hash));
      expect((await call(url, 'btc_getBlock', [h])).hash).toBe(parent);
    }
  });

  it("gives partial merkle trees that prove each transaction against the header's merkle root, and over wtxids against the witness commitment", async () => {
    const { testnetUrl: url } = await start();
    const txids: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) txids.push(await call(url, 'btc_fund', [wpkhOf(key(name)).address, 1_000_000]));
    const [hash] = await call(url, 'btc_mine', [1]);
    const block = await call(url, 'btc_getBlock', [hash]);
    expect(block.tx).toHaveLength(6);
    const header = bytes(await call(url, 'btc_getBlockHeader', [hash]));
    // The serialized block: the header, the count, each transaction as btc_getTransaction gives it.
    const txHexes = await Promise.all(block.tx.map(async (txid: string) => (await call(url, 'btc_getTransaction', [txid])).hex));
    expect(block.hex).toBe(hex(header) + '06' + txHexes.join(''));
    for (const [index, txid] of block.tx.entries()) {
      const proof = await call(url, 'btc_getPartialMerkleTree', [txid]);
      expect(proof).toMatchObject({ blockhash: hash, height: block.height, index, witness: false });
      const { root, matched, indexes } = extractMatches(bytes(proof.pmt));
      expect(hex(root)).toBe(hex(header.subarray(36, 68)));
      expect(matched.map((m) => hex(rev(m)))).toEqual([txid]);
      expect(indexes).toEqual([index]);
    }
    // The witness tree: its root is what the coinbase commits to (BIP141).
    const coinbase = await call(url, 'btc_getTransaction', [block.tx[0]]);
    const commitment = coinbase.vout.find((o: { scriptPubKey: string }) => o.scriptPubKey.startsWith('6a24aa21a9ed')).scriptPubKey.slice(12);
    const witnessProof = await call(url, 'btc_getPartialMerkleTree', [txids[2], true]);
    const { root, matched } = extractMatches(bytes(witnessProof.pmt));
    const tx = await call(url, 'btc_getTransaction', [txids[2]]);
    expect(hex(rev(matched[0]!))).toBe(tx.wtxid);
    expect(tx.wtxid).toBe(hex(rev(sha256d(bytes(tx.hex)))));
    expect(hex(sha256d(Buffer.concat([root, new Uint8Array(32)])))).toBe(commitment);
    // A pooled transaction has no proof yet.
    const pooled = await call(url, 'btc_fund', [wpkhOf(key('f')).address, 1_000_000]);
    expect(await rpcError(url, 'btc_getPartialMerkleTree', [pooled])).toMatchObject({ code: -32602, message: expect.stringContaining('pooled, not mined') });
  });

  it('evm_snapshot / evm_revert restore the Bitcoin chain and its pool; evm_reset goes back to the premine', async () => {
    const { testnetUrl: url } = await start();
    const alice = wpkhOf(key('alice')).address!;
    await call(url, 'btc_mine', [2]);
    const pooledBefore = await call(url, 'btc_fund', [alice, 1_000_000]);
    const tipBefore = (await call(url, 'btc_getInfo')).bestblockhash;
    const id = await call(url, 'evm_snapshot');
    await call(url, 'btc_mine', [5]);
    await call(url, 'btc_fund', [alice, 2_000_000]);
    await call(url, 'btc_mine', [1]);
    expect(await call(url, 'btc_getBalance', [alice])).toMatchObject({ confirmed: 3_000_000 });
    expect(await call(url, 'evm_revert', [id])).toBe(true);
    const info = await call(url, 'btc_getInfo');
    expect(info.height).toBe(103);
    expect(info.bestblockhash).toBe(tipBefore);
    expect(await call(url, 'btc_getBalance', [alice])).toEqual({ address: alice, confirmed: 0, unconfirmed: 1_000_000 });
    expect((await call(url, 'btc_getTransaction', [pooledBefore])).confirmations).toBe(0);
    expect(await call(url, 'btc_getBlock', [104])).toBeNull();
    // Mining after the revert builds on the restored tip, with the restored pool.
    const [next] = await call(url, 'btc_mine', [1]);
    expect((await call(url, 'btc_getBlock', [next])).previousblockhash).toBe(tipBefore);
    expect(await call(url, 'btc_getBalance', [alice])).toMatchObject({ confirmed: 1_000_000 });

    const premineTip = (await call(url, 'btc_getBlock', [101])).hash;
    await call(url, 'btc_fund', [alice, 1_000_000]);
    await call(url, 'evm_reset');
    const reset = await call(url, 'btc_getInfo');
    expect(reset.height).toBe(101);
    expect(reset.bestblockhash).toBe(premineTip);
    expect(await call(url, 'btc_getBalance', [alice])).toEqual({ address: alice, confirmed: 0, unconfirmed: 0 });
  });

  it('keeps a Bitcoin chain per network', async () => {
    const { testnetUrl, mainnetUrl } = await start();
    await call(testnetUrl, 'btc_mine', [3]);
    expect((await call(testnetUrl, 'btc_getInfo')).height).toBe(104);
    expect((await call(mainnetUrl, 'btc_getInfo')).height).toBe(101);
  });

  it('keeps the Bitcoin chain across a restart on a data directory, a revert and an RSK state load in between', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'btc-regtest-'));
    const options = { dataDir, inMemory: false, logLevel: 'silent' as const, apiKeys: [{ key: TESTNET_KEY, network: 'testnet' as const }] };
    try {
      const first = await createNode(options);
      const server = await first.server(0);
      const url = `${server.url}/${TESTNET_KEY}`;
      const alice = wpkhOf(key('alice')).address!;
      const txid = await call(url, 'btc_fund', [alice, 5_000_000]);
      await call(url, 'btc_mine', [4]);
      // A revert deletes the stored Bitcoin blocks in its own batch with the RSK chain's.
      const id = await call(url, 'evm_snapshot');
      await call(url, 'btc_mine', [2]);
      await call(url, 'evm_revert', [id]);
      // A state load replaces the RSK chain only: the Bitcoin chain's records stay on disk.
      await call(url, 'anvil_loadState', [await call(url, 'anvil_dumpState')]);
      const before = await call(url, 'btc_getInfo');
      await first.close();

      const second = await createNode(options);
      const url2 = `${(await second.server(0)).url}/${TESTNET_KEY}`;
      try {
        const after = await call(url2, 'btc_getInfo');
        expect(after.height).toBe(before.height);
        expect(after.bestblockhash).toBe(before.bestblockhash);
        expect(after.faucet.confirmed).toBe(before.faucet.confirmed);
        expect(await call(url2, 'btc_getBalance', [alice])).toMatchObject({ confirmed: 5_000_000 });
        expect((await call(url2, 'btc_getTransaction', [txid])).confirmations).toBe(4);
        const [hash] = await call(url2, 'btc_mine', [1]);
        expect((await call(url2, 'btc_getBlock', [hash])).previousblockhash).toBe(before.bestblockhash);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
