/**
 * Conformance of every method of issue 2's list, through real HTTP (fetch): result shapes and
 * values as the spec (seed 000) and the rskj reference (sections 7, 9, 10.1, 11) give them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbiCoder,
  Interface,
  Transaction,
  Wallet,
  getBytes,
  getCreateAddress,
  hexlify,
  id as eventTopic,
  keccak256,
  toUtf8Bytes,
  verifyMessage,
  zeroPadValue,
} from 'ethers';
import { hexToBytes } from '@noble/hashes/utils.js';
import { validateMergedMiningProof } from '../../src/chain/merged-mining/proof.js';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';

// ---- constants from the spec / reference ------------------------------------------------------

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const HASH = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const DATA = /^0x([0-9a-f]{2})*$/;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
const REMASC = '0x0000000000000000000000000000000001000008';
const MINER = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';
const MIN_GAS_PRICE = 60_000_000n;
const DEV_BALANCE = 10n ** 30n;
/** keccak256(rlp([])): the hash of an empty uncle list. */
const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
const EMPTY_BLOOM = `0x${'0'.repeat(512)}`;
const TOKEN_SUPPLY = 1_000_000n * 10n ** 18n;

/** The spec's block object plus the reference 9.1 list. */
const BLOCK_FIELDS = [
  'number', 'hash', 'parentHash', 'nonce', 'sha3Uncles', 'logsBloom', 'transactionsRoot', 'stateRoot', 'receiptsRoot',
  'miner', 'difficulty', 'totalDifficulty', 'cumulativeDifficulty', 'extraData', 'size', 'gasLimit', 'gasUsed',
  'timestamp', 'transactions', 'uncles', 'minimumGasPrice', 'bitcoinMergedMiningHeader',
  'bitcoinMergedMiningCoinbaseTransaction', 'bitcoinMergedMiningMerkleProof', 'hashForMergedMining', 'paidFees',
  'mixHash', 'rskPteEdges', 'baseEvent',
] as const;
const BLOCK_QUANTITIES = [
  'number', 'difficulty', 'totalDifficulty', 'cumulativeDifficulty', 'size', 'gasLimit', 'gasUsed', 'timestamp',
  'minimumGasPrice', 'paidFees',
] as const;
const BLOCK_HASHES = ['hash', 'parentHash', 'sha3Uncles', 'transactionsRoot', 'stateRoot', 'receiptsRoot', 'hashForMergedMining', 'mixHash'] as const;
const TX_FIELDS = ['hash', 'nonce', 'blockHash', 'blockNumber', 'transactionIndex', 'from', 'to', 'gas', 'gasPrice', 'value', 'input', 'v', 'r', 's', 'type'] as const;
const RECEIPT_FIELDS = [
  'transactionHash', 'transactionIndex', 'blockHash', 'blockNumber', 'from', 'to', 'cumulativeGasUsed', 'gasUsed',
  'effectiveGasPrice', 'contractAddress', 'logs', 'logsBloom', 'status', 'type',
] as const;
const LOG_FIELDS = ['logIndex', 'transactionIndex', 'transactionHash', 'blockHash', 'blockNumber', 'address', 'data', 'topics'] as const;

// ---- helpers ----------------------------------------------------------------------------------

type Json = any;

const q = (n: bigint | number) => `0x${n.toString(16)}`;
const big = (s: string) => BigInt(s);

/** Calls a method and returns its result; fails the test with the error body otherwise. */
async function call(url: string, method: string, params: unknown[] = []): Promise<Json> {
  const { status, body } = await rpc(url, method, params);
  if (body.error !== undefined) throw new Error(`${method} ${JSON.stringify(params)} answered ${status} ${JSON.stringify(body.error)}`);
  expect(status).toBe(200);
  expect(body).toHaveProperty('result');
  return body.result;
}

