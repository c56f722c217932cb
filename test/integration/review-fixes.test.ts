/**
 * Regression tests for what an independent review of the RSK modules found: each test is named
 * after what broke and checks the fixed behaviour with real values.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNode } from '../../src/index.js';
import { MAX_HASHRATE_REPORTERS, WorkBook } from '../../src/chain/merged-mining/work.js';
import { call, COW, COW1, nodesClosedAfterEach, rpcError, TESTNET_KEY } from '../helpers/node.js';

const FRESH = '0x00000000000000000000000000000000000000f1';
const OTHER = '0x00000000000000000000000000000000000000f2';
const ONE_ETHER = 10n ** 18n;
const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;

const dirs: string[] = [];
const start = nodesClosedAfterEach();
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Funds FRESH with hardhat_setBalance on the head, then sends from it (impersonated) in the next block. */
async function fundAndSend(url: string): Promise<string> {
  await call(url, 'hardhat_setBalance', [FRESH, hexOf(ONE_ETHER)]);
  await call(url, 'hardhat_impersonateAccount', [FRESH]);
  return call(url, 'eth_sendTransaction', [{ from: FRESH, to: OTHER, value: '0x5' }]);
}

describe('state changed by test control was lost once the next block was mined', () => {
  it('the changed block keeps its state for reads, proofs and traces', async () => {
    const { testnetUrl: url } = await start();
    const hash = await fundAndSend(url);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.blockNumber).toBe('0x1');
    // Block 0 is where the balance was set: reading it there still shows the balance.
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x0']))).toBe(ONE_ETHER);
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x1']))).toBeLessThan(ONE_ETHER - 5n);
    const proof = await call(url, 'eth_getProof', [FRESH, [], '0x0']);
    expect(BigInt(proof.balance)).toBe(ONE_ETHER);

    // Tracing replays block 1 on the state it was built on.
    const structLogs = await call(url, 'debug_traceTransaction', [hash]);
    expect(structLogs.transferInvoke.callValue).toBe(5n.toString(16).padStart(64, '0'));
    const calls = await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(calls).toMatchObject({ type: 'CALL', from: FRESH, to: OTHER, value: '0x5' });
    const parity = await call(url, 'trace_transaction', [hash]);
    expect(parity[0].action).toMatchObject({ from: FRESH, to: OTHER, value: '0x5' });
  });

  it('the record survives a restart and goes with its block on evm_revert / evm_reset', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rsk-devnode-irregular-'));
    dirs.push(dataDir);
    const options = { inMemory: false, dataDir, logLevel: 'silent' as const, apiKeys: [{ key: TESTNET_KEY, network: 'testnet' as const }] };
    let node = await createNode(options);
    let server = await node.server(0);
    let url = `${server.url}/${TESTNET_KEY}`;
    await call(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, value: '0x1' }]);
    await fundAndSend(url);
    await node.close();

    node = await createNode(options);
    server = await node.server(0);
    url = `${server.url}/${TESTNET_KEY}`;
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x1']))).toBe(ONE_ETHER);
    expect((await call(url, 'trace_block', ['0x2'])).length).toBeGreaterThan(0);

    // Snapshots do not survive a restart: take one, change block 2's state, mine, and revert.
    const second = await call(url, 'evm_snapshot');
    await call(url, 'hardhat_setBalance', [FRESH, hexOf(7n)]);
    await call(url, 'evm_mine');
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x2']))).toBe(7n);
    expect(await call(url, 'evm_revert', [second])).toBe(true);
    expect(await call(url, 'eth_blockNumber')).toBe('0x2');
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x2']))).toBeLessThan(ONE_ETHER - 5n);
    expect(BigInt(await call(url, 'eth_getBalance', [FRESH, '0x2']))).toBeGreaterThan(ONE_ETHER - 10n ** 16n);
    await call(url, 'evm_reset');
    expect(await call(url, 'eth_getBalance', [FRESH, '0x0'])).toBe('0x0');
    await node.close();
  });
});

