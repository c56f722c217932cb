/**
 * State dump and load through the RPC methods, as viem's test client calls them: blocks, receipts,
 * logs and every block's state survive the round trip, a loaded chain mines on top, anvil's files
 * are read, and a damaged, truncated or newer file is refused with nothing changed.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestClient, defineChain, http, type Hex } from 'viem';
import { call, nodesClosedAfterEach, rpcError } from '../helpers/node.js';
import { chainAnswers, makeHistory, minesOnTop } from '../helpers/state-history.js';

const start = nodesClosedAfterEach();

function testClient(url: string, id: number) {
  const chain = defineChain({ id, name: `rsk ${id}`, nativeCurrency: { name: 'RBTC', symbol: 'RBTC', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  return createTestClient({ mode: 'anvil', chain, transport: http(url, { retryCount: 0 }) });
}

/** What a refused load must leave as it was. */
async function fingerprint(url: string) {
  const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  return { number: head.number, hash: head.hash, stateRoot: head.stateRoot, balance: await call(url, 'eth_getBalance', ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', 'latest']) };
}

const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}` as Hex;

describe('anvil_dumpState / anvil_loadState with viem', () => {
  it('round-trips blocks, receipts, logs and history, and the loaded chain mines on top', async () => {
    const a = await start();
    const token = await makeHistory(a.testnetUrl, 31);
    const before = await chainAnswers(a.testnetUrl, token);
    const state = await testClient(a.testnetUrl, 31).dumpState();
    expect(state).toMatch(/^0x1f8b/); // gzip

    const b = await start();
    await testClient(b.testnetUrl, 31).loadState({ state });
    const after = await chainAnswers(b.testnetUrl, token);
    expect(after).toEqual(before);
    expect(before.logs.length).toBe(4); // the mint and three transfers
    expect(before.latestBalance).toBe('0x1234');

    const head = before.blocks[before.head];
    await minesOnTop(b.testnetUrl, 31, token, head);
    // The other network is untouched by a load through this key.
    expect(await call(b.mainnetUrl, 'eth_blockNumber')).toBe('0x0');
  });

  it('dumps the key\'s network only: a testnet dump is refused by the mainnet key, unchanged', async () => {
    const a = await start();
    await makeHistory(a.testnetUrl, 31, 1);
    const state = await testClient(a.testnetUrl, 31).dumpState();
    const json = gunzipSync(Buffer.from(state.slice(2), 'hex')).toString('utf8');
    expect(JSON.parse(json)).toMatchObject({ format: 'rsk-devnode-state', version: 1, networks: [{ network: 'testnet', chainId: 31 }] });

    const b = await start();
    const unchanged = await fingerprint(b.mainnetUrl);
    const error = await rpcError(b.mainnetUrl, 'anvil_loadState', [state]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('holds no chain with chain id 30');
    expect(await fingerprint(b.mainnetUrl)).toEqual(unchanged);

    // The same dump as plain (uncompressed) JSON loads through the testnet key.
    await testClient(b.testnetUrl, 31).loadState({ state: hexOf(Buffer.from(json)) });
    expect(await call(b.testnetUrl, 'eth_getBlockByNumber', ['latest', false])).toEqual(await call(a.testnetUrl, 'eth_getBlockByNumber', ['latest', false]));
  });

  it('also answers as hardhat_dumpState / hardhat_loadState, and a load replaces a longer chain', async () => {
    const a = await start();
    const token = await makeHistory(a.testnetUrl, 31, 1);
    const state = await call(a.testnetUrl, 'hardhat_dumpState');
    const before = await chainAnswers(a.testnetUrl, token);

    const b = await start();
    await makeHistory(b.testnetUrl, 31, 4);
    await call(b.testnetUrl, 'evm_snapshot');
    const blockFilter = await call(b.testnetUrl, 'eth_newBlockFilter');
    expect(await call(b.testnetUrl, 'hardhat_loadState', [state])).toBe(true);
    expect(await chainAnswers(b.testnetUrl, token)).toEqual(before);
    // A block filter starts over from the loaded head, as after a revert.
    expect(await call(b.testnetUrl, 'eth_getFilterChanges', [blockFilter])).toEqual([before.blocks[before.head].hash]);
    // Blocks of the replaced chain are gone, and so are its snapshots.
    expect(await call(b.testnetUrl, 'eth_getBlockByNumber', [`0x${(before.head + 1).toString(16)}`, false])).toBeNull();
    expect(await call(b.testnetUrl, 'evm_revert', ['0x1'])).toBe(false);
  });
});

describe('reads during a load', () => {
  it('never see a half-written chain: every read answers from the old chain or the loaded one', async () => {
    const a = await start();
    await makeHistory(a.testnetUrl, 31, 3);
    const state = await call(a.testnetUrl, 'anvil_dumpState');
    const logsOf = async (url: string) => (await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x4' }])).map((log: { blockHash: string }) => log.blockHash);
    const loadedLogs = await logsOf(a.testnetUrl);

    const b = await start();
    await makeHistory(b.testnetUrl, 31, 3);
    const oldLogs = await logsOf(b.testnetUrl);
    expect(oldLogs).toHaveLength(4);
    expect(loadedLogs).toHaveLength(4);
    let loaded = false;
    const loading = call(b.testnetUrl, 'anvil_loadState', [state]).finally(() => (loaded = true));
    // Readers that keep reading until the load is over, so that some run while it writes. Over
    // HTTP, each read waits for real I/O and the load goes on meanwhile. eth_getLogs reads the log
    // index from the store itself, not from a cache of the old chain's blocks.
    const reads: string[][] = [];
    const reader = async () => {
      while (!loaded) reads.push(await logsOf(b.testnetUrl));
    };
    await Promise.all([loading, reader(), reader(), reader()]);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect([oldLogs, loadedLogs]).toContainEqual(read);
    expect(await logsOf(b.testnetUrl)).toEqual(loadedLogs);
  });
});

describe('anvil state files', () => {
  const anvilState = {
    block: { number: '0x5', timestamp: '0x6565' },
    best_block_number: '0x5',
    accounts: {
      '0x00000000000000000000000000000000000000b0': { nonce: 7, balance: '0xde0b6b3a7640000', code: '0x', storage: {} },
      // Runtime code returning storage slot 1: PUSH1 1 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
      '0x00000000000000000000000000000000000000c0': { nonce: 1, balance: '0x0', code: '0x60015460005260206000f3', storage: { '0x1': '0x2a' } },
    },
    blocks: [],
    transactions: [],
  };

  it.each([
    ['plain JSON', (text: string) => hexOf(Buffer.from(text))],
    ['gzip JSON', (text: string) => hexOf(gzipSync(text))],
  ])('loads the accounts of a %s file, merged into the latest state', async (_, encode) => {
    const b = await start();
    await makeHistory(b.testnetUrl, 31, 1);
    const head = await call(b.testnetUrl, 'eth_blockNumber');
    await testClient(b.testnetUrl, 31).loadState({ state: encode(JSON.stringify(anvilState)) });
    expect(await call(b.testnetUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000000b0', 'latest'])).toBe('0xde0b6b3a7640000');
    expect(await call(b.testnetUrl, 'eth_getTransactionCount', ['0x00000000000000000000000000000000000000b0', 'latest'])).toBe('0x7');
    expect(await call(b.testnetUrl, 'eth_getCode', ['0x00000000000000000000000000000000000000c0', 'latest'])).toBe('0x60015460005260206000f3');
    expect(BigInt(await call(b.testnetUrl, 'eth_call', [{ to: '0x00000000000000000000000000000000000000c0' }, 'latest']))).toBe(42n);
    // Merged, not replaced: the chain and its history stay.
    expect(await call(b.testnetUrl, 'eth_blockNumber')).toBe(head);
  });

  it('refuses an anvil account with a bad balance, naming it, with nothing changed', async () => {
    const b = await start();
    const unchanged = await fingerprint(b.testnetUrl);
    const bad = { accounts: { ...anvilState.accounts, '0x00000000000000000000000000000000000000d0': { nonce: 0, balance: 'lots', code: '0x', storage: {} } } };
    const error = await rpcError(b.testnetUrl, 'anvil_loadState', [hexOf(Buffer.from(JSON.stringify(bad)))]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('anvil account 0x00000000000000000000000000000000000000d0: balance');
    expect(await fingerprint(b.testnetUrl)).toEqual(unchanged);
    expect(await call(b.testnetUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000000b0', 'latest'])).toBe('0x0');
  });
});

describe('a refused load changes nothing', () => {
  async function dumped() {
    const a = await start();
    await makeHistory(a.testnetUrl, 31, 2);
    const hex = await call(a.testnetUrl, 'anvil_dumpState');
    return gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8');
  }

  const cases: Array<[string, (text: string) => Hex, string]> = [
    ['truncated gzip', (text) => { const gz = gzipSync(text); return hexOf(gz.subarray(0, gz.length >> 1)); }, 'gzip data is damaged or cut short'],
    ['truncated JSON (no end record)', (text) => hexOf(gzipSync(text.split('\n').slice(0, 4).join('\n'))), 'without its end record (truncated)'],
    ['a newer format version', (text) => hexOf(gzipSync(text.replace('"version":1,', '"version":2,'))), 'format version 2 was written by a newer rsk-devnode'],
    ['a damaged block record', (text) => hexOf(gzipSync(text.replace(/\n,\["0x(..)/, (_, b: string) => `\n,["0x${b === 'ff' ? 'fe' : 'ff'}`))), 'block 1: not a stored block'],
    ['a block out of place', (text) => { const lines = text.split('\n'); [lines[3], lines[4]] = [`,${lines[4]!.slice(1)}`, `,${lines[3]!.slice(1)}`]; return hexOf(gzipSync(lines.join('\n'))); }, 'found block 2 where block 1 belongs'],
    ['garbage', () => hexOf(Buffer.from('not a state file')), 'neither an rsk-devnode state file nor valid JSON'],
    ['wrong end counts', (text) => hexOf(gzipSync(text.replace(/"stateNodes":(\d+)\}\}/, (_, n: string) => `"stateNodes":${Number(n) + 1}}}`))), 'the end record counts'],
  ];

  it.each(cases)('refuses %s, naming the argument, and the chain stays as it was', async (_, damage, message) => {
    const text = await dumped();
    const b = await start();
    await makeHistory(b.testnetUrl, 31, 1);
    await call(b.testnetUrl, 'anvil_setBalance', ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0x77']);
    const unchanged = await fingerprint(b.testnetUrl);
    const error = await rpcError(b.testnetUrl, 'anvil_loadState', [damage(text)]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('state file anvil_loadState argument');
    expect(error.message).toContain(message);
    expect(error.message).toContain('nothing was loaded');
    expect(await fingerprint(b.testnetUrl)).toEqual(unchanged);
    expect((await call(b.testnetUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).length).toBe(2);
  });

  it('refuses a parameter that is not hex with -32602', async () => {
    const b = await start();
    const error = await rpcError(b.testnetUrl, 'anvil_loadState', [{ accounts: {} }]);
    expect(error.code).toBe(-32602);
  });
});
