/**
 * RSK's native contracts HDWalletUtils, BlockHeader, Environment and secp256k1 add/mul, through
 * ethers against a real node: eth_call, eth_estimateGas and mined transactions. Expected values
 * come from rskj (co/rsk/pcc/**, their unit tests' vectors), BIP-32's published test vectors and
 * @noble/curves; gas from each method's getGas in rskj.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Contract, ContractFactory, JsonRpcProvider, Wallet, getBytes, hexlify, toBeHex, zeroPadValue, type TransactionReceipt } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { contracts, type CompiledContract } from '../fixtures/contracts.js';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';
import { BLOCK_HEADER_ABI, ENVIRONMENT_ABI } from '../fixtures/native-abis.js';

const require = createRequire(import.meta.url);
const hdWalletUtils = require('@rsksmart/rsk-precompiled-abis').hdWalletUtils as { abi: unknown[]; address: string };

const fixtures = contracts as unknown as Record<string, CompiledContract>;
const BLOCK_HEADER = '0x0000000000000000000000000000000001000010';
const ENVIRONMENT = '0x0000000000000000000000000000000001000011';
const SECP256K1_ADD = '0x0000000000000000000000000000000001000016';
const SECP256K1_MUL = '0x0000000000000000000000000000000001000017';

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let header: Contract;
let environment: Contract;
let hd: Contract;

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
  header = new Contract(BLOCK_HEADER, BLOCK_HEADER_ABI, provider);
  environment = new Contract(ENVIRONMENT, ENVIRONMENT_ABI, provider);
  // The published ABI marks every method non-constant, so ethers reads them with staticCall.
  hd = new Contract(hdWalletUtils.address, hdWalletUtils.abi as never, provider);
  // A few blocks, so that depths 0-2 exist below the latest block.
  for (let i = 0; i < 4; i++) await call(t.testnetUrl, 'evm_mine');
});
afterAll(async () => {
  provider?.destroy();
  await t?.close();
});

/** Intrinsic gas on RSK: 21,000, 4 per zero and 16 per other calldata byte (RSKIP400). */
function intrinsic(data: string): bigint {
  let gas = 21_000n;
  for (const byte of getBytes(data)) gas += byte === 0 ? 4n : 16n;
  return gas;
}

/** Sends a transaction with a fixed gas limit and returns its receipt, whatever its status. */
async function mine(to: string, data: string, gasLimit = 500_000n): Promise<TransactionReceipt> {
  const tx = await wallet.sendTransaction({ to, data, gasLimit, type: 0 });
  const receipt = await provider.getTransactionReceipt(tx.hash);
  expect(receipt).not.toBeNull();
  return receipt!;
}

/** Java BigInteger.toByteArray() of a non-negative quantity, as 0x hex. */
function javaBytes(quantity: string | bigint): string {
  let hex = BigInt(quantity).toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return `0x${hex}`;
}

async function blockAt(tag: string | number): Promise<Record<string, string>> {
  return call(t.testnetUrl, 'eth_getBlockByNumber', [typeof tag === 'number' ? toBeHex(tag) : tag, false]);
}

