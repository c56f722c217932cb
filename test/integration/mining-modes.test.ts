/**
 * Mining modes and the pool (issue 4, reference 7, 10.1 and 10.7): manual mining (--no-mining and
 * evm_stopMining), the `pending` tag, per-sender nonce order and gaps, replacement under rskj's
 * 40% price bump, block order by gas price, txpool_* in rskj's exact formats,
 * eth_pendingTransactions, interval mining and the switches that turn modes on and off.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestClient,
  encodeFunctionData,
  getContractAddress,
  http,
  keccak256,
  pad,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, rpc, rpcFailure, startTestNode, waitFor, type TestNode } from '../helpers/node.js';
import { devnodeChain, ETHER, MIN_GAS_PRICE, REMASC, ZERO } from '../helpers/viem-chain.js';

const ZERO_HASH = `0x${'0'.repeat(64)}`;
const storeAbi = contracts.MappingStore.abi as Abi;
const cow = privateKeyToAccount(COW.privateKey);
const cow1 = privateKeyToAccount(COW1.privateKey);

const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;
const no0x = (address: string) => address.slice(2).toLowerCase();

interface TxFields {
  nonce: number;
  gasPrice?: bigint;
  gas?: bigint;
  to?: Address;
  value?: bigint;
  data?: Hex;
}

/** A signed legacy transaction for chain 31, and its hash. */
async function sign(account: PrivateKeyAccount, fields: TxFields): Promise<{ raw: Hex; hash: Hex }> {
  const raw = await account.signTransaction({
    type: 'legacy',
    chainId: 31,
    nonce: fields.nonce,
    gasPrice: fields.gasPrice ?? MIN_GAS_PRICE,
    gas: fields.gas ?? 21_000n,
    to: fields.to,
    value: fields.value ?? 0n,
    data: fields.data,
  });
  return { raw, hash: keccak256(raw) };
}

async function send(url: string, account: PrivateKeyAccount, fields: TxFields): Promise<Hex> {
  const { raw, hash } = await sign(account, fields);
  expect(await call(url, 'eth_sendRawTransaction', [raw])).toBe(hash);
  return hash;
}

/** A fresh key funded through anvil_setBalance (works with mining stopped: it changes latest). */
async function fundedAccount(url: string, value = 10n * ETHER): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await call(url, 'anvil_setBalance', [account.address, hexOf(value)]);
  return account;
}

