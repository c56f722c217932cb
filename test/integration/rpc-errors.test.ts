/**
 * The JSON-RPC envelope and bad input, through real HTTP (fetch): parse errors, invalid requests,
 * unknown methods, invalid params, batches, the body size limit, API keys, and the transaction
 * pool's rejections with rskj's codes and messages (reference sections 7 and 11). None of it may
 * stop the server or change the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaseWallet, Wallet, decodeRlp, encodeRlp, getBytes, hexlify, keccak256, type RlpStructuredData } from 'ethers';
import { COW, COW1, MAINNET_KEY, TESTNET_KEY, rpc, rpcRaw, startTestNode, type TestNode } from '../helpers/node.js';

type Json = any;

const MIN_GAS_PRICE = 60_000_000n;
const BLOCK_GAS_LIMIT = 6_800_000n;
const q = (n: bigint | number) => `0x${n.toString(16)}`;

let t: TestNode;
let url: string;
const cow = new Wallet(COW.privateKey);
/** A wallet funded with less than one transfer's gas cost. */
const poor = Wallet.createRandom();
const POOR_BALANCE = 10n ** 12n; // < 21000 × 60,000,000 = 1.26 × 10^12
/** A raw transfer already mined: sending it again must be refused. */
let minedRaw: string;
let cowNonce: bigint;
let headBefore: string;
let cowBalanceBefore: string;

async function call(method: string, params: unknown[] = [], target = url): Promise<Json> {
  const { status, body } = await rpc(target, method, params);
  if (body.error !== undefined) throw new Error(`${method} answered ${status} ${JSON.stringify(body.error)}`);
  return body.result;
}

async function post(target: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(target, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers };
}

/** Signs a legacy (type 0) transfer from COW with sensible defaults. */
function signCow(overrides: Record<string, unknown> = {}, wallet: BaseWallet = cow): Promise<string> {
  return wallet.signTransaction({
    type: 0,
    chainId: 31,
    nonce: Number(cowNonce),
    gasPrice: MIN_GAS_PRICE,
    gasLimit: 21_000,
    to: COW1.address,
    value: 1n,
    ...overrides,
  });
}

async function expectRejected(raw: string, code: number, message: string | RegExp) {
  const { status, body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
  expect(body.result, JSON.stringify(body)).toBeUndefined();
  expect(body.error?.code, JSON.stringify(body)).toBe(code);
  if (typeof message === 'string') expect(body.error?.message).toBe(message);
  else expect(body.error?.message).toMatch(message);
  expect(status).toBe(code === -32602 ? 400 : 200);
  // never pooled nor mined
  expect(await call('eth_getTransactionByHash', [keccak256(raw)])).toBeNull();
}

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  // a mined transfer whose raw bytes are resent later
  minedRaw = await cow.signTransaction({
    type: 0, chainId: 31, nonce: 0, gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, to: COW1.address, value: 1n,
  });
  await call('eth_sendRawTransaction', [minedRaw]);
  // fund the poor wallet with less than a transfer costs
  await call('eth_sendTransaction', [{ from: COW.address, to: poor.address, value: q(POOR_BALANCE) }]);
  cowNonce = BigInt(await call('eth_getTransactionCount', [COW.address, 'latest']));
  headBefore = await call('eth_blockNumber');
  cowBalanceBefore = await call('eth_getBalance', [COW.address, 'latest']);
});
afterAll(() => t.close());

describe('setup', () => {
  it('two transactions were mined before the bad input starts', () => {
    expect(headBefore).toBe('0x2');
    expect(cowNonce).toBe(2n);
  });
});

// ---- envelope ------------------------------------------------------------------------------------

