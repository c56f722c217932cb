/**
 * console.log from contracts (issue 22): a contract importing hardhat/console.sol and a
 * console2-compatible library, compiled with solc-js (test/fixtures/contracts/ConsoleLogging.sol),
 * driven through ethers as users do. The lines reach the node's output under the transaction hash
 * (or eth_call, or a failed eth_estimateGas), in-process users as 'consoleLog' events, and cost
 * what a call to any empty account costs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { createNode, type ConsoleLogEntry } from '../../src/index.js';
import { contracts } from '../fixtures/contracts.js';
import { runCli } from '../helpers/cli.js';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';

const CONSOLE = '0x000000000000000000636F6e736F6c652e6c6f67';
/**
 * An account nothing ever touched (no code, no balance), with as many zero bytes as the console
 * address, so that the two transactions' call data cost the same.
 */
const EMPTY_ACCOUNT = '0x000000000000000000deadbeefdeadbeefdeadbe';
const WHO = COW.address;

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let logging: Contract;
let printed = '';
const entries: ConsoleLogEntry[] = [];

beforeAll(async () => {
  t = await startTestNode({ logLevel: 'warn', logDestination: { write: (text: string) => void (printed += text) } });
  t.node.chains.testnet.events.on('consoleLog', (entry) => entries.push(entry));
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(COW.privateKey, provider);
  const { abi, bytecode } = contracts.ConsoleLogging;
  logging = (await new ContractFactory(abi, bytecode, wallet).deploy()) as Contract;
  await logging.waitForDeployment();
});
afterAll(() => t.close());

/** Sends `method(...args)` as a transaction and returns its receipt (status 0 too). */
async function send(method: string, args: unknown[] = [], gasLimit?: number) {
  entries.length = 0;
  printed = '';
  const tx = await logging.getFunction(method).send(...args, gasLimit === undefined ? {} : { gasLimit });
  return (await provider.getTransactionReceipt(tx.hash))!;
}

describe('mined transactions', () => {
  it("decodes hardhat/console.sol: strings, format strings, big unsigned and signed numbers, bools, addresses, bytes", async () => {
    const receipt = await send('logEverything', [WHO]);
    expect(receipt.status).toBe(1);
    const lines = [
      'hello from rsk',
      `${WHO} has 1000 tokens`,
      (2n ** 256n - 1n).toString(),
      '-42',
      (-(2n ** 255n)).toString(),
      'true',
      WHO,
      '0xdeadbeef',
      `0x${'00'.repeat(31)}01`,
      'counter 1',
    ];
    expect(entries).toEqual([{ kind: 'transaction', txHash: expect.any(Uint8Array), lines }]);
    expect(Buffer.from(entries[0]!.txHash!).toString('hex')).toBe(receipt.hash.slice(2));
    expect(printed).toBe(`testnet tx ${receipt.hash} console.log:\n${lines.map((l) => `  ${l}\n`).join('')}`);
  });

  it("decodes console2's selectors, log(string,int256) included", async () => {
    await send('logWithConsole2', [WHO]);
    expect(entries.map((e) => e.lines)).toEqual([
      ['signed -7', 'balance -1', 'unsigned 12345678901234567890', (2n ** 200n).toString(), `${WHO} is true`, '0xcafebabe'],
    ]);
  });

  it('decodes the legacy log(string,uint) selector 0x9710a9d0, which anvil reverts on', async () => {
    const receipt = await send('logLegacy');
    expect(receipt.status).toBe(1);
    expect(entries.map((e) => e.lines)).toEqual([['legacy 7']]);
  });

  it('prints an unknown selector raw and lets the call succeed', async () => {
    const receipt = await send('logUnknown');
    expect(receipt.status).toBe(1);
    expect(entries.map((e) => e.lines)).toEqual([[`console.log call with unknown selector 0x12345678, arguments 0x${(42).toString(16).padStart(64, '0')}`]]);
  });

  it('prints the lines of a transaction that reverts, under its hash', async () => {
    const receipt = await send('logThenRevert', [], 200_000);
    expect(receipt.status).toBe(0);
    expect(entries.map((e) => e.lines)).toEqual([['about to revert']]);
    expect(printed).toContain(`testnet tx ${receipt.hash} console.log:\n  about to revert\n`);
  });

  it('costs exactly what the same call to an empty account costs (gasUsed as on rskj)', async () => {
    const toConsole = await send('ping', [CONSOLE]);
    expect(entries.map((e) => e.lines)).toEqual([['ping 1']]);
    const toEmpty = await send('ping', [EMPTY_ACCOUNT]);
    expect(entries).toEqual([]);
    expect(toConsole.status).toBe(1);
    expect(toEmpty.status).toBe(1);
    expect(toConsole.gasUsed).toBe(toEmpty.gasUsed);
    // and the estimate agrees with what the transaction used
    expect(await logging.getFunction('ping').estimateGas(CONSOLE)).toBe(toConsole.gasUsed);
  });
});