async function headNumber(url: string): Promise<bigint> {
  return BigInt(await call(url, 'eth_blockNumber'));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- manual mining (--no-mining) ---------------------------------------------------------------

describe('manual mining (mining: false)', () => {
  let t: TestNode;
  let url: string;

  beforeAll(async () => {
    t = await startTestNode({ mining: false });
    url = t.testnetUrl;
  });
  afterAll(() => t?.close());
  // Every test leaves the pool empty.
  beforeEach(async () => {
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
  });

  it('eth_sendRawTransaction / eth_sendTransaction return the hash at once; receipts appear after evm_mine', async () => {
    const start = await headNumber(url);
    const nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']));
    const hash = await send(url, cow, { nonce, to: COW1.address, value: 1n });
    const nodeSigned = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x2', gas: '0x5208' }]);
    expect(nodeSigned).toMatch(/^0x[0-9a-f]{64}$/);

    expect(await headNumber(url)).toBe(start);
    expect(await call(url, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await call(url, 'eth_getTransactionReceipt', [nodeSigned])).toBeNull();
    const pooled = await call(url, 'eth_getTransactionByHash', [hash]);
    expect(pooled.hash).toBe(hash);
    expect(pooled.blockNumber).toBeNull();
    expect(pooled.nonce).toBe(hexOf(nonce));
    expect((await call(url, 'eth_getTransactionByHash', [nodeSigned])).nonce).toBe(hexOf(nonce + 1));
    expect(await call(url, 'txpool_status')).toEqual({ pending: 2, queued: 0 });

    expect(await call(url, 'evm_mine')).toBeNull();

    expect(await headNumber(url)).toBe(start + 1n);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.blockNumber).toBe(hexOf(start + 1n));
    expect(receipt.transactionIndex).toBe('0x0');
    expect((await call(url, 'eth_getTransactionReceipt', [nodeSigned])).transactionIndex).toBe('0x1');
    const mined = await call(url, 'eth_getBlockByNumber', [hexOf(start + 1n), true]);
    expect(mined.transactions.map((tx: any) => tx.hash).slice(0, 2)).toEqual([hash, nodeSigned]);
    expect(mined.transactions.length).toBe(3);
    expect(mined.transactions[2].to).toBe(REMASC);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
  });

  it('the pending tag: balance, nonce, code, storage, calls and the pending block built from the pool', async () => {
    // A mined MappingStore to change through the pool.
    let nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']));
    const store = getContractAddress({ from: COW.address, nonce: BigInt(nonce) }).toLowerCase() as Address;
    await send(url, cow, { nonce: nonce++, gas: 1_000_000n, data: contracts.MappingStore.bytecode });
    await call(url, 'evm_mine');
    expect(await call(url, 'eth_getCode', [store, 'latest'])).toBe(contracts.MappingStore.deployedBytecode);
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);

    // The pool: a transfer to a fresh address, a storage write, and a second deployment.
    const recipient = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const transfer = await send(url, cow, { nonce: nonce++, to: recipient as Address, value: 12_345n });
    const write = await send(url, cow, {
      nonce: nonce++,
      gas: 100_000n,
      to: store,
      data: encodeFunctionData({ abi: storeAbi, functionName: 'setSingle', args: [42n] }),
    });
    const second = getContractAddress({ from: COW.address, nonce: BigInt(nonce) }).toLowerCase();
    const deploy = await send(url, cow, { nonce: nonce++, gas: 1_000_000n, data: contracts.MappingStore.bytecode });

    expect(BigInt(await call(url, 'eth_getBalance', [recipient, 'pending']))).toBe(12_345n);
    expect(BigInt(await call(url, 'eth_getBalance', [recipient, 'latest']))).toBe(0n);
    expect(BigInt(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']))).toBe(BigInt(nonce));
    expect(BigInt(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']))).toBe(BigInt(nonce - 3));
    expect(await call(url, 'eth_getCode', [second, 'pending'])).toBe(contracts.MappingStore.deployedBytecode);
    expect(await call(url, 'eth_getCode', [second, 'latest'])).toBe('0x');
    expect(await call(url, 'eth_getStorageAt', [store, '0x2', 'pending'])).toBe(pad('0x2a'));
    expect(await call(url, 'eth_getStorageAt', [store, '0x2', 'latest'])).toBe(pad('0x0'));
    const single = encodeFunctionData({ abi: storeAbi, functionName: 'single' });
    expect(await call(url, 'eth_call', [{ to: store, data: single }, 'pending'])).toBe(pad('0x2a'));
    expect(await call(url, 'eth_call', [{ to: store, data: single }, 'latest'])).toBe(pad('0x0'));

    const pending = await call(url, 'eth_getBlockByNumber', ['pending', false]);
    expect(pending.number).toBeNull();
    expect(pending.hash).toBeNull();
    expect(pending.parentHash).toBe(latest.hash);
    expect(pending.transactions.length).toBe(4);
    expect(pending.transactions.slice(0, 3)).toEqual([transfer, write, deploy]);
    const pendingFull = await call(url, 'eth_getBlockByNumber', ['pending', true]);
    const remasc = pendingFull.transactions[3];
    expect(remasc.from).toBe(ZERO);
    expect(remasc.to).toBe(REMASC);
    expect(remasc.nonce).toBe(latest.number); // REMASC nonce = block number - 1
    expect(pendingFull.transactions[0].hash).toBe(transfer);
    expect(pendingFull.transactions[0].blockNumber).toBeNull();
    // Nothing was mined by looking.
    expect(await call(url, 'eth_blockNumber')).toBe(latest.number);

    await call(url, 'evm_mine');
    const mined = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(mined.transactions).toEqual([transfer, write, deploy, remasc.hash]);
    expect(await call(url, 'eth_getStorageAt', [store, '0x2', 'latest'])).toBe(pad('0x2a'));
    expect(await call(url, 'eth_getCode', [second, 'latest'])).toBe(contracts.MappingStore.deployedBytecode);
    // With the pool empty, pending is latest plus REMASC only.
    const empty = await call(url, 'eth_getBlockByNumber', ['pending', false]);
    expect(empty.parentHash).toBe(mined.hash);
    expect(empty.transactions.length).toBe(1);
    expect(BigInt(await call(url, 'eth_getBalance', [recipient, 'pending']))).toBe(12_345n);
  });

  it('keeps per-sender nonce order and holds a future nonce until the gap fills (queued, then pending)', async () => {
    const sender = await fundedAccount(url);
    const h2 = await send(url, sender, { nonce: 2, to: COW1.address, value: 2n });
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 1 });
    const h1 = await send(url, sender, { nonce: 1, to: COW1.address, value: 1n });
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 2 });
    const content = await call(url, 'txpool_content');
    expect(content.pending).toEqual({});
    expect(Object.keys(content.queued[no0x(sender.address)]).sort()).toEqual(['1', '2']);
    expect(BigInt(await call(url, 'eth_getTransactionCount', [sender.address, 'pending']))).toBe(0n);

    // A block mined across the gap holds only REMASC; the queued transactions stay.
    const before = await headNumber(url);
    await call(url, 'evm_mine');
    const gapBlock = await call(url, 'eth_getBlockByNumber', [hexOf(before + 1n), false]);
    expect(gapBlock.transactions.length).toBe(1);
    expect(await call(url, 'eth_getTransactionReceipt', [h1])).toBeNull();
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 2 });

    // Filling the gap makes all three pending, in nonce order.
    const h0 = await send(url, sender, { nonce: 0, to: COW1.address, value: 0n });
    expect(await call(url, 'txpool_status')).toEqual({ pending: 3, queued: 0 });
    expect(BigInt(await call(url, 'eth_getTransactionCount', [sender.address, 'pending']))).toBe(3n);
    expect((await call(url, 'eth_getBlockByNumber', ['pending', false])).transactions.slice(0, 3)).toEqual([h0, h1, h2]);

    await call(url, 'evm_mine');
    const block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions.slice(0, 3)).toEqual([h0, h1, h2]);
    expect(block.transactions.length).toBe(4);
    for (const hash of [h0, h1, h2]) expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(BigInt(await call(url, 'eth_getTransactionCount', [sender.address, 'latest']))).toBe(3n);
  });

  it('replaces a pooled transaction with the same nonce only for a 40% higher gas price', async () => {
    const sender = await fundedAccount(url);
    const base = 100_000_000n;
    const original = await sign(sender, { nonce: 0, gasPrice: base, to: COW1.address, value: 1n });
    expect(await call(url, 'eth_sendRawTransaction', [original.raw])).toBe(original.hash);

    // Same hash again.
    const duplicate = await rpcFailure(url, 'eth_sendRawTransaction', [original.raw]);
    expect(duplicate.error.code).toBe(-32010);
    expect(duplicate.error.message).toBe('pending transaction with same hash already exists');

    // 39% more: refused.
    const low = await sign(sender, { nonce: 0, gasPrice: (base * 139n) / 100n, to: COW1.address, value: 1n });
    const refused = await rpcFailure(url, 'eth_sendRawTransaction', [low.raw]);
    expect(refused.error.code).toBe(-32010);
    expect(refused.error.message).toBe('gas price not enough to bump transaction');
    expect(refused.status).toBe(200);
    let content = await call(url, 'txpool_content');
    expect(content.pending[no0x(sender.address)]['0'].map((tx: any) => tx.hash)).toEqual([original.hash]);

    // 40% more: replaces it.
    const bumped = await sign(sender, { nonce: 0, gasPrice: (base * 140n) / 100n, to: COW1.address, value: 1n });
    expect(await call(url, 'eth_sendRawTransaction', [bumped.raw])).toBe(bumped.hash);
    content = await call(url, 'txpool_content');
    expect(content.pending[no0x(sender.address)]['0'].map((tx: any) => tx.hash)).toEqual([bumped.hash]);
    expect(content.pending[no0x(sender.address)]['0'][0].gasPrice).toBe('0x08583b00');
    expect(await call(url, 'txpool_status')).toEqual({ pending: 1, queued: 0 });
    expect(await call(url, 'eth_getTransactionByHash', [original.hash])).toBeNull();
    expect((await call(url, 'eth_pendingTransactions')).map((tx: any) => tx.hash)).not.toContain(original.hash);

    // The replaced one cannot come back: it is now the cheaper one.
    const back = await rpcFailure(url, 'eth_sendRawTransaction', [original.raw]);
    expect(back.error.code).toBe(-32010);
    expect(back.error.message).toBe('gas price not enough to bump transaction');

    await call(url, 'evm_mine');
    const receipt = await call(url, 'eth_getTransactionReceipt', [bumped.hash]);
    expect(receipt.status).toBe('0x1');
    expect(await call(url, 'eth_getTransactionReceipt', [original.hash])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [original.hash])).toBeNull();
  });

  it('orders a block by gas price across senders, keeping each sender\'s nonce order', async () => {
    const a = await fundedAccount(url);
    const b = await fundedAccount(url);
    const a0 = await send(url, a, { nonce: 0, gasPrice: 70_000_000n, to: COW1.address });
    const a1 = await send(url, a, { nonce: 1, gasPrice: 200_000_000n, to: COW1.address });
    const b0 = await send(url, b, { nonce: 0, gasPrice: 90_000_000n, to: COW1.address });
    const expected = [b0, a0, a1];
    expect((await call(url, 'eth_getBlockByNumber', ['pending', false])).transactions.slice(0, 3)).toEqual(expected);

    await call(url, 'evm_mine');
    const block = await call(url, 'eth_getBlockByNumber', ['latest', true]);
    expect(block.transactions.map((tx: any) => tx.hash).slice(0, 3)).toEqual(expected);
    expect(block.transactions.map((tx: any) => BigInt(tx.gasPrice))).toEqual([90_000_000n, 70_000_000n, 200_000_000n, 0n]);

    // Two senders, one transaction each: the higher price first, whatever the arrival order.
    const c = await fundedAccount(url);
    const d = await fundedAccount(url);
    const cheap = await send(url, c, { nonce: 0, gasPrice: 61_000_000n, to: COW1.address });
    const dear = await send(url, d, { nonce: 0, gasPrice: 65_000_000n, to: COW1.address });
    await call(url, 'evm_mine');
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).transactions.slice(0, 2)).toEqual([dear, cheap]);
  });

  it('txpool_content / txpool_inspect / txpool_status in rskj\'s exact formats', async () => {
    const sender = await fundedAccount(url);
    await call(url, 'anvil_setNonce', [sender.address, '0xa']);
    const from = sender.address.toLowerCase();
    const key = no0x(from);

    const p10 = await send(url, sender, { nonce: 10, gasPrice: 0x80000000n, to: COW1.address, value: 0x80n });
    const p11 = await send(url, sender, { nonce: 11, gas: 100_000n, data: '0x6080' });
    const q13 = await send(url, sender, { nonce: 13, to: COW1.address, value: ETHER });

    const status = await rpc(url, 'txpool_status');
    expect(status.body.result).toEqual({ pending: 2, queued: 1 });
    expect(typeof status.body.result.pending).toBe('number');

    const content = await call(url, 'txpool_content');
    expect(content).toEqual({
      pending: {
        [key]: {
          '10': [
            {
              blockHash: ZERO_HASH,
              blockNumber: null,
              transactionIndex: null,
              from,
              gas: '0x5208',
              gasPrice: '0x0080000000',
              hash: p10,
              input: '0x',
              nonce: '0xa',
              to: COW1.address,
              value: '0x0080',
            },
          ],
          '11': [
            {
              blockHash: ZERO_HASH,
              blockNumber: null,
              transactionIndex: null,
              from,
              gas: '0x186a0',
              gasPrice: '0x03938700',
              hash: p11,
              input: '0x6080',
              nonce: '0xb',
              to: '0x00',
              value: '0x00',
            },
          ],
        },
      },
      queued: {
        [key]: {
          '13': [
            {
              blockHash: ZERO_HASH,
              blockNumber: null,
              transactionIndex: null,
              from,
              gas: '0x5208',
              gasPrice: '0x03938700',
              hash: q13,
              input: '0x',
              nonce: '0xd',
              to: COW1.address,
              value: '0x0de0b6b3a7640000',
            },
          ],
        },
      },
    });

    const inspect = await call(url, 'txpool_inspect');
    expect(inspect).toEqual({
      pending: {
        [key]: {
          '10': [`${no0x(COW1.address)}: 128 wei + 21000 x 2147483648 gas`],
          '11': [': 0 wei + 100000 x 60000000 gas'],
        },
      },
      queued: { [key]: { '13': [`${no0x(COW1.address)}: 1000000000000000000 wei + 21000 x 60000000 gas`] } },
    });

    // viem's test client reads the same objects.
    const testClient = createTestClient({ mode: 'anvil', transport: http(url), chain: devnodeChain(url) });
    expect(await testClient.getTxpoolContent()).toEqual(content);
    expect(await testClient.inspectTxpool()).toEqual(inspect);

    // Filling nonce 12 moves 13 to pending; mining empties the pool.
    const p12 = await send(url, sender, { nonce: 12, to: COW1.address });
    expect(await call(url, 'txpool_status')).toEqual({ pending: 4, queued: 0 });
    expect(Object.keys((await call(url, 'txpool_content')).pending[key]).sort()).toEqual(['10', '11', '12', '13']);
    await call(url, 'evm_mine');
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).transactions.slice(0, 4)).toEqual([p10, p11, p12, q13]);
    expect(await call(url, 'txpool_content')).toEqual({ pending: {}, queued: {} });
    expect(await call(url, 'txpool_inspect')).toEqual({ pending: {}, queued: {} });
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
  });

  it('eth_pendingTransactions lists the pooled transactions of the node\'s accounts', async () => {
    expect(await call(url, 'eth_pendingTransactions')).toEqual([]);
    const first = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x5', gas: '0x5208' }]);
    const second = await call(url, 'eth_sendTransaction', [{ from: COW1.address, to: COW.address, value: '0x6', gas: '0x5208' }]);
    const listed = await call(url, 'eth_pendingTransactions');
    expect(listed.map((tx: any) => tx.hash).sort()).toEqual([first, second].sort());
    const byHash = new Map(listed.map((tx: any) => [tx.hash, tx]));
    const one = byHash.get(first) as any;
    expect(one.from).toBe(COW.address);
    expect(one.to).toBe(COW1.address);
    expect(one.value).toBe('0x5');
    expect(one.blockNumber).toBeNull();
    expect((byHash.get(second) as any).from).toBe(COW1.address);

    await call(url, 'evm_mine');
    expect(await call(url, 'eth_pendingTransactions')).toEqual([]);
    expect((await call(url, 'eth_getTransactionReceipt', [first])).status).toBe('0x1');
  });
});

