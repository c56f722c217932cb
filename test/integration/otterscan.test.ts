/**
 * Otterscan's API (issue 23): the ots_* methods and erigon_getHeaderByNumber in the shapes
 * Otterscan 2.x reads (called as it calls them, through an ethers provider's send, block numbers as
 * JSON numbers), and the address index behind its address pages: paging, evm_revert, evm_reset,
 * a state load, an older data directory, and proof that a page reads only its own blocks.
 * Contracts are hand-assembled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonRpcProvider, Wallet, getCreateAddress } from 'ethers';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';
import { ChainStore } from '../../src/chain/storage/store.js';

const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
/** Init code that copies `runtime` (after these 11 bytes) into memory and returns it. */
const initCode = (runtime: string) => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;
/** B: returns one word, 7. */
const B_RUNTIME = '600760005260206000f3';
/** Error("no") as the revert payload. */
const REVERT_DATA = '08c379a0' + word(0x20) + word(2) + '6e6f'.padEnd(64, '0');
/** C: copies REVERT_DATA (after its 12 code bytes) to memory and reverts with it. */
const C_RUNTIME = '6064600c60003960646000fd' + REVERT_DATA;
/** F: CREATE of B's init code (embedded after its 16 code bytes). */
const F_RUNTIME = (() => {
  const child = initCode(B_RUNTIME).slice(2);
  const len = (child.length / 2).toString(16).padStart(2, '0');
  return `60${len}601060003960${len}60006000f05000${child}`;
})();
/** P: forwards the call's value to COW1 (CALL with all gas, no data), then stops. */
const P_RUNTIME = `600060006000600034${'73' + COW1.address.slice(2)}5af100`;

let t: TestNode;
let url: string;
let provider: JsonRpcProvider;
let wallet: Wallet;

const ots = (method: string, params: unknown[]) => provider.send(method, params);
const fresh = () => Wallet.createRandom().address.toLowerCase();

async function send(tx: { to?: string; data?: string; value?: bigint; gasLimit?: number }) {
  const response = await wallet.sendTransaction({ type: 0, gasLimit: 300_000, ...tx });
  const receipt = (await provider.getTransactionReceipt(response.hash))!;
  return { hash: response.hash, receipt, block: receipt.blockNumber };
}

async function deploy(runtime: string): Promise<{ address: string; hash: string }> {
  const { receipt, hash } = await send({ data: initCode(runtime) });
  expect(receipt.status).toBe(1);
  return { address: receipt.contractAddress!.toLowerCase(), hash };
}

async function errorOf(method: string, params: unknown[]) {
  const { body } = await rpc(url, method, params);
  expect(body.error, `${method} should fail`).toBeDefined();
  return body.error!;
}

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
});

afterAll(async () => {
  provider.destroy();
  await t.close();
});

