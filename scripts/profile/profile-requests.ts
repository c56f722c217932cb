/**
 * Measures what the server spends per request, in CPU rather than wall-clock time: on a machine
 * whose cores are shared, throughput says more about the neighbours than about us, while the
 * server's own CPU time per answered request (/proc/<pid>/stat) holds steady. Issue 25.
 *
 *   tsx scripts/profile/profile-requests.ts read [--method eth_blockNumber|eth_getBalance] [--connections 32] [--seconds 5] [--new-address] [--user-key]
 *   tsx scripts/profile/profile-requests.ts call [--new-address] [--connections 32] [--seconds 5]   (ERC20 balanceOf, as the bench's call rows)
 *   tsx scripts/profile/profile-requests.ts send [--count 300]
 *   tsx scripts/profile/profile-requests.ts logs [--count 2000] [--queries 20]   (--count one-Transfer blocks, then eth_getLogs over them, as the bench's getLogs row)
 *   tsx scripts/profile/profile-requests.ts bare [--connections 32] [--seconds 5]   (a bare node:http server, for scale)
 * Common flags: --in-memory (default: a fresh data dir, as `npm start` keeps one), --cpu-prof DIR
 * (the node runs under `node --cpu-prof`; the top functions of the measured window are printed),
 * --root DIR (start the node of another checkout, built there: to compare with an older commit);
 * flags after `--` go to the node (`-- --quiet`); --callgrind DIR (the node runs under valgrind's
 * callgrind, instrumented only during the measured window: instructions per request, which the
 * machine's load does not change; the warm-up then runs about 50 times slower, so give --seconds
 * room); --warm-up SECONDS (default 1; read, call and bare: under --callgrind give it 30, or the
 * window measures V8's interpreter). read --user-key: through a dashboard user's key, quota and
 * usage counted (the bench's "user key" row); the node then starts with a daily limit of 10^9.
 *
 * The node starts as `npm start` does (scripts/start.mjs: builds dist/ when stale, then runs the
 * bin in the same process). The client is raw node:net sockets, keep-alive, requests built once,
 * one in flight per connection: a node:http client costs more CPU than the server it measures.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Interface, Wallet } from 'ethers';
import contracts from '../../test/fixtures/contracts.json' with { type: 'json' };
import { dashboardUserUrl } from '../bench/setup.js';
import { cpuByThread, cpuMicros } from './harness.js';

const KEY = 'profile-key';
/** --user-key: the daily limit the node starts with, so the measured requests never reach it. */
const USER_KEY_DAILY_LIMIT = 1_000_000_000;
/** The path requests are posted to: the operator's key, or (--user-key) a dashboard user's. */
let rpcPath = `/${KEY}`;
/** rskj's regtest account keccak256('cow'), funded on both networks' genesis. */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const RECIPIENT = '0x7986b3df570230288501eea3d890bd66948c9b79';
/** Above the genesis minimum gas price (60,000,000), which the miner may raise by 1% a block. */
const GAS_PRICE = 80_000_000;
/** Requests answered before the measured window starts (--warm-up): JIT and caches warm. Under --callgrind give it 30 or more. */
const WARM_UP_SECONDS = '1';
const TOP_FUNCTIONS = 40;
/** The fixture token's creation code with its constructor's argument (the initial supply): without it the constructor reverts. */
const TOKEN_DEPLOY = contracts.Token.bytecode + new Interface(contracts.Token.abi).encodeDeploy([10n ** 24n]).slice(2);
/** --new-address: the addresses asked for are this prefix followed by the request's index (decimal digits are hex too). */
const NEW_ADDRESS_BASE = 0xbe1c;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    method: { type: 'string', default: 'eth_blockNumber' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    'warm-up': { type: 'string', default: WARM_UP_SECONDS },
    count: { type: 'string', default: '300' },
    queries: { type: 'string', default: '20' },
    'in-memory': { type: 'boolean', default: false },
    /** eth_getBalance: a never-read address per request (the bench's getBalance-new row). */
    'new-address': { type: 'boolean', default: false },
    /** read: through a dashboard user's key (quota and usage counting on), as the bench's "user key" row. */
    'user-key': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    callgrind: { type: 'string' },
    /** Another checkout's scripts/start.mjs (e.g. an older commit, built there), to compare. */
    root: { type: 'string', default: '.' },
  },
});
const mode = positionals[0] ?? 'read';
/** Flags for the node after `--` (e.g. `-- --quiet`). */
const nodeArgs = positionals.slice(1);

