/**
 * RSK's own module over HTTP (reference 10.3), under both names: rskj's `rsk_` and the spec's
 * `ext_`. Raw headers hash to the block hash; raw receipts carry what eth_getTransactionReceipt
 * shows; receipt trie nodes verify against the block's receiptsRoot with the independent walker of
 * test/helpers/mpt-verify.ts (ethers' RLP and keccak256 only, none of the code that made them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, decodeRlp, encodeRlp, getCreateAddress, keccak256, toBeArray } from 'ethers';
import { bytesToHex } from '@ethereumjs/util';
import { METHODS } from '../../src/rpc/methods/index.js';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import { verifyTrieProof } from '../helpers/mpt-verify.js';

const MODULE = ['getRawBlockHeaderByHash', 'getRawBlockHeaderByNumber', 'getRawTransactionReceiptByHash', 'getTransactionReceiptNodesByHash', 'protocolVersion'];
const HASH = /^0x[0-9a-f]{64}$/;
const DATA = /^0x([0-9a-f]{2})+$/;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;
const REMASC = '0x0000000000000000000000000000000001000008';
const TOKEN_SUPPLY = 1_000_000n * 10n ** 18n;
/** User transactions of the busy block: enough that the receipt trie has branches at two levels. */
const BUSY_TRANSFERS = 20;

const q = (n: bigint | number) => `0x${n.toString(16)}`;
const token = new Interface(contracts.Token.abi);
/** RLP of a transaction index, as the receipt trie keys it (ethers' encoder: 0 is the empty string). */
const indexKey = (i: number) => toBeArray(encodeRlp(toBeArray(i)));

let t: TestNode;
let url: string;
/** Block 1: Token deployed (a Transfer log from the constructor's mint). */
let deployHash: string;
let tokenAddress: string;
/** One block with BUSY_TRANSFERS transfers (half of them token transfers), one reverting transfer, then REMASC. */
let busy: any;
let revertedHash: string;

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  const deployData = contracts.Token.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [TOKEN_SUPPLY]).slice(2);
  deployHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, gas: q(3_000_000), data: deployData }]);
  tokenAddress = getCreateAddress({ from: COW.address, nonce: 0 }).toLowerCase();
  expect((await call(url, 'eth_getTransactionReceipt', [deployHash])).contractAddress).toBe(tokenAddress);

  await call(url, 'evm_setAutomine', [false]);
  // Two senders (the pool holds at most 16 nonces per sender): COW's token transfers with a log, COW1's value transfers.
  for (let i = 0; i < BUSY_TRANSFERS; i++) {
    const data = token.encodeFunctionData('transfer', [COW1.address, BigInt(i + 1)]);
    const tx = i % 2 === 0 ? { from: COW.address, to: tokenAddress, data, gas: q(100_000) } : { from: COW1.address, to: COW.address, value: q(i), gas: q(21_000) };
    await call(url, 'eth_sendTransaction', [tx]);
  }
  // Reverts ("transfer to zero address"): a failed receipt, status empty in the raw form.
  const zero = token.encodeFunctionData('transfer', [`0x${'00'.repeat(20)}`, 1n]);
  revertedHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data: zero, gas: q(100_000) }]);
  await call(url, 'evm_mine', []);
  await call(url, 'evm_setAutomine', [true]);
  busy = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  expect(busy.transactions).toHaveLength(BUSY_TRANSFERS + 2);
});
afterAll(() => t?.close());

/** Both names of a module method answer the same; returns the answer. */
async function both(method: string, params: unknown[]): Promise<any> {
  const rsk = await call(url, `rsk_${method}`, params);
  const ext = await call(url, `ext_${method}`, params);
  expect(ext, `ext_${method} = rsk_${method}`).toEqual(rsk);
  return rsk;
}

/** The receipt trie nodes of `txHash` in `block`, checked and walked root first; returns the proven value. */
async function proveReceipt(block: any, txHash: string): Promise<string | null> {
  const nodes: string[] = await both('getTransactionReceiptNodesByHash', [block.hash, txHash]);
  expect(Array.isArray(nodes)).toBe(true);
  for (const node of nodes) expect(node).toMatch(DATA);
  // rskj's order: leaf first, root last.
  expect(keccak256(nodes[nodes.length - 1]!), 'the last node is the root').toBe(block.receiptsRoot);
  const leaf = decodeRlp(nodes[0]!) as string[];
  expect(leaf, 'the first node is a leaf').toHaveLength(2);
  expect(parseInt(leaf[0]!.slice(2, 3), 16) >> 1, 'hex-prefix leaf flag').toBe(1);
  const index = Number(BigInt((await call(url, 'eth_getTransactionByHash', [txHash]))?.transactionIndex ?? '0x0'));
  return verifyTrieProof(block.receiptsRoot, indexKey(index), [...nodes].reverse());
}