describe('calls and estimates', () => {
  it('prints an eth_call once, with its lines', async () => {
    entries.length = 0;
    printed = '';
    expect(await logging.getFunction('viewLog').staticCall(21n)).toBe(42n);
    expect(entries).toEqual([{ kind: 'call', lines: ['viewLog(21)'] }]);
    expect(printed).toBe('testnet eth_call console.log:\n  viewLog(21)\n');
  });

  it('prints the lines of an eth_call that reverts, which still answers the revert', async () => {
    entries.length = 0;
    printed = '';
    await expect(logging.getFunction('logThenRevert').staticCall()).rejects.toThrow(/nope/);
    expect(entries).toEqual([{ kind: 'call', lines: ['about to revert'] }]);
    expect(printed).toBe('testnet eth_call console.log:\n  about to revert\n');
  });

  it('prints nothing for an eth_estimateGas that succeeds, however many attempts its search runs', async () => {
    entries.length = 0;
    printed = '';
    const gas = await logging.getFunction('logEverything').estimateGas(WHO);
    expect(gas).toBeGreaterThan(21_000n);
    expect(entries).toEqual([]);
    expect(printed).toBe('');
  });

  it('prints a failed eth_estimateGas once, as Hardhat does', async () => {
    entries.length = 0;
    printed = '';
    await expect(logging.getFunction('logThenRevert').estimateGas()).rejects.toThrow(/nope/);
    expect(entries).toEqual([{ kind: 'estimateGas', lines: ['about to revert'] }]);
    expect(printed).toBe('testnet eth_estimateGas (failed) console.log:\n  about to revert\n');
  });
});

describe('traces', () => {
  /** Every frame of a callTracer tree, depth first. */
  const framesOf = (frame: any): any[] => [frame, ...(frame.calls ?? []).flatMap(framesOf)];

  it('callTracer marks each console frame with its line; rskTracer lists the lines', async () => {
    const receipt = await send('logWithConsole2', [WHO]);
    const lines = entries[0]!.lines;
    const tree = await provider.send('debug_traceTransaction', [receipt.hash, { tracer: 'callTracer' }]);
    const consoleFrames = framesOf(tree).filter((f) => f.to === CONSOLE.toLowerCase());
    expect(consoleFrames.map((f) => [f.type, f.consoleLog])).toEqual(lines.map((l) => ['STATICCALL', l]));
    expect(framesOf(tree).filter((f) => f.consoleLog !== undefined)).toHaveLength(lines.length);
    const structTrace = await provider.send('debug_traceTransaction', [receipt.hash, {}]);
    expect(structTrace.consoleLogs).toEqual(lines);
  });

  it('a transaction that does not log has no console field', async () => {
    const receipt = await send('ping', [EMPTY_ACCOUNT]);
    const tree = await provider.send('debug_traceTransaction', [receipt.hash, { tracer: 'callTracer' }]);
    expect(framesOf(tree).some((f) => 'consoleLog' in f)).toBe(false);
    expect('consoleLogs' in (await provider.send('debug_traceTransaction', [receipt.hash, {}]))).toBe(false);
  });

  it('debug_traceCall carries the lines and prints nothing', async () => {
    entries.length = 0;
    printed = '';
    const data = logging.interface.encodeFunctionData('viewLog', [5n]);
    const tree = await provider.send('debug_traceCall', [{ to: await logging.getAddress(), data }, 'latest', { tracer: 'callTracer' }]);
    expect(framesOf(tree).map((f) => f.consoleLog).filter(Boolean)).toEqual(['viewLog(5)']);
    expect(entries).toEqual([]);
    expect(printed).toBe('');
  });
});

