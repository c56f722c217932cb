/**
 * `npx tsx scripts/profile/state-file-measure.ts [--blocks N]`: how long a state file of an N-block chain
 * (default 10,000 blocks, one token transfer with its log each) takes to write and to load with
 * --load-state, and the loading process's peak RSS, in memory and into a data directory, against a
 * node started without a file. Each load runs in a fresh process so that its peak RSS is its own.
 * Numbers for docs/state-file.md; never part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Interface, Wallet } from 'ethers';
import { createNode } from '../../src/index.js';
import { dumpStateFile } from '../../src/state-files.js';
import { contracts } from '../../test/fixtures/contracts.js';

const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const GAS_PRICE = 70_000_000n;

const { values, positionals } = parseArgs({
  options: { blocks: { type: 'string', default: '10000' }, 'data-dir': { type: 'string' } },
  allowPositionals: true,
});

if (positionals[0] === 'load') {
  // Child: one load, then its numbers as JSON on stdout.
  const file = positionals[1];
  const started = performance.now();
  const cpu = process.cpuUsage();
  const node = await createNode({ inMemory: values['data-dir'] === undefined, dataDir: values['data-dir'], loadState: file, logLevel: 'silent' });
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const head = node.chains.testnet.head.header.number;
  await node.close();
  process.stdout.write(JSON.stringify({ ms, cpuMs: (user + system) / 1000, head: Number(head), peakRssMb: process.resourceUsage().maxRSS / 1024 }));
} else {
  await measure(Number(values.blocks));
}

async function measure(blocks: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rsk-state-measure-'));
  const file = join(dir, 'state.json.gz');
  try {
    const node = await createNode({ inMemory: true, logLevel: 'silent' });
    const send = async (wallet: Wallet, nonce: number, to: string | null, data: string) => {
      const raw = await wallet.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: GAS_PRICE, gasLimit: 1_000_000n, to, data, value: 0n });
      return node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }) as Promise<string>;
    };
    const wallet = new Wallet(COW_KEY);
    const token = new Interface(contracts.Token.abi);
    const deploy = await send(wallet, 0, null, contracts.Token.bytecode + token.encodeDeploy([10n ** 24n]).slice(2));
    const receipt = (await node.provider.request({ method: 'eth_getTransactionReceipt', params: [deploy] })) as { contractAddress: string };
    const made = performance.now();
    for (let i = 1; i < blocks; i++) {
      const to = `0x${(i % 1000).toString(16).padStart(40, '0')}`;
      await send(wallet, i, receipt.contractAddress, token.encodeFunctionData('transfer', [to === '0x0000000000000000000000000000000000000000' ? '0x00000000000000000000000000000000000000ff' : to, 1n]));
    }
    const mining = performance.now() - made;
    const dumpStarted = performance.now();
    const dumpCpu = process.cpuUsage();
    await dumpStateFile(node.chains, file);
    const dumpMs = performance.now() - dumpStarted;
    const dumpCpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(dumpCpu));
    const head = Number(node.chains.testnet.head.header.number);
    await node.close();
    const size = (await stat(file)).size;

    const load = (args: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, ...args], { encoding: 'utf8' })) as { ms: number; cpuMs: number; head: number; peakRssMb: number };
    const empty = join(dir, 'empty.json.gz');
    const baselineNode = await createNode({ inMemory: true, logLevel: 'silent' });
    await dumpStateFile(baselineNode.chains, empty);
    await baselineNode.close();
    const baseline = load(['load', empty]);
    const inMemory = load(['load', file]);
    const onDisk = load(['load', file, '--data-dir', join(dir, 'data')]);
    if (inMemory.head !== head || onDisk.head !== head) throw new Error(`loaded head ${inMemory.head}/${onDisk.head}, dumped ${head}`);

    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const row = (name: string, r: { ms: number; cpuMs: number; peakRssMb: number }) => `| ${name} | ${seconds(r.ms)} | ${seconds(r.cpuMs)} | ${r.peakRssMb.toFixed(0)} MB |`;
    process.stdout.write(
      [
        `Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end.`,
        `Chain: ${head + 1} testnet blocks (a token transfer and its log each) + mainnet genesis; made in ${(mining / 1000).toFixed(1)} s.`,
        `State file: ${(size / 1024 / 1024).toFixed(1)} MB gzip, written in ${(dumpMs / 1000).toFixed(2)} s (${(dumpCpuMs / 1000).toFixed(2)} s of CPU).`,
        '',
        '| Start | Time to a started node | CPU time (all threads) | Peak RSS |',
        '|---|---|---|---|',
        row('no file (baseline: genesis-only file)', baseline),
        row('--load-state, --in-memory', inMemory),
        row('--load-state, --data-dir (LevelDB)', onDisk),
        '',
      ].join('\n'),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
