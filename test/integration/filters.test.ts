/**
 * Polled filters (issue 5; spec: Filter, lifecycles, Events): eth_newFilter,
 * eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges, eth_getFilterLogs,
 * eth_uninstallFilter; the idle timeout through the injectable clock; removed logs after
 * evm_revert / evm_reset; filters belong to one network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AbiCoder, Interface, id as eventId } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, startTestNode, type TestNode, rpcError } from '../helpers/node.js';
import { type RpcLog, sendFromCow, successfulReceipt, topicOf, word } from '../helpers/logs.js';

const coder = AbiCoder.defaultAbiCoder();
const tokenIface = new Interface(contracts.Token.abi);
const reverterIface = new Interface(contracts.Reverter.abi);
const TRANSFER = eventId('Transfer(address,address,uint256)');
const FIVE_MINUTES = 5 * 60_000;
const FILTER_ID = /^0x(0|[1-9a-f][0-9a-f]*)$/;



async function expectFilterNotFound(url: string, method: string, id: string): Promise<void> {
  const err = await rpcError(url, method, [id]);
  expect(err.code).toBe(-32000);
  expect(err.message).toBe('filter not found');
}

async function deployToken(url: string, supply = 1_000_000n): Promise<string> {
  const hash = await sendFromCow(url, { data: contracts.Token.bytecode + coder.encode(['uint256'], [supply]).slice(2) });
  return (await successfulReceipt(url, hash)).contractAddress;
}

async function transfer(url: string, token: string, to: string, amount: bigint): Promise<any> {
  return successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [to, amount]) }));
}

const changes = (url: string, id: string): Promise<any[]> => call(url, 'eth_getFilterChanges', [id]);
const blockHashAt = async (url: string, n: number | string): Promise<string> =>
  (await call(url, 'eth_getBlockByNumber', [typeof n === 'number' ? `0x${n.toString(16)}` : n, false])).hash;

describe('log, block and pending-transaction filters', () => {
  let t: TestNode;
  let url: string;
  let token: string;
  let reverter: string;

  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
    token = await deployToken(url);
    reverter = (await successfulReceipt(url, await sendFromCow(url, { data: contracts.Reverter.bytecode }))).contractAddress;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('eth_getFilterChanges returns only the logs since the last poll, [] when none', async () => {
    const id = await call(url, 'eth_newFilter', [{ address: token }]);
    expect(id).toMatch(FILTER_ID);
    expect(await changes(url, id)).toEqual([]);

    const r1 = await transfer(url, token, COW1.address, 1n);
    // another contract's event is not the filter's
    await successfulReceipt(url, await sendFromCow(url, { to: reverter, data: reverterIface.encodeFunctionData('increment', []) }));
    const r2 = await transfer(url, token, COW1.address, 2n);

    const first: RpcLog[] = await changes(url, id);
    expect(first).toEqual([...r1.logs, ...r2.logs]);
    expect(first.every((l) => l.removed === false)).toBe(true);
    expect(first.map((l) => l.data)).toEqual([word(1), word(2)]);
    expect(await changes(url, id)).toEqual([]);

    const r3 = await transfer(url, token, COW1.address, 3n);
    expect(await changes(url, id)).toEqual(r3.logs);
    expect(await changes(url, id)).toEqual([]);
  });

  it('topics in a log filter follow the positional rules', async () => {
    const id = await call(url, 'eth_newFilter', [{ address: [token, reverter], topics: [TRANSFER, null, topicOf(COW1.address)] }]);
    await transfer(url, token, COW.address, 1n); // to COW: no
    const toCow1 = await transfer(url, token, COW1.address, 4n);
    await successfulReceipt(url, await sendFromCow(url, { to: reverter, data: reverterIface.encodeFunctionData('increment', []) }));
    expect(await changes(url, id)).toEqual(toCow1.logs);
  });

  it('eth_getFilterLogs returns every matching log and leaves the poll position alone', async () => {
    const id = await call(url, 'eth_newFilter', [{ fromBlock: '0x0', address: token }]);
    const expected = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }]);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(await call(url, 'eth_getFilterLogs', [id])).toEqual(expected);
    expect(await changes(url, id)).toEqual([]);
    const r = await transfer(url, token, COW1.address, 9n);
    expect(await call(url, 'eth_getFilterLogs', [id])).toEqual([...expected, ...r.logs]);
    expect(await changes(url, id)).toEqual(r.logs);

    // a bounded range
    const bounded = await call(url, 'eth_newFilter', [{ fromBlock: '0x1', toBlock: '0x1' }]);
    const block1Logs = await call(url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1' }]);
    expect(block1Logs).toHaveLength(1);
    expect(await call(url, 'eth_getFilterLogs', [bounded])).toEqual(block1Logs);
    // a filter bounded in the past gets no new changes
    await transfer(url, token, COW1.address, 1n);
    expect(await changes(url, bounded)).toEqual([]);
  });

  it('eth_newBlockFilter returns the hashes of new blocks', async () => {
    const id = await call(url, 'eth_newBlockFilter');
    expect(id).toMatch(FILTER_ID);
    expect(await changes(url, id)).toEqual([]);
    const before = Number(await call(url, 'eth_blockNumber'));
    await call(url, 'hardhat_mine', ['0x3']);
    const expected = [await blockHashAt(url, before + 1), await blockHashAt(url, before + 2), await blockHashAt(url, before + 3)];
    expect(await changes(url, id)).toEqual(expected);
    expect(await changes(url, id)).toEqual([]);
    const r = await transfer(url, token, COW1.address, 1n);
    expect(await changes(url, id)).toEqual([r.blockHash]);
  });

  it('eth_getFilterLogs on a block or pending-transaction filter is a clear error', async () => {
    const blockFilter = await call(url, 'eth_newBlockFilter');
    const err = await rpcError(url, 'eth_getFilterLogs', [blockFilter]);
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/block filter/);
    expect(err.message).toMatch(/log filters/);
    const pendingFilter = await call(url, 'eth_newPendingTransactionFilter');
    const err2 = await rpcError(url, 'eth_getFilterLogs', [pendingFilter]);
    expect(err2.code).toBe(-32602);
    expect(err2.message).toMatch(/log filters/);
    // the filters are still usable
    expect(await changes(url, blockFilter)).toEqual([]);
  });

  it('eth_uninstallFilter: true, then false; the id is then unknown', async () => {
    for (const create of ['eth_newFilter', 'eth_newBlockFilter', 'eth_newPendingTransactionFilter']) {
      const id = await call(url, create, create === 'eth_newFilter' ? [{}] : []);
      expect(await call(url, 'eth_uninstallFilter', [id])).toBe(true);
      expect(await call(url, 'eth_uninstallFilter', [id])).toBe(false);
      await expectFilterNotFound(url, 'eth_getFilterChanges', id);
    }
    await expectFilterNotFound(url, 'eth_getFilterLogs', '0x123456789');
    await expectFilterNotFound(url, 'eth_getFilterChanges', '0x123456789');
    expect(await call(url, 'eth_uninstallFilter', ['0x123456789'])).toBe(false);
  });

  it('follows a log filter and a block filter across 50 blocks', async () => {
    const logFilter = await call(url, 'eth_newFilter', [{ address: token, topics: [TRANSFER] }]);
    const blockFilter = await call(url, 'eth_newBlockFilter');
    const start = Number(await call(url, 'eth_blockNumber'));
    const receipts: any[] = [];
    for (let i = 1; i <= 50; i++) {
      receipts.push(await transfer(url, token, COW1.address, BigInt(i)));
      if (i === 20) {
        const polled: RpcLog[] = await changes(url, logFilter);
        expect(polled).toEqual(receipts.flatMap((r) => r.logs));
      }
    }
    const rest: RpcLog[] = await changes(url, logFilter);
    expect(rest).toHaveLength(30);
    expect(rest).toEqual(receipts.slice(20).flatMap((r) => r.logs));
    expect(rest.map((l) => Number(l.blockNumber))).toEqual(Array.from({ length: 30 }, (_, i) => start + 21 + i));
    expect(rest.map((l) => l.data)).toEqual(Array.from({ length: 30 }, (_, i) => word(21 + i)));
    expect(rest.every((l) => l.logIndex === '0x0' && l.removed === false)).toBe(true);

    const hashes: string[] = await changes(url, blockFilter);
    expect(hashes).toEqual(receipts.map((r) => r.blockHash));
    expect(await changes(url, logFilter)).toEqual([]);
    expect(await changes(url, blockFilter)).toEqual([]);
  });
});

describe('pending-transaction filter (mining: false)', () => {
  let t: TestNode;
  let url: string;
  beforeAll(async () => {
    t = await startTestNode({ mining: false });
    url = t.testnetUrl;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('returns the hashes of transactions entering the pool; the block filter sees the mined block', async () => {
    const pending = await call(url, 'eth_newPendingTransactionFilter');
    expect(pending).toMatch(FILTER_ID);
    const blocks = await call(url, 'eth_newBlockFilter');
    expect(await changes(url, pending)).toEqual([]);

    const h1 = await sendFromCow(url, { data: contracts.Token.bytecode + coder.encode(['uint256'], [5n]).slice(2) });
    const h2 = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    expect(await call(url, 'eth_getTransactionReceipt', [h1])).toBeNull();
    expect(await changes(url, pending)).toEqual([h1, h2]);
    expect(await changes(url, pending)).toEqual([]);
    expect(await changes(url, blocks)).toEqual([]);

    await call(url, 'evm_mine');
    const mined = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(mined.transactions.slice(0, 2)).toEqual([h1, h2]);
    expect(await changes(url, blocks)).toEqual([mined.hash]);
    expect(await changes(url, pending)).toEqual([]);

    const h3 = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x2' }]);
    expect(await changes(url, pending)).toEqual([h3]);
  });
});

describe('idle expiry (injectable clock)', () => {
  let fakeNow = 1_700_000_000_000;
  let t: TestNode;
  let custom: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ now: () => fakeNow });
    custom = await startTestNode({ now: () => fakeNow, filterTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await t?.close();
    await custom?.close();
  });
  beforeEach(() => {
    fakeNow += 24 * 3600_000;
  });

  it('a filter idle for 5 minutes is removed: "filter not found" (-32000)', async () => {
    const url = t.testnetUrl;
    const ids = [await call(url, 'eth_newFilter', [{}]), await call(url, 'eth_newBlockFilter'), await call(url, 'eth_newPendingTransactionFilter')];
    fakeNow += FIVE_MINUTES - 1;
    for (const id of ids) expect(await changes(url, id)).toEqual([]);
    fakeNow += FIVE_MINUTES + 1;
    for (const id of ids) {
      await expectFilterNotFound(url, 'eth_getFilterChanges', id);
      expect(await call(url, 'eth_uninstallFilter', [id])).toBe(false);
    }
  });

  it('an expired log filter is gone for eth_getFilterLogs too', async () => {
    const url = t.testnetUrl;
    const id = await call(url, 'eth_newFilter', [{ fromBlock: '0x0' }]);
    expect(await call(url, 'eth_getFilterLogs', [id])).toEqual([]);
    fakeNow += FIVE_MINUTES + 1;
    await expectFilterNotFound(url, 'eth_getFilterLogs', id);
  });

  it('polling keeps a filter alive', async () => {
    const url = t.testnetUrl;
    const id = await call(url, 'eth_newBlockFilter');
    for (let i = 0; i < 5; i++) {
      fakeNow += 4 * 60_000;
      expect(await changes(url, id)).toEqual([]);
    }
    // 20 minutes after creation, still installed; it still collects blocks
    await call(url, 'evm_mine');
    fakeNow += 4 * 60_000;
    expect(await changes(url, id)).toEqual([await blockHashAt(url, 'latest')]);
    // idle again past the timeout: gone
    fakeNow += FIVE_MINUTES + 1;
    await expectFilterNotFound(url, 'eth_getFilterChanges', id);
  });

  it('a polled filter outlives an unpolled one created at the same time', async () => {
    const url = t.testnetUrl;
    const polled = await call(url, 'eth_newBlockFilter');
    const idle = await call(url, 'eth_newBlockFilter');
    fakeNow += 3 * 60_000;
    expect(await changes(url, polled)).toEqual([]);
    fakeNow += 3 * 60_000;
    expect(await changes(url, polled)).toEqual([]);
    await expectFilterNotFound(url, 'eth_getFilterChanges', idle);
  });

  it('filterTimeoutMs sets a custom idle timeout', async () => {
    const url = custom.testnetUrl;
    const id = await call(url, 'eth_newFilter', [{}]);
    fakeNow += 9_999;
    expect(await changes(url, id)).toEqual([]);
    fakeNow += 9_999;
    expect(await changes(url, id)).toEqual([]);
    fakeNow += 10_001;
    await expectFilterNotFound(url, 'eth_getFilterChanges', id);

    // the default node keeps a filter idle for the same time
    const kept = await call(t.testnetUrl, 'eth_newFilter', [{}]);
    fakeNow += 10_001;
    expect(await changes(t.testnetUrl, kept)).toEqual([]);
  });
});

describe('reorganisations: evm_revert and evm_reset', () => {
  let t: TestNode;
  let url: string;
  let token: string;
  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
    token = await deployToken(url);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs a filter already returned come back with removed: true; new logs arrive with removed: false', async () => {
    const base = Number(await call(url, 'eth_blockNumber'));
    const baseHash = await blockHashAt(url, base);
    const snapshot = await call(url, 'evm_snapshot');
    const logFilter = await call(url, 'eth_newFilter', [{ address: token }]);
    const blockFilter = await call(url, 'eth_newBlockFilter');
    const unpolled = await call(url, 'eth_newFilter', [{ address: token }]);

    const old = [await transfer(url, token, COW1.address, 11n), await transfer(url, token, COW1.address, 12n), await transfer(url, token, COW1.address, 13n)];
    const delivered: RpcLog[] = await changes(url, logFilter);
    expect(delivered).toEqual(old.flatMap((r) => r.logs));
    expect(await changes(url, blockFilter)).toEqual(old.map((r) => r.blockHash));
    // one more block whose log the filter has not returned yet
    const undelivered = await transfer(url, token, COW1.address, 14n);
    expect(Number(undelivered.blockNumber)).toBe(base + 4);

    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    expect(Number(await call(url, 'eth_blockNumber'))).toBe(base);

    const afterRevert: RpcLog[] = await changes(url, logFilter);
    // the delivered logs, again, with removed: true
    const removed = afterRevert.filter((l) => l.removed);
    expect(sortLogs(removed)).toEqual(sortLogs(delivered.map((l) => ({ ...l, removed: true }))));
    // nothing of the dropped blocks comes as a valid log
    expect(afterRevert.filter((l) => !l.removed)).toEqual([]);
    expect(afterRevert.filter((l) => l.transactionHash === undelivered.transactionHash && !l.removed)).toEqual([]);
    expect(await changes(url, logFilter)).toEqual([]);

    // the block filter: the new head's hash
    expect(await changes(url, blockFilter)).toEqual([baseHash]);
    expect(await changes(url, blockFilter)).toEqual([]);

    // a filter that never returned the dropped logs gets no valid log of them
    expect((await changes(url, unpolled)).filter((l: RpcLog) => !l.removed)).toEqual([]);

    // new logs on the new branch
    const fresh = [await transfer(url, token, COW1.address, 21n), await transfer(url, token, COW1.address, 22n)];
    const next: RpcLog[] = await changes(url, logFilter);
    expect(next).toEqual(fresh.flatMap((r) => r.logs));
    expect(next.every((l) => l.removed === false)).toBe(true);
    expect(next.map((l) => Number(l.blockNumber))).toEqual([base + 1, base + 2]);
    expect(next.map((l) => l.data)).toEqual([word(21), word(22)]);
    expect(next[0]!.blockHash).not.toBe(delivered[0]!.blockHash);
    expect(await changes(url, blockFilter)).toEqual(fresh.map((r) => r.blockHash));
    expect(await changes(url, unpolled)).toEqual(fresh.flatMap((r) => r.logs));
  });

  it('a revert that leaves the delivered blocks alone removes nothing', async () => {
    const filter = await call(url, 'eth_newFilter', [{ address: token }]);
    const kept = await transfer(url, token, COW1.address, 31n);
    expect(await changes(url, filter)).toEqual(kept.logs);
    const snapshot = await call(url, 'evm_snapshot');
    const dropped = await transfer(url, token, COW1.address, 32n);
    expect(await changes(url, filter)).toEqual(dropped.logs);
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    const after: RpcLog[] = await changes(url, filter);
    expect(after).toEqual(dropped.logs.map((l: RpcLog) => ({ ...l, removed: true })));
  });

  it('a revert does not return as removed the logs of blocks mined before the filter was installed', async () => {
    const snapshot = await call(url, 'evm_snapshot');
    const before = await transfer(url, token, COW1.address, 35n); // dropped by the revert, never the filter's
    const filter = await call(url, 'eth_newFilter', [{ address: token }]);
    const after = await transfer(url, token, COW1.address, 36n);
    expect(await changes(url, filter)).toEqual(after.logs);
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    const removed: RpcLog[] = await changes(url, filter);
    // only what the filter returned comes back (issue 5: "logs a log filter already returned")
    expect(removed.filter((l) => l.transactionHash === before.transactionHash)).toEqual([]);
    expect(removed).toEqual(after.logs.map((l: RpcLog) => ({ ...l, removed: true })));
  });

  it('evm_reset: every returned log comes back removed; the block filter returns genesis', async () => {
    const genesis = await blockHashAt(url, 0);
    const filter = await call(url, 'eth_newFilter', [{}]);
    const blockFilter = await call(url, 'eth_newBlockFilter');
    const r = await transfer(url, token, COW1.address, 41n);
    expect(await changes(url, filter)).toEqual(r.logs);
    expect(await changes(url, blockFilter)).toEqual([r.blockHash]);

    expect(await call(url, 'evm_reset')).toBeNull();
    expect(await call(url, 'eth_blockNumber')).toBe('0x0');
    expect(await changes(url, filter)).toEqual(r.logs.map((l: RpcLog) => ({ ...l, removed: true })));
    expect(await changes(url, blockFilter)).toEqual([genesis]);

    // after the reset the filters go on
    const token2 = await deployToken(url, 77n);
    const logs: RpcLog[] = await changes(url, filter);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ removed: false, address: token2, blockNumber: '0x1', data: word(77) });
    expect(await changes(url, blockFilter)).toEqual([await blockHashAt(url, 1)]);
  });
});

describe('filters belong to the network of the key that made them', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a testnet filter is unknown through the mainnet key and cannot be removed from there', async () => {
    const logFilter = await call(t.testnetUrl, 'eth_newFilter', [{ fromBlock: '0x0' }]);
    const blockFilter = await call(t.testnetUrl, 'eth_newBlockFilter');
    for (const id of [logFilter, blockFilter]) {
      await expectFilterNotFound(t.mainnetUrl, 'eth_getFilterChanges', id);
      expect(await call(t.mainnetUrl, 'eth_uninstallFilter', [id])).toBe(false);
    }
    await expectFilterNotFound(t.mainnetUrl, 'eth_getFilterLogs', logFilter);

    // mainnet blocks are not the testnet filter's
    await call(t.mainnetUrl, 'hardhat_mine', ['0x2']);
    expect(await changes(t.testnetUrl, blockFilter)).toEqual([]);
    await call(t.testnetUrl, 'evm_mine');
    expect(await changes(t.testnetUrl, blockFilter)).toEqual([await blockHashAt(t.testnetUrl, 'latest')]);

    // still installed on testnet, and removable there
    expect(await call(t.testnetUrl, 'eth_getFilterLogs', [logFilter])).toEqual([]);
    expect(await call(t.testnetUrl, 'eth_uninstallFilter', [logFilter])).toBe(true);
    expect(await call(t.testnetUrl, 'eth_uninstallFilter', [blockFilter])).toBe(true);
  });

  it('the reverse: a mainnet filter is unknown through the testnet key', async () => {
    const id = await call(t.mainnetUrl, 'eth_newPendingTransactionFilter');
    await expectFilterNotFound(t.testnetUrl, 'eth_getFilterChanges', id);
    expect(await call(t.testnetUrl, 'eth_uninstallFilter', [id])).toBe(false);
    expect(await changes(t.mainnetUrl, id)).toEqual([]);
  });
});

/** Signs up, logs in and creates a testnet key; returns its URL. */
async function dashboardKeyUrl(baseUrl: string, email: string): Promise<string> {
  const headers = { 'content-type': 'application/json' };
  const credentials = JSON.stringify({ email, password: 'filter-password-1' });
  expect((await fetch(`${baseUrl}/api/signup`, { method: 'POST', headers, body: credentials })).status).toBe(201);
  const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers, body: credentials });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const created = await fetch(`${baseUrl}/api/keys`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ name: 'app', network: 'testnet' }) });
  expect(created.status).toBe(201);
  return ((await created.json()) as { url: string }).url;
}