function expectBlockShape(block: Json): void {
  for (const f of BLOCK_FIELDS) expect(block, `block field ${f}`).toHaveProperty(f);
  for (const f of BLOCK_QUANTITIES) expect(block[f], `block field ${f}`).toMatch(QUANTITY);
  for (const f of BLOCK_HASHES) expect(block[f], `block field ${f}`).toMatch(HASH);
  expect(block.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
  expect(block.miner).toMatch(ADDRESS);
  expect(block.nonce).toMatch(/^0x[0-9a-f]{16}$/);
  expect(block.extraData).toMatch(DATA);
  expect(block.sha3Uncles).toBe(EMPTY_UNCLES_HASH);
  expect(block.uncles).toEqual([]);
  expect(Array.isArray(block.transactions)).toBe(true);
  for (const f of ['bitcoinMergedMiningHeader', 'bitcoinMergedMiningCoinbaseTransaction', 'bitcoinMergedMiningMerkleProof']) {
    expect(block[f], `block field ${f}`).toMatch(DATA);
  }
}

function expectTxShape(tx: Json): void {
  for (const f of TX_FIELDS) expect(tx, `tx field ${f}`).toHaveProperty(f);
  for (const f of ['nonce', 'gas', 'gasPrice', 'value', 'v', 'r', 's', 'type']) expect(tx[f], `tx field ${f}`).toMatch(QUANTITY);
  expect(tx.hash).toMatch(HASH);
  expect(tx.from).toMatch(ADDRESS);
  expect(tx.input).toMatch(DATA);
  expect(tx.type).toBe('0x0');
}

function expectReceiptShape(receipt: Json): void {
  for (const f of RECEIPT_FIELDS) expect(receipt, `receipt field ${f}`).toHaveProperty(f);
  for (const f of ['transactionIndex', 'blockNumber', 'cumulativeGasUsed', 'gasUsed', 'effectiveGasPrice', 'status', 'type']) {
    expect(receipt[f], `receipt field ${f}`).toMatch(QUANTITY);
  }
  expect(receipt.transactionHash).toMatch(HASH);
  expect(receipt.blockHash).toMatch(HASH);
  expect(receipt.from).toMatch(ADDRESS);
  expect(receipt.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
  expect(receipt.type).toBe('0x0');
  // reference 9.3: rskj's receipt carries status and no root
  expect(receipt).not.toHaveProperty('root');
}

const devAddress = (seed: string) => new Wallet(keccak256(toUtf8Bytes(seed))).address.toLowerCase();

// ---- the chain built for the tests ------------------------------------------------------------

const token = new Interface(contracts.Token.abi);
const transferTopic = eventTopic('Transfer(address,address,uint256)');
const cowWallet = new Wallet(COW.privateKey);

let t: TestNode;
let url: string;
let genesis: Json;
/** Block 1: a raw value transfer COW -> COW1. */
let transfer: { raw: string; hash: string; value: bigint; gasPrice: bigint; nonce: number };
/** Block 2: Token deployed by eth_sendTransaction. */
let deploy: { hash: string; address: string };
/** Block 3: eth_sendTransaction with all defaults. */
let defaultsTxHash: string;
/** Block 4: Token.mint sent with the gas estimate. */
let mintTxHash: string;
let mintEstimate: string;

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);

  const value = 10n ** 18n;
  const raw = await cowWallet.signTransaction({
    type: 0, chainId: 31, nonce: 0, gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, to: COW1.address, value,
  });
  const sent = await call(url, 'eth_sendRawTransaction', [raw]);
  transfer = { raw, hash: sent, value, gasPrice: MIN_GAS_PRICE, nonce: 0 };

  const deployData = contracts.Token.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [TOKEN_SUPPLY]).slice(2);
  const deployHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, gas: q(3_000_000), data: deployData }]);
  deploy = { hash: deployHash, address: getCreateAddress({ from: COW.address, nonce: 1 }).toLowerCase() };

  defaultsTxHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);

  const mintData = token.encodeFunctionData('mint', [COW1.address, 5n]);
  mintEstimate = await call(url, 'eth_estimateGas', [{ from: COW.address, to: deploy.address, data: mintData }]);
  mintTxHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: deploy.address, data: mintData, gas: mintEstimate }]);
});
afterAll(() => t.close());

// ---- web3 / net ------------------------------------------------------------------------------