describe('envelope', () => {
  it('malformed JSON: HTTP 400, -32700, id null', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', 'not json', '', '{"id":1,}']) {
      const res = await rpcRaw(url, body);
      expect(res.status, body).toBe(400);
      expect(res.body.jsonrpc).toBe('2.0');
      expect(res.body.id).toBeNull();
      expect(res.body.error.code).toBe(-32700);
      expect(typeof res.body.error.message).toBe('string');
      expect(res.body).not.toHaveProperty('result');
    }
  });

  it('{} is -32600 with HTTP 400', async () => {
    const res = await rpcRaw(url, '{}');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.id).toBeNull();
  });

  it('a missing method, a non-string method and a non-object request are -32600 (HTTP 400)', async () => {
    const cases: Array<[string, unknown]> = [
      [JSON.stringify({ jsonrpc: '2.0', id: 5, params: [] }), 5],
      [JSON.stringify({ jsonrpc: '2.0', id: 6, method: 42, params: [] }), 6],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: ['eth_chainId'], params: [] }), 7],
      [JSON.stringify({ jsonrpc: '2.0', id: 8, method: null, params: [] }), 8],
      ['42', null],
      ['"eth_chainId"', null],
      ['null', null],
    ];
    for (const [body, id] of cases) {
      const res = await rpcRaw(url, body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code, body).toBe(-32600);
      expect(res.body.id, body).toBe(id);
    }
  });

  it('the request id is echoed (numbers and strings)', async () => {
    expect((await rpc(url, 'eth_chainId', [], 12345)).body).toEqual({ jsonrpc: '2.0', id: 12345, result: '0x1f' });
    expect((await rpc(url, 'eth_chainId', [], 'abc')).body).toEqual({ jsonrpc: '2.0', id: 'abc', result: '0x1f' });
  });

  it('an unknown method is -32601 with HTTP 200', async () => {
    const { status, body } = await rpc(url, 'eth_doesNotExist', [], 9);
    expect(status).toBe(200);
    expect(body.error?.code).toBe(-32601);
    expect((body as Json).id).toBe(9);
    expect(body.error?.message).toContain('eth_doesNotExist');
  });

  it('the method is checked before params: an unknown method with garbage params is still -32601', async () => {
    for (const params of ['"garbage"', '{"a":1}', '42', '[1,2,3,{"x":[]}]', 'true']) {
      const res = await rpcRaw(url, `{"jsonrpc":"2.0","id":3,"method":"eth_nope","params":${params}}`);
      expect(res.status, params).toBe(200);
      expect(res.body.error.code, params).toBe(-32601);
      expect(res.body.id).toBe(3);
    }
  });

  it('methods rskj lacks are -32601 "method not found" (reference 10.1)', async () => {
    for (const method of ['eth_createAccessList', 'eth_getBlockReceipts']) {
      const { status, body } = await rpc(url, method, []);
      expect(body.error, method).toEqual({ code: -32601, message: `method not found: ${method}` });
      expect(status).toBe(200);
    }
  });

  it('fee-market methods say RSK has no EIP-1559 fee market and point to eth_gasPrice', async () => {
    for (const method of ['eth_feeHistory', 'eth_maxPriorityFeePerGas', 'eth_blobBaseFee']) {
      const { status, body } = await rpc(url, method, method === 'eth_feeHistory' ? ['0x4', 'latest', []] : []);
      expect(status).toBe(200);
      expect(body.error?.code, method).toBe(-32601);
      expect(body.error?.message, method).toContain(`the method ${method} does not exist/is not available: RSK has no EIP-1559 fee market`);
      expect(body.error?.message, method).toContain('use eth_gasPrice');
    }
  });

  it("the spec's unavailable methods say why: no compilers, db_ deprecated, no Whisper", async () => {
    const reasons: Record<string, string> = {
      eth_compileSolidity: 'not supported: no compilers are included in the node',
      eth_getCompilers: 'not supported: no compilers are included in the node',
      db_getString: 'deprecated',
      db_putHex: 'deprecated',
      shh_version: 'not supported: the Whisper (shh_) message protocol is not supported',
      shh_post: 'not supported: the Whisper (shh_) message protocol is not supported',
    };
    for (const [method, reason] of Object.entries(reasons)) {
      const { body } = await rpc(url, method, ['0x00']);
      expect(body.error?.code, method).toBe(-32601);
      expect(body.error?.message, method).toContain(`the method ${method} does not exist/is not available: ${reason}`);
    }
  });
});

// ---- invalid params ------------------------------------------------------------------------------

