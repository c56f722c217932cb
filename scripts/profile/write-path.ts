/**
 * The write path over HTTP, measured on the BUILT bin as the bench starts it (issue 25): sequential
 * ERC20 transfers, each `eth_sendRawTransaction` followed at once by its receipt, over the bench's
 * raw-socket client (scripts/bench/client.ts). Reports what a shared 2-core machine does not blur:
 * CPU per transfer by thread (/proc/<pid>/task/*), V8's garbage collections and optimizations /
 * deoptimizations per transfer (the node runs with --trace-gc, --trace-opt, --trace-deopt; their
 * lines are counted in the measured window), and wall time only as p10.
 *
 *   npm run build && npx tsx scripts/profile/write-path.ts [--count 400] [--in-memory] [--top 15]
 *     [--node=--max-semi-space-size=16 ...]   (flags for node itself, before the bin)
 *     [--bin .dist-before/bin/rsk-devnode.js]  (another build, copied inside the checkout)
 *     [--alloc-prof FILE]                      (bytes allocated by function in the window)
 *     [--callgrind DIR]                        (instructions per transfer, main thread and all; slow: try --count 200)
 *     [--plain]                                (no trace flags: their output costs CPU too)
 *     [--cpu-prof DIR] [--heap-prof DIR]       (the node's own profilers; files land in DIR)
 *     [--window-prof FILE]                     (CPU profile of the window only, inclusive time by our function;
 *                                               with --bin dist/cli.js, by source file: the bundle has one file)
 *     [-- --log-level warn ...]                (flags for the bin)
 *
 * Run variants alternately (A B A B): one run says little on a shared machine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Interface, Wallet } from 'ethers';
import { WebSocket } from 'ws';
import contracts from '../../test/fixtures/contracts.json' with { type: 'json' };
import { Connection, requestHead, requestText } from '../bench/client.js';
import { cpuByThread } from './harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'bin', 'rsk-devnode.js');
const KEY = 'write-path';
/** rskj's regtest account keccak256('cow'), funded on genesis. */
const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const RECIPIENT = '0x7986b3df570230288501eea3d890bd66948c9b79';
/** Above the genesis minimum gas price (60,000,000), which the miner may raise by 1% a block. */
const GAS_PRICE = 80_000_000;
/** Transfers before the window: the JIT settles and caches fill. */
const WARM_UP = 150;
/** Time for the node's trace lines (C stdio, buffered) written before a mark to reach its file. */
const TRACE_SETTLE_MS = 100;
/** The sampling heap profiler's mean interval: one sample per this many bytes allocated. */
const ALLOCATION_SAMPLE_BYTES = 16_384;
/** The window profile's sampling interval (V8's default is 1,000 µs: too few samples per transfer). */
const WINDOW_SAMPLE_MICROS = 100;
/** How often the node's output is read for its banner while it starts. */
const STARTUP_POLL_MS = 20;
const TOKEN_DEPLOY = contracts.Token.bytecode + new Interface(contracts.Token.abi).encodeDeploy([10n ** 24n]).slice(2);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: 'string', default: '400' },
    /** Another build's bin (a copy of dist/ inside the checkout, so node_modules resolves): before/after. */
    bin: { type: 'string', default: BIN },
    'in-memory': { type: 'boolean', default: false },
    node: { type: 'string', multiple: true, default: [] },
    top: { type: 'string', default: '15' },
    'cpu-prof': { type: 'string' },
    'heap-prof': { type: 'string' },
    /** Without --trace-gc/--trace-opt/--trace-deopt (their output costs the node CPU too): CPU and wall only. */
    plain: { type: 'boolean', default: false },
    /**
     * Allocation profile of the window (V8's sampling heap profiler through the inspector, with the
     * objects later collected counted too): allocated bytes by function, top --top printed, written to this file.
     */
    'alloc-prof': { type: 'string' },
    /** Runs the node under valgrind's callgrind, counting only the window: instructions per transfer, all threads. */
    callgrind: { type: 'string' },
    /**
     * CPU profile of the window only (the inspector's Profiler, started after the warm-up): written to
     * this file; prints inclusive and self time per transfer of our functions (file:function) and of the top frames.
     */
    'window-prof': { type: 'string' },
    /** Writes the window's trace lines to this file (to read what the counts summarize). */
    'save-trace': { type: 'string' },
  },
});

