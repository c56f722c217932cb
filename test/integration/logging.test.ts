/**
 * The log a developer watches: a line per mined block and per transaction at info (with the revert
 * reason), each RPC method at debug, nothing at warn (--quiet), and never a key, a password or a
 * session token, whatever the level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, type TransactionReceipt } from 'ethers';
import WebSocket from 'ws';
import { contracts } from '../fixtures/contracts.js';
import { runCli, type CliProcess } from '../helpers/cli.js';
import { COW, COW1, TESTNET_KEY, call, rpc, rpcRaw, startTestNode, type TestNode } from '../helpers/node.js';
import { createNode, type LogLevel } from '../../src/index.js';

/** `HH:MM:SS LEVEL message`, as src/logger.ts writes a line. */
const LINE = /^\d\d:\d\d:\d\d (INFO |DEBUG|WARN |ERROR|TRACE|FATAL) (.*)$/;

const nodes: TestNode[] = [];
const providers: JsonRpcProvider[] = [];
const clis: CliProcess[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) p.destroy();
  await Promise.all(nodes.splice(0).map((n) => n.close()));
  await Promise.all(clis.splice(0).map((c) => c.stop()));
});

/** A node whose log lines are kept as [level, message] pairs. */
async function loggingNode(logLevel: LogLevel): Promise<{ t: TestNode; lines: Array<[string, string]> }> {
  const lines: Array<[string, string]> = [];
  const t = await startTestNode({
    logLevel,
    logDestination: {
      write(text: string) {
        for (const line of text.split('\n').filter((l) => l !== '')) {
          const match = LINE.exec(line);
          if (match === null) throw new Error(`not a log line: ${JSON.stringify(line)}`);
          lines.push([match[1]!.trim(), match[2]!]);
        }
      },
    },
  });
  nodes.push(t);
  return { t, lines };
}

function cowWallet(url: string): Wallet {
  // cacheTimeout -1: ethers otherwise answers a repeated read within 250 ms from its own cache.
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  providers.push(provider);
  return new Wallet(COW.privateKey, provider);
}

/** Sends a call that fails on chain (gas given, so nothing is estimated) and returns its receipt. */
async function failingTransaction(wallet: Wallet, contract: Contract, method: string, gasLimit: number, args: unknown[] = []): Promise<TransactionReceipt> {
  const tx = await contract.getFunction(method).send(...args, { gasLimit, type: 0 });
  const receipt = await wallet.provider!.getTransactionReceipt(tx.hash);
  expect(receipt?.status).toBe(0);
  return receipt!;
}

async function blockLine(wallet: Wallet, receipt: TransactionReceipt): Promise<string> {
  const block = (await wallet.provider!.getBlock(receipt.blockNumber))!;
  return `testnet block ${block.number}: 1 transaction, gas used ${block.gasUsed}, hash ${block.hash}`;
}