describe('BlockHeader 0x…01000010 (RSKIP119)', () => {
  it('answers every field of the block at depth 0 (the parent of the block eth_call runs on) and depth 2', async () => {
    const latest = Number((await blockAt('latest')).number);
    for (const depth of [0, 2]) {
      const b = await blockAt(latest - 1 - depth);
      expect(await header.getCoinbaseAddress(depth)).toBe(b.miner);
      expect(await header.getBlockHash(depth)).toBe(b.hash);
      expect(await header.getBitcoinHeader(depth)).toBe(b.bitcoinMergedMiningHeader);
      expect(getBytes(await header.getBitcoinHeader(depth)).length).toBe(80);
      expect(await header.getMinGasPrice(depth)).toBe(javaBytes(b.minimumGasPrice!));
      expect(await header.getGasLimit(depth)).toBe(toBeHex(BigInt(b.gasLimit!)));
      expect(await header.getGasUsed(depth)).toBe(javaBytes(b.gasUsed!));
      expect(await header.getDifficulty(depth)).toBe(javaBytes(b.difficulty!));
      expect(await header.getDifficultyWithUncles(depth)).toBe(javaBytes(b.difficulty!));
      expect(await header.getCumulativeWork(depth)).toBe(javaBytes(b.totalDifficulty!));
      expect(await header.getUncleCoinbaseAddress(depth, 0)).toBe('0x');
    }
  });

  it('encodes numbers as Java BigInteger bytes: gas used 0 is one zero byte', async () => {
    const latest = Number((await blockAt('latest')).number);
    const parent = await blockAt(latest - 1);
    expect(parent.gasUsed).toBe('0x0');
    expect(await header.getGasUsed(0)).toBe('0x00');
  });

  it('merged-mining tags: what follows "RSKBLOCK:" and the 32-byte hash in the merged-mining coinbase', async () => {
    const latest = Number((await blockAt('latest')).number);
    const coinbaseTx = (await blockAt(latest - 1)).bitcoinMergedMiningCoinbaseTransaction!.slice(2);
    const tag = Buffer.from('RSKBLOCK:').toString('hex');
    const at = coinbaseTx.lastIndexOf(tag);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(await header.getMergedMiningTags(0)).toBe(`0x${coinbaseTx.slice(at + tag.length + 64)}`);
  });

  it('no such block answers empty bytes: before genesis, depth 4,000 and a depth outside a Java short', async () => {
    const latest = Number((await blockAt('latest')).number);
    expect(await header.getBlockHash(latest - 1)).toBe((await blockAt(0)).hash);
    expect(await header.getBlockHash(latest)).toBe('0x');
    expect(await header.getBlockHash(4000)).toBe('0x');
    expect(await header.getBlockHash(32768)).toBe('0x');
    expect(await header.getBitcoinHeader(-32769)).toBe('0x');
  });

  it('costs 4,000 + 2 per call-data byte; a negative depth or uncle index fails having used that price', async () => {
    const data = header.interface.encodeFunctionData('getBlockHash', [0]);
    const ok = await mine(BLOCK_HEADER, data);
    expect(ok.status).toBe(1);
    expect(ok.gasUsed).toBe(intrinsic(data) + 4000n + 2n * 36n);
    expect(await provider.estimateGas({ from: COW.address, to: BLOCK_HEADER, data })).toBe(intrinsic(data) + 4072n);

    const negative = header.interface.encodeFunctionData('getBlockHash', [-1]);
    const failed = await mine(BLOCK_HEADER, negative);
    expect(failed.status).toBe(0);
    expect(failed.gasUsed).toBe(intrinsic(negative) + 4072n);

    const uncle = header.interface.encodeFunctionData('getUncleCoinbaseAddress', [0, -1]);
    const failedUncle = await mine(BLOCK_HEADER, uncle);
    expect(failedUncle.status).toBe(0);
    expect(failedUncle.gasUsed).toBe(intrinsic(uncle) + 4000n + 2n * 68n);
  });

  it('an unknown selector or undecodable arguments fail at no cost beyond the transaction', async () => {
    for (const data of ['0x12345678', '0xabcd', header.interface.encodeFunctionData('getBlockHash', [0]).slice(0, 40)]) {
      const receipt = await mine(BLOCK_HEADER, data);
      expect(receipt.status).toBe(0);
      expect(receipt.gasUsed).toBe(intrinsic(data));
    }
  });

  it('too little gas for the price: out of gas', async () => {
    const data = header.interface.encodeFunctionData('getBlockHash', [0]);
    const receipt = await mine(BLOCK_HEADER, data, intrinsic(data) + 4000n);
    expect(receipt.status).toBe(0);
    expect(receipt.gasUsed).toBe(intrinsic(data) + 4000n);
  });
});

describe('Environment 0x…01000011', () => {
  it('getCallStackDepth is 1 for a transaction to it, and free', async () => {
    expect(await environment.getCallStackDepth()).toBe(1n);
    const data = environment.interface.encodeFunctionData('getCallStackDepth');
    const receipt = await mine(ENVIRONMENT, data);
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(intrinsic(data));
  });
});

