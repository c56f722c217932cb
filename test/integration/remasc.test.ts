/**
 * REMASC (0x…01000008) as rskj's regtest runs it (rskj-core/src/main/java/co/rsk/remasc/Remasc.java
 * processMinersFees, RemascFeesPayer, RemascState; resources/remasc.json "regtest": maturity 10,
 * syntheticSpan 5, rskLabsDivisor 5, federationDivisor 100, RSK Labs 0xdaba…0001;
 * org/ethereum/config/Constants.java: minimumPayableGas 200,000, federatorMinimumPayableGas
 * 50,000 (RSKIP85)). Expected values are computed here from those formulas and each block's
 * paidFees as the node reports it, never read back from the node's own REMASC code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AbiCoder, JsonRpcProvider, Wallet, computeAddress, decodeRlp, getBytes, hexlify, id, keccak256, toBeHex, toUtf8Bytes, zeroPadValue, encodeRlp } from 'ethers';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';

const REMASC = '0x0000000000000000000000000000000001000008';
const RSK_LABS = '0xdabadabadabadabadabadabadabadabadaba0001';
const MINER = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';
/** rskj BridgeRegTestConstants: the regtest genesis federators' keys (BTC = RSK = MST). */
const FEDERATOR_KEYS = [
  '0x0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124',
  '0x03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db',
  '0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1',
];
/** rskj orders federation members by BTC public key (FederationMember.BTC_RSK_MST_PUBKEYS_COMPARATOR). */
const FEDERATORS = [...FEDERATOR_KEYS].sort().map((k) => computeAddress(k).toLowerCase());
const MINING_FEE_TOPIC = zeroPadValue(toUtf8Bytes('mining_fee_topic'), 32);
const GET_STATE_FOR_DEBUGGING = id('getStateForDebugging()').slice(0, 10);
const slot = (name: string) => zeroPadValue(toUtf8Bytes(name), 32);

interface BlockInfo {
  number: bigint;
  hash: string;
  paidFees: bigint;
  minimumGasPrice: bigint;
  miner: string;
}

interface Payment {
  block: bigint;
  to: string;
  value: bigint;
  paidBlockHash: string;
}

interface Model {
  rewardBalance: bigint;
  federationBalance: bigint;
  payments: Payment[];
}

/**
 * Remasc.processMinersFees over blocks 1..last, on a chain without siblings (so no punishment),
 * from each block's paidFees, hash, miner and minimumGasPrice.
 */
function remascModel(blocks: Map<bigint, BlockInfo>, last: bigint): Model {
  const m: Model = { rewardBalance: 0n, federationBalance: 0n, payments: [] };
  for (let n = 1n; n <= last; n++) {
    const candidate = n - 10n; // maturity
    if (candidate < 1n) continue;
    const processing = blocks.get(candidate)!;
    m.rewardBalance += processing.paidFees;
    if (candidate - 5n < 0n) continue; // syntheticSpan
    let synthetic = m.rewardBalance / 5n;
    const mgp = blocks.get(n)!.minimumGasPrice;
    if (synthetic < mgp * 200_000n) continue;
    m.rewardBalance -= synthetic;
    const pay = (to: string, value: bigint) => m.payments.push({ block: n, to, value, paidBlockHash: processing.hash });
    const labs = synthetic / 5n;
    pay(RSK_LABS, labs);
    synthetic -= labs;
    const federationReward = synthetic / 100n;
    const toFederation = m.federationBalance + federationReward;
    const each = toFederation / 3n;
    if (each < mgp * 50_000n) {
      m.federationBalance = toFederation;
    } else {
      m.federationBalance = 0n;
      FEDERATORS.forEach((f, k) => pay(f, k === 2 ? each + (toFederation % 3n) : each));
    }
    synthetic -= federationReward;
    pay(processing.miner, synthetic);
  }
  return m;
}

async function blockInfo(url: string, n: bigint): Promise<BlockInfo> {
  const b = await call(url, 'eth_getBlockByNumber', [toBeHex(n), false]);
  return { number: n, hash: b.hash, paidFees: BigInt(b.paidFees), minimumGasPrice: BigInt(b.minimumGasPrice), miner: b.miner.toLowerCase() };
}