describe('web3 and net', () => {
  it('web3_clientVersion is a non-empty string', async () => {
    const version = await call(url, 'web3_clientVersion');
    expect(typeof version).toBe('string');
    expect(version.length).toBeGreaterThan(0);
  });

  it('web3_sha3 is Keccak-256', async () => {
    expect(await call(url, 'web3_sha3', ['0x68656c6c6f'])).toBe('0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8');
    expect(await call(url, 'web3_sha3', ['0x'])).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('net_version is the decimal chain id per key', async () => {
    expect(await call(t.testnetUrl, 'net_version')).toBe('31');
    expect(await call(t.mainnetUrl, 'net_version')).toBe('30');
  });

  it('net_listening, net_peerCount, net_peerList', async () => {
    expect(await call(url, 'net_listening')).toBe(true);
    expect(await call(url, 'net_peerCount')).toBe('0x0');
    expect(await call(url, 'net_peerList')).toEqual([]);
  });
});

// ---- node-level eth ---------------------------------------------------------------------------

describe('node-level eth methods', () => {
  it('eth_chainId per key', async () => {
    expect(await call(t.testnetUrl, 'eth_chainId')).toBe('0x1f');
    expect(await call(t.mainnetUrl, 'eth_chainId')).toBe('0x1e');
  });

  it('eth_protocolVersion is 0x3e (rsk capability 62)', async () => {
    expect(await call(url, 'eth_protocolVersion')).toBe('0x3e');
  });

  it('eth_syncing is false', async () => {
    expect(await call(url, 'eth_syncing')).toBe(false);
  });

  it('eth_coinbase is the regtest miner account', async () => {
    expect(await call(url, 'eth_coinbase')).toBe(MINER);
  });

  it('eth_mining is a boolean (true: the node mines) and eth_hashrate a QUANTITY', async () => {
    expect(await call(url, 'eth_mining')).toBe(true);
    expect(await call(url, 'eth_hashrate')).toMatch(QUANTITY);
  });

  it('eth_gasPrice is the minimum gas price times 1.1', async () => {
    const price = await call(url, 'eth_gasPrice');
    expect(price).toBe('0x3ef1480');
    expect(big(price)).toBe(66_000_000n);
  });

  it('eth_accounts lists the ten cow accounts in seed order, then the miner', async () => {
    const accounts: string[] = await call(url, 'eth_accounts');
    expect(accounts).toHaveLength(11);
    expect(accounts[0]).toBe('0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826');
    const seeds = ['cow', ...Array.from({ length: 9 }, (_, i) => `cow${i + 1}`)];
    expect(accounts.slice(0, 10)).toEqual(seeds.map(devAddress));
    expect(accounts[10]).toBe(MINER);
    for (const a of accounts) expect(a).toMatch(ADDRESS);
  });

  it('eth_blockNumber is the head: four blocks were mined', async () => {
    expect(await call(url, 'eth_blockNumber')).toBe('0x4');
  });
});

// ---- account state -----------------------------------------------------------------------------

describe('account state', () => {
  it('eth_getBalance: genesis dev balance 10^30 and the effect of the transfer', async () => {
    expect(await call(url, 'eth_getBalance', [COW1.address, '0x0'])).toBe('0xc9f2c9cd04674edea40000000');
    expect(big(await call(url, 'eth_getBalance', [COW1.address, '0x1']))).toBe(DEV_BALANCE + transfer.value);
    const receipt = await call(url, 'eth_getTransactionReceipt', [transfer.hash]);
    const spent = transfer.value + big(receipt.gasUsed) * transfer.gasPrice;
    expect(big(await call(url, 'eth_getBalance', [COW.address, '0x1']))).toBe(DEV_BALANCE - spent);
  });

  it('eth_getBalance defaults to latest and is 0x0 for an unknown account', async () => {
    expect(await call(url, 'eth_getBalance', [COW1.address])).toBe(await call(url, 'eth_getBalance', [COW1.address, 'latest']));
    expect(await call(url, 'eth_getBalance', [Wallet.createRandom().address])).toBe('0x0');
  });

  it('fees go to REMASC, not to the miner', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    const before = big(await call(url, 'eth_getBalance', [REMASC, '0x0']));
    const after = big(await call(url, 'eth_getBalance', [REMASC, '0x1']));
    expect(after - before).toBe(big(block1.paidFees));
    expect(big(block1.paidFees)).toBeGreaterThan(0n);
    expect(await call(url, 'eth_getBalance', [MINER, 'latest'])).toBe('0x0');
  });

  it('eth_getTransactionCount counts sent transactions per block', async () => {
    expect(await call(url, 'eth_getTransactionCount', [COW.address, '0x0'])).toBe('0x0');
    expect(await call(url, 'eth_getTransactionCount', [COW.address, '0x1'])).toBe('0x1');
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe('0x4');
    expect(await call(url, 'eth_getTransactionCount', [COW.address])).toBe('0x4');
    expect(await call(url, 'eth_getTransactionCount', [COW1.address, 'latest'])).toBe('0x0');
  });

  it('eth_getCode: "0x" for an EOA, the runtime code for a contract, "0x" before its creation', async () => {
    expect(await call(url, 'eth_getCode', [COW.address, 'latest'])).toBe('0x');
    expect(await call(url, 'eth_getCode', [deploy.address, 'latest'])).toBe(contracts.Token.deployedBytecode.toLowerCase());
    expect(await call(url, 'eth_getCode', [deploy.address, '0x1'])).toBe('0x');
  });

  it('eth_getStorageAt: 32-byte zero for an unknown slot, the padded value for a written one', async () => {
    expect(await call(url, 'eth_getStorageAt', [COW.address, '0x0', 'latest'])).toBe(ZERO_HASH);
    expect(await call(url, 'eth_getStorageAt', [deploy.address, '0x64', 'latest'])).toBe(ZERO_HASH);
    // Token layout: slot 2 = totalSupply (name 0, symbol 1); the mint of block 4 added 5
    expect(await call(url, 'eth_getStorageAt', [deploy.address, '0x2', '0x2'])).toBe(zeroPadValue(q(TOKEN_SUPPLY), 32));
    expect(await call(url, 'eth_getStorageAt', [deploy.address, '0x2', 'latest'])).toBe(zeroPadValue(q(TOKEN_SUPPLY + 5n), 32));
    // balanceOf mapping at slot 3: keccak256(abi.encode(addr, 3))
    const slot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [COW1.address, 3n]));
    expect(await call(url, 'eth_getStorageAt', [deploy.address, slot, 'latest'])).toBe(zeroPadValue('0x05', 32));
  });
});

// ---- block selectors ---------------------------------------------------------------------------

