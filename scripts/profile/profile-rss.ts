/**
 * `npx tsx scripts/profile/profile-rss.ts [--blocks N] [--in-memory] [--traces] [--heap] [-- node flags]`: the
 * resident memory of the built bin (dist/bin/rsk-devnode.js, as `npm start` runs it) by phase, read
 * from /proc: started, after N blocks with one ERC20 Transfer each (sent raw over HTTP, one at a
 * time, as scripts/bench does), and after eth_getLogs over them. `--traces` adds the bench's trace
 * rows: a block of TRACED_TRANSFERS transfers from ten senders, each traced with callTracer, then
 * with struct logs (the default tracer). `--heap` starts the node with an inspector and prints V8's
 * heap spaces and external memory at each phase, as they are (no collection is forced). `--snapshot`
 * (with `--heap`) ends with a heap snapshot grouped by constructor (the snapshot collects first).
 * Numbers for docs/performance.md; never part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Interface, Wallet, getCreateAddress } from 'ethers';
import { contracts } from '../../test/fixtures/contracts.js';
import { bytesToHex } from '@ethereumjs/util';
import { DEV_ACCOUNTS } from '../../src/chain/keys/accounts.js';
import { heapSummary, inspector } from '../soak/inspector.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin', 'rsk-devnode.js');
const API_KEY = 'profilersskey000001';
/** A genesis account of the testnet chain (its key is public, as every dev account's). */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const GAS_PRICE = 70_000_000n;
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
/** Long enough for the CLI's idle collection (idle-gc.ts: two quiet 1 s checks after a busy one). */
const IDLE_WAIT_MS = 4_000;
/** The bench's traced block (scripts/bench/workloads.ts, issue 25: 100 transfers). */
const TRACED_TRANSFERS = 100;