describe('a LOG whose memory range was never paid for made the tracer allocate it', () => {
  it('tracing a LOG0 of 1 GiB that ran out of gas stays small and answers', async () => {
    const { testnetUrl: url } = await start();
    // Init code: PUSH4 0x3fffffff PUSH1 0 LOG0: the LOG's memory expansion runs out of gas.
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: '0x633fffffff6000a0', gas: '0x30d40' }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x0');
    const before = process.memoryUsage().arrayBuffers;
    const calls = await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(calls.error).toBe('out of gas');
    expect(calls.logs).toBeUndefined();
    const parity = await call(url, 'trace_transaction', [hash]);
    expect(parity[0].error).toBeDefined();
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('a LOG that ran still shows its data (read once it ran), also as the frame\'s last opcode', async () => {
    const { testnetUrl: url } = await start();
    // Runtime: MSTORE(0, 0xabcd) then LOG1(30, 2, topic 0x01), then STOP implied (LOG is the last opcode).
    const contract = '0x00000000000000000000000000000000000000c7';
    await call(url, 'hardhat_setCode', [contract, '0x61abcd6000526001600260 1ea1'.replace(/ /g, '')]);
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: contract, gas: '0x186a0' }]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.logs[0].data).toBe('0xabcd');
    const calls = await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(calls.logs).toHaveLength(1);
    expect(calls.logs[0]).toMatchObject({ address: contract, data: '0xabcd', topics: [`0x${'1'.padStart(64, '0')}`] });
  });
});

describe('struct logs had no size limit', () => {
  it('a trace past the budget is refused with -32005 and a hint, and callTracer still answers', async () => {
    // No time limit: on a slow machine the budget, not the 5 s execution timeout, must be what answers.
    const { testnetUrl: url } = await start({ limits: { executionTimeoutMs: 0 } });
    // A loop that grows memory by one word per turn until gas runs out: struct logs carry all of it.
    // JUMPDEST MSIZE MSIZE MSTORE PUSH1 0 JUMP
    const contract = '0x00000000000000000000000000000000000000c8';
    await call(url, 'hardhat_setCode', [contract, '0x5b595952600056']);
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: contract, gas: hexOf(300_000) }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x0');
    const refused = await rpcError(url, 'debug_traceTransaction', [hash]);
    expect(refused.code).toBe(-32005);
    expect(refused.message).toContain('disableMemory');
    const light = await call(url, 'debug_traceTransaction', [hash, { disableMemory: true, disableStack: true }]);
    expect(light.structLogs.length).toBeGreaterThan(1000);
    expect((await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).error).toBe('out of gas');
  });
});

describe('hardhat_mine checked its range from the clock, not from evm_setNextBlockTimestamp', () => {
  it('a refused hardhat_mine mines nothing', async () => {
    const { testnetUrl: url } = await start();
    await call(url, 'evm_setNextBlockTimestamp', [hexOf(2n ** 64n - 6n)]);
    expect((await rpcError(url, 'hardhat_mine', ['0x3', '0x10'])).code).toBe(-32602);
    expect(await call(url, 'eth_blockNumber')).toBe('0x0');
  });
});

describe('eth_submitHashrate kept every reporter forever', () => {
  it('keeps at most MAX_HASHRATE_REPORTERS, dropping the oldest', () => {
    const book = new WorkBook();
    for (let i = 0; i < MAX_HASHRATE_REPORTERS + 10; i++) book.reportHashrate(Uint8Array.of(i >> 8, i & 0xff), 1n, 1_000);
    expect(book.reportedHashrate(1_000)).toBe(BigInt(MAX_HASHRATE_REPORTERS));
  });
});

describe('personal_ answered a wrong passphrase with -32603', () => {
  it('is -32602, an input error', async () => {
    const { testnetUrl: url } = await start();
    const created = await call(url, 'personal_newAccount', ['right']);
    const error = await rpcError(url, 'personal_unlockAccount', [created, 'wrong', '0x3e8']);
    expect(error.code).toBe(-32602);
    expect(await call(url, 'personal_unlockAccount', [created, 'right', '0x3e8'])).toBe(true);
    expect(COW1.address).not.toBe(created);
  });
});

describe('REMASC logged payments it could not make after hardhat_setBalance emptied it', () => {
  it('each payment log states the value that really moved', async () => {
    const { testnetUrl: url } = await start();
    const remasc = '0x0000000000000000000000000000000001000008';
    // Priced high enough (79 × the minimum) that a fifth of the reward passes RSKIP85's minimum.
    for (let i = 0; i < 3; i++) await call(url, 'eth_sendTransaction', [{ from: COW.address, to: OTHER, value: '0x1', gasPrice: '0x11a86a900' }]);
    await call(url, 'hardhat_setBalance', [remasc, '0x0']);
    await call(url, 'hardhat_mine', ['0x10']);
    const logs = await call(url, 'eth_getLogs', [{ address: remasc, fromBlock: '0x0', toBlock: 'latest' }]);
    expect(logs.length).toBeGreaterThan(0);
    // data = RLP [block hash (32 bytes), value]: with nothing to pay, every value is empty (0).
    for (const log of logs) expect(log.data.slice(-2)).toBe('80');
    expect(await call(url, 'eth_getBalance', [remasc, 'latest'])).toBe('0x0');
  });
});
