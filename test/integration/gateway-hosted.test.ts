/**
 * --hosted (issue 3): dashboard keys get the hosted endpoint's behaviour (no node keys, no test
 * control on a shared chain) while operator keys keep everything; without --hosted a dashboard
 * key keeps test control but never reaches the node's own keys (issue 19).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Wallet, keccak256 } from 'ethers';
import { createNode } from '../../src/index.js';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';

const MIN_GAS_PRICE = 60_000_000n;
const NO_KEYS = /the hosted endpoint holds no keys/;
const SHARED_CHAIN = /it would rewrite a chain other tenants share/;
const MESSAGE_HEX = '0x68656c6c6f'; // "hello"

/** Signs up, logs in and creates a key; returns the key-bearing URL. */
async function dashboardKeyUrl(baseUrl: string, email: string, network: 'testnet' | 'mainnet' = 'testnet'): Promise<string> {
  const headers = { 'content-type': 'application/json' };
  const credentials = JSON.stringify({ email, password: 'hosted-password-1' });
  expect((await fetch(`${baseUrl}/api/signup`, { method: 'POST', headers, body: credentials })).status).toBe(201);
  const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers, body: credentials });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const created = await fetch(`${baseUrl}/api/keys`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ name: 'app', network }) });
  expect(created.status).toBe(201);
  return ((await created.json()) as { url: string }).url;
}

async function result(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { status, body } = await rpc(url, method, params);
  expect(body.error, `${method} answered ${status} ${JSON.stringify(body.error)}`).toBeUndefined();
  expect(status).toBe(200);
  return body.result;
}

async function refusal(url: string, method: string, params: unknown[]) {
  const { status, body } = await rpc(url, method, params, `${method}-id`);
  expect(body.result, `${method}: ${JSON.stringify(body)}`).toBeUndefined();
  expect((body as { id?: unknown }).id).toBe(`${method}-id`);
  return { status, error: body.error! };
}

const transfer = { from: COW.address, to: COW1.address, value: '0x1' };
const signingCalls: Array<[string, unknown[]]> = [
  ['eth_sendTransaction', [transfer]],
  ['eth_sign', [COW.address, MESSAGE_HEX]],
  ['personal_sign', [MESSAGE_HEX, COW.address]],
  ['eth_signTypedData_v4', [COW.address, '{}']],
];
const operatorCalls: Array<[string, unknown[]]> = [
  ['evm_snapshot', []],
  ['evm_mine', []],
  ['hardhat_setBalance', [COW1.address, '0x1']],
  ['evm_increaseTime', [60]],
  ['anvil_setBalance', [COW1.address, '0x2']],
  ['hardhat_mine', ['0x2']],
  ['evm_setBlockGasLimit', ['0x1c9c380']],
  ['hardhat_setCoinbase', [COW1.address]],
  ['anvil_autoImpersonateAccount', [true]],
  ['anvil_deal', [COW1.address, '0x3']],
  ['btc_mine', [1]],
  ['btc_fund', ['bcrt1qyyed96v8vjfl5m3ehj6t5qj72rkzzlynqewnvx', 1000]],
];