async function chainBlocks(url: string, last: bigint): Promise<Map<bigint, BlockInfo>> {
  const blocks = new Map<bigint, BlockInfo>();
  for (let n = 1n; n <= last; n++) blocks.set(n, await blockInfo(url, n));
  return blocks;
}

/**
 * The genesis funds the regtest federators (chain-data/*.genesis.json: 1,000,000 RBTC each, for the
 * gas of the node's own peg-in registrations); what REMASC paid is the balance above that.
 */
const FEDERATOR_GENESIS_BALANCE = 1_000_000n * 10n ** 18n;

/** What `address` holds at `block` beyond its genesis balance (REMASC's payments, in these tests). */
async function balance(url: string, address: string, block: bigint): Promise<bigint> {
  const held = BigInt(await call(url, 'eth_getBalance', [address, toBeHex(block)]));
  return FEDERATORS.includes(address) ? held - FEDERATOR_GENESIS_BALANCE : held;
}

async function head(url: string): Promise<bigint> {
  return BigInt(await call(url, 'eth_blockNumber'));
}

async function mine(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await call(url, 'evm_mine');
}

/** getStateForDebugging through eth_call: ABI `bytes` holding RLP [reward, burned, [], flag]. */
async function remascState(url: string, block: bigint | 'latest' = 'latest') {
  const out = await call(url, 'eth_call', [{ to: REMASC, data: GET_STATE_FOR_DEBUGGING }, typeof block === 'bigint' ? toBeHex(block) : block]);
  const [encoded] = AbiCoder.defaultAbiCoder().decode(['bytes'], out) as unknown as [string];
  const fields = decodeRlp(encoded) as [string, string, string[], string];
  expect(fields).toHaveLength(4);
  return {
    encoded,
    rewardBalance: BigInt(fields[0] === '0x' ? 0 : fields[0]),
    burnedBalance: BigInt(fields[1] === '0x' ? 0 : fields[1]),
    siblings: fields[2],
    brokenSelectionRule: fields[3],
  };
}

/** Every address the model pays, with the total it was paid in blocks (from, to]. */
function paidBetween(m: Model, from: bigint, to: bigint): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const p of m.payments) if (p.block > from && p.block <= to) totals.set(p.to, (totals.get(p.to) ?? 0n) + p.value);
  return totals;
}

const nodes: TestNode[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const t of nodes) await t.close().catch(() => undefined);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function sendFees(url: string, count: number, gasPrice: bigint): Promise<void> {
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(COW.privateKey, provider);
  let nonce = await provider.getTransactionCount(COW.address, 'latest');
  for (let i = 0; i < count; i++) {
    const tx = await wallet.sendTransaction({ to: '0x000000000000000000000000000000000000beef', value: 1n, gasLimit: 21_000n, gasPrice, nonce: nonce++ });
    await tx.wait();
  }
  provider.destroy();
}