describe('the module answers under both names', () => {
  it('the method table holds rsk_X and ext_X for each method', () => {
    const names = new Set(METHODS.map((m) => m.name));
    for (const name of MODULE) {
      expect(names.has(`rsk_${name}`), `rsk_${name}`).toBe(true);
      expect(names.has(`ext_${name}`), `ext_${name}`).toBe(true);
    }
  });

  it('protocolVersion equals eth_protocolVersion (0x3e, rsk capability 62)', async () => {
    const eth = await call(url, 'eth_protocolVersion');
    expect(await both('protocolVersion', [])).toBe(eth);
    expect(eth).toBe('0x3e');
  });

  it('parameters are checked under both names alike', async () => {
    for (const prefix of ['rsk', 'ext']) {
      const error = await rpcError(url, `${prefix}_getTransactionReceiptNodesByHash`, [busy.hash]);
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('missing value for required argument 1 (transactionHash)');
      expect((await rpcError(url, `${prefix}_getRawBlockHeaderByHash`, ['0x1234'])).code).toBe(-32602);
    }
  });
});

describe('raw block headers', () => {
  it('keccak256(raw header) is the block hash, by hash and by number, for every block', async () => {
    const head = Number(BigInt(await call(url, 'eth_blockNumber')));
    expect(head).toBe(2);
    for (let n = 0; n <= head; n++) {
      const block = await call(url, 'eth_getBlockByNumber', [q(n), false]);
      const byHash = await both('getRawBlockHeaderByHash', [block.hash]);
      const byNumber = await both('getRawBlockHeaderByNumber', [q(n)]);
      expect(byHash).toMatch(DATA);
      expect(byNumber).toBe(byHash);
      expect(keccak256(byHash), `block ${n}`).toBe(block.hash);
      // The header RLP carries the roots the block shows.
      const fields = decodeRlp(byHash) as string[];
      expect(fields[0], 'parentHash').toBe(block.parentHash);
      expect(fields[3], 'stateRoot').toBe(block.stateRoot);
      expect(fields[4], 'transactionsRoot').toBe(block.transactionsRoot);
      expect(fields[5], 'receiptsRoot').toBe(block.receiptsRoot);
    }
  });

  it('tags: latest and earliest; the pending block has no sealed header; unknown blocks are null', async () => {
    expect(keccak256(await both('getRawBlockHeaderByNumber', ['latest']))).toBe(busy.hash);
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(keccak256(await both('getRawBlockHeaderByNumber', ['earliest']))).toBe(genesis.hash);
    expect(await both('getRawBlockHeaderByNumber', ['pending'])).toBeNull();
    expect(await both('getRawBlockHeaderByNumber', ['0x99'])).toBeNull();
    expect(await both('getRawBlockHeaderByHash', [UNKNOWN_HASH])).toBeNull();
  });
});

describe('raw receipts (reference 9.5)', () => {
  it('RLP [postTxState, cumulativeGas, bloom, logs, gasUsed, status] carries what eth_getTransactionReceipt shows', async () => {
    for (const hash of [deployHash, ...busy.transactions]) {
      const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
      const raw = await both('getRawTransactionReceiptByHash', [hash]);
      expect(raw).toMatch(DATA);
      const [postTxState, cumulativeGas, bloom, logs, gasUsed, status, ...rest] = decodeRlp(raw) as any[];
      expect(rest).toEqual([]);
      expect(postTxState, 'postTxState is always empty').toBe('0x');
      expect(BigInt(cumulativeGas === '0x' ? 0 : cumulativeGas), 'cumulativeGasUsed').toBe(BigInt(receipt.cumulativeGasUsed));
      expect(bloom, 'logsBloom').toBe(receipt.logsBloom);
      expect(BigInt(gasUsed === '0x' ? 0 : gasUsed), 'gasUsed').toBe(BigInt(receipt.gasUsed));
      expect(status, 'status').toBe(receipt.status === '0x1' ? '0x01' : '0x');
      expect(logs).toEqual(receipt.logs.map((log: any) => [log.address, log.topics, log.data]));
    }
  });

  it('a reverted transaction has an empty status; the deployment has its Transfer log', async () => {
    expect((decodeRlp(await both('getRawTransactionReceiptByHash', [revertedHash])) as string[])[5]).toBe('0x');
    const logs = (decodeRlp(await both('getRawTransactionReceiptByHash', [deployHash])) as any[])[3];
    expect(logs).toHaveLength(1);
    expect(logs[0][0]).toBe(tokenAddress);
  });

  it('an unknown or still pooled transaction has none', async () => {
    expect(await both('getRawTransactionReceiptByHash', [UNKNOWN_HASH])).toBeNull();
    await call(url, 'evm_setAutomine', [false]);
    const pooled = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    try {
      expect(await call(url, 'eth_getTransactionByHash', [pooled])).not.toBeNull();
      expect(await both('getRawTransactionReceiptByHash', [pooled])).toBeNull();
      expect(await both('getTransactionReceiptNodesByHash', [busy.hash, pooled])).toBeNull();
    } finally {
      expect(await call(url, 'hardhat_dropTransaction', [pooled])).toBe(true);
      await call(url, 'evm_setAutomine', [true]);
    }
  });
});

