/**
 * rpc_modules (issue 9): `{ "<module>": "1.0", … }` for the namespaces the method table answers,
 * derived from the table, so a new namespace appears by itself; refused names (db_, shh_) do not
 * make a module.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { METHODS } from '../../src/rpc/methods/index.js';
import { rpc, startTestNode, type TestNode } from '../helpers/node.js';

/** The modules, computed here from the table independently of the node's code. */
function expectedModules(): Record<string, string> {
  const modules: Record<string, string> = {};
  for (const spec of METHODS) {
    if (spec.unsupported) continue;
    const [prefix] = spec.name.split('_');
    modules[prefix!] = '1.0';
  }
  return modules;
}

describe('rpc_modules', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t.close());

  it('lists every namespace of the method table with rskj\'s version "1.0", and no refused one', async () => {
    const { status, body } = await rpc(t.testnetUrl, 'rpc_modules', [], 'm');
    expect(status).toBe(200);
    expect(body).toEqual({ jsonrpc: '2.0', id: 'm', result: expectedModules() });
    const modules = body.result as Record<string, string>;
    // rskj's own modules (reference.conf) and the ones this node adds.
    for (const name of ['eth', 'net', 'web3', 'rpc', 'evm', 'txpool', 'rsk', 'sco', 'debug', 'trace', 'personal']) expect(modules[name], name).toBe('1.0');
    for (const name of ['db', 'shh']) expect(modules, name).not.toHaveProperty(name);
    expect(Object.values(modules).every((v) => v === '1.0')).toBe(true);
    // Every listed module has a method the node answers (not "method not found").
    for (const name of Object.keys(modules)) expect(METHODS.some((m) => m.name.startsWith(`${name}_`) && !m.unsupported), name).toBe(true);
  });

  it('is the same on both networks and over WebSocket', async () => {
    const mainnet = await rpc(t.mainnetUrl, 'rpc_modules');
    expect(mainnet.body.result).toEqual(expectedModules());
    const socket = new WebSocket(t.testnetUrl.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const reply = await new Promise<any>((resolve) => {
      socket.once('message', (data) => resolve(JSON.parse(data.toString())));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'rpc_modules', params: [] }));
    });
    socket.close();
    expect(reply).toEqual({ jsonrpc: '2.0', id: 3, result: expectedModules() });
  });

  it('takes no parameters', async () => {
    const { status, body } = await rpc(t.testnetUrl, 'rpc_modules', ['eth']);
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });
});
