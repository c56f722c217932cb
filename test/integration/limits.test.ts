/**
 * Limits that protect the node (issue 12): eth_call's gas cap and the execution time limit of
 * eth_call, eth_estimateGas and tracing; filters per API key and subscriptions per connection;
 * addresses and topics in a log filter; slow WebSocket clients (unanswered pings, unread replies).
 * Each limit is set low through createNode's options (the CLI's flags) so the tests stay short.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, COW, nodesClosedAfterEach, rpc, TESTNET_KEY, waitFor } from '../helpers/node.js';

const start = nodesClosedAfterEach();

/** Init code that never stops: JUMPDEST; PUSH1 0; JUMP. */
const LOOP = '0x5b600056';
/** Init code that returns GAS (the gas left) as a word: GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const GAS_LEFT = '0x5a60005260206000f3';
const OTHER_TESTNET_KEY = 'test-key-testnet-2';
const keys = [
  { key: TESTNET_KEY, network: 'testnet' as const },
  { key: OTHER_TESTNET_KEY, network: 'testnet' as const },
];
const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const topic = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** A raw WebSocket JSON-RPC client answering requests by id. */
async function openSocket(url: string, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), options);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const waiting = new Map<number, (reply: any) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (!Array.isArray(message) && message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return {
    socket,
    closed,
    request(method: string, params: unknown[] = []): Promise<any> {
      const id = nextId++;
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return new Promise((resolve) => waiting.set(id, resolve));
    },
  };
}

describe('execution limits', () => {
  it('an eth_call that never ends answers -32011 after the time limit, and the node answers others meanwhile', async () => {
    const t = await start({ limits: { executionTimeoutMs: 300, callGasCap: 10n ** 12n } });
    let answered = 0;
    let done = false;
    const looping = rpc(t.testnetUrl, 'eth_call', [{ data: LOOP }, 'latest']).finally(() => (done = true));
    // Other requests keep being answered while the loop runs.
    while (!done) {
      const number = await call(t.testnetUrl, 'eth_blockNumber');
      if (!done) {
        expect(number).toBe('0x0');
        answered++;
      }
    }
    const { body } = await looping;
    expect(body.error?.code).toBe(-32011);
    expect(body.error?.message).toMatch(/^Execution has got timeout out\. .*300 ms.*--execution-timeout/);
    expect(answered).toBeGreaterThan(0);
    // The runner recovers: the next call executes normally.
    const gasLeft = BigInt(await call(t.testnetUrl, 'eth_call', [{ data: GAS_LEFT, gas: '0x186a0' }, 'latest']));
    expect(gasLeft).toBeGreaterThan(90_000n);
    expect(gasLeft).toBeLessThan(100_000n);
  });

  it('eth_estimateGas shares one time limit across its attempts: -32011', async () => {
    const t = await start({ limits: { executionTimeoutMs: 50 } });
    const { body } = await rpc(t.testnetUrl, 'eth_estimateGas', [{ data: LOOP }]);
    expect(body.error?.code).toBe(-32011);
  });

  it('tracing a long transaction answers -32011 after the time limit (debug_ and trace_)', async () => {
    const t = await start({ limits: { executionTimeoutMs: 50 } });
    // Mining is never timed: the looping creation runs until it has used its 2,000,000 gas.
    const hash = await call(t.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, data: LOOP, gas: '0x1e8480' }]);
    const receipt = await call(t.testnetUrl, 'eth_getTransactionReceipt', [hash]);
    expect([receipt.status, receipt.gasUsed]).toEqual(['0x0', '0x1e8480']);
    for (const method of ['debug_traceTransaction', 'trace_transaction']) {
      const { body } = await rpc(t.testnetUrl, method, [hash]);
      expect(body.error?.code).toBe(-32011);
    }
  });

  it('--execution-timeout 0 removes the limit: the loop runs out of gas (rskj: empty result, no error)', async () => {
    const t = await start({ limits: { executionTimeoutMs: 0, callGasCap: 200_000n } });
    expect(await call(t.testnetUrl, 'eth_call', [{ data: LOOP }, 'latest'])).toBe('0x');
  });

  it('the gas cap bounds eth_call and eth_estimateGas', async () => {
    const t = await start({ limits: { callGasCap: 100_000n } });
    // Asking for more gives the cap.
    const gasLeft = BigInt(await call(t.testnetUrl, 'eth_call', [{ data: GAS_LEFT, gas: '0x3b9aca00' }, 'latest']));
    expect(gasLeft).toBeGreaterThan(90_000n);
    expect(gasLeft).toBeLessThan(100_000n);
    // A transaction that never succeeds is estimated at the cap, not at 6,800,000.
    expect(await call(t.testnetUrl, 'eth_estimateGas', [{ data: LOOP }])).toBe('0x186a0');
  });

  it('the default gas cap is rskj callGasCap, 10,000,000', async () => {
    const t = await start();
    const gasLeft = BigInt(await call(t.testnetUrl, 'eth_call', [{ data: GAS_LEFT, gas: '0xffffffffff' }, 'latest']));
    expect(gasLeft).toBeGreaterThan(9_990_000n);
    expect(gasLeft).toBeLessThan(10_000_000n);
  });
});