describe('invalid params', () => {
  it('a bad address is -32602 (HTTP 400) naming argument 0', async () => {
    const { status, body } = await rpc(url, 'eth_getBalance', ['0x123', 'latest']);
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('argument 0');
  });

  it('a bad second argument is named argument 1', async () => {
    for (const [method, params] of [
      ['eth_getBalance', [COW.address, 'not-a-block']],
      ['eth_getBlockByNumber', ['0x1', 'yes']],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x1', 'first']],
      ['eth_getStorageAt', [COW.address, 'slot', 'latest']],
    ] as const) {
      const { status, body } = await rpc(url, method, [...params]);
      expect(status, method).toBe(400);
      expect(body.error?.code, method).toBe(-32602);
      expect(body.error?.message, method).toContain('argument 1');
    }
  });

  it('wrong types and lengths are -32602', async () => {
    const cases: Array<[string, unknown[]]> = [
      ['eth_getBlockByHash', ['0x1234', false]],
      ['eth_getBlockByHash', [12, false]],
      ['eth_getTransactionByHash', ['0xzz']],
      ['eth_getTransactionReceipt', [`0x${'a'.repeat(63)}`]],
      ['web3_sha3', ['68656c6c6f']],
      ['web3_sha3', ['0x123']],
      ['eth_sendRawTransaction', ['not hex']],
      ['eth_call', ['0x1234', 'latest']],
      ['eth_call', [{ to: '0x12' }, 'latest']],
      ['eth_getBalance', [COW.address, { blockHash: '0x12' }]],
      ['eth_getBalance', [COW.address, true]],
      ['eth_getBlockByNumber', ['0x01zz', false]],
    ];
    for (const [method, params] of cases) {
      const { status, body } = await rpc(url, method, params);
      expect(body.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
      expect(status).toBe(400);
      expect(body.error?.message.length).toBeGreaterThan(0);
    }
  });

  it('a missing required param is -32602 naming it', async () => {
    const { status, body } = await rpc(url, 'eth_getBalance', []);
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('argument 0');
  });

  it('too many params is -32602', async () => {
    for (const [method, params] of [
      ['eth_chainId', ['extra']],
      ['eth_blockNumber', [1]],
      ['eth_getBalance', [COW.address, 'latest', 'extra']],
      ['web3_sha3', ['0x00', '0x01']],
    ] as const) {
      const { status, body } = await rpc(url, method, [...params]);
      expect(body.error?.code, method).toBe(-32602);
      expect(status).toBe(400);
    }
  });

  it('params as an object is -32602', async () => {
    const res = await rpcRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'eth_getBalance', params: { address: COW.address, block: 'latest' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.id).toBe(4);
  });

  it('eth_sendTransaction without from, or from an account the node does not hold, is -32602', async () => {
    const missing = await rpc(url, 'eth_sendTransaction', [{ to: COW1.address, value: '0x1' }]);
    expect(missing.body.error?.code).toBe(-32602);
    expect(missing.body.error?.message).toBe('from is null');
    const stranger = Wallet.createRandom().address.toLowerCase();
    const unknown = await rpc(url, 'eth_sendTransaction', [{ from: stranger, to: COW1.address, value: '0x1' }]);
    expect(unknown.body.error?.code).toBe(-32602);
    expect(unknown.body.error?.message).toBe(`Could not find account for address: ${stranger}`);
  });

  it('eth_sign with an account the node does not hold is -32602 "Account not found" (reference 7)', async () => {
    const { status, body } = await rpc(url, 'eth_sign', [Wallet.createRandom().address, '0x68656c6c6f']);
    expect(body.error?.code).toBe(-32602);
    expect(status).toBe(400);
    expect(body.error?.message).toBe('Account not found');
  });
});

// ---- batches -------------------------------------------------------------------------------------

describe('batches', () => {
  it('an empty batch is a single -32600 error', async () => {
    const res = await rpcRaw(url, '[]');
    expect(Array.isArray(res.body)).toBe(false);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.id).toBeNull();
    expect(res.status).toBe(400);
  });

  it('a batch of 1000 eth_chainId calls: 1000 results in order, ids echoed', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'eth_chainId', params: [] }));
    const res = await rpcRaw(url, JSON.stringify(batch));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1000);
    res.body.forEach((item: Json, i: number) => {
      expect(item).toEqual({ jsonrpc: '2.0', id: i + 1, result: '0x1f' });
    });
  });

  it('a batch of 1001 is a single -32600 error naming the 1000 limit', async () => {
    const batch = Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }));
    const res = await rpcRaw(url, JSON.stringify(batch));
    expect(Array.isArray(res.body)).toBe(false);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.error.message).toContain('1000');
    expect(res.status).toBe(400);
  });

  it('a mixed batch answers each element on its own', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, foo: 'bar' },
      { jsonrpc: '2.0', id: 3, method: 'eth_nope', params: [] },
      42,
      { jsonrpc: '2.0', id: 'five', method: 'eth_getBalance', params: ['0x123'] },
      { jsonrpc: '2.0', id: 6, method: 'net_version', params: [] },
    ];
    const res = await rpcRaw(url, JSON.stringify(batch));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(6);
    expect(res.body[0]).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1f' });
    expect(res.body[1].error.code).toBe(-32600);
    expect(res.body[1].id).toBe(2);
    expect(res.body[2].error.code).toBe(-32601);
    expect(res.body[2].id).toBe(3);
    expect(res.body[3].error.code).toBe(-32600);
    expect(res.body[3].id).toBeNull();
    expect(res.body[4].error.code).toBe(-32602);
    expect(res.body[4].id).toBe('five');
    expect(res.body[5]).toEqual({ jsonrpc: '2.0', id: 6, result: '31' });
  });

  it('a batch of garbage elements stays a batch', async () => {
    const res = await rpcRaw(url, '[1, "x", null, []]');
    expect(res.body).toHaveLength(4);
    for (const item of res.body) {
      expect(item.error.code).toBe(-32600);
      expect(item.id).toBeNull();
    }
  });
});