// ---- switching modes on an automine node --------------------------------------------------------

describe('evm_stopMining / evm_startMining / evm_setAutomine', () => {
  let t: TestNode;
  let url: string;

  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
  });
  afterAll(() => t?.close());

  it('evm_stopMining holds transactions in the pool until evm_mine; evm_startMining automines again', async () => {
    const automined = await send(url, cow, { nonce: 0, to: COW1.address, value: 1n });
    expect((await call(url, 'eth_getTransactionReceipt', [automined])).blockNumber).toBe('0x1');

    expect(await call(url, 'evm_stopMining')).toBeNull();
    const held = await send(url, cow, { nonce: 1, to: COW1.address, value: 1n });
    expect(await call(url, 'eth_getTransactionReceipt', [held])).toBeNull();
    expect(await headNumber(url)).toBe(1n);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 1, queued: 0 });
    await call(url, 'evm_mine');
    expect((await call(url, 'eth_getTransactionReceipt', [held])).blockNumber).toBe('0x2');

    expect(await call(url, 'evm_startMining')).toBeNull();
    const again = await send(url, cow, { nonce: 2, to: COW1.address, value: 1n });
    expect((await call(url, 'eth_getTransactionReceipt', [again])).blockNumber).toBe('0x3');
  });

  it('evm_setAutomine(false / true), through viem\'s test client too', async () => {
    const testClient = createTestClient({ mode: 'hardhat', transport: http(url), chain: devnodeChain(url) });
    const start = await headNumber(url);
    const nonce = Number(await call(url, 'eth_getTransactionCount', [COW1.address, 'latest']));

    await testClient.setAutomine(false);
    const held = await send(url, cow1, { nonce, to: COW.address, value: 1n });
    expect(await call(url, 'eth_getTransactionReceipt', [held])).toBeNull();
    expect(await headNumber(url)).toBe(start);

    expect(await call(url, 'evm_setAutomine', [true])).toBe(true);
    const next = await send(url, cow1, { nonce: nonce + 1, to: COW.address, value: 1n });
    const heldReceipt = await call(url, 'eth_getTransactionReceipt', [held]);
    const nextReceipt = await call(url, 'eth_getTransactionReceipt', [next]);
    expect(heldReceipt.status).toBe('0x1');
    expect(nextReceipt.status).toBe('0x1');
    expect(BigInt(nextReceipt.blockNumber)).toBeGreaterThan(start);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });

    expect(await call(url, 'evm_setAutomine', [false])).toBe(true);
    const held2 = await send(url, cow1, { nonce: nonce + 2, to: COW.address, value: 1n });
    expect(await call(url, 'eth_getTransactionReceipt', [held2])).toBeNull();
    await testClient.setAutomine(true);
    await testClient.mine({ blocks: 1 });
    expect((await call(url, 'eth_getTransactionReceipt', [held2])).status).toBe('0x1');
  });
});