describe('filter limits', () => {
  it('caps the filters one API key installs; other keys keep theirs; uninstalling frees room', async () => {
    const t = await start({ apiKeys: keys, limits: { maxFilters: 3 } });
    const other = `${t.baseUrl}/${OTHER_TESTNET_KEY}`;
    const ids = [
      await call(t.testnetUrl, 'eth_newFilter', [{}]),
      await call(t.testnetUrl, 'eth_newBlockFilter'),
      await call(t.testnetUrl, 'eth_newPendingTransactionFilter'),
    ];
    const refused = await rpc(t.testnetUrl, 'eth_newBlockFilter');
    expect(refused.body.error?.code).toBe(-32005);
    expect(refused.body.error?.message).toMatch(/too many filters: 3 installed .*--max-filters/);
    // The key's filters still work, and another key is not affected.
    expect(await call(t.testnetUrl, 'eth_getFilterChanges', [ids[1]])).toEqual([]);
    expect(await call(other, 'eth_newBlockFilter')).toMatch(/^0x[0-9a-f]+$/);
    expect(await call(t.testnetUrl, 'eth_uninstallFilter', [ids[0]])).toBe(true);
    expect(await call(t.testnetUrl, 'eth_newBlockFilter')).toMatch(/^0x[0-9a-f]+$/);
  });

  it('refuses more addresses or topics per position than allowed (-32602), in eth_getLogs and eth_newFilter', async () => {
    const t = await start({ limits: { maxFilterAddresses: 2, maxFilterTopics: 2 } });
    const addresses = [address(1), address(2), address(3)];
    for (const method of ['eth_getLogs', 'eth_newFilter']) {
      const tooManyAddresses = await rpc(t.testnetUrl, method, [{ address: addresses }]);
      expect(tooManyAddresses.body.error?.code).toBe(-32602);
      expect(tooManyAddresses.body.error?.message).toMatch(/3 addresses, want at most 2/);
      const tooManyTopics = await rpc(t.testnetUrl, method, [{ topics: [null, [topic(1), topic(2), topic(3)]] }]);
      expect(tooManyTopics.body.error?.code).toBe(-32602);
      expect(tooManyTopics.body.error?.message).toMatch(/"topics"\[1\]: 3 topics, want at most 2/);
    }
    expect(await call(t.testnetUrl, 'eth_getLogs', [{ address: addresses.slice(0, 2), topics: [[topic(1), topic(2)]] }])).toEqual([]);
  });

  it('the default address limit is 1,000', async () => {
    const t = await start();
    const many = Array.from({ length: 1001 }, (_, i) => address(i + 1));
    expect((await rpc(t.testnetUrl, 'eth_getLogs', [{ address: many }])).body.error?.code).toBe(-32602);
    expect(await call(t.testnetUrl, 'eth_getLogs', [{ address: many.slice(1) }])).toEqual([]);
  });
});

describe('WebSocket limits', () => {
  it('caps the subscriptions of one connection (-32005) and checks a logs filter size', async () => {
    const t = await start({ limits: { maxSubscriptions: 2, maxFilterAddresses: 1 } });
    const ws = await openSocket(t.testnetUrl);
    const first = await ws.request('eth_subscribe', ['newHeads']);
    expect((await ws.request('eth_subscribe', ['newPendingTransactions'])).result).toMatch(/^0x/);
    const refused = await ws.request('eth_subscribe', ['newHeads']);
    expect(refused.error?.code).toBe(-32005);
    expect(refused.error?.message).toMatch(/too many subscriptions.*--max-subscriptions/);
    expect((await ws.request('eth_unsubscribe', [first.result])).result).toBe(true);
    const tooWide = await ws.request('eth_subscribe', ['logs', { address: [address(1), address(2)] }]);
    expect(tooWide.error?.code).toBe(-32602);
    expect((await ws.request('eth_subscribe', ['logs', { address: address(1) }])).result).toMatch(/^0x/);
    ws.socket.close();
  });

  it('drops a client that does not answer pings, and keeps one that does', async () => {
    const t = await start({ limits: { webSocket: { pingIntervalMs: 50 } } });
    const silent = await openSocket(t.testnetUrl, { autoPong: false });
    const polite = await openSocket(t.testnetUrl);
    // Closed by the server without a close frame.
    expect(await silent.closed).toBe(1006);
    // The answering client has seen several pings by now and still gets answers.
    expect((await polite.request('eth_chainId')).result).toBe('0x1f');
    polite.socket.close();
  });

  it('drops a client that leaves more than the buffer limit unread', async () => {
    const t = await start({ limits: { webSocket: { maxBufferedBytes: 64 * 1024 } } });
    const events = t.node.chains.testnet.events;
    const listeners = events.listenerCount('block');
    const ws = await openSocket(t.testnetUrl);
    expect((await ws.request('eth_subscribe', ['newHeads'])).result).toMatch(/^0x/);
    expect(events.listenerCount('block')).toBe(listeners + 1);
    // Stop reading, then ask for far more than the kernel's socket buffers hold.
    ws.socket.pause();
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBlockByNumber', params: ['0x0', true] })));
    for (let i = 0; i < 30; i++) ws.socket.send(batch);
    // Dropped: the connection's subscription is gone from the chain's listeners.
    await waitFor('the server to drop the connection', () => events.listenerCount('block') === listeners);
    ws.socket.resume();
    expect(await ws.closed).toBe(1006);
  });
});
