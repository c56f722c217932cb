/**
 * Regression tests for the bugs a code review found (its reproduction scripts turned into tests):
 * each test is named after what broke, and checks the fixed behaviour with real values.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Interface, Wallet, keccak256 } from 'ethers';
import { createNode } from '../../src/index.js';
import { MAX_BLOCKS_PER_MINE } from '../../src/chain/chain.js';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, TESTNET_KEY, nodesClosedAfterEach, rpc, rpcError, rpcRaw, waitFor } from '../helpers/node.js';

const MIN_GAS_PRICE = 0x3938700n;
const TWO_POW_32 = 2n ** 32n;
const reverterIface = new Interface(contracts.Reverter.abi);
const INCREMENT = reverterIface.getFunction('increment')!.selector;
const COUNTER = reverterIface.getFunction('counter')!.selector;
const REVERT_WITH_REASON = reverterIface.getFunction('revertWithReason')!.selector;
const INCREMENTED = reverterIface.getEvent('Incremented')!.topicHash;

const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;
const word = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;

const tempDirs: string[] = [];
const start = nodesClosedAfterEach();

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});


async function blockNumber(url: string): Promise<bigint> {
  return BigInt(await call(url, 'eth_blockNumber'));
}

/** Deploys the Reverter fixture from COW (automine) and returns its address. */
async function deployReverter(url: string): Promise<string> {
  const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: contracts.Reverter.bytecode, gas: '0x2dc6c0' }]);
  const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return receipt.contractAddress;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('review regressions', () => {
  it('a WebSocket upgrade with a bad key and a peer reset does not crash the server', async () => {
    const t = await start();
    const port = Number(new URL(t.baseUrl).port);
    const crashes: unknown[] = [];
    const onCrash = (err: unknown) => crashes.push(err);
    process.on('uncaughtException', onCrash);
    try {
      const upgrade = (path: string) =>
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      const closed: Array<Promise<void>> = [];
      for (let i = 0; i < 50; i++) {
        // Mostly unknown keys (the server answers 401 and ends the socket); some on the real key path.
        const path = i % 10 === 9 ? `/${TESTNET_KEY}` : '/badkey';
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(upgrade(path));
          setTimeout(() => socket.resetAndDestroy(), i % 5);
        });
        socket.on('error', () => undefined);
        closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
      }
      await Promise.all(closed);
      // Let the server see the resets before asking it anything.
      await sleep(200);
      expect(crashes).toEqual([]);
      expect(await call(t.testnetUrl, 'eth_chainId')).toBe('0x1f');
      expect(await call(t.mainnetUrl, 'eth_chainId')).toBe('0x1e');
    } finally {
      process.off('uncaughtException', onCrash);
    }
  });

  it.each([
    ['automine', true],
    ['manual mining', false],
  ])('concurrent eth_sendTransaction from one account get consecutive nonces (%s)', async (_mode, automine) => {
    const t = await start({ mining: automine });
    const url = t.testnetUrl;
    // Through the in-process provider, so all four requests start in the same tick.
    const provider = t.node.provider;
    const hashes = (await Promise.all(
      [1, 2, 3, 4].map((value) => provider.request({ method: 'eth_sendTransaction', params: [{ from: COW.address, to: COW1.address, value: hexOf(value) }] })),
    )) as string[];
    expect(new Set(hashes).size).toBe(4);
    if (!automine) {
      expect(await call(url, 'txpool_status')).toEqual({ pending: 4, queued: 0 });
      await call(url, 'evm_mine');
    }
    const txs = await Promise.all(hashes.map((hash) => call(url, 'eth_getTransactionByHash', [hash])));
    expect(txs.map((tx) => Number(tx.nonce)).sort()).toEqual([0, 1, 2, 3]);
    const receipts = await Promise.all(hashes.map((hash) => call(url, 'eth_getTransactionReceipt', [hash])));
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x1', '0x1']);
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe('0x4');
    // Sent in the same tick, they are admitted before the first automined block starts: one block
    // takes all four (automine batches transactions in flight, automine.ts), as evm_mine does.
    expect(await blockNumber(url)).toBe(1n);
  });

  it('a timestamp past 2^32 still mines', async () => {
    const t = await start();
    const url = t.testnetUrl;
    expect(await call(url, 'evm_increaseTime', ['0x100000000'])).toBe('0x100000000');
    expect(await call(url, 'evm_mine')).toBeDefined();
    const mined = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(mined.number)).toBe(1n);
    expect(BigInt(mined.timestamp)).toBeGreaterThan(TWO_POW_32);
    // The offset was consumed; the chain keeps mining, with and without transactions.
    expect(await call(url, 'evm_increaseTime', [0])).toBe('0x0');
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    await call(url, 'evm_mine');
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(latest.number)).toBe(3n);
    expect(BigInt(latest.timestamp)).toBeGreaterThan(BigInt(mined.timestamp));

    // The exact-timestamp variants too.
    const u = await start();
    expect(await call(u.testnetUrl, 'evm_setNextBlockTimestamp', ['0x1000000000'])).toBeNull();
    const sent = await call(u.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    const block1 = await call(u.testnetUrl, 'eth_getBlockByNumber', [(await call(u.testnetUrl, 'eth_getTransactionReceipt', [sent])).blockNumber, false]);
    expect(BigInt(block1.timestamp)).toBe(0x1000000000n);
    await call(u.testnetUrl, 'evm_mine', ['0x1000000100']);
    expect(BigInt((await call(u.testnetUrl, 'eth_getBlockByNumber', ['latest', false])).timestamp)).toBe(0x1000000100n);
  });

  it("a transaction that does not fit the block's gas keeps its sender's later nonces in the pool", async () => {
    const t = await start({ mining: false });
    const url = t.testnetUrl;
    const gasLimit = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).gasLimit);
    // A: nonce 0 asks for the whole block gas limit, nonce 1 is a plain transfer.
    const a0 = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gas: hexOf(gasLimit), gasPrice: hexOf(MIN_GAS_PRICE) }]);
    const a1 = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gas: '0x5208', gasPrice: hexOf(MIN_GAS_PRICE) }]);
    // B: a better-priced transfer goes first, so A's nonce 0 no longer fits in that block.
    const b = await call(url, 'eth_sendTransaction', [{ from: COW1.address, to: COW.address, gas: '0x5208', gasPrice: '0x4000000' }]);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 3, queued: 0 });

    await call(url, 'evm_mine');
    const first = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    // Block 1 holds B's transfer (and REMASC's), not A's.
    expect(first.transactions).toContain(b);
    expect(first.transactions).not.toContain(a0);
    expect(first.transactions).not.toContain(a1);
    // A's nonce 1 waited with its nonce 0 instead of being dropped.
    expect(await call(url, 'txpool_status')).toEqual({ pending: 2, queued: 0 });
    expect(await call(url, 'eth_getTransactionByHash', [a1])).not.toBeNull();

    await call(url, 'evm_mine');
    const receipts = await Promise.all([a0, a1, b].map((hash) => call(url, 'eth_getTransactionReceipt', [hash])));
    expect(receipts.map((r) => r?.status)).toEqual(['0x1', '0x1', '0x1']);
    const [ra0, ra1, rb] = receipts;
    expect(BigInt(rb.blockNumber)).toBe(1n);
    expect(BigInt(ra0.blockNumber)).toBe(2n);
    expect(BigInt(ra1.blockNumber)).toBe(2n);
    expect(Number(ra0.transactionIndex)).toBeLessThan(Number(ra1.transactionIndex));
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
    expect(await call(url, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe('0x2');
  });

  it('a state override survives the head leaving the block cache', async () => {
    const t = await start();
    const url = t.testnetUrl;
    await call(url, 'hardhat_mine', [hexOf(1_100)]);
    const X = '0x00000000000000000000000000000000000000cc';
    await call(url, 'hardhat_setBalance', [X, '0x1234']);
    const head = await call(url, 'eth_blockNumber');
    expect(BigInt(head)).toBe(1_100n);
    expect(await call(url, 'eth_getBalance', [X, head])).toBe('0x1234');
    // Read 1,100 other blocks (more than the block cache holds), in batches.
    for (let from = 0; from < 1_100; from += 550) {
      const batch = Array.from({ length: 550 }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'eth_getBlockByNumber', params: [hexOf(from + i), false] }));
      const { status, body } = await rpcRaw(url, JSON.stringify(batch));
      expect(status).toBe(200);
      expect(body).toHaveLength(550);
      expect(body.every((reply: any) => reply.result !== null && reply.result !== undefined && reply.error === undefined)).toBe(true);
    }
    expect(await call(url, 'eth_getBalance', [X, head])).toBe('0x1234');
    expect(await call(url, 'eth_getBalance', [X, 'latest'])).toBe('0x1234');
    // Earlier blocks never saw the override.
    expect(await call(url, 'eth_getBalance', [X, hexOf(1_099)])).toBe('0x0');
  });

  it('a logs subscription does not report as removed logs mined before it subscribed', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const reverter = await deployReverter(url);
    const snapshot = await call(url, 'evm_snapshot');
    // Blocks 2 and 3: logs from before the subscription.
    for (let i = 0; i < 2; i++) await call(url, 'eth_sendTransaction', [{ from: COW.address, to: reverter, data: INCREMENT, gas: '0x30000' }]);

    const socket = new WebSocket(url.replace(/^http/, 'ws'));
    const received: any[] = [];
    const replies = new Map<number, any>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.method === 'eth_subscription') received.push(message.params.result);
      else replies.set(message.id, message);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    try {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: reverter }] }));
      const subscribed = await waitFor('eth_subscribe reply', () => replies.get(1));
      expect(subscribed.result).toMatch(/^0x[0-9a-f]+$/);

      // Blocks 4 and 5: delivered to the subscription.
      for (let i = 0; i < 2; i++) await call(url, 'eth_sendTransaction', [{ from: COW.address, to: reverter, data: INCREMENT, gas: '0x30000' }]);
      await waitFor('two delivered logs', () => received.length >= 2);
      expect(received.map((log) => [BigInt(log.blockNumber), log.data, log.removed])).toEqual([
        [4n, word(3), false],
        [5n, word(4), false],
      ]);

      // Revert to block 1: blocks 2..5 go, but only 4 and 5 were ever delivered.
      expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
      expect(await blockNumber(url)).toBe(1n);
      // A new block after the revert: once its log arrives, everything the revert sent has arrived.
      await call(url, 'eth_sendTransaction', [{ from: COW.address, to: reverter, data: INCREMENT, gas: '0x30000' }]);
      await waitFor('the log mined after the revert', () => received.some((log) => log.removed === false && BigInt(log.blockNumber) === 2n));

      const afterRevert = received.slice(2);
      const removed = afterRevert.filter((log) => log.removed === true);
      // Only the delivered logs come back as removed; the ones from blocks 2 and 3 never do.
      expect(removed.map((log) => [BigInt(log.blockNumber), log.data]).sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([
        [4n, word(3)],
        [5n, word(4)],
      ]);
      expect(removed.every((log) => log.topics[0] === INCREMENTED && log.address === reverter)).toBe(true);
      expect(afterRevert.filter((log) => log.removed === false).map((log) => [BigInt(log.blockNumber), log.data])).toEqual([[2n, word(1)]]);
      expect(afterRevert).toHaveLength(3);
    } finally {
      socket.close();
    }
  });

  it('interval mining refuses intervals a timer cannot wait', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const chain = t.node.chains.testnet;
    const huge = await rpcError(url, 'evm_setIntervalMining', ['0xffffffffff']);
    expect(huge.code).toBe(-32602);
    expect(huge.message).toMatch(/timer/);
    const hugeSeconds = await rpcError(url, 'anvil_setIntervalMining', ['0xffffffff']);
    expect(hugeSeconds.code).toBe(-32602);
    // Private fields (Chain.mining, MiningMode.timer), read on purpose: no timer was started by the refused calls.
    expect((chain as any).mining.timer.running).toBe(false);
    // The longest interval a timer can wait is still accepted (and waits: no block shows up).
    expect(await call(url, 'evm_setIntervalMining', [hexOf(2 ** 31 - 1)])).toBe(true);
    expect((chain as any).mining.timer.running).toBe(true);
    await sleep(300);
    expect(await blockNumber(url)).toBe(0n);
    expect(await call(url, 'evm_setIntervalMining', [0])).toBe(true);
    expect((chain as any).mining.timer.running).toBe(false);
    expect(await blockNumber(url)).toBe(0n);
  });

  it('automine answers -32009 when the block cannot include the transaction', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-regressions-'));
    tempDirs.push(dataDir);
    const first = await createNode({ inMemory: false, dataDir, logLevel: 'silent', apiKeys: [{ key: TESTNET_KEY, network: 'testnet' }] });
    await first.close();
    // Restarted with a higher target: each new block's minimum rises 1% toward it.
    const t = await start({ inMemory: false, dataDir, minGasPrice: 100_000_000n });
    const url = t.testnetUrl;
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(latest.number)).toBe(0n);
    const latestMinimum = BigInt(latest.minimumGasPrice);
    expect(latestMinimum).toBe(MIN_GAS_PRICE);
    const nextMinimum = latestMinimum + latestMinimum / 100n;

    // Priced exactly at the latest block's minimum: the pool takes it, the next block cannot.
    const raw = await new Wallet(COW.privateKey).signTransaction({
      type: 0,
      chainId: 31,
      nonce: 0,
      to: COW1.address,
      value: 1n,
      gasLimit: 21_000n,
      gasPrice: latestMinimum,
    });
    const refused = await rpcError(url, 'eth_sendRawTransaction', [raw]);
    expect(refused.code).toBe(-32009);
    expect(refused.message).toContain("wasn't mined");
    expect(refused.message).toContain(`gas price ${latestMinimum} is below the block's minimum gas price ${nextMinimum}`);
    expect(await call(url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
    const block1 = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(block1.number)).toBe(1n);
    // Only REMASC's transaction made it into the block; the refused one is gone.
    expect(block1.transactions).toHaveLength(1);
    expect(block1.transactions).not.toContain(keccak256(raw));
    expect(await call(url, 'eth_getTransactionByHash', [keccak256(raw)])).toBeNull();
    expect(BigInt(block1.minimumGasPrice)).toBe(nextMinimum);

    // Without a gasPrice, eth_sendTransaction pays the next block's minimum, and is mined.
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    const block2 = await call(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(BigInt(block2.number)).toBe(2n);
    expect(BigInt(block2.minimumGasPrice)).toBe(nextMinimum + nextMinimum / 100n);
    expect(BigInt((await call(url, 'eth_getTransactionByHash', [hash])).gasPrice)).toBe(BigInt(block2.minimumGasPrice));
  });

  it('eth_getLogs refused by the cap stops reading early', async () => {
    const t = await start({ maxLogs: 5, maxLogBlockRange: 10 });
    const url = t.testnetUrl;
    const reverter = await deployReverter(url);
    // 300 blocks with one Incremented log each (more than one chunk of receipt reads), in one batch.
    const sends = Array.from({ length: 300 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'eth_sendTransaction',
      params: [{ from: COW.address, to: reverter, data: INCREMENT, gas: '0x30000' }],
    }));
    const { body } = await rpcRaw(url, JSON.stringify(sends));
    expect(body.filter((reply: any) => typeof reply.result === 'string')).toHaveLength(300);
    expect(await blockNumber(url)).toBe(301n);

    const refused = await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: reverter }]);
    expect(refused.code).toBe(-32005);
    expect(refused.message).toContain('more than 5 logs');
    expect(refused.message).toContain('10-block range');
    // Within the block range, more than 5 logs are fine...
    const recent = await call(url, 'eth_getLogs', [{ fromBlock: hexOf(292), toBlock: hexOf(301), address: reverter }]);
    expect(recent.map((log: any) => [Number(log.blockNumber), log.data])).toEqual(
      Array.from({ length: 10 }, (_, i) => [292 + i, word(291 + i)]),
    );
    // ...and so is a long range with few logs (every chunk of candidates read).
    const none = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: COW1.address }]);
    expect(none).toEqual([]);
    const firstFew = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: hexOf(4), address: reverter, topics: [INCREMENTED] }]);
    expect(firstFew.map((log: any) => log.data)).toEqual([word(1), word(2), word(3)]);
  });

  it("eth_call leaves no nodes in the store's pending buffer", async () => {
    const t = await start();
    const url = t.testnetUrl;
    // Private fields, inspected on purpose: the pending buffer belongs to the block being built.
    const pending = (t.node.chains.testnet as any).store.stateDb.pending as Map<string, Uint8Array>;
    expect(pending).toBeInstanceOf(Map);
    const reverter = await deployReverter(url);
    const pendingNow = () => (t.node.chains.testnet as any).store.stateDb.pending.size as number;
    expect(pendingNow()).toBe(0);

    expect(await call(url, 'eth_call', [{ from: COW.address, to: reverter, data: INCREMENT }, 'latest'])).toBe(word(1));
    expect(pendingNow()).toBe(0);
    expect(await call(url, 'eth_call', [{ to: reverter, data: INCREMENT }, 'latest'])).toBe(word(1));
    expect(pendingNow()).toBe(0);
    expect(await call(url, 'eth_call', [{ to: reverter, data: COUNTER }, 'latest'])).toBe(word(0));
    expect(pendingNow()).toBe(0);
    const reverted = await rpcError(url, 'eth_call', [{ to: reverter, data: REVERT_WITH_REASON }, 'latest']);
    expect(reverted.message).toContain('nope: reason string');
    expect(pendingNow()).toBe(0);
    expect(await call(url, 'eth_call', [{ from: COW.address, to: reverter, data: INCREMENT }, 'pending'])).toBe(word(1));
    expect(pendingNow()).toBe(0);

    // The calls changed nothing: the next real transaction starts from counter 0.
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: reverter, data: INCREMENT, gas: '0x30000' }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(await call(url, 'eth_call', [{ to: reverter, data: COUNTER }, 'latest'])).toBe(word(1));
    expect(pendingNow()).toBe(0);
  });

  it('the pending block follows evm_increaseTime', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const before = BigInt((await call(url, 'eth_getBlockByNumber', ['pending', false])).timestamp);
    expect(await call(url, 'evm_increaseTime', [100_000])).toBe(hexOf(100_000));
    const after = BigInt((await call(url, 'eth_getBlockByNumber', ['pending', false])).timestamp);
    expect(after - before).toBeGreaterThanOrEqual(100_000n);
    // Not a whole extra day either: only the offset moved it.
    expect(after - before).toBeLessThan(100_000n + 86_400n);
    await call(url, 'evm_mine');
    const mined = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(mined).toBeGreaterThanOrEqual(after);
    expect(mined - before).toBeGreaterThanOrEqual(100_000n);
    // The offset was consumed: the new pending block is not pushed again.
    const nextPending = BigInt((await call(url, 'eth_getBlockByNumber', ['pending', false])).timestamp);
    expect(nextPending - mined).toBeLessThan(100_000n);
  });

  it('hardhat_mine above the per-call cap is refused', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const refused = await rpcError(url, 'hardhat_mine', [hexOf(MAX_BLOCKS_PER_MINE + 1n)]);
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain(String(MAX_BLOCKS_PER_MINE));
    const anvil = await rpcError(url, 'anvil_mine', [hexOf(MAX_BLOCKS_PER_MINE + 1n)]);
    expect(anvil.code).toBe(-32602);
    expect(await blockNumber(url)).toBe(0n);
  });

  it('an in-memory node keeps answering other requests while a large hardhat_mine runs', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const chain = t.node.chains.testnet;
    const settled: string[] = [];
    const mining = rpc(url, 'hardhat_mine', [hexOf(3_000)]).then((reply) => {
      settled.push('hardhat_mine');
      return reply;
    });
    // Once the mine has started (in-process view of the head)...
    await waitFor('the first mined block', () => chain.head.header.number > 0n || settled.length > 0);
    // ...another request is answered before it finishes.
    const chainId = await rpc(url, 'eth_chainId').then((reply) => {
      settled.push('eth_chainId');
      return reply;
    });
    expect(chainId.body.result).toBe('0x1f');
    const mined = await mining;
    expect(mined.body.error).toBeUndefined();
    expect(settled).toEqual(['eth_chainId', 'hardhat_mine']);
    expect(await blockNumber(url)).toBe(3_000n);
  });
});