describe('receipt trie nodes', () => {
  it('every receipt of the busy block, REMASC included, verifies against its receiptsRoot', async () => {
    const remasc = await call(url, 'eth_getTransactionByHash', [busy.transactions.at(-1)]);
    expect(remasc.to).toBe(REMASC);
    for (const hash of busy.transactions) {
      const proven = await proveReceipt(busy, hash);
      expect(proven, `tx ${hash}`).toBe(await call(url, 'rsk_getRawTransactionReceiptByHash', [hash]));
    }
  });

  it('the nodes of a two-receipt block (deployment and REMASC) verify too', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expect(block1.transactions).toHaveLength(2);
    for (const hash of block1.transactions) {
      expect(await proveReceipt(block1, hash)).toBe(await call(url, 'rsk_getRawTransactionReceiptByHash', [hash]));
    }
  });

  it("one receipt's nodes do not prove another's", async () => {
    const nodes: string[] = await call(url, 'ext_getTransactionReceiptNodesByHash', [busy.hash, busy.transactions[3]]);
    const walk = [...nodes].reverse();
    // Index 4 shares the root branch with 3 but not its leaf: the walk ends on the wrong leaf or a missing node.
    let proven: string | null = null;
    try {
      proven = verifyTrieProof(busy.receiptsRoot, indexKey(4), walk);
    } catch {
      proven = null;
    }
    expect(proven).toBeNull();
    expect(verifyTrieProof(busy.receiptsRoot, indexKey(3), walk)).toBe(await call(url, 'rsk_getRawTransactionReceiptByHash', [busy.transactions[3]]));
  });

  it('null when the transaction is not in that block, or the block or transaction is unknown', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expect(await both('getTransactionReceiptNodesByHash', [block1.hash, busy.transactions[0]])).toBeNull();
    expect(await both('getTransactionReceiptNodesByHash', [busy.hash, deployHash])).toBeNull();
    expect(await both('getTransactionReceiptNodesByHash', [UNKNOWN_HASH, busy.transactions[0]])).toBeNull();
    expect(await both('getTransactionReceiptNodesByHash', [busy.hash, UNKNOWN_HASH])).toBeNull();
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(await both('getTransactionReceiptNodesByHash', [genesis.hash, deployHash])).toBeNull();
  });

  it('answers the same on repeated calls (served from the small receipt-trie cache)', async () => {
    const first = await call(url, 'rsk_getTransactionReceiptNodesByHash', [busy.hash, busy.transactions[7]]);
    const again = await call(url, 'rsk_getTransactionReceiptNodesByHash', [busy.hash, busy.transactions[7]]);
    expect(again).toEqual(first);
    expect(first.length).toBeGreaterThanOrEqual(2);
    for (const node of first) expect(keccak256(node)).toMatch(HASH);
  });
});

describe('--skip-remasc', () => {
  it('hides the REMASC transaction here as eth_getTransactionReceipt does', async () => {
    const node = await startTestNode({ skipRemasc: true });
    try {
      const u = node.testnetUrl;
      const hash = await call(u, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
      const block = await call(u, 'eth_getBlockByNumber', ['latest', false]);
      expect(block.transactions).toEqual([hash]);
      const remascHash = await remascOf(node, block.number);
      expect(remascHash).toMatch(HASH);
      expect(await call(u, 'eth_getTransactionReceipt', [remascHash])).toBeNull();
      expect(await call(u, 'rsk_getRawTransactionReceiptByHash', [remascHash])).toBeNull();
      expect(await call(u, 'ext_getTransactionReceiptNodesByHash', [block.hash, remascHash])).toBeNull();
      // The user transaction's proof still verifies: the trie holds REMASC's receipt all the same.
      const nodes: string[] = await call(u, 'ext_getTransactionReceiptNodesByHash', [block.hash, hash]);
      const raw = await call(u, 'ext_getRawTransactionReceiptByHash', [hash]);
      expect(verifyTrieProof(block.receiptsRoot, indexKey(0), [...nodes].reverse())).toBe(raw);
    } finally {
      await node.close();
    }
  });
});

/** The REMASC transaction's hash of block `number`, read from the chain (the RPC hides it with --skip-remasc). */
async function remascOf(node: TestNode, number: string): Promise<string> {
  const block = await node.node.chains.testnet.blockByNumber(BigInt(number));
  const remasc = block!.transactions.at(-1)!;
  expect(remasc.isRemasc).toBe(true);
  return bytesToHex(remasc.hash);
}