describe('filters belong to the key that made them (issue 19)', () => {
  let t: TestNode;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestNode({ hosted: true });
    alice = await dashboardKeyUrl(t.baseUrl, 'alice@example.com');
    bob = await dashboardKeyUrl(t.baseUrl, 'bob@example.com');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('on --hosted one user read and removed another\'s filter with its id: another key gets "filter not found", the owner keeps it', async () => {
    const logFilter = await call(alice, 'eth_newFilter', [{ fromBlock: '0x0' }]);
    const blockFilter = await call(alice, 'eth_newBlockFilter');
    const pendingFilter = await call(alice, 'eth_newPendingTransactionFilter');
    for (const id of [logFilter, blockFilter, pendingFilter]) {
      for (const other of [bob, t.testnetUrl]) {
        await expectFilterNotFound(other, 'eth_getFilterChanges', id);
        expect(await call(other, 'eth_uninstallFilter', [id])).toBe(false);
      }
    }
    await expectFilterNotFound(bob, 'eth_getFilterLogs', logFilter);

    // Bob's tries neither removed nor drained Alice's filters: the block mined now reaches her.
    await call(t.testnetUrl, 'evm_mine');
    const head = await blockHashAt(t.testnetUrl, 'latest');
    expect(await call(alice, 'eth_getFilterChanges', [blockFilter])).toEqual([head]);
    expect(await call(alice, 'eth_getFilterLogs', [logFilter])).toEqual(await call(alice, 'eth_getLogs', [{ fromBlock: '0x0' }]));
    for (const id of [logFilter, blockFilter, pendingFilter]) expect(await call(alice, 'eth_uninstallFilter', [id])).toBe(true);
  });

  it('a key\'s filter answers it over HTTP and its WebSocket alike; the in-process provider has filters of its own', async () => {
    const id = await call(alice, 'eth_newBlockFilter');
    const ws = new WebSocket(alice.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: [id] }));
      expect(JSON.parse(await reply)).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
    } finally {
      ws.close();
    }
    await expect(t.node.provider.request({ method: 'eth_getFilterChanges', params: [id] })).rejects.toMatchObject({ code: -32000, message: 'filter not found' });
    const own = (await t.node.provider.request({ method: 'eth_newBlockFilter' })) as string;
    await expectFilterNotFound(alice, 'eth_getFilterChanges', own);
    expect(await t.node.provider.request({ method: 'eth_getFilterChanges', params: [own] })).toEqual([]);
  });
});

function sortLogs(logs: RpcLog[]): RpcLog[] {
  return [...logs].sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
}
