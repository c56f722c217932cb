/**
 * anvil forking this node (`anvil --fork-url <key URL>`): the other direction of issue 21. anvil
 * 1.7 reads accounts and slots of the fork block from rsk-devnode and runs them under Ethereum's
 * rules; the values it reads must be this node's. (anvil ≥ 1.8 probes anvil_nodeInfo first; it is
 * not on the npm registry yet, so 1.7.1 is what a user gets from npm.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Contract, ContractFactory, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const ANVIL = resolve('node_modules/.bin/anvil');
const INITIAL_SUPPLY = 777_000n * 10n ** 18n;
const RECIPIENT = '0x00000000000000000000000000000000000a11ce';

let t: TestNode;
let anvil: ChildProcess;
let anvilUrl: string;
let token: string;
let forkBlock: number;

/** Starts anvil forking `forkUrl` at `block`; resolves with its URL once it listens. */
function startAnvil(forkUrl: string, block: number): Promise<string> {
  anvil = spawn(ANVIL, ['--port', '0', '--fork-url', forkUrl, '--fork-block-number', String(block), '--no-storage-caching'], {
    env: { ...process.env, NO_COLOR: '1', FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /Listening on ([\d.]+:\d+)/.exec(out);
      if (listening) resolvePromise(`http://${listening[1]}`);
    };
    anvil.stdout!.on('data', onData);
    anvil.stderr!.on('data', onData);
    anvil.once('exit', (code) => reject(new Error(`anvil exited with ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  t = await startTestNode();
  const provider = uncachedProvider(t.testnetUrl, undefined, { staticNetwork: true });
  const wallet = new Wallet(COW.privateKey, provider);
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
  // Explicit nonces: ethers answers a repeated getTransactionCount within 250 ms from its cache.
  const deployed = await factory.deploy(INITIAL_SUPPLY, { type: 0, nonce: 0 });
  await deployed.waitForDeployment();
  token = await deployed.getAddress();
  const transfer = await (deployed as Contract).getFunction('transfer')(RECIPIENT, 1234n, { type: 0, nonce: 1 });
  await transfer.wait();
  // Not provider.getBlockNumber(): ethers answers it from a cache that may predate the transfer.
  forkBlock = Number(await call(t.testnetUrl, 'eth_blockNumber', []));
  provider.destroy();
  anvilUrl = await startAnvil(t.testnetUrl, forkBlock);
}, 120_000);

afterAll(async () => {
  anvil?.kill('SIGTERM');
  await t?.close();
});

/** One JSON-RPC call to `url`; its result. */
async function call(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

describe('anvil --fork-url <rsk-devnode>', () => {
  it('reads the fork block, balances, nonces, code and storage as this node answers them', async () => {
    const tag = `0x${forkBlock.toString(16)}`;
    expect(await call(anvilUrl, 'eth_chainId', [])).toBe('0x1f');
    expect(await call(anvilUrl, 'eth_blockNumber', [])).toBe(tag);
    expect(await call(anvilUrl, 'eth_getCode', [token, 'latest'])).toBe(contracts.Token.deployedBytecode);
    const ours = (await call(t.testnetUrl, 'eth_getBlockByNumber', [tag, false])) as { hash: string };
    const theirs = (await call(anvilUrl, 'eth_getBlockByNumber', [tag, false])) as { hash: string };
    expect(theirs.hash).toBe(ours.hash);
    for (const [method, params] of [
      ['eth_getBalance', [COW.address, tag]],
      ['eth_getTransactionCount', [COW.address, tag]],
      ['eth_getCode', [token, tag]],
      ['eth_getStorageAt', [token, '0x0', tag]],
    ] as const) {
      expect(await call(anvilUrl, method, [...params]), method).toBe(await call(t.testnetUrl, method, [...params]));
    }
  });

  it('runs the token through eth_call on the forked state', async () => {
    const data = `0x70a08231${AbiCoder.defaultAbiCoder().encode(['address'], [RECIPIENT]).slice(2)}`;
    expect(BigInt((await call(anvilUrl, 'eth_call', [{ to: token, data }, 'latest'])) as string)).toBe(1234n);
  });
});
