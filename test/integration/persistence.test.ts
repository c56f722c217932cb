/**
 * Persistence through the real CLI: a clean restart (SIGTERM), operator keys from flags, crash
 * consistency after SIGKILL in the middle of a transaction stream, and --in-memory.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { type CliProcess, runCli } from '../helpers/cli.js';
import { COW, COW1, rpc, rpcRaw } from '../helpers/node.js';

const GENESIS_BALANCE = 10n ** 30n;
const REMASC = '0x0000000000000000000000000000000001000008';
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
/** The exact banner line of one key-bearing URL, as src/cli.ts prints it. */
const BANNER_LINE = /^ {2}(testnet|mainnet) {1,2}chain (31|30) {2}(http:\/\/127\.0\.0\.1:(\d+))\/([A-Za-z0-9_-]{8,128})$/;

interface BannerUrl {
  network: 'testnet' | 'mainnet';
  chainId: number;
  baseUrl: string;
  port: number;
  key: string;
  url: string;
  line: string;
}

/** A CLI run with the key URLs its banner printed. */
interface CliNode extends CliProcess {
  urls: BannerUrl[];
  url(network: 'testnet' | 'mainnet'): string;
}

const running = new Set<CliNode>();
const tempDirs: string[] = [];
const providers: JsonRpcProvider[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-persistence-'));
  tempDirs.push(dir);
  return dir;
}

/** cacheTimeout -1: ethers would otherwise answer a repeated eth_getTransactionCount from a 250 ms cache. */
function provider(url: string, options: { batchMaxCount?: number } = {}): JsonRpcProvider {
  const p = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1, ...options });
  providers.push(p);
  return p;
}

/** Starts the CLI (test/helpers/cli.ts) and resolves once the banner with `keyCount` URLs is out, its URLs parsed. */
async function startCli(args: string[], keyCount = 2): Promise<CliNode> {
  const cli = runCli(args, keyCount);
  const node: CliNode = {
    ...cli,
    urls: [],
    url(network) {
      const found = this.urls.find((u) => u.network === network);
      if (found === undefined) throw new Error(`no ${network} URL in the banner`);
      return found.url;
    },
  };
  running.add(node);
  void cli.exited.then(() => running.delete(node));
  await cli.started;
  const lines = cli.stdout().split('\n');
  const header = lines.findIndex((l) => l.startsWith('JSON-RPC URLs'));
  for (const line of lines.slice(header + 1, header + 1 + keyCount)) {
    const m = BANNER_LINE.exec(line);
    expect(m, `banner line ${JSON.stringify(line)}`).not.toBeNull();
    node.urls.push({
      network: m![1] as 'testnet' | 'mainnet',
      chainId: Number(m![2]),
      baseUrl: m![3]!,
      port: Number(m![4]),
      key: m![5]!,
      url: `${m![3]}/${m![5]}`,
      line,
    });
  }
  return node;
}