// ---- interval mining ------------------------------------------------------------------------------

describe('interval mining', () => {
  let t: TestNode;
  let url: string;

  beforeAll(async () => {
    t = await startTestNode({ blockTime: 1 });
    url = t.testnetUrl;
  });
  afterAll(() => t?.close());

  it('blockTime: 1 mines blocks on its own and includes pooled transactions', async () => {
    await waitFor('two interval blocks', async () => ((await headNumber(url)) >= 2n ? true : undefined));
    const nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']));
    const hash = await send(url, cow, { nonce, to: COW1.address, value: 7n });
    const receipt = await waitFor('the receipt', async () => (await call(url, 'eth_getTransactionReceipt', [hash])) ?? undefined);
    expect(receipt.status).toBe('0x1');
    const block = await call(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.transactions[0]).toBe(hash);
    expect(block.transactions.length).toBe(2);
  });

  it('evm_setIntervalMining(ms) and anvil_setIntervalMining(s) start and stop interval mining; 0 turns it off', async () => {
    // Off: after the in-flight block (evm_mine waits behind it), nothing more is mined.
    expect(await call(url, 'evm_setIntervalMining', [0])).toBe(true);
    await call(url, 'evm_mine');
    const stopped = await headNumber(url);
    await sleep(2_500);
    expect(await headNumber(url)).toBe(stopped);
    // A transaction now waits in the pool.
    const nonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']));
    const held = await send(url, cow, { nonce, to: COW1.address, value: 1n });
    expect(await call(url, 'eth_getTransactionReceipt', [held])).toBeNull();

    // Milliseconds (Hardhat): 200 ms gives several blocks well within the deadline.
    expect(await call(url, 'evm_setIntervalMining', [200])).toBe(true);
    await waitFor('three blocks at 200 ms', async () => ((await headNumber(url)) >= stopped + 3n ? true : undefined), 10_000);
    expect((await call(url, 'eth_getTransactionReceipt', [held])).status).toBe('0x1');
    const testClient = createTestClient({ mode: 'hardhat', transport: http(url), chain: devnodeChain(url) });
    await testClient.setIntervalMining({ interval: 0 });
    await call(url, 'evm_mine');
    const stoppedAgain = await headNumber(url);
    await sleep(1_500);
    expect(await headNumber(url)).toBe(stoppedAgain);

    // Seconds (anvil).
    expect(await call(url, 'anvil_setIntervalMining', [1])).toBeNull();
    await waitFor('two blocks at 1 s', async () => ((await headNumber(url)) >= stoppedAgain + 2n ? true : undefined));
    await call(url, 'anvil_setIntervalMining', [0]);
    await call(url, 'evm_mine');
    const last = await headNumber(url);
    await sleep(2_500);
    expect(await headNumber(url)).toBe(last);
  });
});