/** µs per request of each thread name between two `cpuByThread` readings. */
function threadsPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  return [...after]
    .map(([name, micros]) => [name, (micros - (before.get(name) ?? 0)) / requests] as const)
    .filter(([, perRequest]) => perRequest >= 0.1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, perRequest]) => `${name} ${perRequest.toFixed(1)}`)
    .join(', ');
}

const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Under --callgrind: switches the node's instruction counting on, or off and writes the count out. */
function callgrind(pid: number, on: boolean): void {
  if (values.callgrind === undefined) return;
  if (on) execFileSync('callgrind_control', ['-i', 'on', String(pid)]);
  else {
    execFileSync('callgrind_control', ['-d', String(pid)]);
    execFileSync('callgrind_control', ['-i', 'off', String(pid)]);
  }
}

/** The instructions callgrind counted in the window (its first dump), per request. */
function instructionsPerRequest(pid: number, requests: number): string {
  if (values.callgrind === undefined) return '';
  const summary = /^summary: (\d+)/m.exec(readFileSync(join(values.callgrind, `callgrind.out.${pid}.1`), 'utf8'));
  return `; ${Math.round(Number(summary![1]) / requests)} instructions/request (callgrind)`;
}

interface Server {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

const nodeFlags = (): string[] => (values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`]);

/** valgrind's arguments before the node's, under --callgrind: collection starts switched off. */
const valgrindArgs = (dir: string): string[] => ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${dir}/callgrind.out.%p`];

async function startNode(): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'profile-requests-'));
  const storage = values['in-memory'] ? ['--in-memory'] : ['--data-dir', dataDir];
  const limit = values['user-key'] ? ['--daily-limit', String(USER_KEY_DAILY_LIMIT)] : [];
  const nodeCommand = [...nodeFlags(), join(values.root, 'scripts/start.mjs'), '--port', '0', '--api-key', KEY, ...storage, ...limit, ...nodeArgs];
  const [command, args] = values.callgrind === undefined ? [process.execPath, nodeCommand] : ['valgrind', [...valgrindArgs(values.callgrind), process.execPath, ...nodeCommand]];
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(text);
      if (match !== null) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the node exited with ${code} before listening`)));
  });
  child.stdout!.resume();
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** A bare node:http server, in a process of its own, answering every POST with a fixed JSON-RPC answer: what a request costs at the least. */
const BARE_SERVER = `
const body = '{"jsonrpc":"2.0","id":1,"result":"0x0"}';
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.on('SIGINT', () => process.exit(0));
`;

async function startBare(): Promise<Server> {
  const nodeCommand = [...nodeFlags(), '-e', BARE_SERVER];
  const [command, args] = values.callgrind === undefined ? [process.execPath, nodeCommand] : ['valgrind', [...valgrindArgs(values.callgrind), process.execPath, ...nodeCommand]];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(/:(\d+)/.exec(chunk.toString())![1])));
  });
  return { port, pid: child.pid!, stop: () => stopChild(child) };
}

function requestBytes(port: number, body: string): Buffer {
  return Buffer.from(
    `POST ${rpcPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** One keep-alive connection, one request in flight: `send` resolves with the answer's body. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((body: string) => void) | undefined;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  send(request: Buffer): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private drain(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1]);
    if (!Number.isFinite(length)) throw new Error(`an answer without content-length:\n${head}`);
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(body);
  }
}

interface Window {
  pid: number;
  requests: number;
  /** Server CPU µs per request by thread name. */
  threads: string;
  serverCpuMicros: number;
  clientCpuMicros: number;
  seconds: number;
  from: number;
  to: number;
}

