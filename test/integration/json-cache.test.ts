/**
 * Mined blocks, transactions, receipts and logs are served from JSON encoded once (rpc/json-cache.ts,
 * the store's recent logs): these tests read everything first so it is cached, then drop blocks
 * (evm_revert, evm_reset) and mine others at the same heights, and check that every answer is the
 * new chain's and that a dropped block's transaction is gone.
 */
import { describe, expect, it } from 'vitest';
import { BrowserProvider, Interface, id as eventId } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, nodesClosedAfterEach, rpcRaw } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const TRANSFER = eventId('Transfer(address,address,uint256)');
const OTHER = '0x00000000000000000000000000000000000000b2';

const hexNum = (n: bigint | number) => `0x${n.toString(16)}`;

async function send(url: string, tx: Record<string, string>): Promise<string> {
  return call(url, 'eth_sendTransaction', [{ from: COW.address, gas: '0x400000', ...tx }]);
}

async function deployToken(url: string): Promise<string> {
  const hash = await send(url, { data: contracts.Token.bytecode + token.encodeDeploy([10n ** 24n]).slice(2) });
  return (await call(url, 'eth_getTransactionReceipt', [hash])).contractAddress;
}

const transfer = (url: string, tokenAddress: string, to: string, amount: bigint) =>
  send(url, { to: tokenAddress, data: token.encodeFunctionData('transfer', [to, amount]) });

/** Every cached read of block `number` and transaction `hash`, so that all of it is in the caches. */
async function readAll(url: string, number: bigint, hash: string, tokenAddress: string) {
  return {
    full: await call(url, 'eth_getBlockByNumber', [hexNum(number), true]),
    hashes: await call(url, 'eth_getBlockByNumber', [hexNum(number), false]),
    tx: await call(url, 'eth_getTransactionByHash', [hash]),
    txByIndex: await call(url, 'eth_getTransactionByBlockNumberAndIndex', [hexNum(number), '0x0']),
    receipt: await call(url, 'eth_getTransactionReceipt', [hash]),
    logs: await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: tokenAddress }]),
  };
}