describe('in-process users', () => {
  it("get the lines as the provider's consoleLog events too", async () => {
    const node = await createNode({ silentConsole: true });
    try {
      const seen: ConsoleLogEntry[] = [];
      node.provider.on('consoleLog', (entry: ConsoleLogEntry) => seen.push(entry));
      const data = logging.interface.encodeFunctionData('viewLog', [9n]);
      // the same init code, deployed on this node, then an eth_call through the provider
      const deployHash = (await node.provider.request({ method: 'eth_sendTransaction', params: [{ from: COW.address, data: contracts.ConsoleLogging.bytecode, gas: '0x2dc6c0' }] })) as string;
      const receipt = (await node.provider.request({ method: 'eth_getTransactionReceipt', params: [deployHash] })) as { contractAddress: string };
      expect(await node.provider.request({ method: 'eth_call', params: [{ to: receipt.contractAddress, data }, 'latest'] })).toBe(`0x${(18).toString(16).padStart(64, '0')}`);
      expect(seen).toEqual([{ kind: 'call', lines: ['viewLog(9)'] }]);
    } finally {
      await node.close();
    }
  });
});

describe('--silent-console', () => {
  it('prints nothing, while in-process users still get the events', async () => {
    let output = '';
    const quiet = await startTestNode({ logLevel: 'warn', silentConsole: true, logDestination: { write: (text: string) => void (output += text) } });
    try {
      const seen: ConsoleLogEntry[] = [];
      quiet.node.chains.testnet.events.on('consoleLog', (entry) => seen.push(entry));
      const p = new JsonRpcProvider(quiet.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
      const { abi, bytecode } = contracts.ConsoleLogging;
      const c = (await new ContractFactory(abi, bytecode, new Wallet(COW.privateKey, p)).deploy()) as Contract;
      await c.waitForDeployment();
      await (await c.getFunction('logLegacy').send()).wait();
      expect(seen.map((e) => e.lines)).toEqual([['legacy 7']]);
      expect(output).toBe('');
    } finally {
      await quiet.close();
    }
  });
});

describe('the CLI', () => {
  /** Deploys ConsoleLogging through `url` and sends logLegacy; returns that transaction's hash. */
  async function logThroughCli(url: string): Promise<string> {
    const deployHash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: contracts.ConsoleLogging.bytecode, gas: '0x2dc6c0' }]);
    const { contractAddress } = await call(url, 'eth_getTransactionReceipt', [deployHash]);
    const data = logging.interface.encodeFunctionData('logLegacy');
    const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, to: contractAddress, data, gas: '0x30d40' }]);
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    return hash;
  }

  it('prints the lines under the transaction hash, with --quiet too', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--quiet', '--api-key', 'console-test-key'], 1);
    try {
      await cli.started;
      const hash = await logThroughCli(`${cli.baseUrl()}/console-test-key`);
      expect(cli.stdout()).toContain(`testnet tx ${hash} console.log:\n  legacy 7\n`);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('--silent-console prints none', async () => {
    const cli = runCli(['--in-memory', '--port', '0', '--silent-console', '--api-key', 'console-test-key'], 1);
    try {
      await cli.started;
      const hash = await logThroughCli(`${cli.baseUrl()}/console-test-key`);
      // the transaction's own log line is there, its console lines are not
      expect(cli.stdout()).toContain(`testnet tx ${hash}: from`);
      expect(cli.stdout()).not.toContain('console.log');
      expect(cli.stdout()).not.toContain('legacy 7');
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });
});