describe('info (the default level)', () => {
  it('prints each mined block and its transaction: transfer, contract creation, revert reason, panic, custom error, out of gas', async () => {
    const { t, lines } = await loggingNode('info');
    const wallet = cowWallet(t.testnetUrl);
    const cow = COW.address;

    const transfer = (await (await wallet.sendTransaction({ to: COW1.address, value: 1n, type: 0 })).wait())!;
    const { abi, bytecode } = contracts.Reverter;
    const deployed = await new ContractFactory(abi, bytecode, wallet).deploy({ type: 0 });
    const creation = (await deployed.deploymentTransaction()!.wait())!;
    const reverter = new Contract(creation.contractAddress!, abi, wallet);
    const address = creation.contractAddress!.toLowerCase();
    const reason = await failingTransaction(wallet, reverter, 'revertWithReason', 100_000);
    const panic = await failingTransaction(wallet, reverter, 'assertFail', 100_000);
    const custom = await failingTransaction(wallet, reverter, 'revertWithCustomError', 100_000, [7]);
    const bad = reverter.interface.getError('Bad')!.selector;
    const outOfGas = await failingTransaction(wallet, reverter, 'outOfGas', 60_000);

    expect(transfer.gasUsed).toBe(21_000n);
    expect(lines).toEqual([
      ['INFO', await blockLine(wallet, transfer)],
      ['INFO', `testnet tx ${transfer.hash}: from ${cow} to ${COW1.address}, gas used 21000, success`],
      ['INFO', await blockLine(wallet, creation)],
      ['INFO', `testnet tx ${creation.hash}: from ${cow} created contract ${address}, gas used ${creation.gasUsed}, success`],
      ['INFO', await blockLine(wallet, reason)],
      ['INFO', `testnet tx ${reason.hash}: from ${cow} to ${address}, gas used ${reason.gasUsed}, reverted: "nope: reason string"`],
      ['INFO', await blockLine(wallet, panic)],
      ['INFO', `testnet tx ${panic.hash}: from ${cow} to ${address}, gas used ${panic.gasUsed}, reverted: panic 0x01 (assert failed)`],
      ['INFO', await blockLine(wallet, custom)],
      ['INFO', `testnet tx ${custom.hash}: from ${cow} to ${address}, gas used ${custom.gasUsed}, reverted with error ${bad} (args 0x${'0'.repeat(63)}7)`],
      ['INFO', await blockLine(wallet, outOfGas)],
      ['INFO', `testnet tx ${outOfGas.hash}: from ${cow} to ${address}, gas used 60000, failed: out of gas`],
    ]);
  });

  it('prints each block of a multi-block mine, with its transaction count, on the network that mined it', async () => {
    const { t, lines } = await loggingNode('info');
    await call(t.mainnetUrl, 'hardhat_mine', ['0x2']);
    const blocks = await Promise.all([1, 2].map((n) => call(t.mainnetUrl, 'eth_getBlockByNumber', [`0x${n}`, false])));
    expect(lines).toEqual(blocks.map((b: { hash: string }, i) => ['INFO', `mainnet block ${i + 1}: 0 transactions, gas used 0, hash ${b.hash}`]));
  });
});

describe('debug', () => {
  it('adds one line per method called, over HTTP, batches and the in-process provider, without params', async () => {
    const { t, lines } = await loggingNode('debug');
    await call(t.testnetUrl, 'eth_blockNumber');
    const batch = await rpcRaw(t.mainnetUrl, JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [COW1.address, 'latest'] },
    ]));
    expect(batch.body).toHaveLength(2);
    expect(await t.node.provider.request({ method: 'eth_getTransactionCount', params: [COW1.address, 'latest'] })).toBe('0x0');
    expect((await rpc(t.testnetUrl, 'no_suchMethod')).body.error?.code).toBe(-32601);

    expect(lines).toEqual([
      ['DEBUG', 'testnet rpc eth_blockNumber'],
      ['DEBUG', 'mainnet rpc eth_chainId'],
      ['DEBUG', 'mainnet rpc eth_getBalance'],
      ['DEBUG', 'testnet rpc eth_getTransactionCount'],
      ['DEBUG', 'testnet rpc no_suchMethod'],
    ]);
  });
});