describe('block selectors', () => {
  it('QUANTITY, earliest, latest, safe, finalized, pending, hash string and EIP-1898 maps', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const atGenesis = '0xc9f2c9cd04674edea40000000';
    const atBlock1 = q(DEV_BALANCE + transfer.value);
    const latest = q(DEV_BALANCE + transfer.value + 1n);
    const cases: Array<[unknown, string]> = [
      ['0x0', atGenesis],
      ['earliest', atGenesis],
      ['0x1', atBlock1],
      ['latest', latest],
      ['safe', latest],
      ['finalized', latest],
      ['pending', latest],
      [genesis.hash, atGenesis],
      [block1.hash, atBlock1],
      [{ blockHash: block1.hash }, atBlock1],
      [{ blockHash: head.hash }, latest],
      [{ blockNumber: '0x0' }, atGenesis],
      [{ blockNumber: '0x1' }, atBlock1],
    ];
    for (const [selector, expected] of cases) {
      expect(await call(url, 'eth_getBalance', [COW1.address, selector]), JSON.stringify(selector)).toBe(expected);
    }
  });

  it('eth_getBlockByNumber: earliest is genesis, latest/safe/finalized are the head', async () => {
    const head = await call(url, 'eth_getBlockByNumber', ['0x4', false]);
    expect(await call(url, 'eth_getBlockByNumber', ['earliest', false])).toEqual(genesis);
    for (const tag of ['latest', 'safe', 'finalized']) expect(await call(url, 'eth_getBlockByNumber', [tag, false]), tag).toEqual(head);
  });

  it('the pending tag works on getTransactionCount, getCode, getStorageAt and call', async () => {
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'pending'])).toBe('0x4');
    expect(await call(url, 'eth_getCode', [deploy.address, 'pending'])).toBe(contracts.Token.deployedBytecode.toLowerCase());
    expect(await call(url, 'eth_getCode', [COW.address, 'pending'])).toBe('0x');
    expect(await call(url, 'eth_getStorageAt', [deploy.address, '0x2', 'pending'])).toBe(zeroPadValue(q(TOKEN_SUPPLY + 5n), 32));
    const data = token.encodeFunctionData('totalSupply');
    expect(big(await call(url, 'eth_call', [{ to: deploy.address, data }, 'pending']))).toBe(TOKEN_SUPPLY + 5n);
  });

  it('the pending block: number, hash, miner and logsBloom null, built on latest', async () => {
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const pending = await call(url, 'eth_getBlockByNumber', ['pending', false]);
    expect(pending).not.toBeNull();
    for (const f of BLOCK_FIELDS) expect(pending, `pending field ${f}`).toHaveProperty(f);
    expect(pending.number).toBeNull();
    expect(pending.hash).toBeNull();
    expect(pending.miner).toBeNull();
    expect(pending.logsBloom).toBeNull();
    expect(pending.parentHash).toBe(head.hash);
    expect(pending.minimumGasPrice).toBe('0x3938700');
    expect(pending.gasLimit).toMatch(QUANTITY);
    expect(pending.gasUsed).toBe('0x0');
    // an empty pool: the template holds only its REMASC transaction, not yet in a block
    const full = await call(url, 'eth_getBlockByNumber', ['pending', true]);
    expect(full.transactions).toHaveLength(1);
    expect(full.transactions[0].to).toBe(REMASC);
    expect(full.transactions[0].nonce).toBe(head.number);
    expect(full.transactions[0].blockHash).toBeNull();
    expect(full.transactions[0].blockNumber).toBeNull();
  });

  it('the selector map forms work on getCode, getStorageAt, getTransactionCount and call', async () => {
    const block2 = await call(url, 'eth_getBlockByNumber', ['0x2', false]);
    expect(await call(url, 'eth_getCode', [deploy.address, { blockHash: block2.hash }])).toBe(contracts.Token.deployedBytecode.toLowerCase());
    expect(await call(url, 'eth_getCode', [deploy.address, { blockNumber: '0x1' }])).toBe('0x');
    expect(await call(url, 'eth_getStorageAt', [deploy.address, '0x2', { blockNumber: '0x2' }])).toBe(zeroPadValue(q(TOKEN_SUPPLY), 32));
    expect(await call(url, 'eth_getTransactionCount', [COW.address, { blockHash: block2.hash }])).toBe('0x2');
    const data = token.encodeFunctionData('totalSupply');
    expect(big(await call(url, 'eth_call', [{ to: deploy.address, data }, { blockHash: block2.hash }]))).toBe(TOKEN_SUPPLY);
    expect(await call(url, 'eth_call', [{ to: deploy.address, data }, { blockNumber: '0x1' }])).toBe('0x');
  });

  it('an unknown block for eth_getBalance is -32600 "... not found" (HTTP 400)', async () => {
    const { status, body } = await rpc(url, 'eth_getBalance', [COW.address, '0x999']);
    expect(body.result).toBeUndefined();
    expect(body.error?.code).toBe(-32600);
    expect(body.error?.message).toContain('not found');
    expect(status).toBe(400);
    const byHash = await rpc(url, 'eth_getBalance', [COW.address, { blockHash: `0x${'ab'.repeat(32)}` }]);
    expect(byHash.body.error?.code).toBe(-32600);
    expect(byHash.body.error?.message).toContain('not found');
  });

  it('an unknown block for eth_getTransactionCount / eth_getStorageAt is -32600 (reference 10.1)', async () => {
    for (const [method, params] of [
      ['eth_getTransactionCount', [COW.address, '0x999']],
      ['eth_getStorageAt', [COW.address, '0x0', '0x999']],
    ] as const) {
      const { body } = await rpc(url, method, [...params]);
      expect(body.error?.code, method).toBe(-32600);
      expect(body.error?.message, method).toContain('not found');
    }
  });

  it('an unknown block for eth_getCode is null (reference 10.1: "eth_getCode → null")', async () => {
    const { body } = await rpc(url, 'eth_getCode', [COW.address, '0x999']);
    expect(body.error).toBeUndefined();
    expect(body.result).toBeNull();
  });
});

// ---- blocks --------------------------------------------------------------------------------------

