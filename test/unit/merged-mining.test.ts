import { describe, it, expect } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256Midstate, sha256Resume } from '../../src/chain/bitcoin/midstate.js';
import { btcHeaderHash } from '../../src/chain/bitcoin/encoding.js';
import {
  RSK_TAG,
  coinbaseMerkleProof,
  compressCoinbase,
  forkDetectionAncestorHeights,
  forkDetectionData,
  mineMergedMiningProof,
  powTarget,
  validateMergedMiningProof,
  type MergedMiningProof,
} from '../../src/chain/merged-mining/proof.js';
import { ForkDetectionAncestors } from '../../src/chain/merged-mining/seal.js';
import type { RskBlock } from '../../src/chain/records/block.js';

const HASH = sha256(utf8ToBytes('block for merged mining'));
const TIME = 1_700_000_000;
const bigIntOf = (bytes: Uint8Array): bigint => BigInt('0x' + bytesToHex(bytes));
const reversed = (bytes: Uint8Array): Uint8Array => Uint8Array.from(bytes).reverse();
const sha256d = (bytes: Uint8Array): Uint8Array => sha256(sha256(bytes));
const txid = (n: number): Uint8Array => sha256(Uint8Array.of(0xee, n));
const flip = (bytes: Uint8Array, index: number): Uint8Array => {
  const copy = Uint8Array.from(bytes);
  copy[index]! ^= 0x01;
  return copy;
};
/** A stored coinbase whose midstate is the SHA-256 IV, i.e. the whole tx sits in the tail. */
const storedWhole = (tx: Uint8Array): Uint8Array => concatBytes(new Uint8Array(8), sha256Midstate(new Uint8Array(0)), tx);
const tagged = (hash = HASH): Uint8Array => concatBytes(RSK_TAG, hash);
/** Sets the merkle root and regrinds the nonce so the header still meets the difficulty-1 target. */
function regrind(header: Uint8Array, merkleRoot: Uint8Array): Uint8Array {
  const out = Uint8Array.from(header);
  out.set(merkleRoot, 36);
  const view = new DataView(out.buffer);
  for (let nonce = 0; ; nonce++) {
    view.setUint32(76, nonce, true);
    if (bigIntOf(btcHeaderHash(out)) <= powTarget(1n)) return out;
  }
}
function expectFailure(result: ReturnType<typeof validateMergedMiningProof>, reason: RegExp): void {
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.reason).toMatch(reason);
}

describe('sha256 midstate', () => {
  it('the empty-prefix midstate is the SHA-256 initial value', () => {
    expect(bytesToHex(sha256Midstate(new Uint8Array(0)))).toBe(
      '6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19',
    );
  });

  it('midstate + resume equals one-shot SHA-256 for random inputs and padding boundaries', () => {
    const tailLengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 200, 1000];
    for (let blocks = 0; blocks <= 5; blocks++) {
      for (const tailLength of tailLengths) {
        const prefix = randomBytes(blocks * 64);
        const tail = randomBytes(tailLength);
        const resumed = sha256Resume(sha256Midstate(prefix), BigInt(prefix.length), tail);
        expect(bytesToHex(resumed)).toBe(bytesToHex(sha256(concatBytes(prefix, tail))));
      }
    }
  });

  it('rejects an unaligned prefix and a wrong-size midstate', () => {
    expect(() => sha256Midstate(new Uint8Array(65))).toThrow(/multiple of 64/);
    expect(() => sha256Resume(new Uint8Array(31), 0n, new Uint8Array(0))).toThrow(/32 bytes/);
  });
});

describe('powTarget', () => {
  it('is floor(2^256 / d) with d raised to 3 when d <= 2', () => {
    const third = BigInt('0x' + '55'.repeat(32));
    expect(powTarget(1n)).toBe(third);
    expect(powTarget(2n)).toBe(third);
    expect(powTarget(3n)).toBe(third);
    expect(powTarget(1000n)).toBe(0x004189374bc6a7ef9db22d0e5604189374bc6a7ef9db22d0e5604189374bc6a7n);
  });
});