describe('warn (--quiet)', () => {
  it('prints nothing for calls and mined blocks', async () => {
    const { t, lines } = await loggingNode('warn');
    const hash = await call(t.testnetUrl, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    expect((await call(t.testnetUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(lines).toEqual([]);
  });
});

describe('the CLI flags', () => {
  it('--quiet prints the banner and nothing for calls and mined blocks', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--quiet', '--api-key', 'quiet-test-key'], 1);
    clis.push(cli);
    await cli.started;
    const hash = await call(`${cli.baseUrl()}/quiet-test-key`, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address, value: '0x1' }]);
    expect((await call(`${cli.baseUrl()}/quiet-test-key`, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(await cli.stop()).toBe(0);
    expect(cli.stdout()).toBe(
      `rsk-devnode listening on ${cli.baseUrl()} (in memory)\n` +
        'JSON-RPC URLs (keep them private; the key is the credential):\n' +
        `  testnet  chain 31  ${cli.baseUrl()}/quiet-test-key\n` +
        'SIGTERM: closing databases\n',
    );
    expect(cli.stderr()).toBe('');
  });

  it('refuses --quiet with --log-level, and an unknown level', async () => {
    const both = runCli(['--in-memory', '--quiet', '--log-level', 'debug']);
    const unknown = runCli(['--in-memory', '--log-level', 'verbose']);
    expect(await Promise.all([both.exited, unknown.exited])).toEqual([1, 1]);
    expect(both.stderr()).toBe('rsk-devnode: --quiet and --log-level: give one of them\n');
    expect(unknown.stderr()).toBe('rsk-devnode: --log-level verbose: expected one of fatal|error|warn|info|debug|trace|silent\n');
  });
});

describe('secrets in the CLI output', () => {
  it('never prints a dashboard password, session cookie or API key, even at trace level', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--log-level', 'trace']);
    clis.push(cli);
    await cli.started;
    const base = cli.baseUrl();
    const password = 'correct-horse-battery-staple-41';
    const wrongPassword = 'wrong-horse-battery-staple-42';

    const api = (path: string, body: unknown, cookie?: string) =>
      fetch(`${base}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
        body: JSON.stringify(body),
      });
    expect((await api('/signup', { email: 'dev@example.com', password })).status).toBe(201);
    expect((await api('/login', { email: 'dev@example.com', password: wrongPassword })).status).toBe(401);
    const login = await api('/login', { email: 'dev@example.com', password });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const sessionToken = cookie.split('=')[1]!;
    expect(sessionToken.length).toBeGreaterThanOrEqual(16);
    const created = await api('/keys', { name: 'logging test', network: 'testnet' }, cookie);
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    expect((await fetch(`${base}/dashboard`, { headers: { cookie } })).status).toBe(200);

    // RPC over the key URL (HTTP and WebSocket), a mined transaction, a secret in params, a wrong key.
    const url = `${base}/${key}`;
    await call(url, 'eth_blockNumber');
    // A dashboard key signs locally (the node's keys are the operator's).
    const raw = await new Wallet(COW.privateKey).signTransaction({ type: 0, chainId: 31, nonce: 0, gasPrice: 60_000_000n, gasLimit: 21_000n, to: COW1.address, value: 1n });
    const hash = await call(url, 'eth_sendRawTransaction', [raw]);
    // Refused to a dashboard key: the password only passes through the params decoder.
    expect((await rpc(url, 'personal_unlockAccount', [COW1.address, password, '0x3c'])).body.error?.code).toBe(-32601);
    expect((await rpc(`${base}/${TESTNET_KEY}-not-a-key`, 'eth_chainId')).status).toBe(401);
    const ws = new WebSocket(`${base.replace('http', 'ws')}/${key}`);
    const reply = await new Promise<string>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })));
      ws.once('message', (data) => resolve(data.toString()));
      ws.once('error', reject);
    });
    ws.close();
    expect(JSON.parse(reply).result).toBe('0x1f');
    expect(await cli.stop()).toBe(0);

    const output = cli.stdout() + cli.stderr();
    // The session did log: the calls at debug and the mined transaction at info.
    expect(output).toContain('testnet rpc eth_blockNumber');
    expect(output).toContain(`testnet tx ${hash}: from ${COW.address} to ${COW1.address}, gas used 21000, success`);
    for (const secret of [key, password, wrongPassword, sessionToken, `${TESTNET_KEY}-not-a-key`]) expect(output).not.toContain(secret);
  });
});

describe('the library default', () => {
  it('is quiet: createNode without logLevel prints no block lines', async () => {
    const written: string[] = [];
    const node = await createNode({ logDestination: { write: (line: string) => written.push(line) } });
    try {
      await node.provider.request({ method: 'evm_mine' });
      expect(await node.provider.request({ method: 'eth_blockNumber' })).toBe('0x1');
      expect(written).toEqual([]);
    } finally {
      await node.close();
    }
  });
});
