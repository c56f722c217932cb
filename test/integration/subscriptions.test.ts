/**
 * Live subscriptions over the WebSocket on the key-bearing path (issue 5): eth_subscribe for
 * newHeads, logs and newPendingTransactions, eth_unsubscribe, key checks on the upgrade,
 * removed logs after evm_revert, the end of subscriptions when the socket closes, and the
 * clients: ethers' WebSocketProvider (contract.on, provider.on('block')) and viem's webSocket
 * transport (watchContractEvent, watchBlockNumber).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AbiCoder, Contract, Interface, Network, WebSocketProvider, id as eventId } from 'ethers';
import { createPublicClient, defineChain, getAddress, webSocket, type Abi, type Address } from 'viem';
import { watchBlockNumber } from 'viem/actions';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, rpc, startTestNode, type TestNode, waitFor } from '../helpers/node.js';
import { sendFromCow, successfulReceipt, topicOf, word } from '../helpers/logs.js';

const coder = AbiCoder.defaultAbiCoder();
const tokenIface = new Interface(contracts.Token.abi);
const reverterIface = new Interface(contracts.Reverter.abi);
const TRANSFER = eventId('Transfer(address,address,uint256)');
const APPROVAL = eventId('Approval(address,address,uint256)');
const SUBSCRIPTION_ID = /^0x(0|[1-9a-f][0-9a-f]*)$/;


interface Notification {
  jsonrpc: string;
  method: string;
  params: { subscription: string; result: any };
}

/** A raw JSON-RPC WebSocket client: requests by id, notifications collected in order. */
class WsClient {
  readonly notifications: Notification[] = [];
  private readonly waiting = new Map<number, (reply: any) => void>();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.method === 'eth_subscription') this.notifications.push(message);
      else this.waiting.get(message.id)?.(message);
    });
  }

  static open(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  request(method: string, params: unknown[] = []): Promise<{ id: number; jsonrpc: string; result?: any; error?: { code: number; message: string } }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  async call(method: string, params: unknown[] = []): Promise<any> {
    const reply = await this.request(method, params);
    if (reply.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  of(subscription: string): any[] {
    return this.notifications.filter((n) => n.params.subscription === subscription).map((n) => n.params.result);
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

const wsUrl = (httpUrl: string) => httpUrl.replace(/^http/, 'ws');

describe('eth_subscribe over a raw WebSocket', () => {
  let t: TestNode;
  let url: string;
  let ws: string;
  let token: string;
  let reverter: string;
  const clients: WsClient[] = [];
  const open = async (u = ws) => {
    const client = await WsClient.open(u);
    clients.push(client);
    return client;
  };
  const listeners = () => {
    const events = t.node.chains.testnet.events;
    return { block: events.listenerCount('block'), rewind: events.listenerCount('rewind'), pendingTransaction: events.listenerCount('pendingTransaction') };
  };

  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
    ws = wsUrl(url);
    token = (await successfulReceipt(url, await sendFromCow(url, { data: contracts.Token.bytecode + coder.encode(['uint256'], [1_000_000n]).slice(2) }))).contractAddress;
    reverter = (await successfulReceipt(url, await sendFromCow(url, { data: contracts.Reverter.bytecode }))).contractAddress;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('newHeads: eth_subscription notifications carrying the block header without transactions', async () => {
    const client = await open();
    const reply = await client.request('eth_subscribe', ['newHeads']);
    expect(reply.jsonrpc).toBe('2.0');
    const id = reply.result;
    expect(id).toMatch(SUBSCRIPTION_ID);

    const hash = await sendFromCow(url, { to: COW1.address, value: '0x1' });
    const r = await successfulReceipt(url, hash);
    const [message] = await waitFor('a newHeads notification', () => {
      const found = client.notifications.filter((n) => n.params.subscription === id);
      return found.length >= 1 && found;
    });
    expect(message!.jsonrpc).toBe('2.0');
    expect(message!.method).toBe('eth_subscription');
    expect(Object.keys(message!.params).sort()).toEqual(['result', 'subscription']);
    const head = message!.params.result;

    const block = await call(url, 'eth_getBlockByNumber', [r.blockNumber, false]);
    expect(head.number).toBe(r.blockNumber);
    expect(head.hash).toBe(r.blockHash);
    expect(head.parentHash).toBe(block.parentHash);
    expect(head.minimumGasPrice).toBe(block.minimumGasPrice);
    expect(head).not.toHaveProperty('transactions');
    for (const field of ['number', 'hash', 'parentHash', 'sha3Uncles', 'logsBloom', 'transactionsRoot', 'stateRoot', 'receiptsRoot', 'miner', 'difficulty', 'extraData', 'gasLimit', 'gasUsed', 'timestamp', 'minimumGasPrice']) {
      expect(head[field], field).toBe(block[field]);
    }
    // every header field is the block's
    for (const [key, value] of Object.entries(head)) expect(value, key).toEqual(block[key]);

    // one notification per block, in order
    await call(url, 'hardhat_mine', ['0x3']);
    const heads = await waitFor('three more heads', () => client.of(id).length >= 4 && client.of(id));
    expect(heads.map((h: any) => Number(h.number))).toEqual([0, 1, 2, 3].map((i) => Number(r.blockNumber) + i));
    for (let i = 1; i < heads.length; i++) expect(heads[i].parentHash).toBe(heads[i - 1].hash);
  });

  it('logs with a filter: only matching logs, equal to eth_getLogs', async () => {
    const client = await open();
    const transfers = await client.call('eth_subscribe', ['logs', { address: token, topics: [TRANSFER] }]);
    const toCow1 = await client.call('eth_subscribe', ['logs', { address: [reverter, token], topics: [[TRANSFER, APPROVAL], null, topicOf(COW1.address)] }]);
    const all = await client.call('eth_subscribe', ['logs']);

    const approve = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('approve', [COW1.address, 3n]) }));
    const inc = await successfulReceipt(url, await sendFromCow(url, { to: reverter, data: reverterIface.encodeFunctionData('increment', []) }));
    const t1 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW.address, 1n]) }));
    const t2 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 2n]) }));

    // the last event of each subscription comes last: once it is here, everything before it is too
    await waitFor('the last transfer on every subscription', () =>
      [transfers, toCow1, all].every((id) => client.of(id).some((l: any) => l.transactionHash === t2.transactionHash)),
    );
    expect(client.of(transfers)).toEqual([...t1.logs, ...t2.logs]);
    expect(client.of(toCow1)).toEqual([...approve.logs, ...t2.logs]);
    expect(client.of(all)).toEqual([...approve.logs, ...inc.logs, ...t1.logs, ...t2.logs]);
    expect(client.of(transfers).map((l: any) => l.data)).toEqual([word(1), word(2)]);
    for (const l of client.of(all)) expect(l.removed).toBe(false);
    expect(client.of(all)).toEqual(await call(url, 'eth_getLogs', [{ fromBlock: approve.blockNumber, toBlock: t2.blockNumber }]));
  });

  it('newPendingTransactions: the hashes of transactions entering the pool', async () => {
    const manual = await startTestNode({ mining: false });
    try {
      const client = await WsClient.open(wsUrl(manual.testnetUrl));
      try {
        const id = await client.call('eth_subscribe', ['newPendingTransactions']);
        expect(id).toMatch(SUBSCRIPTION_ID);
        const h1 = await call(manual.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
        const h2 = await call(manual.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x2' }]);
        expect(await call(manual.testnetUrl, 'eth_getTransactionReceipt', [h1])).toBeNull();
        const hashes = await waitFor('two pending hashes', () => client.of(id).length >= 2 && client.of(id));
        expect(hashes).toEqual([h1, h2]);
        const n = client.notifications[0]!;
        expect(n).toEqual({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: h1 } });
      } finally {
        await client.close();
      }
    } finally {
      await manual.close();
    }
  });

  it('eth_unsubscribe: true, then false; no notifications after it', async () => {
    const client = await open();
    const a = await client.call('eth_subscribe', ['newHeads']);
    const b = await client.call('eth_subscribe', ['newHeads']);
    expect(a).not.toBe(b);
    expect(await client.call('eth_unsubscribe', [a])).toBe(true);
    expect(await client.call('eth_unsubscribe', [a])).toBe(false);
    expect(await client.call('eth_unsubscribe', ['0x1234abcd'])).toBe(false);

    await call(url, 'evm_mine');
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    // b's notification is pushed after a's would have been (same emit, a listened first)
    await waitFor('b notification', () => client.of(b).some((h: any) => h.hash === head.hash));
    expect(client.of(a)).toEqual([]);
    expect(await client.call('eth_unsubscribe', [b])).toBe(true);
  });

  it('a subscription id of another connection cannot be removed', async () => {
    const one = await open();
    const two = await open();
    const id = await one.call('eth_subscribe', ['newHeads']);
    expect(await two.call('eth_unsubscribe', [id])).toBe(false);
    await call(url, 'evm_mine');
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    await waitFor('one still notified', () => one.of(id).some((h: any) => h.hash === head.hash));
  });

  it('bad subscription requests are -32602', async () => {
    const client = await open();
    const unknown = await client.request('eth_subscribe', ['syncing-or-else']);
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toMatch(/newHeads/);
    const badFilter = await client.request('eth_subscribe', ['logs', { address: '0x12' }]);
    expect(badFilter.error?.code).toBe(-32602);
    expect(badFilter.error?.message).toMatch(/address/);
    const fiveTopics = await client.request('eth_subscribe', ['logs', { topics: [null, null, null, null, null] }]);
    expect(fiveTopics.error?.code).toBe(-32602);
  });

  it('ordinary JSON-RPC works on the socket too', async () => {
    const client = await open();
    expect(await client.call('eth_chainId')).toBe('0x1f');
    expect(await client.call('eth_blockNumber')).toBe(await call(url, 'eth_blockNumber'));
  });

  it('an unknown or missing key gets HTTP 401 on the upgrade', async () => {
    for (const bad of [`${t.baseUrl}/not-a-key`, `${t.baseUrl}/`]) {
      const status = await new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(wsUrl(bad));
        socket.once('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          socket.terminate();
        });
        socket.once('open', () => {
          socket.close();
          reject(new Error(`upgrade accepted for ${bad}`));
        });
        socket.once('error', () => undefined);
      });
      expect(status).toBe(401);
    }
  });

  it('eth_subscribe and eth_unsubscribe over HTTP: -32601 mentioning WebSocket', async () => {
    for (const [method, params] of [
      ['eth_subscribe', ['newHeads']],
      ['eth_unsubscribe', ['0x1']],
    ] as const) {
      const { body } = await rpc(url, method, [...params]);
      expect(body.error?.code).toBe(-32601);
      expect(body.error?.message).toMatch(/WebSocket/);
    }
  });

  it('a logs subscription sees removed: true logs after evm_revert', async () => {
    const client = await open();
    const id = await client.call('eth_subscribe', ['logs', { address: token }]);
    const snapshot = await call(url, 'evm_snapshot');
    const r1 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 7n]) }));
    const r2 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 8n]) }));
    await waitFor('two logs', () => client.of(id).length >= 2);
    expect(client.of(id)).toEqual([...r1.logs, ...r2.logs]);

    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    const removed = await waitFor('removed logs', () => client.of(id).length >= 4 && client.of(id).slice(2));
    const byPosition = (x: any, y: any) => Number(x.blockNumber) - Number(y.blockNumber) || Number(x.logIndex) - Number(y.logIndex);
    expect([...removed].sort(byPosition)).toEqual([...r1.logs, ...r2.logs].map((l: any) => ({ ...l, removed: true })));

    // then the new branch's logs, valid again
    const r3 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 9n]) }));
    await waitFor('the new log', () => client.of(id).length >= 5);
    expect(client.of(id)[4]).toEqual(r3.logs[0]);
    expect(r3.blockNumber).toBe(r1.blockNumber);
    expect(r3.blockHash).not.toBe(r1.blockHash);
  });

  it('subscriptions end when the socket closes (the chain listeners are released)', async () => {
    const before = listeners();
    const client = await WsClient.open(ws);
    await client.call('eth_subscribe', ['newHeads']);
    await client.call('eth_subscribe', ['logs', { address: token }]);
    await client.call('eth_subscribe', ['newPendingTransactions']);
    expect(listeners()).toEqual({ block: before.block + 2, rewind: before.rewind + 1, pendingTransaction: before.pendingTransaction + 1 });
    await client.close();
    await waitFor('listeners released', () => {
      const now = listeners();
      return now.block === before.block && now.rewind === before.rewind && now.pendingTransaction === before.pendingTransaction;
    });
    expect(listeners()).toEqual(before);

    // eth_unsubscribe releases them too
    const other = await open();
    const id = await other.call('eth_subscribe', ['logs']);
    expect(listeners()).toEqual({ ...before, block: before.block + 1, rewind: before.rewind + 1 });
    expect(await other.call('eth_unsubscribe', [id])).toBe(true);
    expect(listeners()).toEqual(before);
  });

  it('a terminated socket (no close handshake) releases its subscriptions too', async () => {
    const before = listeners();
    const client = await WsClient.open(ws);
    await client.call('eth_subscribe', ['newHeads']);
    expect(listeners().block).toBe(before.block + 1);
    client.socket.terminate();
    await waitFor('listeners released', () => listeners().block === before.block);
    expect(listeners()).toEqual(before);
  });
});

