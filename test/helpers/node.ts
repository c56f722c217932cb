/** Starts a real node on an ephemeral port for integration tests. */
import { afterEach } from 'vitest';
import { createNode, type DevNode, type NodeOptions } from '../../src/index.js';

export const TESTNET_KEY = 'test-key-testnet';
export const MAINNET_KEY = 'test-key-mainnet';

/** rskj's regtest dev accounts (reference section 3): key = keccak256('cow'), keccak256('cow1'). */
export const COW = {
  address: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826',
  privateKey: '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4',
} as const;
export const COW1 = {
  address: '0x7986b3df570230288501eea3d890bd66948c9b79',
  privateKey: '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
} as const;

export interface TestNode {
  node: DevNode;
  baseUrl: string;
  testnetUrl: string;
  mainnetUrl: string;
  close(): Promise<void>;
}

export async function startTestNode(options: NodeOptions = {}): Promise<TestNode> {
  const node = await createNode({
    inMemory: true,
    logLevel: 'silent',
    apiKeys: [
      { key: TESTNET_KEY, network: 'testnet' },
      { key: MAINNET_KEY, network: 'mainnet' },
    ],
    ...options,
  });
  const server = await node.server(0);
  return {
    node,
    baseUrl: server.url,
    testnetUrl: `${server.url}/${TESTNET_KEY}`,
    mainnetUrl: `${server.url}/${MAINNET_KEY}`,
    close: () => node.close(),
  };
}

/** A test file's `start`: every node it starts is closed after each test. */
export function nodesClosedAfterEach(): (options?: NodeOptions) => Promise<TestNode> {
  const nodes: TestNode[] = [];
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((t) => t.close()));
  });
  return async (options) => {
    const t = await startTestNode(options);
    nodes.push(t);
    return t;
  };
}

/** One raw JSON-RPC call over HTTP; returns status and parsed body. */
export async function rpc(url: string, method: string, params: unknown[] = [], id: number | string = 1) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return { status: response.status, body: (await response.json()) as { result?: any; error?: { code: number; message: string; data?: unknown } } };
}

export async function rpcRaw(url: string, body: string) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as any };
}

/** A call that must succeed: its result, or a thrown error naming the method and the answer. */
export async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { body } = await rpc(url, method, params);
  if (body.error !== undefined) throw new Error(`${method} ${JSON.stringify(params)} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** A call that must fail: its JSON-RPC error. */
export async function rpcError(url: string, method: string, params: unknown[] = []): Promise<{ code: number; message: string; data?: unknown }> {
  return (await rpcFailure(url, method, params)).error;
}

/** A call that must fail: the HTTP status and the JSON-RPC error. */
export async function rpcFailure(url: string, method: string, params: unknown[] = []): Promise<{ status: number; error: { code: number; message: string; data?: unknown } }> {
  const { status, body } = await rpc(url, method, params);
  if (body.error === undefined) throw new Error(`${method} ${JSON.stringify(params)} should fail, answered ${JSON.stringify(body.result)}`);
  return { status, error: body.error };
}

/** Polls `check` until it returns a value other than undefined/false (no assertion on how long it took). */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `fn`, expecting it to reject, and returns the error (a client library's error object, to inspect). */
export async function rejection(fn: () => Promise<unknown>): Promise<any> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}