describe('--hosted: dashboard keys behave like the hosted endpoint', () => {
  let t: TestNode;
  let userUrl: string;
  beforeAll(async () => {
    t = await startTestNode({ hosted: true });
    userUrl = await dashboardKeyUrl(t.baseUrl, 'tenant@example.com');
  });
  afterAll(() => t.close());

  it('eth_accounts is [] for a dashboard key', async () => {
    expect(await result(userUrl, 'eth_accounts')).toEqual([]);
    const mainnetUrl = await dashboardKeyUrl(t.baseUrl, 'tenant2@example.com', 'mainnet');
    expect(await result(mainnetUrl, 'eth_accounts')).toEqual([]);
  });

  it('eth_sendTransaction, eth_sign and personal_sign answer -32601 saying the hosted endpoint holds no keys', async () => {
    const nonceBefore = await result(t.testnetUrl, 'eth_getTransactionCount', [COW.address, 'latest']);
    const headBefore = await result(t.testnetUrl, 'eth_blockNumber');
    for (const [method, params] of signingCalls) {
      const { status, error } = await refusal(userUrl, method, params);
      expect(status, method).toBe(200);
      expect(error.code, method).toBe(-32601);
      expect(error.message, method).toMatch(NO_KEYS);
      expect(error.message, method).toBe(`${method} is not available: the hosted endpoint holds no keys. Sign locally and send with eth_sendRawTransaction`);
    }
    // nothing was signed or sent
    expect(await result(t.testnetUrl, 'eth_getTransactionCount', [COW.address, 'latest'])).toBe(nonceBefore);
    expect(await result(t.testnetUrl, 'eth_blockNumber')).toBe(headBefore);
  });

  it('hardhat_metadata, anvil_metadata and anvil_nodeInfo answer -32601: the hosted endpoint is no development node', async () => {
    for (const method of ['hardhat_metadata', 'anvil_metadata', 'anvil_nodeInfo']) {
      const { error } = await refusal(userUrl, method, []);
      expect(error, method).toEqual({ code: -32601, message: `${method} is not available on the hosted endpoint: it is no Hardhat or anvil development node` });
    }
    expect((await result(t.testnetUrl, 'anvil_metadata')).chainId).toBe(31);
  });

  it('evm_snapshot, evm_mine, hardhat_setBalance and the other test-control methods are refused: the chain is shared', async () => {
    const headBefore = await result(t.testnetUrl, 'eth_blockNumber');
    const balanceBefore = await result(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest']);
    for (const [method, params] of operatorCalls) {
      const { status, error } = await refusal(userUrl, method, params);
      expect(status, method).toBe(200);
      expect(error.code, method).toBe(-32601);
      expect(error.message, method).toMatch(SHARED_CHAIN);
      expect(error.message, method).toBe(`${method} is not available to dashboard keys on the hosted endpoint: it would rewrite a chain other tenants share`);
    }
    expect(await result(t.testnetUrl, 'eth_blockNumber')).toBe(headBefore);
    expect(await result(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest'])).toBe(balanceBefore);
  });

  it('the refusals hold inside a batch too, next to calls that work', async () => {
    const response = await fetch(userUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'evm_mine', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_accounts', params: [] },
        { jsonrpc: '2.0', id: 4, method: 'eth_sign', params: [COW.address, MESSAGE_HEX] },
      ]),
    });
    const body = (await response.json()) as Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>;
    expect(body.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(body[0]!.result).toBe('0x1f');
    expect(body[1]!.error!.message).toMatch(SHARED_CHAIN);
    expect(body[2]!.result).toEqual([]);
    expect(body[3]!.error!.message).toMatch(NO_KEYS);
  });

  it('the same restrictions apply over the WebSocket of a dashboard key, not of the operator key', async () => {
    const ask = (url: string, calls: Array<[string, unknown[]]>) =>
      new Promise<Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>>((resolve, reject) => {
        const socket = new WebSocket(url.replace(/^http/, 'ws'));
        socket.once('error', reject);
        socket.once('open', () => socket.send(JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })))));
        socket.once('message', (data) => {
          socket.close();
          resolve(JSON.parse(data.toString()));
        });
      });
    const calls: Array<[string, unknown[]]> = [
      ['eth_accounts', []],
      ['eth_sign', [COW.address, MESSAGE_HEX]],
      ['evm_snapshot', []],
    ];
    const tenant = await ask(userUrl, calls);
    expect(tenant[0]!.result).toEqual([]);
    expect(tenant[1]!.error!.code).toBe(-32601);
    expect(tenant[1]!.error!.message).toMatch(NO_KEYS);
    expect(tenant[2]!.error!.code).toBe(-32601);
    expect(tenant[2]!.error!.message).toMatch(SHARED_CHAIN);
    const operator = await ask(t.testnetUrl, calls);
    expect(operator[0]!.result).toHaveLength(11);
    expect(operator[1]!.result).toMatch(/^0x[0-9a-f]{130}$/);
    expect(operator[2]!.result).toMatch(/^0x[0-9a-f]+$/);
  });

  it('eth_sendRawTransaction still works for a dashboard key', async () => {
    const nonce = Number(await result(userUrl, 'eth_getTransactionCount', [COW.address, 'pending']));
    const raw = await new Wallet(COW.privateKey).signTransaction({
      type: 0,
      chainId: 31,
      nonce,
      gasPrice: MIN_GAS_PRICE,
      gasLimit: 21_000,
      to: COW1.address,
      value: 12_345n,
    });
    const balanceBefore = BigInt(await result(userUrl, 'eth_getBalance', [COW1.address, 'latest']));
    const hash = await result(userUrl, 'eth_sendRawTransaction', [raw]);
    expect(hash).toBe(keccak256(raw));
    const receipt = await result(userUrl, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.from).toBe(COW.address);
    expect(BigInt(await result(userUrl, 'eth_getBalance', [COW1.address, 'latest']))).toBe(balanceBefore + 12_345n);
  });

  it('the operator key keeps everything: 11 accounts, evm_snapshot, evm_mine, signing', async () => {
    const accounts = await result(t.testnetUrl, 'eth_accounts');
    expect(accounts).toHaveLength(11);
    expect(accounts).toContain(COW.address);
    expect(await result(t.mainnetUrl, 'eth_accounts')).toHaveLength(11);

    const snapshot = await result(t.testnetUrl, 'evm_snapshot');
    expect(snapshot).toMatch(/^0x[0-9a-f]+$/);
    const head = BigInt(await result(t.testnetUrl, 'eth_blockNumber'));
    expect(await result(t.testnetUrl, 'evm_mine')).toBeNull();
    expect(BigInt(await result(t.testnetUrl, 'eth_blockNumber'))).toBe(head + 1n);
    expect(await result(t.testnetUrl, 'hardhat_setBalance', [COW1.address, '0x64'])).toBe(true);
    expect(await result(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest'])).toBe('0x64');
    expect(await result(t.testnetUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(BigInt(await result(t.testnetUrl, 'eth_blockNumber'))).toBe(head);

    const signature = await result(t.testnetUrl, 'eth_sign', [COW.address, MESSAGE_HEX]);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(await result(t.testnetUrl, 'personal_sign', [MESSAGE_HEX, COW.address])).toBe(signature);
    const hash = await result(t.testnetUrl, 'eth_sendTransaction', [transfer]);
    expect((await result(t.testnetUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  });
});

describe('without --hosted, a dashboard key has test control but never the node\'s keys', () => {
  let t: TestNode;
  let userUrl: string;
  beforeAll(async () => {
    t = await startTestNode();
    userUrl = await dashboardKeyUrl(t.baseUrl, 'local@example.com');
  });
  afterAll(() => t.close());

  it('test control works for a dashboard key', async () => {
    const snapshot = await result(userUrl, 'evm_snapshot');
    expect(snapshot).toMatch(/^0x[0-9a-f]+$/);
    const head = BigInt(await result(userUrl, 'eth_blockNumber'));
    expect(await result(userUrl, 'evm_mine')).toBeNull();
    expect(BigInt(await result(userUrl, 'eth_blockNumber'))).toBe(head + 1n);
    expect(await result(userUrl, 'hardhat_setBalance', [COW1.address, '0x64'])).toBe(true);
    expect(await result(userUrl, 'eth_getBalance', [COW1.address, 'latest'])).toBe('0x64');
    expect(await result(userUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(BigInt(await result(userUrl, 'eth_blockNumber'))).toBe(head);
  });

  it('a dashboard sign-up dumped the keys the operator unlocked (personal_dumpRawKey): every node-key method is refused, the operator keeps them', async () => {
    // The operator makes and unlocks an account; the dashboard user must not reach it or the cow keys.
    const created = await result(t.testnetUrl, 'personal_newAccount', ['operator-pass-1']);
    expect(await result(t.testnetUrl, 'personal_dumpRawKey', [created])).toMatch(/^0x[0-9a-f]{64}$/);
    const calls: Array<[string, unknown[]]> = [
      ...signingCalls,
      ['personal_dumpRawKey', [created]],
      ['personal_dumpRawKey', [COW.address]],
      ['personal_listAccounts', []],
      ['personal_newAccount', ['pw-123456']],
      ['personal_newAccountWithSeed', ['seed']],
      ['personal_importRawKey', [Wallet.createRandom().privateKey, 'pw']],
      ['personal_unlockAccount', [created, 'operator-pass-1']],
      ['personal_lockAccount', [created]],
      ['personal_sendTransaction', [{ from: created, to: COW1.address }, 'operator-pass-1']],
    ];
    for (const [method, params] of calls) {
      const { status, error } = await refusal(userUrl, method, params);
      expect(status, method).toBe(200);
      expect(error.code, method).toBe(-32601);
      expect(error.message, method).toBe(
        `${method} is not available to dashboard keys: the node's own keys serve only the operator's keys (the URLs printed at start-up). Sign locally and send with eth_sendRawTransaction`,
      );
    }
    // It sees no node accounts (ethers' getSigner finds none), and the operator's key was not locked by the attempt.
    expect(await result(userUrl, 'eth_accounts')).toEqual([]);
    expect(await result(userUrl, 'eth_pendingTransactions')).toEqual([]);
    expect(await result(t.testnetUrl, 'personal_dumpRawKey', [created])).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await result(t.testnetUrl, 'eth_accounts')).toContain(created);
    // Over its WebSocket too.
    const ws = new WebSocket(userUrl.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'personal_dumpRawKey', params: [created] }));
    expect(JSON.parse(await reply).error.code).toBe(-32601);
    ws.close();
  });

  it('a dashboard key still sends what it signs itself (eth_sendRawTransaction)', async () => {
    const wallet = new Wallet(COW.privateKey);
    const nonce = Number(await result(userUrl, 'eth_getTransactionCount', [COW.address, 'pending']));
    const raw = await wallet.signTransaction({ type: 0, to: COW1.address, value: 7n, gasLimit: 21_000n, gasPrice: MIN_GAS_PRICE, nonce, chainId: 31n });
    const hash = await result(userUrl, 'eth_sendRawTransaction', [raw]);
    expect(hash).toBe(keccak256(raw));
    expect((await result(userUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  });
});

describe('the start-up warning', () => {
  /** The lines a node logs at warn level while it starts listening on `host`, then closes. */
  async function startUpLines(host: string, hosted: boolean): Promise<string> {
    const lines: string[] = [];
    const node = await createNode({ inMemory: true, hosted, logLevel: 'warn', logDestination: { write: (line: string) => void lines.push(line) } });
    try {
      await node.server(0, host);
    } finally {
      await node.close();
    }
    return lines.join('');
  }

  it('a node listening beyond loopback without --hosted gave dashboard sign-ups test control silently: it now warns at start-up', async () => {
    // Listening only: no test connects anywhere but 127.0.0.1.
    const log = await startUpLines('0.0.0.0', false);
    expect(log).toMatch(/WARN {2}WARNING: listening on 0\.0\.0\.0, beyond this machine, without --hosted/);
    expect(await startUpLines('0.0.0.0', true)).toBe('');
    expect(await startUpLines('127.0.0.1', false)).toBe('');
  });
});