describe('REMASC with a zero minimum gas price (every payout above RSKIP85 minimums)', () => {
  let t: TestNode;
  const GAS_PRICE = 1_000_000_000n; // 1 gwei
  const FEE = 21_000n * GAS_PRICE; // 2.1e13 wei, one transfer

  it('adds block N−10 fees from block 11 on, pays from block 15, each share exact', async () => {
    t = await startTestNode({ minGasPrice: 0n });
    nodes.push(t);
    const url = t.testnetUrl;
    // Blocks 1..10: one transfer each (automine), 21,000 gas at 1 gwei.
    await sendFees(url, 10, GAS_PRICE);
    expect(await head(url)).toBe(10n);
    await mine(url, 15); // to block 25
    const last = await head(url);
    expect(last).toBe(25n);
    const blocks = await chainBlocks(url, last);
    for (let n = 1n; n <= 10n; n++) expect(blocks.get(n)!.paidFees).toBe(FEE);
    for (let n = 11n; n <= 25n; n++) expect(blocks.get(n)!.paidFees).toBe(0n);

    // Block 15 by hand (Remasc.processMinersFees): blocks 1..5 added 5 × FEE to the reward
    // balance (blocks 11..15); synthetic = 5·FEE/5 = FEE; RSK Labs FEE/5; federation
    // (FEE − FEE/5)/100 split in three; the miner of block 5 the rest.
    const labs15 = FEE / 5n;
    const fed15 = (FEE - labs15) / 100n;
    const miner15 = FEE - labs15 - fed15;
    expect([labs15, fed15, miner15]).toEqual([4_200_000_000_000n, 168_000_000_000n, 16_632_000_000_000n]);
    expect((await balance(url, RSK_LABS, 15n)) - (await balance(url, RSK_LABS, 14n))).toBe(labs15);
    expect((await balance(url, MINER, 15n)) - (await balance(url, MINER, 14n))).toBe(miner15);
    const fedDeltas = [];
    for (const f of FEDERATORS) fedDeltas.push((await balance(url, f, 15n)) - (await balance(url, f, 14n)));
    expect(fedDeltas).toEqual([fed15 / 3n, fed15 / 3n, fed15 / 3n + (fed15 % 3n)]);
    // Before block 15 nothing was paid.
    expect(await balance(url, RSK_LABS, 14n)).toBe(0n);
    expect(await balance(url, MINER, 14n)).toBe(0n);

    // Every block against the model: each recipient's balance change, REMASC's balance, the state.
    const model = remascModel(blocks, last);
    for (let n = 1n; n <= last; n++) {
      const paid = paidBetween(model, n - 1n, n);
      for (const address of [RSK_LABS, MINER, ...FEDERATORS]) {
        const delta = (await balance(url, address, n)) - (await balance(url, address, n - 1n));
        expect(delta, `${address} at block ${n}`).toBe(paid.get(address) ?? 0n);
      }
      const partial = remascModel(blocks, n);
      let paidOut = 0n;
      for (const p of partial.payments) paidOut += p.value;
      let collected = 0n;
      for (let k = 1n; k <= n; k++) collected += blocks.get(k)!.paidFees;
      expect(await balance(url, REMASC, n), `REMASC balance at ${n}`).toBe(collected - paidOut);
      const state = await remascState(url, n);
      expect(state.rewardBalance, `rewardBalance at ${n}`).toBe(partial.rewardBalance);
      expect(BigInt(await call(url, 'eth_getStorageAt', [REMASC, slot('federationBalance'), toBeHex(n)]))).toBe(partial.federationBalance);
    }
    // Nothing paid is lost: collected fees = REMASC's balance + everything paid out.
    expect(model.payments.filter((p) => p.block === 15n).map((p) => p.to)).toEqual([RSK_LABS, ...FEDERATORS, MINER]);
  });

  /** A 2048-bit bloom over `entries` (hex), computed here with ethers' keccak256. */
  function logsBloom(entries: string[]): string {
    const bits = new Uint8Array(256);
    for (const entry of entries) {
      const hash = getBytes(keccak256(entry));
      for (let i = 0; i < 6; i += 2) {
        const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
        bits[255 - (bit >> 3)]! |= 1 << (bit & 7);
      }
    }
    return hexlify(bits);
  }

  it('logs each payment in the REMASC receipt (mining_fee_topic, recipient, RLP [block hash, value])', async () => {
    const url = t.testnetUrl;
    const blocks = await chainBlocks(url, 25n);
    const model = remascModel(blocks, 25n);
    const block = await call(url, 'eth_getBlockByNumber', ['0xf', false]);
    const remascTx = block.transactions[block.transactions.length - 1];
    const receipt = await call(url, 'eth_getTransactionReceipt', [remascTx]);
    expect(receipt.to.toLowerCase()).toBe(REMASC);
    const expected = model.payments.filter((p) => p.block === 15n);
    expect(receipt.logs.map((l: { address: string; topics: string[]; data: string }) => [l.address.toLowerCase(), l.topics, l.data])).toEqual(
      expected.map((p) => [REMASC, [MINING_FEE_TOPIC, zeroPadValue(p.to, 32)], encodeRlp([p.paidBlockHash, toBeHex(p.value)])]),
    );
    expect(expected[0]!.paidBlockHash).toBe(blocks.get(5n)!.hash);
    // The receipt's bloom holds its logs' address and topics (yellow paper M3:2048), and the block's holds it.
    const bloom = logsBloom(receipt.logs.flatMap((l: { address: string; topics: string[] }) => [l.address, ...l.topics]));
    expect(receipt.logsBloom).toBe(bloom);
    const full = await call(url, 'eth_getBlockByNumber', ['0xf', false]);
    expect((BigInt(full.logsBloom) & BigInt(bloom)) === BigInt(bloom), 'the block bloom holds the REMASC receipt bloom').toBe(true);
    const logs = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: REMASC, topics: [MINING_FEE_TOPIC, zeroPadValue(RSK_LABS, 32)] }]);
    expect(logs.map((l: { blockNumber: string }) => BigInt(l.blockNumber))).toEqual(model.payments.filter((p) => p.to === RSK_LABS).map((p) => p.block));
    // Block 14 paid nothing: an empty REMASC receipt.
    const b14 = await call(url, 'eth_getBlockByNumber', ['0xe', false]);
    const r14 = await call(url, 'eth_getTransactionReceipt', [b14.transactions.at(-1)]);
    expect(r14.logs).toEqual([]);
  });

  it('getStateForDebugging answers rskj RemascState encoding, field by field', async () => {
    const url = t.testnetUrl;
    const blocks = await chainBlocks(url, 25n);
    // Before maturity: empty balances: RLP [0x80, 0x80, 0xc0, 0x00].
    const early = await remascState(url, 5n);
    expect(early.encoded).toBe('0x' + 'c4' + '80' + '80' + 'c0' + '00');
    // Block 11: the reward balance is block 1's fees.
    const s11 = await remascState(url, 11n);
    expect(s11.rewardBalance).toBe(FEE);
    expect(s11.encoded).toBe(encodeRlp([toBeHex(FEE), '0x', [], '0x00']));
    const s = await remascState(url, 'latest');
    expect(s.rewardBalance).toBe(remascModel(blocks, 25n).rewardBalance);
    expect(s.burnedBalance).toBe(0n);
    expect(s.siblings).toEqual([]);
    expect(s.brokenSelectionRule).toBe('0x00');
    // Stored under rskj's RemascStorageProvider keys (DataWord.fromString).
    expect(BigInt(await call(url, 'eth_getStorageAt', [REMASC, slot('rewardBalance'), 'latest']))).toBe(s.rewardBalance);
    expect(await call(url, 'eth_getStorageAt', [REMASC, slot('siblings'), 'latest'])).toBe(zeroPadValue('0xc0', 32));
  });

  it('fails other selectors, call data of another length, and processMinersFees outside the REMASC transaction', async () => {
    const url = t.testnetUrl;
    const bad = ['0x12345678', '0x', id('processMinersFees()').slice(0, 10), GET_STATE_FOR_DEBUGGING + '00'];
    for (const data of bad) {
      // rskj: RemascInvalidInvocationException → VMException: the call fails with no data
      // (eth_call answers 0x, as for every failed native call here).
      expect(await call(url, 'eth_call', [{ to: REMASC, data }, 'latest']), data).toBe('0x');
    }
    // Mined, such a call fails (a call to an empty account would succeed).
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    for (const data of bad) {
      const tx = await wallet.sendTransaction({ to: REMASC, data, gasLimit: 100_000n, gasPrice: GAS_PRICE });
      const receipt = await provider.getTransactionReceipt(tx.hash);
      expect(receipt!.status, data).toBe(0);
    }
    const ok = await wallet.sendTransaction({ to: REMASC, data: GET_STATE_FOR_DEBUGGING, gasLimit: 100_000n, gasPrice: GAS_PRICE });
    expect((await provider.getTransactionReceipt(ok.hash))!.status).toBe(1);
    provider.destroy();
  });

  it('the pending block computes the same REMASC payout as the mined one', async () => {
    const url = t.testnetUrl;
    const pending = await call(url, 'eth_getBalance', [RSK_LABS, 'pending']);
    await call(url, 'evm_mine');
    expect(await call(url, 'eth_getBalance', [RSK_LABS, 'latest'])).toBe(pending);
  });

  it('evm_revert returns REMASC state and balances to the snapshot', async () => {
    const url = t.testnetUrl;
    const before = await remascState(url);
    const labs = await call(url, 'eth_getBalance', [RSK_LABS, 'latest']);
    const snap = await call(url, 'evm_snapshot');
    await sendFees(url, 2, GAS_PRICE);
    await mine(url, 3);
    expect((await remascState(url)).encoded).not.toBe(before.encoded);
    expect(await call(url, 'evm_revert', [snap])).toBe(true);
    expect((await remascState(url)).encoded).toBe(before.encoded);
    expect(await call(url, 'eth_getBalance', [RSK_LABS, 'latest'])).toBe(labs);
  });
});