describe('a contract reading BlockHeader and Environment on chain', () => {
  let reader: Contract;
  beforeAll(async () => {
    const { abi, bytecode } = fixtures.NativeReader!;
    const deployed = await new ContractFactory(abi, bytecode, wallet).deploy({ type: 0 });
    await deployed.deploymentTransaction()!.wait();
    reader = new Contract(await deployed.getAddress(), abi, wallet);
  });

  it('a mined transaction stores its parent block\'s merged-mining header, hash and miner, and the call depths', async () => {
    // eth_estimateGas's limit is enough under these rules (the natives' prices included).
    const gasLimit = await reader.getFunction('record').estimateGas(0);
    const tx = await reader.getFunction('record').send(0, { type: 0, gasLimit });
    const receipt = (await tx.wait())!;
    expect(receipt.status).toBe(1);
    const parent = await blockAt(receipt.blockNumber - 1);
    expect(getBytes(parent.bitcoinMergedMiningHeader!).length).toBe(80);
    expect(await reader.bitcoinHeader()).toBe(parent.bitcoinMergedMiningHeader);
    expect(await reader.blockHash()).toBe(parent.hash);
    expect(await reader.coinbase()).toBe(parent.miner);
    expect(await reader.readInBlock()).toBe(BigInt(receipt.blockNumber));
    // rskj: the calling program's depth + 1. The reader runs at depth 0, its self-call at 1.
    expect(await reader.callDepth()).toBe(1n);
    expect(await reader.nestedCallDepth()).toBe(2n);
    // The event carries the block's own BLOCKHASH view of the parent: the same block.
    const log = reader.interface.parseLog(receipt.logs[0]!)!;
    expect(log.args[1]).toBe(parent.hash);
    expect(log.args[2]).toBe(parent.bitcoinMergedMiningHeader);
  });

  it('the call depth grows with nested calls', async () => {
    expect(await reader.depthAt(0)).toBe(1n);
    expect(await reader.depthAt(5)).toBe(6n);
  });

  it('a failing native call returns false to the caller and costs only its price', async () => {
    const bad = header.interface.encodeFunctionData('getBlockHash', [-1]);
    const [ok, out] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, bad, 100_000n);
    expect(ok).toBe(false);
    expect(out).toBe('0x');
    const good = header.interface.encodeFunctionData('getBlockHash', [0]);
    const [okGood, outGood] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, good, 100_000n);
    expect(okGood).toBe(true);
    expect(AbiCoder.defaultAbiCoder().decode(['bytes'], outGood)[0]).toMatch(/^0x[0-9a-f]{64}$/);
    // RSKIP197: the failure costs the price (4,072), not the gas given, whatever that is.
    const [, , used100k] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, bad, 100_000n);
    const [, , used1M] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, bad, 1_000_000n);
    expect(used1M).toBe(used100k);
    expect(used100k).toBeLessThan(100_000n);
    // With too little gas for the price, the call runs out of gas and uses all it was given.
    const [okShort, , usedShort] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, good, 4_071n);
    const [, , usedEnough] = await reader.getFunction('rawCall').staticCall(BLOCK_HEADER, good, 4_072n);
    expect(okShort).toBe(false);
    expect(usedEnough).toBeGreaterThan(usedShort);
  });
});