async function stopCli(node: CliNode, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | NodeJS.Signals> {
  node.child.kill(signal);
  return node.exited;
}

async function killAll(): Promise<void> {
  for (const p of providers.splice(0)) p.destroy();
  await Promise.all(
    [...running].map(async (node) => {
      node.child.kill('SIGKILL');
      await node.exited;
    }),
  );
}

afterEach(killAll);
afterAll(async () => {
  await killAll();
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A JSON-RPC call that must succeed; returns its result. */
async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { status, body } = await rpc(url, method, params);
  if (body.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  expect(status).toBe(200);
  return body.result;
}

const hexNumber = (n: number | bigint) => `0x${n.toString(16)}`;

/** Every key appears only inside its own banner line: not in log lines, not on stderr. */
function expectKeysOnlyInBanner(node: CliNode) {
  const stdoutLines = node.stdout().split('\n');
  for (const u of node.urls) {
    expect(node.stderr()).not.toContain(u.key);
    const carrying = stdoutLines.filter((l) => l.includes(u.key));
    expect(carrying).toEqual([u.line]);
  }
}

describe('restart after SIGTERM', () => {
  it('keeps keys, blocks, balances, receipts and contract storage, and continues the nonce', async () => {
    const dir = await tempDir();
    const first = await startCli(['--data-dir', dir, '--port', '0']);
    expect(first.stdout()).toContain(`rsk-devnode listening on ${first.urls[0]!.baseUrl} (data in ${dir})`);
    expect(first.urls.map((u) => [u.network, u.chainId])).toEqual([
      ['testnet', 31],
      ['mainnet', 30],
    ]);
    for (const u of first.urls) expect(u.key).toMatch(/^[0-9a-f]{32}$/);
    expect(first.urls[0]!.key).not.toBe(first.urls[1]!.key);
    // The auto-made keys are the ones kept in keys.json, readable by the owner only.
    const keysFile = join(dir, 'keys.json');
    expect(JSON.parse(await readFile(keysFile, 'utf8'))).toEqual({ testnet: first.urls[0]!.key, mainnet: first.urls[1]!.key });
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);

    const testnetUrl = first.url('testnet');
    const mainnetUrl = first.url('mainnet');
    expect(await call(testnetUrl, 'eth_chainId')).toBe('0x1f');
    expect(await call(mainnetUrl, 'eth_chainId')).toBe('0x1e');

    const p = provider(testnetUrl);
    const wallet = new Wallet(COW.privateKey, p);
    const recipient = Wallet.createRandom().address.toLowerCase();
    const hashes: string[] = [];
    for (const value of [parseEther('1'), parseEther('2'), 12345n]) {
      const tx = await wallet.sendTransaction({ to: recipient, value, type: 0 });
      expect((await tx.wait())?.status).toBe(1);
      hashes.push(tx.hash);
    }
    const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
    const token = (await factory.deploy(1000n, { type: 0 })) as Contract;
    await token.waitForDeployment();
    const tokenAddress = (await token.getAddress()).toLowerCase();
    hashes.push(token.deploymentTransaction()!.hash);
    const mint = await token.getFunction('mint')(COW1.address, 77n, { type: 0 });
    expect((await mint.wait())?.status).toBe(1);
    hashes.push(mint.hash);
    // One transaction on mainnet too: both networks' databases must survive.
    const mainnetWallet = new Wallet(COW.privateKey, provider(mainnetUrl));
    const mainnetTx = await mainnetWallet.sendTransaction({ to: recipient, value: 5n, type: 0 });
    expect((await mainnetTx.wait())?.status).toBe(1);

    const snapshot = async (url: string, mainnetUrlNow: string) => {
      const head = await call(url, 'eth_getBlockByNumber', ['latest', true]);
      const blocks = [];
      for (let n = 0; n <= Number(head.number); n++) blocks.push(await call(url, 'eth_getBlockByNumber', [hexNumber(n), true]));
      return {
        blockNumber: await call(url, 'eth_blockNumber'),
        head,
        blocks,
        headByHash: await call(url, 'eth_getBlockByHash', [head.hash, false]),
        balances: await Promise.all([COW.address, COW1.address, recipient].map((a) => call(url, 'eth_getBalance', [a, 'latest']))),
        nonce: await call(url, 'eth_getTransactionCount', [COW.address, 'latest']),
        receipts: await Promise.all(hashes.map((h) => call(url, 'eth_getTransactionReceipt', [h]))),
        txs: await Promise.all(hashes.map((h) => call(url, 'eth_getTransactionByHash', [h]))),
        code: await call(url, 'eth_getCode', [tokenAddress, 'latest']),
        // Token storage: slot 2 totalSupply; slots 0/1 the short strings name and symbol.
        storage: await Promise.all([0, 1, 2].map((slot) => call(url, 'eth_getStorageAt', [tokenAddress, hexNumber(slot), 'latest']))),
        mainnet: {
          blockNumber: await call(mainnetUrlNow, 'eth_blockNumber'),
          head: await call(mainnetUrlNow, 'eth_getBlockByNumber', ['latest', true]),
          receipt: await call(mainnetUrlNow, 'eth_getTransactionReceipt', [mainnetTx.hash]),
          balance: await call(mainnetUrlNow, 'eth_getBalance', [recipient, 'latest']),
        },
      };
    };
    const before = await snapshot(testnetUrl, mainnetUrl);
    // Values that are known independently of the node's own bookkeeping.
    expect(before.blockNumber).toBe('0x5');
    expect(before.nonce).toBe('0x5');
    expect(BigInt(before.balances[2])).toBe(parseEther('3') + 12345n);
    expect(before.code).toBe(contracts.Token.deployedBytecode);
    expect(BigInt(before.storage[2])).toBe(1077n);
    expect(before.receipts[3].contractAddress).toBe(tokenAddress);
    expect(before.receipts[4].logs).toHaveLength(1);
    expect(before.mainnet.blockNumber).toBe('0x1');
    expect(BigInt(before.mainnet.balance)).toBe(5n);
    expect(await token.getFunction('balanceOf')(COW1.address)).toBe(77n);

    for (const p of providers.splice(0)) p.destroy();
    expect(await stopCli(first, 'SIGTERM')).toBe(0);
    expect(first.stdout()).toContain('SIGTERM: closing databases');
    expectKeysOnlyInBanner(first);

    // Same port, so the printed URLs can be compared whole.
    const second = await startCli(['--data-dir', dir, '--port', String(first.urls[0]!.port)]);
    expect(second.urls.map((u) => u.line)).toEqual(first.urls.map((u) => u.line));
    expect(second.url('testnet')).toBe(testnetUrl);
    expect(second.url('mainnet')).toBe(mainnetUrl);
    const after = await snapshot(second.url('testnet'), second.url('mainnet'));
    expect(after).toEqual(before);

    const p2 = provider(second.url('testnet'));
    const wallet2 = new Wallet(COW.privateKey, p2);
    expect(await wallet2.getNonce()).toBe(5);
    expect(BigInt(await call(second.url('testnet'), 'eth_getTransactionCount', [COW.address, 'pending']))).toBe(5n);
    const next = await wallet2.sendTransaction({ to: recipient, value: 1n, type: 0 });
    expect(next.nonce).toBe(5);
    const nextReceipt = await next.wait();
    expect(nextReceipt?.status).toBe(1);
    expect(nextReceipt?.blockNumber).toBe(6);
    const block6 = await call(second.url('testnet'), 'eth_getBlockByNumber', ['0x6', false]);
    expect(block6.parentHash).toBe(before.head.hash);
    expect(BigInt(await call(second.url('testnet'), 'eth_getBalance', [recipient, 'latest']))).toBe(parseEther('3') + 12346n);
    // The contract still works against its persisted storage.
    const token2 = new Contract(tokenAddress, contracts.Token.abi, wallet2);
    expect(await token2.getFunction('totalSupply')()).toBe(1077n);
    const transfer = await token2.getFunction('transfer')(COW1.address, 3n, { type: 0 });
    expect((await transfer.wait())?.blockNumber).toBe(7);
    expect(await token2.getFunction('balanceOf')(COW1.address)).toBe(80n);
    expect(await token2.getFunction('balanceOf')(COW.address)).toBe(997n);

    for (const p of providers.splice(0)) p.destroy();
    expect(await stopCli(second, 'SIGINT')).toBe(0);
    expect(second.stdout()).toContain('SIGINT: closing databases');
    expectKeysOnlyInBanner(second);
  });
});

describe('signals', () => {
  // A supervisor may stop the node as soon as it has printed its URLs: the databases must still
  // be closed cleanly (exit code 0), never left to the default signal action.
  it('SIGTERM right after the banner still closes the databases and exits 0', async () => {
    const dir = await tempDir();
    for (let attempt = 0; attempt < 4; attempt++) {
      const node = await startCli(['--data-dir', dir, '--port', '0']);
      expect(await stopCli(node, 'SIGTERM'), `attempt ${attempt}`).toBe(0);
      expect(node.stdout()).toContain('SIGTERM: closing databases');
    }
  });
});

describe('--api-key', () => {
  it('serves only the given keys, each on its network', async () => {
    const dir = await tempDir();
    // A first start makes keys of its own; given keys must replace them.
    const auto = await startCli(['--data-dir', dir, '--port', '0']);
    const autoKeys = auto.urls.map((u) => u.key);
    expect(await call(auto.url('testnet'), 'eth_chainId')).toBe('0x1f');
    expect(await stopCli(auto)).toBe(0);

    const node = await startCli(['--data-dir', dir, '--port', '0', '--api-key', 'mykey12345:mainnet', '--api-key', 'other12345']);
    expect(node.urls.map((u) => [u.network, u.chainId, u.key])).toEqual([
      ['mainnet', 30, 'mykey12345'],
      ['testnet', 31, 'other12345'],
    ]);
    const base = node.urls[0]!.baseUrl;
    expect(await call(`${base}/mykey12345`, 'eth_chainId')).toBe('0x1e');
    expect(await call(`${base}/other12345`, 'eth_chainId')).toBe('0x1f');
    expect(await call(`${base}/mykey12345`, 'net_version')).toBe('30');
    expect(await call(`${base}/other12345`, 'net_version')).toBe('31');

    for (const key of ['unknown-key-1', ...autoKeys, 'MYKEY12345', 'mykey1234']) {
      const { status, body } = await rpcRaw(`${base}/${key}`, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }));
      expect(status, key).toBe(401);
      expect(body.jsonrpc).toBe('2.0');
      expect(body.id).toBe(7);
      expect(body.error?.code).toBe(-32001);
      expect(body.result).toBeUndefined();
    }
    expect(await stopCli(node)).toBe(0);
    expectKeysOnlyInBanner(node);
  });
});