describe('REMASC at the default minimum gas price (RSKIP85 minimums)', () => {
  it('keeps the reward while a fifth is below minimumGasPrice × 200,000, and holds back small federation shares', async () => {
    const t = await startTestNode();
    nodes.push(t);
    const url = t.testnetUrl;
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    const mgp = BigInt(genesis.minimumGasPrice);
    // Block 1: one transfer at the minimum price (too little to pay out); block 2: one at 50 × minimum.
    await sendFees(url, 1, mgp);
    await sendFees(url, 1, mgp * 50n);
    await mine(url, 20); // to block 22
    const blocks = await chainBlocks(url, 22n);
    const model = remascModel(blocks, 22n);
    const f1 = 21_000n * mgp;
    const f2 = 21_000n * mgp * 50n;
    expect(blocks.get(1n)!.paidFees).toBe(f1);
    expect(blocks.get(2n)!.paidFees).toBe(f2);
    // By hand: at block 15 the reward balance is f1 + f2; a fifth is (f1+f2)/5 ≥ mgp × 200,000,
    // so block 15 pays. The federation's share, ((f1+f2)/5 − RSK Labs)/100/3, is below
    // mgp × 50,000, so it stays in federationBalance and the federators get nothing.
    const synthetic = (f1 + f2) / 5n;
    expect(synthetic >= mgp * 200_000n).toBe(true);
    const labs = synthetic / 5n;
    const fed = (synthetic - labs) / 100n;
    expect(fed / 3n < mgp * 50_000n).toBe(true);
    expect(await balance(url, RSK_LABS, 15n)).toBe(labs);
    expect(await balance(url, MINER, 15n)).toBe(synthetic - labs - fed);
    for (const f of FEDERATORS) expect(await balance(url, f, 22n)).toBe(0n);
    expect(BigInt(await call(url, 'eth_getStorageAt', [REMASC, slot('federationBalance'), '0xf']))).toBe(fed);
    // Every block against the model.
    for (let n = 1n; n <= 22n; n++) {
      const partial = remascModel(blocks, n);
      const paid = paidBetween(model, 0n, n);
      expect(await balance(url, RSK_LABS, n), `RSK Labs at ${n}`).toBe(paid.get(RSK_LABS) ?? 0n);
      expect(await balance(url, MINER, n), `miner at ${n}`).toBe(paid.get(MINER) ?? 0n);
      expect((await remascState(url, n)).rewardBalance, `rewardBalance at ${n}`).toBe(partial.rewardBalance);
    }
    // The payouts stop once a fifth of the balance falls below the minimum (RSKIP85).
    const lastPaid = model.payments.at(-1)!.block;
    expect(lastPaid).toBeLessThan(22n);
    expect(model.rewardBalance / 5n).toBeLessThan(mgp * 200_000n);
  });
});