describe('HDWalletUtils 0x…01000009 (published ABI)', () => {
  // BIP-32 test vector 1 (seed 000102030405060708090a0b0c0d0e0f).
  const M = 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
  const M_0H = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
  const M_0H_1 = 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
  const M_0H_1_2H_2 = 'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
  const M_0H_1_2H_2_1000000000 = 'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';

  it('deriveExtendedPublicKey follows BIP-32 public derivation', async () => {
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(M_0H, '1')).toBe(M_0H_1);
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(M_0H_1, '1')).not.toBe(M_0H_1);
  });

  it('deriveExtendedPublicKey matches BIP-32 vector 1 through several levels (m/0H/1/2H/2 → /1000000000)', async () => {
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(M_0H_1_2H_2, '1000000000')).toBe(M_0H_1_2H_2_1000000000);
  });

  it('deriveExtendedPublicKey: rskj\'s own tpub vectors (DeriveExtendedPublicKeyTest)', async () => {
    const tpub = 'tpubD6NzVbkrYhZ4YHQqwWz3Tm1ESZ9AidobeyLG4mEezB6hN8gFFWrcjczyF77Lw3HEs6Rjd2R11BEJ8Y9ptfxx9DFknkdujp58mFMx9H5dc1r';
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(tpub, '2/3/4')).toBe('tpubDCGMkPKredy7oh6zw8f4ExWFdTgQCrAHToF1ytny3gbVy9GkUNK2Nqh7NbKbh8dkd5VtjUiLJPkbEkeg29NVHwxYwzHJFt9SazGLZrrU4Y4');
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(tpub, '0/0/0/0/0/0')).toBe('tpubDJ28nwFGUypUD6i8eGCQfMkwNGxzzabA5Mh7AcUdwm6ziFxCSWjy4HyhPXH5uU2ovdMMYLT9W3g3MrGo52TrprMvX8o1dzT2ZGz1pwCPTNv');
    expect(await hd.getFunction('deriveExtendedPublicKey').staticCall(tpub, '2147483647')).toBe('tpubD8fY35uPCY1rUjMUZwhkGUFi33pwkffMEBaCsTSw1he2AbM6DMbPaRR2guvk5qTWDfE9ubFB5pzuUNnMtsqbCeKAAjfepSvEWyetyF9Q4fG');
  });

  it('extractPublicKeyFromExtendedPublicKey returns the compressed key', async () => {
    // BIP-32 vector 1, chain m: its public key.
    expect(await hd.getFunction('extractPublicKeyFromExtendedPublicKey').staticCall(M)).toBe('0x0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2');
    // rskj ExtractPublicKeyFromExtendedPublicKeyTest.
    expect(
      await hd.getFunction('extractPublicKeyFromExtendedPublicKey').staticCall('xpub661MyMwAqRbcFMGNG2YcHvj3x63bAZN9U5cKikaiQ4zu2D1cvpnZYyXNR9nH62sGp4RR39Ui7SVQSq1PY4JbPuEuu5prVJJC3d5Pogft712'),
    ).toBe('0x02be517550b9e3be7fe42c80932d51e88e698663b4926e598b269d050e87e34d8c');
  });

  it('toBase58Check: version byte + hash160 (rskj ToBase58CheckTest)', async () => {
    expect(await hd.getFunction('toBase58Check').staticCall('0x0d3bf5f30dda7584645546079318e97f0e1d044f', 111)).toBe('mgivuh9jErcGdRr81cJ3A7YfgbJV7WNyZV');
    // Bitcoin's classic P2PKH address of hash160 0x62e907b1... (version 0).
    expect(await hd.getFunction('toBase58Check').staticCall('0x62e907b15cbf27d5425399ebf6f0fb50ebb88f18', 0)).toBe('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
  });

  it('getMultisigScriptHash: hash160 of the sorted-key redeem script (rskj GetMultisigScriptHashTest)', async () => {
    const keys = [
      '0x03b53899c390573471ba30e5054f78376c5f797fda26dde7a760789f02908cbad2',
      '0x027319afb15481dbeb3c426bcc37f9a30e7f51ceff586936d85548d9395bcc2344',
      '0x0355a2e9bf100c00fc0a214afd1bf272647c7824eb9cb055480962f0c382596a70',
      '0x02566d5ded7c7db1aa7ee4ef6f76989fb42527fcfdcddcd447d6793b7d869e46f7',
      '0x0294c817150f78607566e961b3c71df53a22022a80acbb982f83c0c8baac040adc',
      '0x0372cd46831f3b6afd4c044d160b7667e8ebf659d6cb51a825a3104df6ee0638c6',
      '0x0340df69f28d69eef60845da7d81ff60a9060d4da35c767f017b0dd4e20448fb44',
      '0x02ac1901b6fba2c1dbd47d894d2bd76c8ba1d296d65f6ab47f1c6b22afb53e73eb',
      '0x031aabbeb9b27258f98c2bf21f36677ae7bae09eb2d8c958ef41a20a6e88626d26',
      '0x0245ef34f5ee218005c9c21227133e8568a4f3f11aeab919c66ff7b816ae1ffeea',
      '0x02550cc87fa9061162b1dd395a16662529c9d8094c0feca17905a3244713d65fe8',
      '0x02481f02b7140acbf3fcdd9f72cf9a7d9484d8125e6df7c9451cfa55ba3b077265',
      '0x03f909ae15558c70cc751aff9b1f495199c325b13a9e5b934fd6299cd30ec50be8',
      '0x02c6018fcbd3e89f3cf9c7f48b3232ea3638eb8bf217e59ee290f5f0cfb2fb9259',
      '0x03b65694ccccda83cbb1e56b31308acd08e993114c33f66a456b627c2c1c68bed6',
    ];
    expect(await hd.getFunction('getMultisigScriptHash').staticCall(8, keys)).toBe('0x51f103320b435b5fe417b3f3e0f18972ccc710a0');
    // The same keys with some given uncompressed: the same script.
    const mixed = [...keys];
    mixed[0] = '0x04b53899c390573471ba30e5054f78376c5f797fda26dde7a760789f02908cbad2aafaaa2611606699ec4f82777a268b708dab346de4880cd223969f7bbe5422bf';
    mixed[4] = '0x0494c817150f78607566e961b3c71df53a22022a80acbb982f83c0c8baac040adcb17171aa9ec8d8587098e0771f686ee61ac35279f9e5aadf9b06b738aa6d3720';
    expect(await hd.getFunction('getMultisigScriptHash').staticCall(8, mixed)).toBe('0x51f103320b435b5fe417b3f3e0f18972ccc710a0');
  });

  it('gas: 13,000 / 107,000 / 11,300 / 20,000 + 700 per key past two', async () => {
    const cases: Array<[string, unknown[], bigint]> = [
      ['toBase58Check', ['0x0d3bf5f30dda7584645546079318e97f0e1d044f', 111], 13_000n],
      ['deriveExtendedPublicKey', [M_0H, '1'], 107_000n],
      ['extractPublicKeyFromExtendedPublicKey', [M], 11_300n],
      ['getMultisigScriptHash', [1, [hexlify(secp256k1.getPublicKey(new Uint8Array(32).fill(1))), hexlify(secp256k1.getPublicKey(new Uint8Array(32).fill(2))), hexlify(secp256k1.getPublicKey(new Uint8Array(32).fill(3)))]], 20_700n],
    ];
    for (const [name, args, price] of cases) {
      const data = hd.interface.encodeFunctionData(name, args);
      const receipt = await mine(hdWalletUtils.address, data);
      expect(receipt.status, name).toBe(1);
      expect(receipt.gasUsed, name).toBe(intrinsic(data) + price);
    }
  });

  it('rskj\'s refusals fail the call having charged the price', async () => {
    const cases: Array<[string, unknown[], bigint]> = [
      ['toBase58Check', ['0xaabbcc', 111], 13_000n],
      ['toBase58Check', ['0x0d3bf5f30dda7584645546079318e97f0e1d044f', 256], 13_000n],
      ['deriveExtendedPublicKey', ['this-is-not-an-xpub', '1'], 107_000n],
      ['deriveExtendedPublicKey', [M_0H, 'M/0/1/2'], 107_000n],
      ['deriveExtendedPublicKey', [M_0H, '1/2/3/4/5/6/7/8/9/10/11'], 107_000n],
      ['deriveExtendedPublicKey', [M_0H, '2147483648'], 107_000n],
      ['extractPublicKeyFromExtendedPublicKey', ['tpubnotreally'], 11_300n],
      ['getMultisigScriptHash', [0, []], 20_000n],
      ['getMultisigScriptHash', [3, ['0x' + '02'.repeat(33), '0x' + '03'.repeat(33)]], 20_000n],
      ['getMultisigScriptHash', [1, ['0xaabb', '0xccdd']], 20_000n],
    ];
    for (const [name, args, price] of cases) {
      const data = hd.interface.encodeFunctionData(name, args);
      const receipt = await mine(hdWalletUtils.address, data);
      expect(receipt.status, `${name} ${JSON.stringify(args)}`).toBe(0);
      expect(receipt.gasUsed, name).toBe(intrinsic(data) + price);
      // eth_call answers with no data and no error (rskj: the exception is logged, not returned).
      expect(await provider.call({ to: hdWalletUtils.address, data })).toBe('0x');
    }
  });
});