describe('clients over WebSocket', () => {
  let t: TestNode;
  let url: string;
  let token: string;
  const blockListeners = () => t.node.chains.testnet.events.listenerCount('block');

  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
    token = (await successfulReceipt(url, await sendFromCow(url, { data: contracts.Token.bytecode + coder.encode(['uint256'], [1_000_000n]).slice(2) }))).contractAddress;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("ethers v6 WebSocketProvider: contract.on('Transfer') and provider.on('block')", async () => {
    const provider = new WebSocketProvider(wsUrl(url), new Network('rsk-testnet', 31n), { staticNetwork: true });
    const baseline = blockListeners();
    try {
      expect(await provider.getBlockNumber()).toBe(Number(await call(url, 'eth_blockNumber')));
      const contract = new Contract(token, contracts.Token.abi, provider);
      const events: Array<{ from: string; to: string; value: bigint; hash: string; block: number }> = [];
      await contract.on('Transfer', (from: string, to: string, value: bigint, payload: any) => {
        events.push({ from, to, value, hash: payload.log.transactionHash, block: payload.log.blockNumber });
      });
      await waitFor('the logs subscription', () => blockListeners() > baseline);

      const r1 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 5n]) }));
      const r2 = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 6n]) }));
      await waitFor('two Transfer events', () => events.length >= 2);
      expect(events).toEqual([
        { from: getAddress(COW.address), to: getAddress(COW1.address), value: 5n, hash: r1.transactionHash, block: Number(r1.blockNumber) },
        { from: getAddress(COW.address), to: getAddress(COW1.address), value: 6n, hash: r2.transactionHash, block: Number(r2.blockNumber) },
      ]);

      const blocks: number[] = [];
      const withLogs = blockListeners();
      await provider.on('block', (n: number) => blocks.push(n));
      await waitFor('the newHeads subscription', () => blockListeners() > withLogs);
      const start = Number(await call(url, 'eth_blockNumber'));
      await call(url, 'hardhat_mine', ['0x2']);
      await waitFor('block events', () => blocks.includes(start + 2));
      expect(blocks.filter((n) => n > start)).toEqual([start + 1, start + 2]);

      // ethers unsubscribes (eth_unsubscribe) when the listeners go: the node releases both subscriptions
      await contract.removeAllListeners();
      await provider.removeAllListeners();
      await waitFor('ethers unsubscribed', () => blockListeners() === baseline);
    } finally {
      provider.destroy();
    }
  });

  it('viem webSocket transport: watchContractEvent and watchBlockNumber (poll: false)', async () => {
    const chain = defineChain({
      id: 31,
      name: 'Rootstock devnode (testnet)',
      nativeCurrency: { name: 'Rootstock Bitcoin', symbol: 'RBTC', decimals: 18 },
      rpcUrls: { default: { http: [url], webSocket: [wsUrl(url)] } },
    });
    const client = createPublicClient({ chain, transport: webSocket(wsUrl(url), { keepAlive: false, reconnect: false }) });
    const unwatchers: Array<() => void> = [];
    const baseline = blockListeners();
    try {
      const logs: any[] = [];
      unwatchers.push(
        client.watchContractEvent({
          address: token as Address,
          abi: contracts.Token.abi as Abi,
          eventName: 'Transfer',
          poll: false,
          onLogs: (batch) => logs.push(...batch),
        }),
      );
      await waitFor('the logs subscription', () => blockListeners() > baseline);

      const r = await successfulReceipt(url, await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('transfer', [COW1.address, 42n]) }));
      await waitFor('a Transfer log', () => logs.length >= 1);
      expect(logs).toHaveLength(1);
      expect(logs[0].eventName).toBe('Transfer');
      expect(logs[0].args).toEqual({ from: getAddress(COW.address), to: getAddress(COW1.address), value: 42n });
      expect(logs[0].transactionHash).toBe(r.transactionHash);
      expect(logs[0].blockHash).toBe(r.blockHash);
      expect(logs[0].blockNumber).toBe(BigInt(r.blockNumber));
      expect(logs[0].logIndex).toBe(0);
      expect(logs[0].removed).toBe(false);

      const numbers: bigint[] = [];
      const withLogs = blockListeners();
      unwatchers.push(
        // the action itself: the client decorator's parameter type ignores the transport (viem 2.57)
        watchBlockNumber(client, {
          poll: false,
          onBlockNumber: (n) => {
            numbers.push(n);
          },
        }),
      );
      await waitFor('the newHeads subscription', () => blockListeners() > withLogs);
      const start = BigInt(await call(url, 'eth_blockNumber'));
      await call(url, 'evm_mine');
      await call(url, 'evm_mine');
      await waitFor('block numbers', () => numbers.includes(start + 2n));
      expect(numbers.filter((n) => n > start)).toEqual([start + 1n, start + 2n]);
    } finally {
      for (const unwatch of unwatchers) unwatch();
      (await client.transport.getRpcClient()).close();
    }
    await waitFor('viem subscriptions released', () => blockListeners() === baseline);
  });
});