describe('btcHeaderHash', () => {
  it('returns the display-order double SHA-256 (Bitcoin genesis block)', () => {
    const genesis = hexToBytes(
      '01000000' + '00'.repeat(32) +
        '3ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a' +
        '29ab5f49' + 'ffff001d' + '1dac2b7c',
    );
    expect(bytesToHex(btcHeaderHash(genesis))).toBe('000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
  });
});

describe('compressCoinbase', () => {
  it('splits at the 64-byte boundary below the last tag', () => {
    const tx = concatBytes(randomBytes(20), tagged(), randomBytes(69), tagged(), randomBytes(4)); // last tag at 130
    const stored = compressCoinbase(tx);
    expect(bytesToHex(stored.subarray(0, 8))).toBe('0000000000000080');
    expect(bytesToHex(stored.subarray(8, 40))).toBe(bytesToHex(sha256Midstate(tx.subarray(0, 128))));
    expect(bytesToHex(stored.subarray(40))).toBe(bytesToHex(tx.subarray(128)));
  });

  it('throws without a tag', () => {
    expect(() => compressCoinbase(randomBytes(100))).toThrow(/no RSKBLOCK/);
  });
});

describe('mineMergedMiningProof', () => {
  it('builds a valid, deterministic single-transaction proof at difficulty 1', () => {
    const proof = mineMergedMiningProof(HASH, 1n, TIME);
    expect(validateMergedMiningProof(proof, HASH, 1n)).toEqual({ ok: true });
    expect(mineMergedMiningProof(HASH, 1n, TIME)).toEqual(proof);

    const header = new DataView(proof.btcHeader.buffer, proof.btcHeader.byteOffset, 80);
    expect(proof.btcHeader.length).toBe(80);
    expect(header.getUint32(0, true)).toBe(70001);
    expect(bytesToHex(proof.btcHeader.subarray(4, 36))).toBe('00'.repeat(32));
    expect(header.getUint32(68, true)).toBe(TIME);
    expect(header.getUint32(72, true)).toBe(0x207fffff);
    expect(proof.merkleProof.length).toBe(0);

    // Single tx: the merkle root is the coinbase txid recomputed from the stored form.
    const count = new DataView(proof.coinbase.buffer, proof.coinbase.byteOffset).getBigUint64(0);
    const tail = proof.coinbase.subarray(40);
    const coinbaseTxid = sha256(sha256Resume(proof.coinbase.subarray(8, 40), count, tail));
    expect(bytesToHex(proof.btcHeader.subarray(36, 68))).toBe(bytesToHex(coinbaseTxid));
    expect(count % 64n).toBe(0n);
    // Tag ‖ hash sits in the first 64 tail bytes, followed only by the 4-byte locktime.
    expect(bytesToHex(tail.subarray(tail.length - 45))).toBe(bytesToHex(tagged()) + '00000000');
    expect(tail.length - 45).toBeLessThan(64);
  });

  it('derives a different coinbase from a different hash', () => {
    const other = sha256(utf8ToBytes('another block'));
    const a = mineMergedMiningProof(HASH, 1n, TIME);
    const b = mineMergedMiningProof(other, 1n, TIME);
    expect(bytesToHex(b.coinbase)).not.toBe(bytesToHex(a.coinbase));
    expect(validateMergedMiningProof(b, other, 1n)).toEqual({ ok: true });
  });

  it('grinds the nonce to the first one meeting a larger difficulty', () => {
    const proof = mineMergedMiningProof(HASH, 1000n, TIME);
    expect(validateMergedMiningProof(proof, HASH, 1000n)).toEqual({ ok: true });
    expect(bigIntOf(btcHeaderHash(proof.btcHeader))).toBeLessThanOrEqual(powTarget(1000n));

    const view = new DataView(proof.btcHeader.buffer, proof.btcHeader.byteOffset, 80);
    const nonce = view.getUint32(76, true);
    expect(nonce).toBeGreaterThan(0);
    const earlier = Uint8Array.from(proof.btcHeader);
    new DataView(earlier.buffer).setUint32(76, nonce - 1, true);
    expect(bigIntOf(btcHeaderHash(earlier))).toBeGreaterThan(powTarget(1000n));
  });

  it.each([
    [1, 32],
    [2, 64],
    [3, 64],
    [5, 96],
  ])('with %i extra txids validates with a %i-byte proof', (extra, proofLength) => {
    const extraTxids = Array.from({ length: extra }, (_, i) => txid(i));
    const proof = mineMergedMiningProof(HASH, 1n, TIME, extraTxids);
    expect(proof.merkleProof.length).toBe(proofLength);
    expect(bytesToHex(proof.merkleProof.subarray(0, 32))).toBe(bytesToHex(reversed(extraTxids[0]!)));
    expect(validateMergedMiningProof(proof, HASH, 1n)).toEqual({ ok: true });
  });

  it('builds the standard bitcoin merkle tree (odd levels duplicate the last node)', () => {
    const [a, b, c] = [txid(10), txid(11), txid(12)];
    const ab = sha256d(concatBytes(a, b));
    const cc = sha256d(concatBytes(c, c));
    const { merkleRoot, merkleProof } = coinbaseMerkleProof([a, b, c]);
    expect(bytesToHex(merkleRoot)).toBe(bytesToHex(sha256d(concatBytes(ab, cc))));
    expect(bytesToHex(merkleProof)).toBe(bytesToHex(concatBytes(reversed(b), reversed(cc))));
    expect(coinbaseMerkleProof([a])).toEqual({ merkleRoot: a, merkleProof: new Uint8Array(0) });
  });
});

describe('mineMergedMiningProof bytes', () => {
  // SHA-256 over the header, stored coinbase and merkle proof of 300 proofs (prefix lengths 0-999,
  // 1- and 3-byte script lengths, 0-3 extra txids, difficulty 1 and 1,000), computed by the
  // straightforward construction before the seal was made cheaper: the bytes must never change.
  it('are the same as before the seal was made cheaper', () => {
    const digest = sha256.create();
    for (let i = 0; i < 300; i++) {
      const hash = sha256(utf8ToBytes(`seal ${i}`));
      const extra = Array.from({ length: i % 4 }, (_, j) => sha256(utf8ToBytes(`tx ${i} ${j}`)));
      const proof = mineMergedMiningProof(hash, i % 5 === 0 ? 1000n : 1n, TIME + i, extra);
      digest.update(proof.btcHeader).update(proof.coinbase).update(proof.merkleProof);
    }
    expect(bytesToHex(digest.digest())).toBe('bbc8e5bce5e6a1280284350b2fb185785e3012cccfc96cd491db3da1b38631b9');
  });
});

describe('validateMergedMiningProof rejects', () => {
  const single = mineMergedMiningProof(HASH, 1n, TIME);
  const withTxs = mineMergedMiningProof(HASH, 1n, TIME, [txid(1), txid(2)]);
  const withCoinbase = (coinbase: Uint8Array): MergedMiningProof => ({ ...single, coinbase });

  it('a tampered header merkle root, even with valid PoW', () => {
    const header = regrind(single.btcHeader, flip(single.btcHeader.subarray(36, 68), 0));
    expectFailure(validateMergedMiningProof({ ...single, btcHeader: header }, HASH, 1n), /merkle root/);
  });

  it('a header whose hash misses the target', () => {
    const proof = mineMergedMiningProof(HASH, 1000n, TIME);
    const header = flip(proof.btcHeader, 76);
    expectFailure(validateMergedMiningProof({ ...proof, btcHeader: header }, HASH, 1000n), /higher than target/);
  });

  it('a header that is not 80 bytes', () => {
    const header = single.btcHeader.subarray(0, 79);
    expectFailure(validateMergedMiningProof({ ...single, btcHeader: header }, HASH, 1n), /80 bytes but was 79/);
  });

  it('a tampered midstate or coinbase tail byte', () => {
    expectFailure(validateMergedMiningProof(withCoinbase(flip(single.coinbase, 20)), HASH, 1n), /merkle root/);
    expectFailure(validateMergedMiningProof(withCoinbase(flip(single.coinbase, 40)), HASH, 1n), /merkle root/);
  });

  it('a tampered hash inside the coinbase tag', () => {
    const coinbase = flip(single.coinbase, single.coinbase.length - 10);
    expectFailure(validateMergedMiningProof(withCoinbase(coinbase), HASH, 1n), /does not contain RSKBLOCK/);
  });

  it('a tampered merkle proof byte', () => {
    const proof = { ...withTxs, merkleProof: flip(withTxs.merkleProof, 40) };
    expectFailure(validateMergedMiningProof(proof, HASH, 1n), /merkle root/);
  });

  it('the wrong hashForMergedMining', () => {
    expectFailure(validateMergedMiningProof(single, flip(HASH, 0), 1n), /does not contain RSKBLOCK/);
  });

  it('an oversize or misaligned merkle proof', () => {
    const oversize = { ...single, merkleProof: new Uint8Array(992) };
    expectFailure(validateMergedMiningProof(oversize, HASH, 1n), /992 bytes, more than 960/);
    const misaligned = { ...single, merkleProof: new Uint8Array(33) };
    expectFailure(validateMergedMiningProof(misaligned, HASH, 1n), /33 is not a multiple of 32/);
  });

  it('a tag placed at or after tail offset 64', () => {
    const coinbase = storedWhole(concatBytes(new Uint8Array(64), tagged(), new Uint8Array(4)));
    expectFailure(validateMergedMiningProof(withCoinbase(coinbase), HASH, 1n), /tail offset 64, must be below 64/);
  });

  it('another RSKBLOCK: tag after the expected one', () => {
    const coinbase = storedWhole(concatBytes(new Uint8Array(30), tagged(), RSK_TAG, new Uint8Array(32)));
    expectFailure(validateMergedMiningProof(withCoinbase(coinbase), HASH, 1n), /not the last one/);
  });

  it('more than 128 bytes after the hash', () => {
    const coinbase = storedWhole(concatBytes(new Uint8Array(30), tagged(), new Uint8Array(129)));
    expectFailure(validateMergedMiningProof(withCoinbase(coinbase), HASH, 1n), /129 bytes follow/);
  });

  it('a coinbase of 64 bytes or less', () => {
    const coinbase = storedWhole(concatBytes(new Uint8Array(10), tagged()));
    expectFailure(validateMergedMiningProof(withCoinbase(coinbase), HASH, 1n), /longer than 64 bytes but is 51/);
    expectFailure(validateMergedMiningProof(withCoinbase(new Uint8Array(39)), HASH, 1n), /shorter than its 40-byte/);
  });

  it('accepts a hand-built coinbase that follows the rules', () => {
    const tx = concatBytes(new Uint8Array(30), tagged(), new Uint8Array(128));
    const header = regrind(single.btcHeader, sha256d(tx));
    expect(validateMergedMiningProof({ ...single, btcHeader: header, coinbase: storedWhole(tx) }, HASH, 1n)).toEqual({
      ok: true,
    });
  });

  it('a node pair that parses as a 64-byte BTC transaction', () => {
    // Find a block whose coinbase txid (display order) has a 1 at byte 4: "one input".
    let hash = HASH;
    let coinbaseDisplay: Uint8Array = new Uint8Array(32);
    for (let i = 0; coinbaseDisplay[4] !== 1; i++) {
      hash = sha256(Uint8Array.of(i >> 8, i & 0xff));
      const { coinbase } = mineMergedMiningProof(hash, 1n, TIME);
      const count = new DataView(coinbase.buffer, coinbase.byteOffset).getBigUint64(0);
      coinbaseDisplay = reversed(sha256(sha256Resume(coinbase.subarray(8, 40), count, coinbase.subarray(40))));
    }
    // Sibling (display order) completing: outpoint index 0, empty input script, one output of
    // 1 satoshi with a 4-byte script.
    const sibling = new Uint8Array(32);
    sibling[14] = 1;
    sibling[15] = 1;
    sibling[23] = 4;
    const attack = mineMergedMiningProof(hash, 1n, TIME, [reversed(sibling)]);
    expect(bytesToHex(attack.merkleProof)).toBe(bytesToHex(sibling));
    expectFailure(validateMergedMiningProof(attack, hash, 1n), /step 0: the node pair forms a valid 64-byte BTC transaction/);

    sibling[23] = 3; // scripts no longer add up to 4 bytes: an ordinary pair
    const benign = mineMergedMiningProof(hash, 1n, TIME, [reversed(sibling)]);
    expect(validateMergedMiningProof(benign, hash, 1n)).toEqual({ ok: true });
  });
});

describe('fork detection data', () => {
  it('lists the ancestor heights s, s-64, ..., s-384 with s = floor((height-1)/64)*64', () => {
    expect(forkDetectionAncestorHeights(449n)).toEqual([448n, 384n, 320n, 256n, 192n, 128n, 64n]);
    expect(forkDetectionAncestorHeights(512n)).toEqual([448n, 384n, 320n, 256n, 192n, 128n, 64n]);
    expect(forkDetectionAncestorHeights(513n)).toEqual([512n, 448n, 384n, 320n, 256n, 192n, 128n]);
  });

  it('lays out last hash bytes, uncle count and height in 12 bytes', () => {
    const hashes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66].map((last) => {
      const h = new Uint8Array(32).fill(0xab);
      h[31] = last;
      return h;
    });
    const data = forkDetectionData([...hashes, undefined], 3, 0x01020304n);
    expect(bytesToHex(data)).toBe('112233445566' + '00' + '03' + '01020304');
    expect(forkDetectionData([...hashes, hashes[0]], 300, 449n)[7]).toBe(300 & 0xff);
    expect(bytesToHex(forkDetectionData([...hashes, hashes[0]], 0, 449n).subarray(8))).toBe('000001c1');
    expect(() => forkDetectionData(hashes, 0, 449n)).toThrow(/7 ancestor/);
  });
});

