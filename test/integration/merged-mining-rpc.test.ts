/**
 * Merged mining over JSON-RPC (issue 9): a node started with `--miner external` mines only when a
 * merged miner brings a valid solution. The test is that miner. It builds its Bitcoin
 * transactions with @scure/btc-signer, its header, SHA-256 midstate and nonce search with
 * @noble/hashes and its merkle tree with test/helpers/btc.ts (node:crypto), never with the node's
 * own merged-mining code, and submits through
 * each of rskj's three forms (reference 6.5). Then it checks that the new block carries exactly
 * that header, compressed coinbase (6.3) and merkle proof, and the refusals rskj gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as btc from '@scure/btc-signer';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, COW, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import { merkleRootAndBranch } from '../helpers/btc.js';

const RSK_TAG = new TextEncoder().encode('RSKBLOCK:');
const MIN_GAS_PRICE = 60_000_000n;
/** rskj's target for difficulty 1: floor(2^256 / 3) (difficulty is raised to 3, reference 5). */
const REGTEST_TARGET = `0x${'5'.repeat(64)}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
/** hex of the ASCII "IMPORTED_BEST" and "EXIST" (rskj's SubmittedBlockInfo.blockImportedResult). */
const IMPORTED_BEST = '0x494d504f525445445f42455354';
const EXIST = '0x4558495354';
const cow = privateKeyToAccount(COW.privateKey);

const hex0x = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;
const sha256d = (data: Uint8Array) => sha256(sha256(data));
const reversed = (bytes: Uint8Array) => Uint8Array.from(bytes).reverse();

interface Work {
  blockHashForMergedMining: string;
  target: string;
  feesPaidToMiner: string;
  notify: boolean;
  parentBlockHash: string;
}

// ---- the merged miner, from independent libraries ----------------------------------------------

interface MinerTx {
  /** Serialization with witness (as in a block). */
  full: Uint8Array;
  /** Serialization without witness, which the txid hashes. */
  stripped: Uint8Array;
  /** txid in internal byte order. */
  txid: Uint8Array;
}

function minerTx(tx: btc.Transaction): MinerTx {
  const stripped = tx.toBytes(true, false);
  const txid = hexToBytes(tx.id).reverse();
  expect(bytesToHex(sha256d(stripped))).toBe(bytesToHex(txid));
  return { full: tx.toBytes(true, true), stripped, txid };
}

/**
 * A coinbase as a pool builds it: a 70-byte scriptSig (so the tag lands past the first SHA-256
 * block and the stored coinbase has a real midstate), 6.25 BTC to a P2PKH, then an OP_RETURN with
 * `RSKBLOCK:` + the hash. `decoyHash` adds an earlier tag: the node must take the LAST one.
 */
function coinbase(hashForMergedMining: Uint8Array, decoyHash?: Uint8Array): MinerTx {
  const tx = new btc.Transaction({ version: 1, allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true });
  tx.addOutput({ script: btc.OutScript.encode({ type: 'pkh', hash: new Uint8Array(20).fill(0x11) }), amount: 625_000_000n });
  if (decoyHash !== undefined) tx.addOutput({ script: btc.Script.encode(['RETURN', concatBytes(RSK_TAG, decoyHash)]), amount: 0n });
  tx.addOutput({ script: btc.Script.encode(['RETURN', concatBytes(RSK_TAG, hashForMergedMining)]), amount: 0n });
  tx.addInput({ txid: new Uint8Array(32), index: 0xffffffff, sequence: 0xffffffff, finalScriptSig: btc.Script.encode([new Uint8Array(70).fill(0x42)]) });
  return minerTx(tx);
}

/** Two ordinary transactions: a legacy one and a segwit one (whose witness the txid leaves out). */
function otherTransactions(seed: number): MinerTx[] {
  const legacy = new btc.Transaction({ allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true });
  legacy.addOutput({ script: btc.OutScript.encode({ type: 'pkh', hash: new Uint8Array(20).fill(seed) }), amount: 10_000n });
  legacy.addInput({ txid: new Uint8Array(32).fill(seed), index: 0, finalScriptSig: btc.Script.encode([new Uint8Array(71).fill(seed), new Uint8Array(33).fill(2)]) });
  const segwit = new btc.Transaction({ allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true });
  segwit.addOutput({ script: btc.OutScript.encode({ type: 'wpkh', hash: new Uint8Array(20).fill(seed + 1) }), amount: 20_000n });
  segwit.addInput({ txid: new Uint8Array(32).fill(seed + 1), index: 1, finalScriptWitness: [new Uint8Array(72).fill(seed), new Uint8Array(33).fill(3)] });
  return [minerTx(legacy), minerTx(segwit)];
}

function headerHashNumber(header: Uint8Array): bigint {
  return BigInt(hex0x(reversed(sha256d(header))));
}

/** An 80-byte header over `merkleRoot`, nonce searched until the hash meets (or, with `miss`, misses) the target. */
function mineHeader(merkleRoot: Uint8Array, target: bigint, miss = false): Uint8Array {
  const header = new Uint8Array(80);
  const view = new DataView(header.buffer);
  view.setUint32(0, 0x20000000, true);
  header.set(sha256(new TextEncoder().encode('previous bitcoin block')), 4);
  header.set(merkleRoot, 36);
  view.setUint32(68, Math.floor(Date.now() / 1000), true);
  view.setUint32(72, 0x207fffff, true);
  for (let nonce = 0; nonce < 1_000_000; nonce++) {
    view.setUint32(76, nonce, true);
    if ((headerHashNumber(header) <= target) !== miss) return header;
  }
  throw new Error('no nonce found');
}

function varInt(n: number): Uint8Array {
  if (n >= 0xfd) throw new Error('small blocks only');
  return Uint8Array.of(n);
}

/** RSK's stored coinbase (reference 6.3): n as 8 bytes, SHA-256 state after n bytes, then the rest. */
function compressedCoinbase(tx: Uint8Array): Uint8Array {
  let tag = -1;
  for (let i = tx.length - RSK_TAG.length; i >= 0 && tag < 0; i--) if (RSK_TAG.every((b, j) => tx[i + j] === b)) tag = i;
  const n = Math.floor(tag / 64) * 64;
  const hasher = sha256.create().update(tx.subarray(0, n));
  // @noble/hashes keeps the eight state words A..H; after whole 64-byte blocks they are the midstate.
  const words = (hasher as unknown as { get(): number[] }).get();
  const state = new Uint8Array(32);
  words.forEach((word, i) => new DataView(state.buffer).setUint32(i * 4, word >>> 0));
  const count = new Uint8Array(8);
  new DataView(count.buffer).setBigUint64(0, BigInt(n));
  return concatBytes(count, state, tx.subarray(n));
}

interface Solution {
  header: Uint8Array;
  coinbase: MinerTx;
  txs: MinerTx[];
  branch: Uint8Array[];
}

function solve(work: Work, options: { miss?: boolean; decoy?: boolean; seed?: number } = {}): Solution {
  const hash = hexToBytes(work.blockHashForMergedMining.slice(2));
  const cb = coinbase(hash, options.decoy ? sha256(hash) : undefined);
  const txs = [cb, ...otherTransactions(options.seed ?? 7)];
  const { root, branch } = merkleRootAndBranch(txs.map((tx) => tx.txid));
  return { header: mineHeader(root, BigInt(work.target), options.miss), coinbase: cb, txs, branch };
}

function serializedBlock(s: Solution): string {
  return bytesToHex(concatBytes(s.header, varInt(s.txs.length), ...s.txs.map((tx) => tx.full)));
}

// ---- the node ----------------------------------------------------------------------------------

let node: TestNode;
let url: string;
let nonce = 0;

async function sendTransfer(): Promise<string> {
  const raw = await cow.signTransaction({
    type: 'legacy',
    chainId: 31,
    nonce: nonce++,
    gasPrice: MIN_GAS_PRICE,
    gas: 21_000n,
    to: '0x000000000000000000000000000000000000beef',
    value: 1000n,
  });
  return call(url, 'eth_sendRawTransaction', [raw]);
}

async function blockNumber(): Promise<number> {
  return Number(await call(url, 'eth_blockNumber'));
}

/** The imported block shows exactly the miner's header, compressed coinbase and proof, and its hash checks out. */
async function expectBlockCarries(submitted: { blockHash: string; blockIncludedHeight: string }, work: Work, s: Solution, txHash: string) {
  const block = await call(url, 'eth_getBlockByNumber', [submitted.blockIncludedHeight, false]);
  expect(block.hash).toBe(submitted.blockHash);
  expect(block.parentHash).toBe(work.parentBlockHash);
  expect(block.hashForMergedMining).toBe(work.blockHashForMergedMining);
  expect(block.bitcoinMergedMiningHeader).toBe(hex0x(s.header));
  expect(block.bitcoinMergedMiningCoinbaseTransaction).toBe(hex0x(compressedCoinbase(s.coinbase.stripped)));
  expect(block.bitcoinMergedMiningMerkleProof).toBe(hex0x(concatBytes(...s.branch.map(reversed))));
  expect(block.transactions).toContain(txHash);
  expect(block.paidFees).toBe(`0x${BigInt(work.feesPaidToMiner).toString(16)}`);
  // The block hash is keccak256 of the header RLP, whose last field is the Bitcoin header.
  const raw = await call(url, 'rsk_getRawBlockHeaderByHash', [block.hash]);
  expect(keccak256(raw)).toBe(block.hash);
  const fields = RLP.decode(hexToBytes(raw.slice(2))) as Uint8Array[];
  expect(hex0x(fields[fields.length - 1]!)).toBe(hex0x(s.header));
  const receipt = await call(url, 'eth_getTransactionReceipt', [txHash]);
  expect(receipt.status).toBe('0x1');
  expect(receipt.blockHash).toBe(block.hash);
  expect(await call(url, 'eth_getTransactionByHash', [txHash])).toMatchObject({ blockNumber: block.number });
}

beforeAll(async () => {
  node = await startTestNode({ miner: 'external' });
  url = node.testnetUrl;
});

afterAll(async () => {
  await node?.close();
});

describe('merged mining with --miner external', () => {
  it('does not mine by itself: a sent transaction waits in the pool, eth_mining is false', async () => {
    expect(await call(url, 'eth_mining')).toBe(false);
    const hash = await sendTransfer();
    expect(await blockNumber()).toBe(0);
    expect(await call(url, 'eth_getTransactionByHash', [hash])).toMatchObject({ blockHash: null, blockNumber: null });
    expect(await rpcError(url, 'evm_setAutomine', [true])).toMatchObject({ code: -32602, message: expect.stringContaining('--miner external') });
    expect(await rpcError(url, 'evm_setIntervalMining', [1000])).toMatchObject({ code: -32602 });
    expect(await call(url, 'hardhat_getAutomine')).toBe(false);
  });

  it('mnr_getWork hands out the pending block in rskj\'s shape; notify only on its first return', async () => {
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const work: Work = await call(url, 'mnr_getWork');
    expect(Object.keys(work)).toEqual(['blockHashForMergedMining', 'target', 'feesPaidToMiner', 'notify', 'parentBlockHash']);
    expect(work.blockHashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
    expect(work.target).toBe(REGTEST_TARGET);
    expect(work.feesPaidToMiner).toBe((21_000n * MIN_GAS_PRICE).toString());
    expect(work.parentBlockHash).toBe(latest.hash);
    expect(work.notify).toBe(true);
    const again: Work = await call(url, 'mnr_getWork');
    expect(again).toEqual({ ...work, notify: false });
    // eth_getWork: the same header hash and target, a zero seed hash.
    expect(await call(url, 'eth_getWork')).toEqual([work.blockHashForMergedMining, ZERO_HASH, work.target]);
  });

  it('mnr_submitBitcoinBlock: a whole Bitcoin block imports the RSK block with exactly its proof', async () => {
    const work: Work = await call(url, 'mnr_getWork');
    const pooled = (await call(url, 'eth_getBlockByNumber', ['pending', false])).transactions[0];
    const solution = solve(work, { decoy: true });
    expect(headerHashNumber(solution.header) <= BigInt(work.target)).toBe(true);
    const result = await call(url, 'mnr_submitBitcoinBlock', [serializedBlock(solution)]);
    expect(result).toEqual({ blockImportedResult: IMPORTED_BEST, blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), blockIncludedHeight: '0x1' });
    expect(await blockNumber()).toBe(1);
    await expectBlockCarries(result, work, solution, pooled);

    // The same solution again: rskj finds the block already stored and answers EXIST.
    const second = await call(url, 'mnr_submitBitcoinBlock', [serializedBlock(solution)]);
    expect(second).toEqual({ ...result, blockImportedResult: EXIST });
    expect(await blockNumber()).toBe(1);

    // Work on the old parent is stale now: this node keeps no side chains.
    const stale = solve(work, { seed: 40 });
    const refused = await rpcError(url, 'mnr_submitBitcoinBlock', [serializedBlock(stale)]);
    expect(refused.code).toBe(-33000);
    expect(refused.message).toContain('is no longer the best block');
    expect(await blockNumber()).toBe(1);
  });

  it('mnr_submitBitcoinBlockTransactions: header, coinbase and the txids (display order)', async () => {
    const txHash = await sendTransfer();
    const work: Work = await call(url, 'mnr_getWork');
    expect(work.notify).toBe(true);
    expect(work.parentBlockHash).toBe((await call(url, 'eth_getBlockByNumber', ['latest', false])).hash);
    const solution = solve(work, { seed: 20 });
    const txids = solution.txs.map((tx) => bytesToHex(reversed(tx.txid))).join(' ');
    const btcHash = bytesToHex(reversed(sha256d(solution.header)));
    const result = await call(url, 'mnr_submitBitcoinBlockTransactions', [btcHash, bytesToHex(solution.header), bytesToHex(solution.coinbase.stripped), txids]);
    expect(result).toMatchObject({ blockImportedResult: IMPORTED_BEST, blockIncludedHeight: '0x2' });
    await expectBlockCarries(result, work, solution, txHash);
  });

  it('mnr_submitBitcoinBlockPartialMerkle: header, coinbase, the merkle branch (internal order) and the count', async () => {
    const txHash = await sendTransfer();
    const work: Work = await call(url, 'mnr_getWork');
    const solution = solve(work, { seed: 30 });
    const hashes = [solution.coinbase.txid, ...solution.branch].map(bytesToHex).join(' ');
    const btcHash = bytesToHex(reversed(sha256d(solution.header)));
    const result = await call(url, 'mnr_submitBitcoinBlockPartialMerkle', [btcHash, bytesToHex(solution.header), bytesToHex(solution.coinbase.stripped), hashes, '3']);
    expect(result).toMatchObject({ blockImportedResult: IMPORTED_BEST, blockIncludedHeight: '0x3' });
    await expectBlockCarries(result, work, solution, txHash);
  });

  it('refuses a solution for a hash it never handed out, and imports nothing', async () => {
    const txHash = await sendTransfer();
    const work: Work = await call(url, 'mnr_getWork');
    const unknown = `0x${bytesToHex(sha256(new TextEncoder().encode('never handed out')))}`;
    const solution = solve({ ...work, blockHashForMergedMining: unknown });
    const error = await rpcError(url, 'mnr_submitBitcoinBlock', [serializedBlock(solution)]);
    expect(error).toEqual({ code: -33000, message: `Cannot publish block, could not find hash ${unknown} in the cache` });
    expect(await blockNumber()).toBe(3);
    expect(await call(url, 'eth_getTransactionByHash', [txHash])).toMatchObject({ blockNumber: null });
  });

  it('refuses a header that misses the target, and imports nothing', async () => {
    const work: Work = await call(url, 'mnr_getWork');
    const solution = solve(work, { miss: true });
    expect(headerHashNumber(solution.header) > BigInt(work.target)).toBe(true);
    const error = await rpcError(url, 'mnr_submitBitcoinBlock', [serializedBlock(solution)]);
    expect(error.code).toBe(-33000);
    expect(error.message).toMatch(new RegExp(`^Invalid block supplied by miner: [0-9a-f]{64} ${work.blockHashForMergedMining.slice(2)} at height 4: BTC header hash`));
    expect(await blockNumber()).toBe(3);
    // The partial forms are checked the same way.
    const partial = await rpcError(url, 'mnr_submitBitcoinBlockPartialMerkle', [
      '',
      bytesToHex(solution.header),
      bytesToHex(solution.coinbase.stripped),
      [solution.coinbase.txid, ...solution.branch].map(bytesToHex).join(' '),
      '3',
    ]);
    expect(partial.message).toMatch(/^Invalid block supplied by miner: /);
    expect(await blockNumber()).toBe(3);
  });

  it("answers rskj's errors for malformed submissions", async () => {
    const work: Work = await call(url, 'mnr_getWork');
    const solution = solve(work);
    expect(await rpcError(url, 'mnr_submitBitcoinBlockPartialMerkle', ['', bytesToHex(solution.header), bytesToHex(solution.coinbase.stripped), '', '3'])).toEqual({
      code: -33000,
      message: "The list of merkle hashes can't be empty",
    });
    expect(await rpcError(url, 'mnr_submitBitcoinBlock', ['zz'])).toMatchObject({ code: -32602 });
    expect(await rpcError(url, 'mnr_submitBitcoinBlock', [bytesToHex(solution.header)])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid Bitcoin data'),
    });
    expect(await blockNumber()).toBe(3);
  });

  it('a 0x-prefixed block is accepted too, and the pending transaction is mined', async () => {
    const pending = (await call(url, 'eth_getBlockByNumber', ['pending', false])).transactions;
    const work: Work = await call(url, 'mnr_getWork');
    const result = await call(url, 'mnr_submitBitcoinBlock', [`0x${serializedBlock(solve(work, { seed: 50 }))}`]);
    expect(result.blockIncludedHeight).toBe('0x4');
    const block = await call(url, 'eth_getBlockByNumber', ['0x4', false]);
    expect(block.transactions).toEqual(pending);
    expect((await call(url, 'eth_getBlockByNumber', ['pending', false])).transactions).toHaveLength(1); // REMASC only
  });

  it('evm_mine stays the operator\'s override; handed-out work on the old head goes stale', async () => {
    const work: Work = await call(url, 'mnr_getWork');
    await call(url, 'evm_mine');
    expect(await blockNumber()).toBe(5);
    const error = await rpcError(url, 'mnr_submitBitcoinBlock', [serializedBlock(solve(work, { seed: 60 }))]);
    expect(error.code).toBe(-33000);
    expect(await blockNumber()).toBe(5);
    const next: Work = await call(url, 'mnr_getWork');
    expect(next.notify).toBe(true);
    expect(next.parentBlockHash).toBe((await call(url, 'eth_getBlockByNumber', ['latest', false])).hash);
  });
});

describe('eth_getWork and friends', () => {
  it('eth_submitWork is answered false: an Ethash nonce cannot seal an RSK block', async () => {
    const [powHash] = await call(url, 'eth_getWork');
    expect(await call(url, 'eth_submitWork', ['0x0000000000000001', powHash, ZERO_HASH])).toBe(false);
    expect(await rpcError(url, 'eth_submitWork', ['0x01', powHash, ZERO_HASH])).toMatchObject({ code: -32602 });
    expect(await blockNumber()).toBe(5);
  });

  it('eth_submitHashrate reports count in eth_hashrate; eth_netHashrate is a JSON number', async () => {
    // Five blocks of difficulty 1 in the last hour: rskj's measure is floor(5 / 3600) = 0.
    expect(await call(url, 'eth_hashrate')).toBe('0x0');
    expect(await call(url, 'eth_netHashrate')).toBe(0);
    const id = `0x${'ab'.repeat(32)}`;
    expect(await call(url, 'eth_submitHashrate', [`0x${'0'.repeat(58)}500000`, id])).toBe(true);
    expect(await call(url, 'eth_submitHashrate', ['0x1000', `0x${'cd'.repeat(32)}`])).toBe(true);
    expect(await call(url, 'eth_hashrate')).toBe('0x501000');
    // A miner's newer report replaces its older one.
    expect(await call(url, 'eth_submitHashrate', ['0x10', id])).toBe(true);
    expect(await call(url, 'eth_hashrate')).toBe('0x1010');
    expect(await rpcError(url, 'eth_submitHashrate', ['0x10', '0x01'])).toMatchObject({ code: -32602 });
  });
});