describe('blocks', () => {
  it('genesis has every field, the genesis values and no merged-mining proof', async () => {
    expectBlockShape(genesis);
    expect(genesis.number).toBe('0x0');
    expect(genesis.parentHash).toBe(ZERO_HASH);
    expect(genesis.miner).toBe('0x3333333333333333333333333333333333333333');
    expect(genesis.extraData).toBe('0x686f727365');
    expect(genesis.difficulty).toBe('0x1');
    expect(genesis.totalDifficulty).toBe('0x1');
    expect(genesis.cumulativeDifficulty).toBe('0x1');
    expect(genesis.gasLimit).toBe(q(6_800_000));
    expect(genesis.gasUsed).toBe('0x0');
    expect(genesis.timestamp).toBe('0x0');
    expect(genesis.minimumGasPrice).toBe('0x3938700');
    expect(genesis.paidFees).toBe('0x0');
    expect(genesis.logsBloom).toBe(EMPTY_BLOOM);
    expect(genesis.transactions).toEqual([]);
    expect(genesis.bitcoinMergedMiningHeader).toBe('0x');
    expect(genesis.bitcoinMergedMiningCoinbaseTransaction).toBe('0x');
    expect(genesis.bitcoinMergedMiningMerkleProof).toBe('0x');
    expect(await call(url, 'eth_getBlockByHash', [genesis.hash, false])).toEqual(genesis);
  });

  it('a mined block: every field, RSK values, the user tx then REMASC', async () => {
    const block = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expectBlockShape(block);
    expect(block.number).toBe('0x1');
    expect(block.parentHash).toBe(genesis.hash);
    expect(block.miner).toBe(MINER);
    expect(block.minimumGasPrice).toBe('0x3938700');
    expect(big(block.timestamp)).toBeGreaterThan(big(genesis.timestamp));
    expect(block.cumulativeDifficulty).toBe(block.difficulty);
    expect(big(block.totalDifficulty)).toBe(big(genesis.totalDifficulty) + big(block.difficulty));
    expect(big(block.size)).toBeGreaterThan(0n);
    expect(block.transactions).toHaveLength(2);
    expect(block.transactions[0]).toBe(transfer.hash);
    expect(block.transactions[1]).toMatch(HASH);

    const receipt = await call(url, 'eth_getTransactionReceipt', [transfer.hash]);
    expect(receipt.gasUsed).toBe('0x5208');
    expect(block.gasUsed).toBe(receipt.gasUsed);
    expect(big(block.paidFees)).toBe(big(receipt.gasUsed) * transfer.gasPrice);
    expect(await call(url, 'eth_getBlockByHash', [block.hash, false])).toEqual(block);
  });

  it('every mined block links to its parent and accumulates difficulty', async () => {
    let parent = genesis;
    for (let n = 1; n <= 4; n++) {
      const block = await call(url, 'eth_getBlockByNumber', [q(n), false]);
      expectBlockShape(block);
      expect(block.number).toBe(q(n));
      expect(block.parentHash).toBe(parent.hash);
      expect(big(block.totalDifficulty)).toBe(big(parent.totalDifficulty) + big(block.difficulty));
      expect(block.transactions).toHaveLength(2);
      parent = block;
    }
  });

  it('paidFees is gasUsed x gasPrice of the user transaction (deploy block)', async () => {
    const block = await call(url, 'eth_getBlockByNumber', ['0x2', false]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [deploy.hash]);
    const tx = await call(url, 'eth_getTransactionByHash', [deploy.hash]);
    expect(big(block.paidFees)).toBe(big(receipt.gasUsed) * big(tx.gasPrice));
    expect(block.gasUsed).toBe(receipt.gasUsed);
  });

  it('the REMASC transaction closes the block', async () => {
    for (let n = 1; n <= 4; n++) {
      const block = await call(url, 'eth_getBlockByNumber', [q(n), true]);
      const remasc = block.transactions[1];
      expectTxShape(remasc);
      expect(remasc.from).toBe(ZERO_ADDRESS);
      expect(remasc.to).toBe(REMASC);
      expect(remasc.v).toBe('0x0');
      expect(remasc.r).toBe('0x0');
      expect(remasc.s).toBe('0x0');
      expect(remasc.gas).toBe('0x0');
      expect(remasc.gasPrice).toBe('0x0');
      expect(remasc.value).toBe('0x0');
      expect(remasc.nonce).toBe(q(n - 1));
      expect(remasc.blockHash).toBe(block.hash);
      expect(remasc.blockNumber).toBe(q(n));
      expect(remasc.transactionIndex).toBe('0x1');
      expect(await call(url, 'eth_getTransactionByHash', [remasc.hash])).toEqual(remasc);
    }
  });

  it('the full-objects flag gives transaction objects equal to eth_getTransactionByHash', async () => {
    const full = await call(url, 'eth_getBlockByNumber', ['0x1', true]);
    const hashes = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expect(full.transactions).toHaveLength(2);
    expect(full.transactions.map((tx: Json) => tx.hash)).toEqual(hashes.transactions);
    expect(full.transactions[0]).toEqual(await call(url, 'eth_getTransactionByHash', [transfer.hash]));
    const { transactions: _a, ...restFull } = full;
    const { transactions: _b, ...restHashes } = hashes;
    expect(restFull).toEqual(restHashes);
    expect(await call(url, 'eth_getBlockByHash', [full.hash, true])).toEqual(full);
  });

  it('the full flag defaults to false', async () => {
    expect(await call(url, 'eth_getBlockByNumber', ['0x1'])).toEqual(await call(url, 'eth_getBlockByNumber', ['0x1', false]));
  });

  it('unknown hash / number give null', async () => {
    expect(await call(url, 'eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).toBeNull();
    expect(await call(url, 'eth_getBlockByNumber', ['0x999', false])).toBeNull();
    expect(await call(url, 'eth_getBlockByNumber', ['0x999', true])).toBeNull();
  });

  it('eth_getBlockTransactionCountByHash / ByNumber (REMASC included)', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expect(await call(url, 'eth_getBlockTransactionCountByHash', [block1.hash])).toBe('0x2');
    expect(await call(url, 'eth_getBlockTransactionCountByHash', [genesis.hash])).toBe('0x0');
    expect(await call(url, 'eth_getBlockTransactionCountByHash', [`0x${'ab'.repeat(32)}`])).toBeNull();
    expect(await call(url, 'eth_getBlockTransactionCountByNumber', ['0x1'])).toBe('0x2');
    expect(await call(url, 'eth_getBlockTransactionCountByNumber', ['earliest'])).toBe('0x0');
    expect(await call(url, 'eth_getBlockTransactionCountByNumber', ['latest'])).toBe('0x2');
  });

  it('uncle counts are 0x0 and uncle lookups null', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expect(await call(url, 'eth_getUncleCountByBlockHash', [block1.hash])).toBe('0x0');
    expect(await call(url, 'eth_getUncleCountByBlockHash', [genesis.hash])).toBe('0x0');
    expect(await call(url, 'eth_getUncleCountByBlockNumber', ['0x1'])).toBe('0x0');
    expect(await call(url, 'eth_getUncleCountByBlockNumber', ['latest'])).toBe('0x0');
    expect(await call(url, 'eth_getUncleByBlockHashAndIndex', [block1.hash, '0x0'])).toBeNull();
    expect(await call(url, 'eth_getUncleByBlockNumberAndIndex', ['0x1', '0x0'])).toBeNull();
    expect(await call(url, 'eth_getUncleByBlockNumberAndIndex', ['latest', '0x0'])).toBeNull();
  });

  it('uncle counts of an unknown block are -32600 "Block ... not found" (reference 10.1)', async () => {
    for (const [method, arg] of [
      ['eth_getUncleCountByBlockHash', `0x${'ab'.repeat(32)}`],
      ['eth_getUncleCountByBlockNumber', '0x999'],
    ] as const) {
      const { body } = await rpc(url, method, [arg]);
      expect(body.error?.code, `${method}: ${JSON.stringify(body)}`).toBe(-32600);
      expect(body.error?.message, method).toContain('not found');
    }
  });

  it('rsk_getRawBlockHeaderByHash: keccak256(raw header) is the block hash', async () => {
    for (let n = 0; n <= 4; n++) {
      const block = await call(url, 'eth_getBlockByNumber', [q(n), false]);
      const raw = await call(url, 'rsk_getRawBlockHeaderByHash', [block.hash]);
      expect(raw).toMatch(DATA);
      expect(keccak256(raw), `block ${n}`).toBe(block.hash);
    }
    expect(await call(url, 'rsk_getRawBlockHeaderByHash', [`0x${'ab'.repeat(32)}`])).toBeNull();
  });
});