describe('cached JSON of mined data', () => {
  it('after evm_revert and new blocks at the same heights, every read answers the new chain', async () => {
    const { testnetUrl: url } = await start();
    const tokenAddress = await deployToken(url);
    const snapshot = await call(url, 'evm_snapshot');
    const dropped = await transfer(url, tokenAddress, COW1.address, 5n);
    const before = await readAll(url, 2n, dropped, tokenAddress);
    expect(before.full.transactions[0].hash).toBe(dropped);
    expect(before.logs.filter((l: any) => l.topics[0] === TRANSFER && l.blockNumber === '0x2')).toHaveLength(1);

    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    const mined = await transfer(url, tokenAddress, OTHER, 7n);
    const after = await readAll(url, 2n, mined, tokenAddress);

    expect(after.full.hash).not.toBe(before.full.hash);
    expect(after.full.transactions.map((t: any) => t.hash)).toEqual([mined, after.full.transactions[1].hash]);
    expect(after.full.transactions[0]).toMatchObject({ blockHash: after.full.hash, blockNumber: '0x2', transactionIndex: '0x0' });
    expect(after.hashes.hash).toBe(after.full.hash);
    expect(after.hashes.transactions[0]).toBe(mined);
    expect(after.txByIndex.hash).toBe(mined);
    expect(after.tx).toMatchObject({ hash: mined, blockHash: after.full.hash, blockNumber: '0x2' });
    expect(after.receipt).toMatchObject({ transactionHash: mined, blockHash: after.full.hash, blockNumber: '0x2', status: '0x1' });
    expect(after.receipt.logs[0]).toMatchObject({ blockHash: after.full.hash, topics: [TRANSFER, expect.any(String), `0x${OTHER.slice(2).padStart(64, '0')}`] });
    const transfers = after.logs.filter((l: any) => l.topics[0] === TRANSFER && l.blockNumber === '0x2');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ transactionHash: mined, blockHash: after.full.hash, data: `0x${'7'.padStart(64, '0')}` });

    // The dropped block and its transaction are gone.
    expect(await call(url, 'eth_getTransactionByHash', [dropped])).toBeNull();
    expect(await call(url, 'eth_getTransactionReceipt', [dropped])).toBeNull();
    expect(await call(url, 'eth_getBlockByHash', [before.full.hash, false])).toBeNull();
    expect(await call(url, 'eth_getLogs', [{ blockHash: before.full.hash }])).toEqual([]);
  });

  it('after evm_reset a mined height answers its new block, and the old one is gone', async () => {
    const { testnetUrl: url } = await start();
    const first = await send(url, { to: COW1.address, value: '0x1' });
    const old = await call(url, 'eth_getBlockByNumber', ['0x1', true]);
    expect(old.transactions[0].hash).toBe(first);
    await call(url, 'evm_reset');
    expect(await call(url, 'eth_getBlockByNumber', ['0x1', true])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [first])).toBeNull();
    const second = await send(url, { to: COW1.address, value: '0x2' });
    const block = await call(url, 'eth_getBlockByNumber', ['0x1', true]);
    expect(block.hash).not.toBe(old.hash);
    expect(block.transactions[0]).toMatchObject({ hash: second, value: '0x2', blockHash: block.hash });
    expect(await call(url, 'eth_getBlockByHash', [old.hash, true])).toBeNull();
  });

  it('keeps the fullTransactions and skipRemasc variants apart', async () => {
    const plain = await start();
    const skipping = await start({ skipRemasc: true });
    for (const { testnetUrl: url } of [plain, skipping]) await send(url, { to: COW1.address, value: '0x1' });
    const full = await call(plain.testnetUrl, 'eth_getBlockByNumber', ['0x1', true]);
    const hashes = await call(plain.testnetUrl, 'eth_getBlockByNumber', ['0x1', false]);
    expect(full.transactions).toHaveLength(2);
    expect(typeof full.transactions[0]).toBe('object');
    expect(hashes.transactions).toEqual(full.transactions.map((t: any) => t.hash));
    const skipped = await call(skipping.testnetUrl, 'eth_getBlockByNumber', ['0x1', true]);
    expect(skipped.transactions).toHaveLength(1);
    expect(await call(skipping.testnetUrl, 'eth_getBlockByNumber', ['0x1', false])).toMatchObject({ transactions: [skipped.transactions[0].hash] });
    // The pending block is never cached: it follows the pool.
    expect((await call(plain.testnetUrl, 'eth_getBlockByNumber', ['pending', false])).number).toBeNull();
  });

  it('serves cached JSON through a batch and through the in-process provider as values', async () => {
    const t = await start();
    const hash = await send(t.testnetUrl, { to: COW1.address, value: '0x3' });
    const direct = await call(t.testnetUrl, 'eth_getTransactionReceipt', [hash]);
    const batch = await rpcRaw(
      t.testnetUrl,
      JSON.stringify([
        { jsonrpc: '2.0', id: 7, method: 'eth_getTransactionReceipt', params: [hash] },
        { jsonrpc: '2.0', id: 'b', method: 'eth_getBlockByNumber', params: ['0x1', false] },
      ]),
    );
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 7, result: direct },
      { jsonrpc: '2.0', id: 'b', result: expect.objectContaining({ number: '0x1', transactions: [hash, expect.any(String)] }) },
    ]);
    const fromProvider = await t.node.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] });
    expect(fromProvider).toEqual(direct);
    const block = await new BrowserProvider(t.node.provider).getBlock(1);
    expect(block?.hash).toBe(direct.blockHash);
  });

  // eth_getLogs answers over HTTP as bytes assembled from each log's cached JSON (raw-json.ts):
  // the same text everywhere else, its length header exact, an id beyond 2^53 echoed as sent.
  it('answers eth_getLogs as bytes over HTTP, the same JSON as the in-process handle, a batch and the provider give', async () => {
    const t = await start();
    const tokenAddress = await deployToken(t.testnetUrl);
    for (let i = 0; i < 3; i++) await transfer(t.testnetUrl, tokenAddress, OTHER, BigInt(i + 1));
    const filter = { fromBlock: '0x0', toBlock: 'latest', address: tokenAddress };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_getLogs', params: [filter] });
    const response = await fetch(t.testnetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(text).toBe((await t.node.handle('testnet', body)).body);
    const logs = JSON.parse(text).result;
    expect(logs.map((l: any) => BigInt(l.data))).toEqual([10n ** 24n, 1n, 2n, 3n]);
    expect(logs.map((l: any) => l.topics[0])).toEqual([TRANSFER, TRANSFER, TRANSFER, TRANSFER]);
    expect(await t.node.provider.request({ method: 'eth_getLogs', params: [filter] })).toEqual(logs);
    const batch = await rpcRaw(t.testnetUrl, `[${body}]`);
    expect(batch.body).toEqual([{ jsonrpc: '2.0', id: 3, result: logs }]);
    // An id JSON.parse would round (2^64 + 1) comes back as written.
    const bigId = await fetch(t.testnetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.replace('"id":3', '"id":18446744073709551617') });
    expect(await bigId.text()).toBe(text.replace('"id":3', '"id":18446744073709551617'));
    // No match: an empty array, as bytes too.
    const none = await rpcRaw(t.testnetUrl, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'eth_getLogs', params: [{ ...filter, address: OTHER }] }));
    expect(none.body).toEqual({ jsonrpc: '2.0', id: 4, result: [] });
  });
});