/** Counts of the trace lines by kind, and by function for (de)optimizations. */
function traceCounts(text: string): { kinds: Map<string, number>; deopts: Map<string, number>; opts: Map<string, number> } {
  const kinds = new Map<string, number>();
  const deopts = new Map<string, number>();
  const opts = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const line of text.split('\n')) {
    const gc = / ms: (Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b/.exec(line);
    if (gc !== null) bump(kinds, `gc ${gc[1]}`);
    const deopt = /\[bailout \(kind: ([^,)]*)[^)]*\): begin\. deoptimizing [^<]*<JSFunction (\S*)/.exec(line);
    if (deopt !== null) {
      bump(kinds, `deopt ${deopt[1]}`);
      bump(deopts, deopt[2] || '(anonymous)');
    }
    const opt = /\[completed compiling 0x[0-9a-f]+ <JSFunction (\S*) [^>]*> \(target (\w+)\)/.exec(line);
    if (opt !== null) {
      bump(kinds, `optimized ${opt[2]}`);
      bump(opts, opt[1] || '(anonymous)');
    }
  }
  return { kinds, deopts, opts };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * Inclusive and self µs per transfer of each frame (function, file) in a CPU profile; a frame counted
 * once per sample however deep it recurs. Idle and program samples are left out.
 */
function profileByFrame(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, count: number): { inclusive: Map<string, number>; self: Map<string, number>; busy: number } {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const frame = (node: ProfileNode) => {
    const { functionName, url } = node.callFrame;
    const file = url.replace(/^.*\/node_modules\//, 'nm:').replace(/^.*\/dist\//, '');
    return `${functionName || '(anonymous)'} ${file}`;
  };
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const micros = profile.timeDeltas[i + 1] ?? 0; // a sample's time is the gap to the next one
    let node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
    busy += micros;
    const key = frame(node);
    self.set(key, (self.get(key) ?? 0) + micros);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      node = byId.get(id)!;
      const name = frame(node);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  }
  const perTransfer = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / count]));
  return { inclusive: perTransfer(inclusive), self: perTransfer(self), busy: busy / count };
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** A minimal Chrome DevTools Protocol client over the node's --inspect WebSocket. */
class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.waiting.get(message.id)?.(message.result);
    });
  }

  static open(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Inspector(socket)));
      socket.once('error', reject);
    });
  }

  call(method: string, params: object = {}): Promise<unknown> {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  close(): void {
    this.socket.close();
  }
}