// ---- merged mining -----------------------------------------------------------------------------

describe('merged mining', () => {
  it('every mined block carries a valid merged-mining proof committing to hashForMergedMining', async () => {
    const tag = hexlify(toUtf8Bytes('RSKBLOCK:')).slice(2);
    for (let n = 1; n <= 4; n++) {
      const block = await call(url, 'eth_getBlockByNumber', [q(n), false]);
      expect(block.bitcoinMergedMiningHeader).toMatch(/^0x[0-9a-f]{160}$/);
      const proof = {
        btcHeader: getBytes(block.bitcoinMergedMiningHeader),
        coinbase: getBytes(block.bitcoinMergedMiningCoinbaseTransaction),
        merkleProof: getBytes(block.bitcoinMergedMiningMerkleProof),
      };
      const result = validateMergedMiningProof(proof, hexToBytes(block.hashForMergedMining.slice(2)), BigInt(block.difficulty));
      expect(result, `block ${n}`).toEqual({ ok: true });
      expect(block.bitcoinMergedMiningCoinbaseTransaction).toContain(tag + block.hashForMergedMining.slice(2));
      // a tampered hash is refused
      const other = hexToBytes(keccak256(block.hashForMergedMining).slice(2));
      expect(validateMergedMiningProof(proof, other, BigInt(block.difficulty)).ok).toBe(false);
    }
  });
});

// ---- transactions ------------------------------------------------------------------------------