// ---- transport -----------------------------------------------------------------------------------

describe('transport and keys', () => {
  it('a body larger than 16 MiB: HTTP 413 with a JSON-RPC error', async () => {
    const filler = 'a'.repeat(16 * 1024 * 1024 + 16);
    const res = await post(url, `{"jsonrpc":"2.0","id":1,"method":"web3_sha3","params":["0x${filler}"]}`);
    expect(res.status).toBe(413);
    const body = JSON.parse(res.text);
    expect(body.jsonrpc).toBe('2.0');
    expect(typeof body.error.code).toBe('number');
    expect(body.error.message).toMatch(/too large/i);
    expect(body).not.toHaveProperty('result');
  });

  it('an unknown API key: HTTP 401, JSON-RPC error echoing the id, never reaching a chain', async () => {
    const res = await rpcRaw(`${t.baseUrl}/not-a-key`, JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'eth_chainId', params: [] }));
    expect(res.status).toBe(401);
    expect(res.body.jsonrpc).toBe('2.0');
    expect(res.body.id).toBe(77);
    expect(typeof res.body.error.code).toBe('number');
    expect(typeof res.body.error.message).toBe('string');
    expect(res.body).not.toHaveProperty('result');
  });

  it('an unknown API key with a string id and a malformed body', async () => {
    const res = await rpcRaw(`${t.baseUrl}/wrong`, JSON.stringify({ jsonrpc: '2.0', id: 'x1', method: 'eth_chainId', params: [] }));
    expect(res.status).toBe(401);
    expect(res.body.id).toBe('x1');
    const bad = await rpcRaw(`${t.baseUrl}/wrong`, '{oops');
    expect(bad.status).toBe(401);
    expect(bad.body.id).toBeNull();
    expect(typeof bad.body.error.code).toBe('number');
  });

  it('a missing key (POST /): HTTP 401 with a JSON-RPC error body echoing the id', async () => {
    const res = await post(`${t.baseUrl}/`, JSON.stringify({ jsonrpc: '2.0', id: 78, method: 'eth_chainId', params: [] }));
    expect(res.status, res.text).toBe(401);
    const body = JSON.parse(res.text);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(78);
    expect(typeof body.error.code).toBe('number');
    expect(typeof body.error.message).toBe('string');
  });

  it('GET / answers JSON without any key in it', async () => {
    const res = await fetch(`${t.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    const body = JSON.parse(text);
    expect(typeof body).toBe('object');
    expect(text).not.toContain(TESTNET_KEY);
    expect(text).not.toContain(MAINNET_KEY);
  });

  it('the two keys reach their own chains', async () => {
    expect(await call('eth_chainId', [], t.mainnetUrl)).toBe('0x1e');
    expect(await call('eth_blockNumber', [], t.mainnetUrl)).toBe('0x0');
  });
});

// ---- transaction rejections ----------------------------------------------------------------------

describe('eth_sendRawTransaction rejections (rskj messages, -32010)', () => {
  it('resending a mined transaction: "transaction nonce too low"', async () => {
    await expectRejectedKeepHash(minedRaw, -32010, 'transaction nonce too low');
  });

  it('nonce below the account nonce: "transaction nonce too low"', async () => {
    await expectRejected(await signCow({ nonce: 1, value: 2n }), -32010, 'transaction nonce too low');
  });

  it('nonce 16 ahead: "transaction nonce too high"', async () => {
    await expectRejected(await signCow({ nonce: Number(cowNonce) + 16 }), -32010, 'transaction nonce too high');
  });

  it('a fresh wallet: "the sender account doesn\'t exist"', async () => {
    const fresh = Wallet.createRandom();
    await expectRejected(await signCow({ nonce: 0 }, fresh), -32010, "the sender account doesn't exist");
  });

  it('an account with too little balance: "insufficient funds"', async () => {
    expect(BigInt(await call('eth_getBalance', [poor.address, 'latest']))).toBe(POOR_BALANCE);
    await expectRejected(await signCow({ nonce: 0, to: COW.address, value: 0n }, poor), -32010, 'insufficient funds');
    // the value counts too
    await expectRejected(await signCow({ nonce: 0, gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, value: 10n ** 18n }, poor), -32010, 'insufficient funds');
  });

  it('gas limit above the block gas limit', async () => {
    const gasLimit = BLOCK_GAS_LIMIT + 1n;
    await expectRejected(
      await signCow({ gasLimit }),
      -32010,
      `transaction's gas limit of ${gasLimit} is higher than the block's gas limit of ${BLOCK_GAS_LIMIT}`,
    );
  });

  it('gas limit below the intrinsic cost: "transaction\'s basic cost is above the gas limit"', async () => {
    await expectRejected(await signCow({ gasLimit: 20_000 }), -32010, "transaction's basic cost is above the gas limit");
  });

  it('gas price below the minimum: "transaction\'s gas price lower than block\'s minimum"', async () => {
    await expectRejected(await signCow({ gasPrice: 1n }), -32010, "transaction's gas price lower than block's minimum");
  });

  it('wrong chain id: -32602 "Invalid chainId: 30" naming the chain id the network expects', async () => {
    await expectRejected(await signCow({ chainId: 30 }), -32602, "Invalid chainId: 30; this key's network (RSK testnet) expects chain id 31");
  });

  it('a testnet transaction sent to mainnet: -32602 "Invalid chainId: 31"', async () => {
    const raw = await signCow({ nonce: 0 });
    const { status, body } = await rpc(t.mainnetUrl, 'eth_sendRawTransaction', [raw]);
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toBe("Invalid chainId: 31; this key's network (RSK mainnet) expects chain id 30");
    expect(await call('eth_blockNumber', [], t.mainnetUrl)).toBe('0x0');
  });

  it('a type-2 transaction: -32602 saying RSK accepts legacy transactions only', async () => {
    const raw = await cow.signTransaction({
      type: 2, chainId: 31, nonce: Number(cowNonce), maxFeePerGas: MIN_GAS_PRICE * 2n, maxPriorityFeePerGas: 0n,
      gasLimit: 21_000, to: COW1.address, value: 1n,
    });
    expect(raw.startsWith('0x02')).toBe(true);
    await expectRejected(
      raw,
      -32602,
      'RSK accepts legacy transactions only: the bytes are an EIP-1559 fee-market transaction (type 2); sign a legacy transaction (type 0, with a gasPrice) instead',
    );
  });

  it('a type-1 transaction is refused the same way', async () => {
    const raw = await cow.signTransaction({
      type: 1, chainId: 31, nonce: Number(cowNonce), gasPrice: MIN_GAS_PRICE, gasLimit: 21_000, to: COW1.address, value: 1n, accessList: [],
    });
    await expectRejected(raw, -32602, /the bytes are an EIP-2930 access-list transaction \(type 1\)/);
  });

  it('bytes that are not a transaction are not called a typed transaction (regression: "type 0x12", "send type 0")', async () => {
    for (const raw of ['0x1234', '0x00', '0x7f00', '0xbf']) {
      const { status, body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
      expect(status, raw).toBe(400);
      expect(body.error?.code, raw).toBe(-32602);
      expect(body.error?.message, raw).toBe(
        'Invalid input: the bytes are not an RLP-encoded legacy transaction (an RLP list of 9 fields: nonce, gasPrice, gas, to, value, data, v, r, s)',
      );
    }
  });

  it('garbage bytes: -32602 "Invalid input..."', async () => {
    const { status, body } = await rpc(url, 'eth_sendRawTransaction', ['0xdeadbeef']);
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message.startsWith('Invalid input')).toBe(true);
    for (const raw of ['0x', '0xc0', '0xc3010203', '0xf8']) {
      const res = await rpc(url, 'eth_sendRawTransaction', [raw]);
      expect(res.body.error?.code, raw).toBe(-32602);
      expect(res.body.error?.message.startsWith('Invalid input'), `${raw}: ${res.body.error?.message}`).toBe(true);
    }
  });

  it('a tampered signature (last byte of s flipped) recovers another sender: -32010 "the sender account doesn\'t exist"', async () => {
    const raw = await signCow({ value: 3n });
    const fields = decodeRlp(raw) as string[];
    expect(fields).toHaveLength(9);
    const s = getBytes(fields[8]!);
    s[s.length - 1]! ^= 0x01;
    const tampered = encodeRlp([...fields.slice(0, 8), hexlify(s)] as RlpStructuredData);
    expect(tampered).not.toBe(raw);
    await expectRejected(tampered, -32010, "the sender account doesn't exist");
    expect(await call('eth_getTransactionCount', [COW.address, 'latest'])).toBe(q(cowNonce));
  });

  it('a high-s signature is refused as an invalid signature (-32602)', async () => {
    const raw = await signCow({ value: 4n });
    const fields = decodeRlp(raw) as string[];
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = n - BigInt(fields[8]!);
    const v = BigInt(fields[6]!);
    const flippedV = v % 2n === 0n ? v - 1n : v + 1n;
    const malleable = encodeRlp([...fields.slice(0, 6), q(flippedV), fields[7]!, q(highS)] as RlpStructuredData);
    const { status, body } = await rpc(url, 'eth_sendRawTransaction', [malleable]);
    expect(body.error?.code, JSON.stringify(body)).toBe(-32602);
    expect(status).toBe(400);
    expect(body.error?.message).toMatch(/signature/i);
  });

  it('eth_sendTransaction goes through the same checks', async () => {
    const low = await rpc(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gasPrice: '0x1' }]);
    expect(low.body.error?.code).toBe(-32010);
    expect(low.body.error?.message).toBe("transaction's gas price lower than block's minimum");
    const nonce = await rpc(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, nonce: '0x0' }]);
    expect(nonce.body.error?.code).toBe(-32010);
    expect(nonce.body.error?.message).toBe('transaction nonce too low');
    const gas = await rpc(url, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, gas: q(20_000) }]);
    expect(gas.body.error?.code).toBe(-32010);
    expect(gas.body.error?.message).toBe("transaction's basic cost is above the gas limit");
  });
});

/** Like expectRejected, for a transaction that is (rightly) already known by its hash. */
async function expectRejectedKeepHash(raw: string, code: number, message: string) {
  const { status, body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
  expect(body.error?.code, JSON.stringify(body)).toBe(code);
  expect(body.error?.message).toBe(message);
  expect(status).toBe(200);
  const tx = await call('eth_getTransactionByHash', [keccak256(raw)]);
  expect(tx.blockNumber).toBe('0x1');
}

// ---- nothing changed ---------------------------------------------------------------------------

describe('after all the bad input', () => {
  it('the node still answers and the chain is unchanged', async () => {
    expect(await call('eth_blockNumber')).toBe(headBefore);
    expect(await call('eth_getTransactionCount', [COW.address, 'latest'])).toBe(q(cowNonce));
    expect(await call('eth_getTransactionCount', [COW.address, 'pending'])).toBe(q(cowNonce));
    expect(await call('eth_getBalance', [COW.address, 'latest'])).toBe(cowBalanceBefore);
    expect(await call('eth_getBalance', [poor.address, 'latest'])).toBe(q(POOR_BALANCE));
    expect(await call('eth_chainId')).toBe('0x1f');
    expect(await call('eth_blockNumber', [], t.mainnetUrl)).toBe('0x0');
    // nothing of the refused transactions waits in the pool: the pending block holds only REMASC
    const pending = await call('eth_getBlockByNumber', ['pending', true]);
    expect(pending.transactions).toHaveLength(1);
    expect(pending.transactions[0].to).toBe('0x0000000000000000000000000000000001000008');
  });

  it('and a valid transaction still goes through', async () => {
    const raw = await signCow();
    const hash = await call('eth_sendRawTransaction', [raw]);
    expect(hash).toBe(keccak256(raw));
    expect(await call('eth_blockNumber')).toBe(q(BigInt(headBefore) + 1n));
    expect((await call('eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  });
});