describe('the API level and single-transaction methods', () => {
  it('ots_getApiLevel is 8, what Otterscan 2.x requires', async () => {
    expect(await ots('ots_getApiLevel', [])).toBe(8);
  });

  it('ots_hasCode tells a contract from an account, at a block', async () => {
    const { address } = await deploy(B_RUNTIME);
    const block = await provider.getBlockNumber();
    expect(await ots('ots_hasCode', [address, 'latest'])).toBe(true);
    expect(await ots('ots_hasCode', [address, `0x${(block - 1).toString(16)}`])).toBe(false);
    expect(await ots('ots_hasCode', [COW1.address, 'latest'])).toBe(false);
    expect(await errorOf('ots_hasCode', [address, 10_000_000])).toMatchObject({ code: -32600, message: 'Block 0x989680 not found' });
  });

  it('ots_getTransactionError: the raw revert data of a failed transaction, 0x of a successful one', async () => {
    const { address } = await deploy(C_RUNTIME);
    const failed = await send({ to: address });
    expect(failed.receipt.status).toBe(0);
    expect(await ots('ots_getTransactionError', [failed.hash])).toBe(`0x${REVERT_DATA}`);
    const ok = await send({ to: COW1.address, value: 1n });
    expect(await ots('ots_getTransactionError', [ok.hash])).toBe('0x');
  });

  it('ots_getInternalOperations: a forwarded value transfer and a CREATE, not the top call', async () => {
    const forwarder = await deploy(P_RUNTIME);
    const forwarded = await send({ to: forwarder.address, value: 1234n });
    expect(await ots('ots_getInternalOperations', [forwarded.hash])).toEqual([{ type: 0, from: forwarder.address, to: COW1.address, value: '0x4d2' }]);

    const factory = await deploy(F_RUNTIME);
    const created = await send({ to: factory.address });
    const child = getCreateAddress({ from: factory.address, nonce: 1 }).toLowerCase();
    expect(await ots('ots_getInternalOperations', [created.hash])).toEqual([{ type: 2, from: factory.address, to: child, value: '0x0' }]);
    expect(await ots('ots_hasCode', [child, 'latest'])).toBe(true);
    // A plain transfer has no internal operations.
    const plain = await send({ to: COW1.address, value: 1n });
    expect(await ots('ots_getInternalOperations', [plain.hash])).toEqual([]);
  });

  it('ots_traceTransaction: every frame with its depth, value null for STATICCALL/DELEGATECALL', async () => {
    const factory = await deploy(F_RUNTIME);
    const created = await send({ to: factory.address });
    const child = getCreateAddress({ from: factory.address, nonce: 1 }).toLowerCase();
    const entries = await ots('ots_traceTransaction', [created.hash]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({ type: 'CALL', depth: 0, from: COW.address, to: factory.address, value: '0x0', input: '0x', output: '0x' });
    expect(entries[1]).toMatchObject({ type: 'CREATE', depth: 1, from: factory.address, to: child, value: '0x0', output: `0x${B_RUNTIME}` });
    expect(entries[1].input).toBe(initCode(B_RUNTIME));
    expect(await ots('ots_traceTransaction', [`0x${'12'.repeat(32)}`])).toBeNull();
  });
});

describe('trace_replayTransaction (Otterscan\'s state-changes tab)', () => {
  /** S: SSTORE 0x2a at slot 0, then stop. */
  const S_RUNTIME = '602a60005500';
  const slot0 = `0x${word(0)}`;

  it('stateDiff: the written slot, the sender balance and nonce, REMASC\'s fee; trace when asked; vmTrace null', async () => {
    const { address } = await deploy(S_RUNTIME);
    const sent = await send({ to: address });
    const gasPrice = (await provider.getTransaction(sent.hash))!.gasPrice;
    const fee = sent.receipt.gasUsed * gasPrice;
    const replay = await ots('trace_replayTransaction', [sent.hash, ['stateDiff', 'trace']]);
    expect(replay.output).toBe('0x');
    expect(replay.vmTrace).toBeNull();
    expect(replay.stateDiff[address]).toEqual({ balance: '=', nonce: '=', code: '=', storage: { [slot0]: { '*': { from: `0x${word(0)}`, to: `0x${word(0x2a)}` } } } });
    const cow = replay.stateDiff[COW.address];
    expect(BigInt(cow.balance['*'].from) - BigInt(cow.balance['*'].to)).toBe(fee);
    expect(BigInt(cow.nonce['*'].to) - BigInt(cow.nonce['*'].from)).toBe(1n);
    const remasc = replay.stateDiff['0x0000000000000000000000000000000001000008'];
    expect(BigInt(remasc.balance['*'].to) - BigInt(remasc.balance['*'].from)).toBe(fee);
    expect(replay.trace).toHaveLength(1);
    expect(replay.trace[0]).toMatchObject({ type: 'call', action: { from: COW.address, to: address }, traceAddress: [] });
    expect(replay.trace[0].blockHash).toBeUndefined();

    const only = await ots('trace_replayTransaction', [sent.hash, ['trace']]);
    expect(only.stateDiff).toBeNull();
    expect(only.trace).toEqual(replay.trace);
  });

  it('stateDiff of a deployment: the contract is born (+), its code included', async () => {
    const { address, hash } = await deploy(S_RUNTIME);
    const replay = await ots('trace_replayTransaction', [hash, ['stateDiff']]);
    expect(replay.stateDiff[address].code).toEqual({ '+': `0x${S_RUNTIME}` });
    expect(replay.stateDiff[address].balance).toEqual({ '+': '0x0' });
    expect(replay.trace).toEqual([]);
  });

  it('stateDiff of the second transaction of a block starts from the state the first left', async () => {
    const { address } = await deploy(S_RUNTIME);
    await provider.send('evm_setAutomine', [false]);
    let second: string;
    try {
      const nonce = await provider.getTransactionCount(COW.address, 'pending');
      await wallet.sendTransaction({ type: 0, to: COW1.address, value: 1n, gasLimit: 21_000, nonce });
      second = (await wallet.sendTransaction({ type: 0, to: address, gasLimit: 100_000, nonce: nonce + 1 })).hash;
      await provider.send('evm_mine', []);
    } finally {
      await provider.send('evm_setAutomine', [true]);
    }
    const mined = (await provider.getTransaction(second))!;
    expect(mined.index).toBe(1);
    const replay = await ots('trace_replayTransaction', [second, ['stateDiff']]);
    expect(replay.stateDiff[COW.address].nonce).toEqual({ '*': { from: `0x${(mined.nonce).toString(16)}`, to: `0x${(mined.nonce + 1).toString(16)}` } });
    expect(replay.stateDiff[address].storage[slot0]).toEqual({ '*': { from: `0x${word(0)}`, to: `0x${word(0x2a)}` } });
    // COW1 received value in the first transaction only: untouched here.
    expect(replay.stateDiff[COW1.address]).toBeUndefined();
  });

  it('refuses vmTrace and unknown types with -32602; null for an unknown transaction', async () => {
    const { hash } = await send({ to: COW1.address, value: 1n });
    expect((await errorOf('trace_replayTransaction', [hash, ['vmTrace']])).code).toBe(-32602);
    expect((await errorOf('trace_replayTransaction', [hash, ['x']])).code).toBe(-32602);
    expect((await errorOf('trace_replayTransaction', [hash, 'trace'])).code).toBe(-32602);
    expect(await ots('trace_replayTransaction', [`0x${'12'.repeat(32)}`, ['trace']])).toBeNull();
  });
});

describe('blocks', () => {
  it('ots_getBlockDetails: no transactions, transactionCount, logsBloom null, zero issuance (RSK mints nothing), fees paid', async () => {
    const { block, receipt } = await send({ to: COW1.address, value: 5n });
    const details = await ots('ots_getBlockDetails', [block]);
    const standard = await provider.send('eth_getBlockByNumber', [`0x${block.toString(16)}`, false]);
    expect(details.block.transactions).toBeUndefined();
    expect(details.block.transactionCount).toBe(standard.transactions.length);
    expect(details.block.transactionCount).toBe(2); // the transfer and REMASC
    expect(details.block.logsBloom).toBeNull();
    expect(details.block.hash).toBe(standard.hash);
    expect(details.block.timestamp).toBe(standard.timestamp);
    expect(details.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' });
    // REMASC pays no gas: the fees are the transfer's, and RSK's own paidFees says the same.
    const fees = receipt.gasUsed * receipt.gasPrice;
    expect(BigInt(details.totalFees)).toBe(fees);
    expect(BigInt(standard.paidFees)).toBe(fees);
    expect(await ots('ots_getBlockDetailsByHash', [standard.hash])).toEqual(details);
    expect(await ots('ots_getBlockDetails', [10_000_000])).toBeNull();
  });

  it('ots_getBlockTransactions: a page of transactions in block order, input cut to its selector, slim receipts', async () => {
    const { block, hash } = await send({ to: COW1.address, data: '0xdeadbeef0102', value: 1n });
    const page = await ots('ots_getBlockTransactions', [block, 0, 1]);
    expect(page.fullblock.transactionCount).toBe(2);
    expect(page.fullblock.transactions).toHaveLength(1);
    expect(page.fullblock.transactions[0]).toMatchObject({ hash, input: '0xdeadbeef', from: COW.address });
    expect(page.receipts).toHaveLength(1);
    expect(page.receipts[0]).toMatchObject({ transactionHash: hash, status: '0x1', logs: null, logsBloom: null });
    const second = await ots('ots_getBlockTransactions', [block, 1, 1]);
    expect(second.fullblock.transactions[0].to).toBe('0x0000000000000000000000000000000001000008'); // REMASC
    expect((await ots('ots_getBlockTransactions', [block, 2, 1])).fullblock.transactions).toEqual([]);
  });

  it('erigon_getHeaderByNumber: the block without its transactions', async () => {
    const block = await provider.getBlockNumber();
    const header = await ots('erigon_getHeaderByNumber', [block]);
    const standard = await provider.send('eth_getBlockByNumber', [`0x${block.toString(16)}`, false]);
    const { transactions: _omitted, ...rest } = standard;
    expect(header).toEqual(rest);
    expect(await ots('erigon_getHeaderByNumber', [10_000_000])).toBeNull();
  });
});

describe('the address index', () => {
  it('lists an address as sender, recipient and created contract; ots_getContractCreator names the creation', async () => {
    const recipient = fresh();
    const sent = await send({ to: recipient, value: 1n });
    const created = await deploy(B_RUNTIME);
    const page = await ots('ots_searchTransactionsBefore', [recipient, 0, 25]);
    expect(page.txs.map((tx: { hash: string }) => tx.hash)).toEqual([sent.hash]);
    expect(page).toMatchObject({ firstPage: true, lastPage: true });
    // Otterscan reads the block's time from the receipt.
    const block = await provider.getBlock(sent.block);
    expect(page.receipts[0]).toMatchObject({ transactionHash: sent.hash, timestamp: `0x${block!.timestamp.toString(16)}` });

    const contractPage = await ots('ots_searchTransactionsBefore', [created.address, 0, 25]);
    expect(contractPage.txs.map((tx: { hash: string }) => tx.hash)).toEqual([created.hash]);
    expect(await ots('ots_getContractCreator', [created.address])).toEqual({ hash: created.hash, creator: COW.address });
    expect(await ots('ots_getContractCreator', [recipient])).toBeNull();

    const senderPage = await ots('ots_searchTransactionsBefore', [COW.address, 0, 2]);
    expect(senderPage.txs.map((tx: { hash: string }) => tx.hash)).toEqual([created.hash, sent.hash]);
    expect(senderPage).toMatchObject({ firstPage: true, lastPage: false });
  });

  it('pages newest first, whole blocks, with firstPage/lastPage as Otterscan reads them', async () => {
    const address = fresh();
    const hashes: string[] = [];
    const blocks: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { hash, block } = await send({ to: address, value: BigInt(i + 1) });
      hashes.push(hash);
      blocks.push(block);
    }
    const newestFirst = [...hashes].reverse();
    const hashesOf = (page: { txs: Array<{ hash: string }> }) => page.txs.map((tx) => tx.hash);

    const first = await ots('ots_searchTransactionsBefore', [address, 0, 2]);
    expect(hashesOf(first)).toEqual(newestFirst.slice(0, 2));
    expect(first).toMatchObject({ firstPage: true, lastPage: false });
    const second = await ots('ots_searchTransactionsBefore', [address, blocks[3], 2]);
    expect(hashesOf(second)).toEqual(newestFirst.slice(2, 4));
    expect(second).toMatchObject({ firstPage: false, lastPage: false });
    const last = await ots('ots_searchTransactionsBefore', [address, blocks[1], 2]);
    expect(hashesOf(last)).toEqual(newestFirst.slice(4));
    expect(last).toMatchObject({ firstPage: false, lastPage: true });

    // After: from genesis (the last page, results still newest first), then forward to the head.
    const oldest = await ots('ots_searchTransactionsAfter', [address, 0, 2]);
    expect(hashesOf(oldest)).toEqual([hashes[1], hashes[0]]);
    expect(oldest).toMatchObject({ firstPage: false, lastPage: true });
    const newest = await ots('ots_searchTransactionsAfter', [address, blocks[3], 2]);
    expect(hashesOf(newest)).toEqual([hashes[4]]);
    expect(newest).toMatchObject({ firstPage: true, lastPage: false });
  });

  it('ots_getTransactionBySenderAndNonce finds a sender nonce, null for one not mined', async () => {
    const sender = new Wallet(Wallet.createRandom().privateKey, provider);
    await send({ to: sender.address, value: 10n ** 18n });
    const first = await (await sender.sendTransaction({ type: 0, to: COW1.address, value: 1n, gasLimit: 21_000 })).wait();
    const second = await (await sender.sendTransaction({ type: 0, to: COW1.address, value: 2n, gasLimit: 21_000 })).wait();
    expect(await ots('ots_getTransactionBySenderAndNonce', [sender.address, 0])).toBe(first!.hash);
    expect(await ots('ots_getTransactionBySenderAndNonce', [sender.address, '0x1'])).toBe(second!.hash);
    expect(await ots('ots_getTransactionBySenderAndNonce', [sender.address, 2])).toBeNull();
  });

  it('drops the reverted blocks entries at evm_revert', async () => {
    const recipient = fresh();
    const kept = await send({ to: recipient, value: 1n });
    const snapshot = await provider.send('evm_snapshot', []);
    const dropped = await send({ to: recipient, value: 2n });
    const contract = await deploy(B_RUNTIME);
    const nonce = (await provider.getTransaction(dropped.hash))!.nonce;
    expect((await ots('ots_searchTransactionsBefore', [recipient, 0, 25])).txs).toHaveLength(2);

    expect(await provider.send('evm_revert', [snapshot])).toBe(true);
    const page = await ots('ots_searchTransactionsBefore', [recipient, 0, 25]);
    expect(page.txs.map((tx: { hash: string }) => tx.hash)).toEqual([kept.hash]);
    expect(await ots('ots_getContractCreator', [contract.address])).toBeNull();
    expect(await ots('ots_getTransactionBySenderAndNonce', [COW.address, nonce])).toBeNull();
    expect((await ots('ots_searchTransactionsBefore', [contract.address, 0, 25])).txs).toEqual([]);

    // New blocks at the same heights are indexed afresh.
    const again = await send({ to: recipient, value: 3n });
    expect((await ots('ots_searchTransactionsBefore', [recipient, 0, 25])).txs.map((tx: { hash: string }) => tx.hash)).toEqual([again.hash, kept.hash]);
    expect(await ots('ots_getTransactionBySenderAndNonce', [COW.address, nonce])).toBe(again.hash);
  });

  it('a page reads only its own blocks from the store, not every block', async () => {
    const address = fresh();
    const { hash } = await send({ to: address, value: 1n });
    for (let i = 0; i < 40; i++) await send({ to: COW1.address, value: 1n });
    const reads = vi.spyOn(ChainStore.prototype, 'getBlock');
    try {
      const page = await ots('ots_searchTransactionsBefore', [address, 0, 25]);
      expect(page.txs.map((tx: { hash: string }) => tx.hash)).toEqual([hash]);
      // The one block of the page; a scan would read the 40 blocks above it and every one below.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('refuses bad input with -32602', async () => {
    expect((await errorOf('ots_searchTransactionsBefore', [COW.address, 0, 1001])).code).toBe(-32602);
    expect((await errorOf('ots_searchTransactionsBefore', [COW.address, 0, 0])).code).toBe(-32602);
    expect((await errorOf('ots_searchTransactionsBefore', [COW.address, `0x1${'0'.repeat(16)}`, 25])).code).toBe(-32602);
    expect((await errorOf('ots_getTransactionBySenderAndNonce', [COW.address, `0x${'f'.repeat(64)}`])).code).toBe(-32602);
    expect((await errorOf('ots_searchTransactionsBefore', ['0x1234', 0, 25])).code).toBe(-32602);
    expect((await errorOf('ots_searchTransactionsAfter', [COW.address, -1, 25])).code).toBe(-32602);
    expect((await errorOf('ots_getBlockDetails', [1.5])).code).toBe(-32602);
    expect((await errorOf('ots_getBlockTransactions', [1, 'x', 25])).code).toBe(-32602);
    expect((await errorOf('ots_getTransactionError', ['0x12'])).code).toBe(-32602);
  });
});

describe('resets, state loads and browsers', () => {
  it('evm_reset empties the index; a state load rebuilds it', async () => {
    const other = await startTestNode();
    try {
      const otherProvider = new JsonRpcProvider(other.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
      const otherWallet = new Wallet(COW.privateKey, otherProvider);
      const recipient = fresh();
      const sent = await (await otherWallet.sendTransaction({ type: 0, to: recipient, value: 1n, gasLimit: 21_000 })).wait();
      const creation = await (await otherWallet.sendTransaction({ type: 0, data: initCode(B_RUNTIME), gasLimit: 200_000 })).wait();
      const dump = await otherProvider.send('anvil_dumpState', []);

      await otherProvider.send('evm_reset', []);
      expect((await otherProvider.send('ots_searchTransactionsBefore', [recipient, 0, 25])).txs).toEqual([]);
      expect(await otherProvider.send('ots_getContractCreator', [creation!.contractAddress])).toBeNull();

      expect(await otherProvider.send('anvil_loadState', [dump])).toBe(true);
      const page = await otherProvider.send('ots_searchTransactionsBefore', [recipient, 0, 25]);
      expect(page.txs.map((tx: { hash: string }) => tx.hash)).toEqual([sent!.hash]);
      expect(await otherProvider.send('ots_getContractCreator', [creation!.contractAddress])).toEqual({ hash: creation!.hash, creator: COW.address });
      otherProvider.destroy();
    } finally {
      await other.close();
    }
  });

  it('builds the index at start for a data directory made before it existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ots-old-datadir-'));
    try {
      const recipient = fresh();
      let sent: string;
      let created: { address: string; hash: string };
      {
        const first = await startTestNode({ inMemory: false, dataDir: dir });
        const firstProvider = new JsonRpcProvider(first.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
        const firstWallet = new Wallet(COW.privateKey, firstProvider);
        sent = (await (await firstWallet.sendTransaction({ type: 0, to: recipient, value: 1n, gasLimit: 21_000 })).wait())!.hash;
        const receipt = (await (await firstWallet.sendTransaction({ type: 0, data: initCode(B_RUNTIME), gasLimit: 200_000 })).wait())!;
        created = { address: receipt.contractAddress!.toLowerCase(), hash: receipt.hash };
        firstProvider.destroy();
        await first.close();
      }
      // What a data directory from before the index holds: no index records, no mark.
      const db = new Level<Uint8Array, Uint8Array>(join(dir, 'testnet'), { keyEncoding: 'view', valueEncoding: 'view' });
      const gone: Uint8Array[] = [];
      for await (const key of db.keys()) if (key[0] === 0x0c || key[0] === 0x0d || key[0] === 0x0e) gone.push(key);
      expect(gone.length).toBeGreaterThan(0);
      await db.batch([...gone, Uint8Array.of(0x07, ...new TextEncoder().encode('address-index'))].map((key) => ({ type: 'del' as const, key })));
      await db.close();

      const second = await startTestNode({ inMemory: false, dataDir: dir });
      try {
        const page = await rpc(second.testnetUrl, 'ots_searchTransactionsBefore', [recipient, 0, 25]);
        expect(page.body.result.txs.map((tx: { hash: string }) => tx.hash)).toEqual([sent]);
        expect((await rpc(second.testnetUrl, 'ots_getContractCreator', [created.address])).body.result).toEqual({ hash: created.hash, creator: COW.address });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a browser preflight on the key URL (Otterscan calls the node from the page)', async () => {
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5100', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
    const answer = await fetch(url, { method: 'POST', headers: { origin: 'http://localhost:5100', 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ots_getApiLevel', params: [] }) });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await answer.json()).toMatchObject({ result: 8 });
  });
});