describe('transactions', () => {
  it('eth_sendRawTransaction returned keccak256 of the raw bytes', () => {
    expect(transfer.hash).toBe(keccak256(transfer.raw));
  });

  it('eth_getTransactionByHash: every field, the signed values, EIP-155 v for chain 31', async () => {
    const tx = await call(url, 'eth_getTransactionByHash', [transfer.hash]);
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expectTxShape(tx);
    expect(tx.hash).toBe(transfer.hash);
    expect(tx.nonce).toBe('0x0');
    expect(tx.blockHash).toBe(block1.hash);
    expect(tx.blockNumber).toBe('0x1');
    expect(tx.transactionIndex).toBe('0x0');
    expect(tx.from).toBe(COW.address);
    expect(tx.to).toBe(COW1.address);
    expect(tx.gas).toBe('0x5208');
    expect(tx.gasPrice).toBe('0x3938700');
    expect(tx.value).toBe(q(transfer.value));
    expect(tx.input).toBe('0x');
    expect(['0x61', '0x62']).toContain(tx.v);
    const parsed = Transaction.from(transfer.raw);
    expect(tx.r).toBe(q(BigInt(parsed.signature!.r)));
    expect(tx.s).toBe(q(BigInt(parsed.signature!.s)));
    expect(tx.v).toBe(q(parsed.signature!.networkV!));
  });

  it('by block hash / number and index: the same object; out of range and unknown block give null', async () => {
    const tx = await call(url, 'eth_getTransactionByHash', [transfer.hash]);
    expect(await call(url, 'eth_getTransactionByBlockHashAndIndex', [tx.blockHash, '0x0'])).toEqual(tx);
    expect(await call(url, 'eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0'])).toEqual(tx);
    const remasc = await call(url, 'eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x1']);
    expect(remasc.to).toBe(REMASC);
    expect(await call(url, 'eth_getTransactionByBlockHashAndIndex', [tx.blockHash, '0x1'])).toEqual(remasc);
    expect(await call(url, 'eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x2'])).toBeNull();
    expect(await call(url, 'eth_getTransactionByBlockHashAndIndex', [tx.blockHash, '0x2'])).toBeNull();
    expect(await call(url, 'eth_getTransactionByBlockHashAndIndex', [`0x${'ab'.repeat(32)}`, '0x0'])).toBeNull();
    expect(await call(url, 'eth_getTransactionByBlockNumberAndIndex', ['0x999', '0x0'])).toBeNull();
    const latest = await call(url, 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0']);
    expect(latest.hash).toBe(mintTxHash);
  });

  it('eth_getTransactionByHash of an unknown hash is null', async () => {
    expect(await call(url, 'eth_getTransactionByHash', [`0x${'cd'.repeat(32)}`])).toBeNull();
  });

  it('eth_getTransactionReceipt of a transfer: every field and value', async () => {
    const receipt = await call(url, 'eth_getTransactionReceipt', [transfer.hash]);
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    expectReceiptShape(receipt);
    expect(receipt.transactionHash).toBe(transfer.hash);
    expect(receipt.transactionIndex).toBe('0x0');
    expect(receipt.blockHash).toBe(block1.hash);
    expect(receipt.blockNumber).toBe('0x1');
    expect(receipt.from).toBe(COW.address);
    expect(receipt.to).toBe(COW1.address);
    expect(receipt.status).toBe('0x1');
    expect(receipt.gasUsed).toBe('0x5208');
    expect(receipt.cumulativeGasUsed).toBe('0x5208');
    expect(receipt.effectiveGasPrice).toBe('0x3938700');
    expect(receipt.contractAddress).toBeNull();
    expect(receipt.logs).toEqual([]);
    expect(receipt.logsBloom).toBe(EMPTY_BLOOM);
  });

  it('eth_getTransactionReceipt of a create: contractAddress, logs with positions', async () => {
    const receipt = await call(url, 'eth_getTransactionReceipt', [deploy.hash]);
    const tx = await call(url, 'eth_getTransactionByHash', [deploy.hash]);
    const block2 = await call(url, 'eth_getBlockByNumber', ['0x2', false]);
    expectReceiptShape(receipt);
    expect(tx.to).toBeNull();
    expect(receipt.to).toBeNull();
    expect(receipt.status).toBe('0x1');
    expect(receipt.contractAddress).toBe(deploy.address);
    expect(receipt.effectiveGasPrice).toBe(tx.gasPrice);
    expect(receipt.blockHash).toBe(block2.hash);
    expect(receipt.blockNumber).toBe('0x2');
    expect(receipt.logsBloom).not.toBe(EMPTY_BLOOM);
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0];
    for (const f of LOG_FIELDS) expect(log, `log field ${f}`).toHaveProperty(f);
    expect(log.logIndex).toBe('0x0');
    expect(log.transactionIndex).toBe('0x0');
    expect(log.transactionHash).toBe(deploy.hash);
    expect(log.blockHash).toBe(block2.hash);
    expect(log.blockNumber).toBe('0x2');
    expect(log.address).toBe(deploy.address);
    expect(log.topics).toEqual([transferTopic, zeroPadValue(ZERO_ADDRESS, 32), zeroPadValue(COW.address, 32)]);
    expect(log.data).toBe(zeroPadValue(q(TOKEN_SUPPLY), 32));
  });

  it('the REMASC transaction has a receipt too', async () => {
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [block1.transactions[1]]);
    expectReceiptShape(receipt);
    expect(receipt.from).toBe(ZERO_ADDRESS);
    expect(receipt.to).toBe(REMASC);
    expect(receipt.transactionIndex).toBe('0x1');
    expect(receipt.status).toBe('0x1');
    expect(receipt.gasUsed).toBe('0x0');
    expect(receipt.cumulativeGasUsed).toBe(block1.gasUsed);
  });

  it('eth_getTransactionReceipt of an unknown hash is null', async () => {
    expect(await call(url, 'eth_getTransactionReceipt', [`0x${'cd'.repeat(32)}`])).toBeNull();
  });

  it('eth_sendTransaction defaults: gas 90000 and gasPrice the minimum gas price', async () => {
    const tx = await call(url, 'eth_getTransactionByHash', [defaultsTxHash]);
    expect(tx.gas).toBe('0x15f90');
    expect(big(tx.gas)).toBe(90_000n);
    expect(tx.gasPrice).toBe('0x3938700');
    expect(tx.nonce).toBe('0x2');
    expect(tx.value).toBe('0x1');
    expect(tx.from).toBe(COW.address);
    expect(tx.blockNumber).toBe('0x3');
    expect(['0x61', '0x62']).toContain(tx.v);
    const receipt = await call(url, 'eth_getTransactionReceipt', [defaultsTxHash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.gasUsed).toBe('0x5208');
  });

  it('eth_sendTransaction with the eth_estimateGas result succeeds', async () => {
    expect(mintEstimate).toMatch(QUANTITY);
    const receipt = await call(url, 'eth_getTransactionReceipt', [mintTxHash]);
    const tx = await call(url, 'eth_getTransactionByHash', [mintTxHash]);
    expect(tx.gas).toBe(mintEstimate);
    expect(receipt.status).toBe('0x1');
    expect(big(receipt.gasUsed)).toBeLessThanOrEqual(big(mintEstimate));
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0].topics[0]).toBe(transferTopic);
  });
});

// ---- execution ---------------------------------------------------------------------------------