describe('REMASC state across a restart', () => {
  it('continues from the stored reward and federation balances', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-remasc-'));
    dirs.push(dir);
    let t = await startTestNode({ inMemory: false, dataDir: dir, minGasPrice: 0n });
    await sendFees(t.testnetUrl, 3, 1_000_000_000n);
    await mine(t.testnetUrl, 10); // to block 13: reward balance holds blocks 1..3
    const before = await remascState(t.testnetUrl);
    expect(before.rewardBalance).toBe(3n * 21_000n * 1_000_000_000n);
    await t.close();

    t = await startTestNode({ inMemory: false, dataDir: dir, minGasPrice: 0n });
    nodes.push(t);
    const url = t.testnetUrl;
    expect(await head(url)).toBe(13n);
    expect((await remascState(url)).encoded).toBe(before.encoded);
    await mine(url, 7); // to block 20
    const blocks = await chainBlocks(url, 20n);
    const model = remascModel(blocks, 20n);
    expect((await remascState(url)).rewardBalance).toBe(model.rewardBalance);
    const paid = paidBetween(model, 0n, 20n);
    for (const address of [RSK_LABS, MINER, ...FEDERATORS]) expect(await balance(url, address, 20n), address).toBe(paid.get(address) ?? 0n);
    expect(paid.get(RSK_LABS)).toBeGreaterThan(0n);
  });
});