/** Keeps `connections` requests in flight for the warm-up and then `seconds`; counts the measured window. */
async function drive(server: Server, request: Buffer | ((i: number) => Buffer), connections: number, seconds: number): Promise<Window> {
  const nth = typeof request === 'function' ? request : () => request;
  let sent = 0;
  const sockets = await Promise.all(Array.from({ length: connections }, () => Connection.open(server.port)));
  let measuring = false;
  let done = false;
  let requests = 0;
  const loops = sockets.map(async (socket) => {
    while (!done) {
      const answer = await socket.send(nth(sent++));
      if (!answer.includes('"result"')) throw new Error(`an error answer: ${answer}`);
      if (measuring) requests++;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, Number(values['warm-up']) * 1000));
  callgrind(server.pid, true);
  measuring = true;
  const from = monotonicMicros();
  const serverStart = cpuMicros(server.pid);
  const threadsStart = cpuByThread(server.pid);
  const clientStart = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const counted = requests;
  callgrind(server.pid, false);
  const serverCpuMicros = cpuMicros(server.pid) - serverStart;
  const threads = threadsPerRequest(threadsStart, cpuByThread(server.pid), counted);
  const client = process.cpuUsage(clientStart);
  const to = monotonicMicros();
  done = true;
  await Promise.all(loops);
  for (const socket of sockets) socket.close();
  return { pid: server.pid, requests: counted, threads, serverCpuMicros, clientCpuMicros: client.user + client.system, seconds: (to - from) / 1e6, from, to };
}

function report(label: string, w: Window): void {
  const perRequest = (w.serverCpuMicros / w.requests).toFixed(1);
  console.log(
    `${label}: ${w.requests} answers in ${w.seconds.toFixed(2)} s (${Math.round(w.requests / w.seconds)}/s); ` +
      `server CPU ${perRequest} µs/request (by thread: ${w.threads}); client CPU ${(w.clientCpuMicros / w.requests).toFixed(1)} µs/request` +
      instructionsPerRequest(w.pid, w.requests),
  );
}

async function rpc(connection: Connection, port: number, method: string, params: unknown[]): Promise<any> {
  const answer = JSON.parse(await connection.send(requestBytes(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))));
  if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/** The token's address from its deployment's receipt; a failed deployment stops the profile (its calls would run no code). */
function deployed(receipt: { status: string; contractAddress: string }): string {
  if (receipt.status !== '0x1') throw new Error(`the token's deployment failed: ${JSON.stringify(receipt)}`);
  return receipt.contractAddress;
}

/** Signs up a dashboard user, makes a key and posts to it from now on (the bench's dashboardUserUrl, the "user key" row). */
async function useUserKey(port: number): Promise<void> {
  rpcPath = (await dashboardUserUrl({ port })).pathname;
}

type Signer = (to: string | null, data: string, gasLimit: number) => Promise<string>;

/**
 * Opens a connection, deploys the fixture token and mints to the cow account: the connection, the
 * token's address, and a signer of the cow's next transactions (its nonce counted here).
 */
async function deployAndMint(server: Server): Promise<{ connection: Connection; address: string; sign: Signer }> {
  const wallet = new Wallet(COW_KEY);
  const token = new Interface(contracts.Token.abi);
  const connection = await Connection.open(server.port);
  const call = (method: string, params: unknown[]) => rpc(connection, server.port, method, params);
  const chainId = Number(await call('eth_chainId', []));
  let nonce = Number(await call('eth_getTransactionCount', [wallet.address, 'pending']));
  const sign: Signer = (to, data, gasLimit) => wallet.signTransaction({ type: 0, chainId, nonce: nonce++, to, data, gasLimit, gasPrice: GAS_PRICE });
  const deployHash = await call('eth_sendRawTransaction', [await sign(null, TOKEN_DEPLOY, 2_000_000)]);
  const address = deployed(await call('eth_getTransactionReceipt', [deployHash]));
  await call('eth_sendRawTransaction', [await sign(address, token.encodeFunctionData('mint', [wallet.address, 10n ** 24n]), 100_000)]);
  return { connection, address, sign };
}

/** Deploys the fixture token and mints to the cow account: the token's address (the bench's eth_call rows read it). */
async function deployToken(server: Server): Promise<string> {
  const { connection, address } = await deployAndMint(server);
  connection.close();
  return address;
}

/** Sequential ERC20 transfers: send, then the receipt at once, one at a time, on one connection. */
async function sends(server: Server, count: number): Promise<Window & { missingReceipts: number; quantiles: { p10: number; median: number }; token: string }> {
  const token = new Interface(contracts.Token.abi);
  const setUp = await deployAndMint(server);
  const { address, sign } = setUp;
  let connection = setUp.connection;
  const warmUp = Math.min(50, count);
  const transfers: Buffer[] = [];
  for (let i = 0; i < warmUp + count; i++) {
    const raw = await sign(address, token.encodeFunctionData('transfer', [RECIPIENT, 1n]), 60_000);
    transfers.push(requestBytes(server.port, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })));
  }
  // Signing thousands on a loaded machine can outlast the node's keep-alive timeout: a fresh connection.
  connection.close();
  connection = await Connection.open(server.port);
  let missingReceipts = 0;
  const times: number[] = [];
  const one = async (request: Buffer) => {
    const started = monotonicMicros();
    const hash = JSON.parse(await connection.send(request)).result as string;
    const receipt = JSON.parse(await connection.send(requestBytes(server.port, `{"jsonrpc":"2.0","id":2,"method":"eth_getTransactionReceipt","params":["${hash}"]}`)));
    if (receipt.result === null || receipt.result === undefined) missingReceipts++;
    times.push(monotonicMicros() - started);
  };
  for (const request of transfers.slice(0, warmUp)) await one(request);
  times.length = 0;
  const from = monotonicMicros();
  const serverStart = cpuMicros(server.pid);
  const threadsStart = cpuByThread(server.pid);
  const clientStart = process.cpuUsage();
  callgrind(server.pid, true);
  for (const request of transfers.slice(warmUp)) await one(request);
  callgrind(server.pid, false);
  const serverCpuMicros = cpuMicros(server.pid) - serverStart;
  const threads = threadsPerRequest(threadsStart, cpuByThread(server.pid), count);
  const client = process.cpuUsage(clientStart);
  const to = monotonicMicros();
  connection.close();
  times.sort((a, b) => a - b);
  const quantiles = { p10: times[Math.floor(count / 10)]! / 1000, median: times[Math.floor(count / 2)]! / 1000 };
  return { pid: server.pid, requests: count, threads, serverCpuMicros, clientCpuMicros: client.user + client.system, seconds: (to - from) / 1e6, from, to, missingReceipts, quantiles, token: address };
}