const { values, positionals } = parseArgs({
  options: { blocks: { type: 'string', default: '2000' }, 'in-memory': { type: 'boolean', default: false }, traces: { type: 'boolean', default: false }, heap: { type: 'boolean', default: false }, snapshot: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const TOKEN = new Interface(contracts.Token.abi);
const wallet = new Wallet(COW_KEY);
const sign = (nonce: number, to: string | null, data: string, gasLimit = 200_000n) =>
  wallet.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: GAS_PRICE, gasLimit, to, data, value: 0n });

/** The child's CPU seconds so far (utime + stime, USER_HZ 100). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rss(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  return `RSS ${(kb('VmRSS') / 1024).toFixed(1)} MiB (peak ${(kb('VmHWM') / 1024).toFixed(1)})`;
}

// Signed before the node starts: the client's keep-alive connection must not sit idle past the node's timeout.
const deploy = await sign(0, null, contracts.Token.bytecode + TOKEN.encodeDeploy([10n ** 30n]).slice(2), 3_000_000n);
const token = getCreateAddress({ from: wallet.address, nonce: 0 });
const blocks = Number(values.blocks);
const data = TOKEN.encodeFunctionData('transfer', [RECIPIENT, 1n]);
const raws = await Promise.all(Array.from({ length: blocks }, (_, i) => sign(1 + i, token, data)));
// The traced block: each of ten dev accounts (the first is the deployer) sends a tenth of the transfers.
const senders = DEV_ACCOUNTS.slice(0, 10).map((a) => new Wallet(bytesToHex(a.privateKey)));
const funding = await Promise.all(senders.slice(1).map((s, i) => sign(1 + blocks + i, token, TOKEN.encodeFunctionData('transfer', [s.address, 10n ** 20n]))));
const traced = await Promise.all(
  Array.from({ length: TRACED_TRANSFERS }, (_, i) => {
    const sender = senders[i % senders.length]!;
    const nonce = i % senders.length === 0 ? 1 + blocks + funding.length + Math.floor(i / senders.length) : Math.floor(i / senders.length);
    const to = `0x${(i + 1).toString(16).padStart(40, '0')}`;
    return sender.signTransaction({ type: 0, chainId: 31, nonce, gasPrice: GAS_PRICE, gasLimit: 100_000n, to: token, data: TOKEN.encodeFunctionData('transfer', [to, 1_000n + BigInt(i)]), value: 0n });
  }),
);

const dir = mkdtempSync(join(tmpdir(), 'profile-rss-'));
const storage = values['in-memory'] ? ['--in-memory'] : ['--data-dir', dir];
const child = spawn(process.execPath, [...(values.heap ? ['--inspect=127.0.0.1:0'] : []), ...positionals, BIN, '--port', '0', '--api-key', `${API_KEY}:testnet`, '--log-level', 'warn', ...storage], { stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
let err = '';
child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
const base = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
});
const url = `${base}/${API_KEY}`;
async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

const cdp = values.heap ? await inspector(err) : undefined;
const mib = (n: number) => (n / 2 ** 20).toFixed(1);
/** V8's heap spaces (size, of which used) and external memory, without forcing a collection. */
async function heap(): Promise<string> {
  if (cdp === undefined) return '';
  const spaces = await cdp.evaluate<Array<{ space_name: string; space_size: number; space_used_size: number }>>(`process.getBuiltinModule('v8').getHeapSpaceStatistics()`);
  const usage = await cdp.evaluate<{ external: number; arrayBuffers: number }>(`(() => { const m = process.memoryUsage(); return { external: m.external, arrayBuffers: m.arrayBuffers }; })()`);
  const named = spaces.filter((s) => s.space_size > 0).map((s) => `${s.space_name.replace('_space', '')} ${mib(s.space_size)}/${mib(s.space_used_size)}`);
  return `\n    heap MiB (size/used): ${named.join(', ')}; external ${mib(usage.external)} (array buffers ${mib(usage.arrayBuffers)})`;
}

console.log(`started               ${rss(child.pid!)}${await heap()}`);
const deployHash = await rpc<string>('eth_sendRawTransaction', [deploy]);
if ((await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash])).contractAddress.toLowerCase() !== token.toLowerCase()) throw new Error('token address');
const first = Number(BigInt(await rpc<string>('eth_blockNumber'))) + 1;
const cpuBefore = cpuSeconds(child.pid!);
for (const raw of raws) await rpc('eth_sendRawTransaction', [raw]);
console.log(`after ${blocks} blocks     ${rss(child.pid!)}, node CPU for them ${(cpuSeconds(child.pid!) - cpuBefore).toFixed(2)} s${await heap()}`);
// The CLI collects fully once it has been idle a few seconds (src/idle-gc.ts).
await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
console.log(`then idle ${IDLE_WAIT_MS / 1000} s         ${rss(child.pid!)}${await heap()}`);
const logs = await rpc<unknown[]>('eth_getLogs', [{ fromBlock: `0x${first.toString(16)}`, toBlock: 'latest', address: token }]);
for (let i = 0; i < 20; i++) await rpc('eth_getLogs', [{ fromBlock: `0x${first.toString(16)}`, toBlock: 'latest', address: token }]);
console.log(`after eth_getLogs (${logs.length}) ${rss(child.pid!)}${await heap()}`);
if (values.traces) {
  for (const raw of funding) await rpc('eth_sendRawTransaction', [raw]);
  await rpc('evm_setAutomine', [false]);
  const hashes: string[] = [];
  for (const raw of traced) hashes.push(await rpc<string>('eth_sendRawTransaction', [raw]));
  await rpc('evm_mine');
  await rpc('evm_setAutomine', [true]);
  for (const [label, options] of [['callTracer', { tracer: 'callTracer' }], ['struct logs', undefined]] as const) {
    const cpu = cpuSeconds(child.pid!);
    let bytes = 0;
    for (const hash of hashes) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: options === undefined ? [hash] : [hash, options] }) });
      const text = await res.text();
      if (!text.includes('"result":{')) throw new Error(`debug_traceTransaction: ${text.slice(0, 300)}`);
      bytes += text.length;
    }
    console.log(`after ${hashes.length} traces, ${label.padEnd(11)} ${rss(child.pid!)}, ${(bytes / 1e6).toFixed(1)} MB, node CPU ${(cpuSeconds(child.pid!) - cpu).toFixed(2)} s${await heap()}`);
  }
}
if (cdp !== undefined && values.snapshot) {
  for (const g of await heapSummary(cdp, 25)) console.log(`    ${g.key.padEnd(50)} ${String(g.count).padStart(8)} ${mib(g.bytes).padStart(6)} MiB`);
}
cdp?.close();
await new Promise((resolve) => {
  child.on('exit', resolve);
  child.kill('SIGINT');
});
rmSync(dir, { recursive: true, force: true });