describe('ForkDetectionAncestors', () => {
  /** A chain of fake blocks with a BTC header each; `era` changes every hash (a chain mined again). */
  const chainOf = (era: number) => (number: bigint): RskBlock => ({
    hash: sha256(utf8ToBytes(`block ${number} era ${era}`)),
    header: { bitcoinMergedMiningHeader: sha256(utf8ToBytes(`btc ${number} era ${era}`)).slice(0, 16) },
  }) as unknown as RskBlock;
  const direct = (block: (n: bigint) => RskBlock, height: bigint) => forkDetectionAncestorHeights(height).map((n) => btcHeaderHash(block(n).header.bitcoinMergedMiningHeader));

  it('reads the seven ancestors once per start height, then only the block at the start to check it', async () => {
    const block = chainOf(0);
    const reads: bigint[] = [];
    const ancestors = new ForkDetectionAncestors(async (n) => (reads.push(n), block(n)));
    for (let height = 449n; height <= 512n; height++) expect(await ancestors.btcHeaderHashes(height)).toEqual(direct(block, height));
    // 7 reads for 449, then one (the start, 448) for each of the 63 heights after.
    expect(reads).toHaveLength(7 + 63);
    reads.length = 0;
    expect(await ancestors.btcHeaderHashes(513n)).toEqual(direct(block, 513n));
    expect(reads).toHaveLength(7);
  });

  it('reads them again when the block at the start height is another (a chain reverted and mined again)', async () => {
    let era = 0;
    const ancestors = new ForkDetectionAncestors(async (n) => chainOf(n === 64n ? 0 : era)(n));
    const before = await ancestors.btcHeaderHashes(500n);
    era = 1;
    const after = await ancestors.btcHeaderHashes(500n);
    expect(after).toEqual(direct((n) => chainOf(n === 64n ? 0 : 1)(n), 500n));
    expect(after[0]).not.toEqual(before[0]);
    expect(after[6]).toEqual(before[6]);
  });

  it('gives undefined for a missing block and keeps nothing when the start block is missing', async () => {
    const block = chainOf(0);
    let missing = true;
    const ancestors = new ForkDetectionAncestors(async (n) => (n === 448n && missing ? undefined : block(n)));
    expect((await ancestors.btcHeaderHashes(449n))[0]).toBeUndefined();
    missing = false;
    expect(await ancestors.btcHeaderHashes(449n)).toEqual(direct(block, 449n));
  });
});