/** eth_getLogs by the token's address over every block, `queries` times one after another on one connection. */
async function logQueries(server: Server, token: string, queries: number): Promise<Window & { median: number; logs: number; bytes: number }> {
  const connection = await Connection.open(server.port);
  const request = requestBytes(server.port, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: token }] }));
  const first = await connection.send(request);
  const logs = (JSON.parse(first).result as unknown[]).length;
  const times: number[] = [];
  const from = monotonicMicros();
  const serverStart = cpuMicros(server.pid);
  const threadsStart = cpuByThread(server.pid);
  const clientStart = process.cpuUsage();
  callgrind(server.pid, true);
  for (let i = 0; i < queries; i++) {
    const started = monotonicMicros();
    JSON.parse(await connection.send(request));
    times.push(monotonicMicros() - started);
  }
  callgrind(server.pid, false);
  const serverCpuMicros = cpuMicros(server.pid) - serverStart;
  const threads = threadsPerRequest(threadsStart, cpuByThread(server.pid), queries);
  const client = process.cpuUsage(clientStart);
  const to = monotonicMicros();
  connection.close();
  times.sort((a, b) => a - b);
  return { pid: server.pid, requests: queries, threads, serverCpuMicros, clientCpuMicros: client.user + client.system, seconds: (to - from) / 1e6, from, to, median: times[Math.floor(queries / 2)]! / 1000, logs, bytes: first.length };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * Self and total (self plus callees) time by function over the samples taken between `from` and
 * `to` (monotonic µs, V8's profile clock). V8 samples wall-clock intervals: a function that blocks
 * in the kernel (writev) also collects the time the process waited for a core.
 */
function printProfile(dir: string, from: number, to: number): void {
  const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().at(-1);
  if (file === undefined) return;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const nameOf = (id: number): string => {
    const frame = nodes.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]!;
    if (time < from || time > to) continue;
    const leaf = profile.samples[i]!;
    self.set(nameOf(leaf), (self.get(nameOf(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parents.get(id)) seen.add(nameOf(id));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    total++;
  }
  const print = (title: string, counts: Map<string, number>) => {
    console.log(title);
    for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, TOP_FUNCTIONS)) {
      console.log(`  ${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  };
  console.log(`profile ${join(dir, file)}: ${total} samples in the window`);
  print('self time by function:', self);
  print('total time by function (self and callees):', inclusive);
}

async function main(): Promise<void> {
  const connections = Number(values.connections);
  const seconds = Number(values.seconds);
  if (mode === 'bare') {
    const server = await startBare();
    const window = await drive(server, requestBytes(server.port, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'), connections, seconds);
    report('bare node:http', window);
    await server.stop();
    if (values['cpu-prof'] !== undefined) printProfile(values['cpu-prof'], window.from, window.to);
    return;
  }
  const server = await startNode();
  let window: Window;
  try {
    if (mode === 'read') {
      if (values['user-key']) await useUserKey(server.port);
      const params = values.method === 'eth_getBalance' ? [RECIPIENT, 'latest'] : [];
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: values.method, params });
      const [before, after] = body.split(RECIPIENT.slice(2));
      const request = values['new-address'] ? (i: number) => requestBytes(server.port, before + NEW_ADDRESS_BASE.toString(16).padStart(40 - String(i).length, '0') + i + after) : requestBytes(server.port, body);
      window = await drive(server, request, connections, seconds);
      report(`${values.method}${values['new-address'] ? ' (a new address each)' : ''}${values['user-key'] ? ', user key' : ''}, ${connections} connections${values['in-memory'] ? ', in memory' : ', data dir'}`, window);
    } else if (mode === 'call') {
      // ERC20 balanceOf of the minted holder, or (--new-address) of a never-read holder each time.
      const token = await deployToken(server);
      const holder = values['new-address'] ? RECIPIENT : new Wallet(COW_KEY).address.toLowerCase();
      const data = new Interface(contracts.Token.abi).encodeFunctionData('balanceOf', [holder]);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: token, data }, 'latest'] });
      const [before, after] = body.split(RECIPIENT.slice(2));
      const request = values['new-address'] ? (i: number) => requestBytes(server.port, before + NEW_ADDRESS_BASE.toString(16).padStart(40 - String(i).length, '0') + i + after) : requestBytes(server.port, body);
      window = await drive(server, request, connections, seconds);
      report(`eth_call balanceOf${values['new-address'] ? ' (a new holder each)' : ''}, ${connections} connections${values['in-memory'] ? ', in memory' : ', data dir'}`, window);
    } else if (mode === 'logs') {
      // The bench's getLogs row: one Transfer per block (--count blocks), then the query by address.
      const { token } = await sends(server, Number(values.count));
      const result = await logQueries(server, token, Number(values.queries));
      window = result;
      console.log(
        `eth_getLogs of ${result.logs} logs (${result.bytes} bytes)${values['in-memory'] ? ', in memory' : ', data dir'}: median ${result.median.toFixed(1)} ms over ${result.requests} queries; ` +
          `server CPU ${(result.serverCpuMicros / result.requests / 1000).toFixed(2)} ms/query (µs by thread: ${result.threads}); client CPU ${(result.clientCpuMicros / result.requests / 1000).toFixed(2)} ms/query${instructionsPerRequest(server.pid, result.requests)}`,
      );
    } else if (mode === 'send') {
      const result = await sends(server, Number(values.count));
      window = result;
      console.log(
        `ERC20 transfer, send → receipt, one at a time${values['in-memory'] ? ', in memory' : ', data dir'}: ${result.requests} in ${result.seconds.toFixed(2)} s, ` +
          `${((result.seconds * 1000) / result.requests).toFixed(2)} ms each (p10 ${result.quantiles.p10.toFixed(2)}, median ${result.quantiles.median.toFixed(2)}; a loaded machine stretches the rest); server CPU ${(result.serverCpuMicros / result.requests / 1000).toFixed(2)} ms/transfer; ` +
          `(µs by thread: ${result.threads}); client CPU ${(result.clientCpuMicros / result.requests / 1000).toFixed(2)} ms/transfer; receipts missing right after the send: ${result.missingReceipts}${instructionsPerRequest(server.pid, result.requests)}`,
      );
    } else {
      throw new Error(`unknown mode ${mode}: read, call, logs, send or bare`);
    }
  } finally {
    await server.stop();
  }
  if (values['cpu-prof'] !== undefined) printProfile(values['cpu-prof'], window.from, window.to);
}

await main();