interface BlockJson {
  number: string;
  hash: string;
  parentHash: string;
  transactions: Array<{ hash: string; from: string; to: string | null; value: string; nonce: string; gasPrice: string; blockNumber: string }>;
}

describe('SIGKILL in the middle of a transaction stream', () => {
  it('restarts on a consistent chain every time', async () => {
    const dir = await tempDir();
    const recipient = Wallet.createRandom().address.toLowerCase();
    let node = await startCli(['--data-dir', dir, '--port', '0']);
    let expectedHead = 0;
    /**
     * Hashes (with nonces) whose eth_sendRawTransaction answered. Automine commits a transaction
     * before answering, unless it arrived ahead of a lower nonce (separate connections may reorder
     * the stream): then it waits in the pool, in memory, which a kill may lose, as on any node.
     */
    const acknowledged = new Map<string, number>();
    const rounds = [
      { killAfter: 40, delayMs: 0 },
      { killAfter: 27, delayMs: 3 },
      { killAfter: 33, delayMs: 8 },
    ];

    for (const round of rounds) {
      const url = node.url('testnet');
      const gasPrice = BigInt(await call(url, 'eth_gasPrice'));
      const startNonce = Number(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']));
      // One HTTP request per call, so several are in flight at the kill.
      const wallet = new Wallet(COW.privateKey, provider(url, { batchMaxCount: 1 }));
      const victim = node;
      let killed = false;
      const failuresBeforeKill: unknown[] = [];
      const killSoon = () =>
        setTimeout(() => {
          killed = true;
          victim.child.kill('SIGKILL');
        }, round.delayMs);

      // The stream goes on until the kill stops it: the kill lands wherever the stream is.
      let inFlight: Promise<unknown>[] = [];
      for (let i = 0; !killed; i++) {
        const request = { to: recipient, value: BigInt(1000 + startNonce + i), nonce: startNonce + i, gasLimit: 21_000n, gasPrice, chainId: 31n, type: 0 };
        const sending = wallet.sendTransaction(request).then((tx) => {
          acknowledged.set(tx.hash, tx.nonce);
          return tx.hash;
        });
        if (i + 1 === round.killAfter) killSoon();
        if (i % 8 === 7) {
          // Every eighth: await the submission and the receipt, after the others have landed.
          inFlight.push(sending);
          await Promise.allSettled(inFlight);
          inFlight = [];
          try {
            const receipt = await call(url, 'eth_getTransactionReceipt', [await sending]);
            expect(receipt.status).toBe('0x1');
          } catch (err) {
            if (!killed) throw err;
          }
        } else {
          // Not awaited; failures are only expected once the process is gone.
          inFlight.push(sending.catch((err: unknown) => void (killed || failuresBeforeKill.push(err))));
          // Let the requests go out and the node answer some of them.
          await new Promise((r) => setImmediate(r));
        }
      }
      await Promise.allSettled(inFlight);
      expect(await victim.exited).toBe('SIGKILL');
      expect(failuresBeforeKill).toEqual([]);
      for (const p of providers.splice(0)) p.destroy();

      node = await startCli(['--data-dir', dir, '--port', '0']);
      const head = await checkConsistency(node.url('testnet'), recipient, acknowledged);
      expect(head).toBeGreaterThanOrEqual(expectedHead);
      expectedHead = head + 1;
    }
    expect(await stopCli(node)).toBe(0);
  });
});

describe('SIGKILL in the middle of hardhat_mine', () => {
  it('restarts on a consistent chain: the blocks of written chunks, each whole, and mining goes on', async () => {
    const dir = await tempDir();
    const node = await startCli(['--data-dir', dir, '--port', '0']);
    const url = node.url('testnet');
    // Not awaited: the kill lands while it mines (its chunks of 64 blocks are written one batch each).
    const mining = rpc(url, 'hardhat_mine', [hexNumber(20_000)]).catch(() => undefined);
    while (Number(await call(url, 'eth_blockNumber')) < 200) await new Promise((r) => setTimeout(r, 5));
    node.child.kill('SIGKILL');
    expect(await node.exited).toBe('SIGKILL');
    await mining;

    const restarted = await startCli(['--data-dir', dir, '--port', '0']);
    const head = await checkConsistency(restarted.url('testnet'), Wallet.createRandom().address.toLowerCase(), new Map());
    // The chunks written before the node saw 200 blocks are there.
    expect(head).toBeGreaterThanOrEqual(128);
    expect(await stopCli(restarted)).toBe(0);
  });
});

/**
 * Checks the chain behind `url` block by block, then mines one more transaction on it. Returns the
 * head number found at start.
 */
async function checkConsistency(url: string, recipient: string, acknowledged: Map<string, number>): Promise<number> {
  const head = Number(await call(url, 'eth_blockNumber'));
  expect(head).toBeGreaterThan(0);
  expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).number).toBe(hexNumber(head));
  expect(await call(url, 'eth_getBlockByNumber', [hexNumber(head + 1), false])).toBeNull();

  const genesis = (await call(url, 'eth_getBlockByNumber', ['0x0', false])) as BlockJson;
  let parentHash = genesis.hash;
  const cow = COW.address.toLowerCase();
  let minedBySender = 0;
  let valueToRecipient = 0n;
  let senderSpent = 0n;
  const mined = new Set<string>();
  for (let n = 1; n <= head; n++) {
    const block = (await call(url, 'eth_getBlockByNumber', [hexNumber(n), true])) as BlockJson | null;
    expect(block, `block ${n}`).not.toBeNull();
    expect(block!.number).toBe(hexNumber(n));
    expect(block!.parentHash, `parent of block ${n}`).toBe(parentHash);
    expect((await call(url, 'eth_getBlockByHash', [block!.hash, false])).number).toBe(hexNumber(n));
    parentHash = block!.hash;
    // Every block ends with the REMASC transaction.
    const last = block!.transactions.at(-1)!;
    expect([last.from, last.to, last.nonce]).toEqual([ZERO_ADDRESS, REMASC, hexNumber(n - 1)]);
    const receipts = await Promise.all(block!.transactions.map((tx) => call(url, 'eth_getTransactionReceipt', [tx.hash])));
    for (const [index, tx] of block!.transactions.entries()) {
      expect(tx.blockNumber).toBe(hexNumber(n));
      const receipt = receipts[index];
      expect(receipt, `receipt of ${tx.hash}`).not.toBeNull();
      expect(receipt.blockNumber).toBe(hexNumber(n));
      expect(receipt.blockHash).toBe(block!.hash);
      expect(receipt.transactionIndex).toBe(hexNumber(index));
      expect(receipt.status).toBe('0x1');
      if (tx.from === cow) {
        expect(tx.nonce).toBe(hexNumber(minedBySender));
        expect(tx.to).toBe(recipient);
        minedBySender++;
        mined.add(tx.hash);
        valueToRecipient += BigInt(tx.value);
        senderSpent += BigInt(tx.value) + BigInt(receipt.gasUsed) * BigInt(tx.gasPrice);
      }
    }
  }
  // Every acknowledged transaction survived, except ones that were waiting behind a nonce gap the kill left open.
  for (const [hash, nonce] of acknowledged) {
    if (mined.has(hash)) continue;
    expect(nonce, `acknowledged ${hash} (nonce ${nonce}) was lost though no gap was before it`).toBeGreaterThan(minedBySender);
    // Its nonce is free again: the next round may mine another transaction with it.
    acknowledged.delete(hash);
  }
  expect(Number(await call(url, 'eth_getTransactionCount', [COW.address, 'latest']))).toBe(minedBySender);
  expect(Number(await call(url, 'eth_getTransactionCount', [COW.address, 'pending']))).toBe(minedBySender);
  expect(BigInt(await call(url, 'eth_getBalance', [recipient, '0x0']))).toBe(0n);
  expect(BigInt(await call(url, 'eth_getBalance', [recipient, 'latest']))).toBe(valueToRecipient);
  expect(BigInt(await call(url, 'eth_getBalance', [COW.address, '0x0']))).toBe(GENESIS_BALANCE);
  expect(BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest']))).toBe(GENESIS_BALANCE - senderSpent);

  // The node carries on from there.
  const wallet = new Wallet(COW.privateKey, provider(url));
  expect(await wallet.getNonce('latest')).toBe(minedBySender);
  const tx = await wallet.sendTransaction({ to: recipient, value: 999n, nonce: minedBySender, type: 0 });
  const receipt = await tx.wait();
  expect(receipt?.status).toBe(1);
  expect(receipt?.blockNumber).toBe(head + 1);
  expect((await call(url, 'eth_getBlockByNumber', [hexNumber(head + 1), false])).parentHash).toBe(parentHash);
  expect(BigInt(await call(url, 'eth_getBalance', [recipient, 'latest']))).toBe(valueToRecipient + 999n);
  acknowledged.set(tx.hash, minedBySender);
  return head;
}

describe('--in-memory', () => {
  it('leaves no files in the data directory', async () => {
    const dir = await tempDir();
    const node = await startCli(['--in-memory', '--data-dir', dir, '--port', '0']);
    expect(node.stdout()).toContain('(in memory)');
    for (const u of node.urls) expect(u.key).toMatch(/^[0-9a-f]{32}$/);
    const wallet = new Wallet(COW.privateKey, provider(node.url('testnet')));
    const tx = await wallet.sendTransaction({ to: COW1.address, value: 1n, type: 0 });
    expect((await tx.wait())?.blockNumber).toBe(1);
    expect(await call(node.url('testnet'), 'eth_blockNumber')).toBe('0x1');
    for (const p of providers.splice(0)) p.destroy();
    expect(await stopCli(node)).toBe(0);
    expect(await readdir(dir)).toEqual([]);

    // A second in-memory start knows nothing of the first, and makes new keys.
    const again = await startCli(['--in-memory', '--data-dir', dir, '--port', '0']);
    expect(await call(again.url('testnet'), 'eth_blockNumber')).toBe('0x0');
    expect(again.urls.map((u) => u.key)).not.toEqual(node.urls.map((u) => u.key));
    expect(await stopCli(again)).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });
});