describe('execution', () => {
  it('eth_call reads contract state and creates no transaction', async () => {
    const before = await call(url, 'eth_blockNumber');
    const balanceOf = token.encodeFunctionData('balanceOf', [COW.address]);
    expect(big(await call(url, 'eth_call', [{ to: deploy.address, data: balanceOf }, 'latest']))).toBe(TOKEN_SUPPLY);
    const name = await call(url, 'eth_call', [{ to: deploy.address, data: token.encodeFunctionData('name') }, 'latest']);
    expect(token.decodeFunctionResult('name', name)[0]).toBe('Test Token');
    // `input` is an alias of `data`
    const symbol = await call(url, 'eth_call', [{ to: deploy.address, input: token.encodeFunctionData('symbol') }, 'latest']);
    expect(token.decodeFunctionResult('symbol', symbol)[0]).toBe('TST');
    expect(await call(url, 'eth_call', [{ to: COW1.address, data: '0x' }, 'latest'])).toBe('0x');
    expect(await call(url, 'eth_blockNumber')).toBe(before);
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe('0x4');
  });

  it('eth_call at a historical block', async () => {
    const data = token.encodeFunctionData('totalSupply');
    expect(big(await call(url, 'eth_call', [{ to: deploy.address, data }, '0x2']))).toBe(TOKEN_SUPPLY);
    expect(big(await call(url, 'eth_call', [{ to: deploy.address, data }, '0x4']))).toBe(TOKEN_SUPPLY + 5n);
  });

  it('eth_estimateGas: 21000 for a plain transfer', async () => {
    expect(await call(url, 'eth_estimateGas', [{ from: COW.address, to: COW1.address, value: '0x1' }])).toBe('0x5208');
  });

  it('eth_estimateGas returns an estimate when `from` has no balance (spec)', async () => {
    const empty = Wallet.createRandom().address;
    const estimate = await call(url, 'eth_estimateGas', [{ from: empty, to: COW1.address, value: q(10n ** 18n) }]);
    expect(estimate).toBe('0x5208');
    const mint = token.encodeFunctionData('mint', [COW1.address, 1n]);
    const contractEstimate = await call(url, 'eth_estimateGas', [{ from: empty, to: deploy.address, data: mint, gasPrice: '0x3938700' }]);
    expect(big(contractEstimate)).toBeGreaterThan(21_000n);
    expect(big(contractEstimate)).toBeLessThanOrEqual(6_800_000n);
  });

  it('eth_estimateGas is a simulation: no transaction, no block', async () => {
    const before = await call(url, 'eth_blockNumber');
    await call(url, 'eth_estimateGas', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    expect(await call(url, 'eth_blockNumber')).toBe(before);
  });
});

// ---- eth_sign ----------------------------------------------------------------------------------

describe('eth_sign', () => {
  it('returns a 65-byte signature with v 0x1b/0x1c, recoverable to the signer', async () => {
    const message = '0x68656c6c6f';
    const signature: string = await call(url, 'eth_sign', [COW.address, message]);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(['1b', '1c']).toContain(signature.slice(-2));
    expect(verifyMessage(getBytes(message), signature).toLowerCase()).toBe(COW.address);
    // the same as ethers' personal_sign-style signature with the same key (deterministic RFC 6979)
    expect(signature).toBe(await cowWallet.signMessage(getBytes(message)));
  });

  it('signs with every node account, including the miner', async () => {
    const accounts: string[] = await call(url, 'eth_accounts');
    for (const account of [accounts[1]!, accounts[10]!]) {
      const signature = await call(url, 'eth_sign', [account, '0xdeadbeef']);
      expect(verifyMessage(getBytes('0xdeadbeef'), signature).toLowerCase()).toBe(account);
    }
  });
});

// ---- economics ---------------------------------------------------------------------------------

describe('economics', () => {
  it('a transaction priced below the latest block minimum is refused with -32010', async () => {
    const nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']));
    const raw = await cowWallet.signTransaction({
      type: 0, chainId: 31, nonce, gasPrice: MIN_GAS_PRICE - 1n, gasLimit: 21_000, to: COW1.address, value: 1n,
    });
    const { status, body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
    expect(body.error?.code).toBe(-32010);
    expect(body.error?.message).toBe("transaction's gas price lower than block's minimum");
    expect(status).toBe(200);
    expect(await call(url, 'eth_getTransactionByHash', [keccak256(raw)])).toBeNull();
  });

  it('the minimum gas price stays at the target (the genesis value by default)', async () => {
    for (let n = 0; n <= 4; n++) {
      expect((await call(url, 'eth_getBlockByNumber', [q(n), false])).minimumGasPrice, `block ${n}`).toBe('0x3938700');
    }
  });

  describe('a new chain started with minGasPrice 0', () => {
    let zero: TestNode;
    beforeAll(async () => {
      zero = await startTestNode({ minGasPrice: 0n });
    });
    afterAll(() => zero.close());

    it('sets the genesis minimumGasPrice to 0x0 and eth_gasPrice to 0x0', async () => {
      const g = await call(zero.testnetUrl, 'eth_getBlockByNumber', ['0x0', false]);
      expect(g.minimumGasPrice).toBe('0x0');
      expect(await call(zero.testnetUrl, 'eth_gasPrice')).toBe('0x0');
      expect((await call(zero.mainnetUrl, 'eth_getBlockByNumber', ['earliest', false])).minimumGasPrice).toBe('0x0');
      expect(await call(zero.mainnetUrl, 'eth_gasPrice')).toBe('0x0');
    });

    it('eth_sendTransaction defaults gasPrice to 0 there, and a zero-priced tx is mined', async () => {
      const hash = await call(zero.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
      const tx = await call(zero.testnetUrl, 'eth_getTransactionByHash', [hash]);
      expect(tx.gasPrice).toBe('0x0');
      expect(tx.gas).toBe('0x15f90');
      const block = await call(zero.testnetUrl, 'eth_getBlockByNumber', ['0x1', false]);
      expect(block.minimumGasPrice).toBe('0x0');
      expect(block.paidFees).toBe('0x0');
      expect((await call(zero.testnetUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    });
  });
});