async function main(): Promise<void> {
  const count = Number(values.count);
  const dataDir = mkdtempSync(join(tmpdir(), 'write-path-'));
  const storage = values['in-memory'] ? ['--in-memory'] : ['--data-dir', dataDir];
  const profilers = [
    ...(values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`]),
    ...(values['heap-prof'] === undefined ? [] : ['--heap-prof', `--heap-prof-dir=${values['heap-prof']}`]),
  ];
  const traces = values.plain ? [] : ['--trace-gc', '--trace-opt', '--trace-deopt'];
  const inspect = values['alloc-prof'] === undefined && values['window-prof'] === undefined ? [] : ['--inspect=127.0.0.1:0'];
  const nodeArgs = [...traces, ...inspect, ...profilers, ...values.node!];
  // The node's output goes to a file, as in the bench (peers.ts): a pipe would wake this process,
  // the client, at every log line.
  const logFile = join(dataDir, '..', `${basename(dataDir)}.log`);
  const log = openSync(logFile, 'w');
  // valgrind cannot create the folder of its output file: the node would exit before listening.
  if (values.callgrind !== undefined) mkdirSync(values.callgrind, { recursive: true });
  const nodeCommand = [...nodeArgs, values.bin!, '--port', '0', '--api-key', KEY, '--daily-limit', '1000000000', ...storage, ...positionals];
  const [command, args] =
    values.callgrind === undefined
      ? [process.execPath, nodeCommand]
      : ['valgrind', ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', '--separate-threads=yes', `--callgrind-out-file=${values.callgrind}/callgrind.out.%p`, process.execPath, ...nodeCommand]];
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', log, inspect.length === 0 ? 'inherit' : log],
  });
  closeSync(log);
  const output = () => readFileSync(logFile, 'utf8');
  let port: number | undefined;
  while (port === undefined) {
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode} before listening`);
    await new Promise((resolve) => setTimeout(resolve, STARTUP_POLL_MS));
    const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output());
    if (match !== null) port = Number(match[1]);
  }
  const inspector = inspect.length === 0 ? undefined : await Inspector.open(/ws:\/\/\S+/.exec(output())![0]);
  const url = new URL(`http://127.0.0.1:${port}/${KEY}`);
  const head = requestHead(url);
  const connection = new Connection(url.hostname, port);
  const call = async (method: string, params: unknown[]): Promise<any> => {
    const answer = JSON.parse((await connection.send(requestText(head, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))).body.toString());
    if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  const wallet = new Wallet(COW_KEY);
  const token = new Interface(contracts.Token.abi);
  const chainId = Number(await call('eth_chainId', []));
  let nonce = Number(await call('eth_getTransactionCount', [wallet.address, 'pending']));
  const sign = (to: string | null, data: string, gasLimit: number) => wallet.signTransaction({ type: 0, chainId, nonce: nonce++, to, data, gasLimit, gasPrice: GAS_PRICE });
  const deployment = await call('eth_getTransactionReceipt', [await call('eth_sendRawTransaction', [await sign(null, TOKEN_DEPLOY, 2_000_000)])]);
  if (deployment.status !== '0x1') throw new Error('the token did not deploy');
  await call('eth_sendRawTransaction', [await sign(deployment.contractAddress, token.encodeFunctionData('mint', [wallet.address, 10n ** 24n]), 100_000)]);
  const sends: string[] = [];
  for (let i = 0; i < WARM_UP + count; i++) {
    const raw = await sign(deployment.contractAddress, token.encodeFunctionData('transfer', [RECIPIENT, 1n]), 60_000);
    sends.push(requestText(head, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })));
  }
  const times: number[] = [];
  let missing = 0;
  const one = async (text: string) => {
    const started = performance.now();
    const hash = JSON.parse((await connection.send(text)).body.toString()).result as string;
    const receipt = JSON.parse((await connection.send(requestText(head, `{"jsonrpc":"2.0","id":2,"method":"eth_getTransactionReceipt","params":["${hash}"]}`))).body.toString());
    if (receipt.result?.status !== '0x1') missing++;
    times.push(performance.now() - started);
  };
  for (const text of sends.slice(0, WARM_UP)) await one(text);
  times.length = 0;
  await new Promise((resolve) => setTimeout(resolve, TRACE_SETTLE_MS));
  const traceFrom = output().length;
  if (values['alloc-prof'] !== undefined) await inspector!.call('HeapProfiler.startSampling', { samplingInterval: ALLOCATION_SAMPLE_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  if (values['window-prof'] !== undefined) {
    await inspector!.call('Profiler.enable');
    await inspector!.call('Profiler.setSamplingInterval', { interval: WINDOW_SAMPLE_MICROS });
    await inspector!.call('Profiler.start');
  }
  if (values.callgrind !== undefined) execFileSync('callgrind_control', ['-i', 'on', String(child.pid)]);
  const before = cpuByThread(child.pid!);
  const started = performance.now();
  for (const text of sends.slice(WARM_UP)) await one(text);
  const seconds = (performance.now() - started) / 1000;
  const after = cpuByThread(child.pid!);
  if (values.callgrind !== undefined) {
    execFileSync('callgrind_control', ['-d', String(child.pid)]);
    execFileSync('callgrind_control', ['-i', 'off', String(child.pid)]);
  }
  const cpuProfile = values['window-prof'] === undefined ? undefined : ((await inspector!.call('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } }).profile;
  const allocation = values['alloc-prof'] === undefined ? undefined : (await inspector!.call('HeapProfiler.stopSampling')) as { profile: { head: AllocationNode } } | undefined;
  inspector?.close();
  await new Promise((resolve) => setTimeout(resolve, TRACE_SETTLE_MS));
  const window = output().slice(traceFrom);
  if (values['save-trace'] !== undefined) writeFileSync(values['save-trace'], window);
  connection.close();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(logFile, { force: true });

  times.sort((a, b) => a - b);
  const perTransfer = (n: number) => (n / count).toFixed(3);
  const threads = [...after].map(([name, micros]) => [name, (micros - (before.get(name) ?? 0)) / count] as const).filter(([, us]) => us > 0);
  const total = threads.reduce((sum, [, us]) => sum + us, 0);
  console.log(`node ${nodeArgs.join(' ')} ${values.bin} ${positionals.join(' ')}${values['in-memory'] ? ' --in-memory' : ' (data dir)'}`);
  console.log(
    `${count} transfers in ${seconds.toFixed(2)} s; p10 ${times[Math.floor(count / 10)]!.toFixed(2)} ms, median ${times[Math.floor(count / 2)]!.toFixed(2)} ms; ` +
      `failed receipts ${missing}; server CPU ${(total / 1000).toFixed(2)} ms/transfer (µs: ${threads.sort((a, b) => b[1] - a[1]).map(([n, us]) => `${n} ${us.toFixed(0)}`).join(', ')})`,
  );
  const { kinds, deopts, opts } = traceCounts(window);
  console.log(`per transfer: ${[...kinds].sort().map(([k, n]) => `${k} ${perTransfer(n)}`).join(', ')}`);
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)).map(([k, n]) => `${k}×${n}`).join(' ');
  console.log(`deoptimized in the window: ${top(deopts)}`);
  console.log(`optimized in the window: ${top(opts)}`);
  if (values.callgrind !== undefined) {
    // One file per thread (--separate-threads): the main thread is -01. The other threads' count
    // (TurboFan, GC helpers) swings with how much the JIT compiles inside the window.
    const byThread = readdirSync(values.callgrind)
      .filter((name) => name.startsWith(`callgrind.out.${child.pid}.1-`))
      .map((name) => [name, Number(/^summary: (\d+)/m.exec(readFileSync(join(values.callgrind!, name), 'utf8'))?.[1] ?? 0)] as const);
    const all = byThread.reduce((sum, [, n]) => sum + n, 0);
    const main = byThread.find(([name]) => name.endsWith('-01'))?.[1] ?? 0;
    console.log(`instructions per transfer (callgrind): main thread ${Math.round(main / count)}, all threads ${Math.round(all / count)}`);
  }
  if (cpuProfile !== undefined) {
    writeFileSync(values['window-prof']!, JSON.stringify(cpuProfile));
    const { inclusive, self, busy } = profileByFrame(cpuProfile, count);
    const rows = (m: Map<string, number>, own: boolean) =>
      [...m].filter(([k]) => !own || k.endsWith('.js') && !k.includes(' nm:')).sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
    console.log(`window profile: ${busy.toFixed(0)} µs busy per transfer (sampled main thread); inclusive µs per transfer, our code:`);
    for (const [name, micros] of rows(inclusive, true)) console.log(`  ${micros.toFixed(1).padStart(7)}  ${name}`);
    console.log('self µs per transfer, any code:');
    for (const [name, micros] of rows(self, false)) console.log(`  ${micros.toFixed(1).padStart(7)}  ${name}`);
  }
  if (allocation !== undefined) {
    writeFileSync(values['alloc-prof']!, JSON.stringify(allocation.profile));
    const bySelf = new Map<string, number>();
    let allocated = 0;
    const walk = (node: AllocationNode, stack: string) => {
      const frame = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').at(-1)}:${node.callFrame.lineNumber + 1}`;
      const self = node.selfSize;
      allocated += self;
      if (self > 0) bySelf.set(`${frame} < ${stack}`, (bySelf.get(`${frame} < ${stack}`) ?? 0) + self);
      for (const child of node.children) walk(child, frame);
    };
    walk(allocation.profile.head, '');
    console.log(`allocated ${(allocated / count / 1024).toFixed(0)} KiB per transfer (sampled); by function < caller, KiB per transfer:`);
    for (const [name, bytes] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${(bytes / count / 1024).toFixed(1).padStart(6)}  ${name}`);
  }
}

await main();