describe('secp256k1 add 0x…01000016 and mul 0x…01000017 (RSKIP516)', () => {
  const Point = secp256k1.Point;
  const word = (n: bigint) => zeroPadValue(toBeHex(n), 32).slice(2);
  const enc = (p: InstanceType<typeof Point>) => (p.is0() ? '00'.repeat(64) : word(p.toAffine().x) + word(p.toAffine().y));
  const G = Point.BASE;
  const P = G.multiply(0x1234567890abcdefn);
  const Q = G.multiply(0xfedcba0987654321n);

  it('add and mul agree with @noble/curves', async () => {
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}${enc(Q)}` })).toBe(`0x${enc(P.add(Q))}`);
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}${enc(P)}` })).toBe(`0x${enc(P.double())}`);
    const k = 0xdeadbeefcafebabe1234n;
    expect(await provider.call({ to: SECP256K1_MUL, data: `0x${enc(P)}${word(k)}` })).toBe(`0x${enc(P.multiply(k))}`);
  });

  it('the point at infinity is (0, 0), in and out; the scalar is taken modulo the group order', async () => {
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}${'00'.repeat(64)}` })).toBe(`0x${enc(P)}`);
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}${enc(P.negate())}` })).toBe(`0x${'00'.repeat(64)}`);
    expect(await provider.call({ to: SECP256K1_ADD, data: '0x' })).toBe(`0x${'00'.repeat(64)}`);
    expect(await provider.call({ to: SECP256K1_MUL, data: `0x${enc(P)}${word(0n)}` })).toBe(`0x${'00'.repeat(64)}`);
    expect(await provider.call({ to: SECP256K1_MUL, data: `0x${enc(P)}${word(Point.Fn.ORDER + 5n)}` })).toBe(`0x${enc(P.multiply(5n))}`);
  });

  it('short input is zero-padded and input past 128 / 96 bytes is ignored', async () => {
    // x2, y2 missing: the second point is infinity.
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}` })).toBe(`0x${enc(P)}`);
    expect(await provider.call({ to: SECP256K1_ADD, data: `0x${enc(P)}${enc(Q)}${'ff'.repeat(40)}` })).toBe(`0x${enc(P.add(Q))}`);
    expect(await provider.call({ to: SECP256K1_MUL, data: `0x${enc(G)}${word(3n)}${'ff'.repeat(7)}` })).toBe(`0x${enc(G.multiply(3n))}`);
  });

  it('costs 150 and 3,000; a point off the curve fails having used that price', async () => {
    const add = `0x${enc(P)}${enc(Q)}`;
    const ok = await mine(SECP256K1_ADD, add);
    expect(ok.status).toBe(1);
    expect(ok.gasUsed).toBe(intrinsic(add) + 150n);
    const mul = `0x${enc(P)}${word(7n)}`;
    const okMul = await mine(SECP256K1_MUL, mul);
    expect(okMul.status).toBe(1);
    expect(okMul.gasUsed).toBe(intrinsic(mul) + 3000n);

    const offCurve = `0x${word(1n)}${word(1n)}${enc(Q)}`;
    const bad = await mine(SECP256K1_ADD, offCurve);
    expect(bad.status).toBe(0);
    expect(bad.gasUsed).toBe(intrinsic(offCurve) + 150n);
    expect(await provider.call({ to: SECP256K1_ADD, data: offCurve })).toBe('0x');
    const badMul = `0x${word(1n)}${word(1n)}${word(2n)}`;
    const failedMul = await mine(SECP256K1_MUL, badMul);
    expect(failedMul.status).toBe(0);
    expect(failedMul.gasUsed).toBe(intrinsic(badMul) + 3000n);
  });
});

