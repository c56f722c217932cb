/**
 * The fuzz loop: starts a node in this process, sends generated cases one at a time over HTTP,
 * checks each answer (invariants.ts) and that a rejected request changed nothing, while a timer
 * measures event-loop stalls and a concurrent eth_blockNumber probe measures what other clients
 * wait. A failing case is shrunk by fast-check to a minimal reproduction; each distinct failure
 * (class, method, invariant) is reported once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../src/server/http.js';
import { httpStatusFor } from '../../src/rpc/errors.js';
import { METHODS } from '../../src/rpc/methods/index.js';
import type { MethodSpec } from '../../src/rpc/types.js';
import {
  RawJson,
  WATCHED_ACCOUNTS,
  batchCase,
  bodyOf,
  classOf,
  envelopeCase,
  httpCase,
  paramsCase,
  type BatchCase,
  type EnvelopeCase,
  type FuzzCase,
  type HttpCase,
  type ParamsCase,
} from './generators.js';
import { MAX_BATCH, checkAnswer, codeOf, expectedForParams, short, type Violation } from './invariants.js';

/** A request stalls the node when the event loop is held longer than this. */
export const STALL_LIMIT_MS = 100;
/** Longest wait for one answer; a case still unanswered then is a hang. */
const CASE_TIMEOUT_MS = 30_000;
const PROBE_EVERY_MS = 25;
/** Cases per fast-check run; a found failure ends a run early, the next one goes on with seed + 1. */
const CHUNK_RUNS = 100;
const FUZZ_KEY = 'fuzz-key';
const RPC_PATH = `/${FUZZ_KEY}`;

/**
 * Methods that change the compared state (head, state root, pool, balances) when they succeed:
 * after a success the baseline is read again.
 */
const SIDE_EFFECTS = /^(evm_|hardhat_|anvil_|mnr_submit|eth_submitWork|eth_sendTransaction|eth_sendRawTransaction|personal_sendTransaction|personal_(newAccount|importRawKey|unlockAccount|lockAccount)|sco_(ban|unban|clear))/;
/** Valid params for these are not sent at random: they mine for minutes, start timers or run scrypt (the side-effect phase runs them). */
const NOT_AT_RANDOM_WHEN_VALID = new Set([
  'hardhat_mine', 'anvil_mine', 'evm_setIntervalMining', 'anvil_setIntervalMining',
  'personal_newAccount', 'personal_newAccountWithSeed', 'personal_importRawKey', 'personal_unlockAccount', 'personal_sendTransaction',
  'sco_banAddress',
]);

export interface FuzzOptions {
  seed: number;
  /** Cases to try (default 1,000 unless `minutes` is given). */
  runs?: number;
  minutes?: number;
  /** Whether a stall over STALL_LIMIT_MS is a failure (default true; tests assert no timings). */
  checkStalls?: boolean;
  log?: (line: string) => void;
}

export interface Failure {
  signature: string;
  invariant: string;
  detail: string;
  /** The minimal case fast-check shrank to, as a curl-able body or HTTP request. */
  reproduction: string;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  byClass: Record<string, number>;
  skippedValid: number;
  failures: Failure[];
  /** Longest event-loop stall seen while a case ran, and that case. */
  maxStallMs: number;
  maxStallCase: string;
  /** Longest wait of the concurrent eth_blockNumber probe. */
  maxProbeMs: number;
  /** Error codes answered, with counts. */
  codes: Record<string, number>;
  durationMs: number;
}

interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

interface Target {
  child: ChildProcess;
  port: number;
  agent: Agent;
  specs: Map<string, MethodSpec<unknown>>;
  baseline: string;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const fatal: string[] = [];
  const child = fork(fileURLToPath(new URL('./node-child.ts', import.meta.url)), [FUZZ_KEY], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('exit', (code, signal) => fatal.push(`the node process exited (code ${code}, signal ${signal})`));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', () => reject(new Error(`the node process did not start: ${fatal.join('; ')}`)));
  });
  const port = Number(new URL(url).port);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const t: Target = { child, port, agent, specs: new Map(METHODS.map((m) => [m.name, m as MethodSpec<unknown>])), baseline: '' };
  const report: FuzzReport = { seed: options.seed, cases: 0, byClass: {}, skippedValid: 0, failures: [], maxStallMs: 0, maxStallCase: '', maxProbeMs: 0, codes: {}, durationMs: 0 };
  /** The node's longest event-loop stall since the previous call (measured in its process). */
  const nodeGap = () =>
    new Promise<number>((resolve) => {
      if (!child.connected) return resolve(0);
      child.once('message', (m: { gap: number }) => resolve(m.gap));
      child.send('gap');
    });
  // What another client waits: eth_blockNumber sent on its own socket every PROBE_EVERY_MS.
  let probing = true;
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = (async () => {
    while (probing) {
      const t0 = performance.now();
      await send(port, probeAgent, { method: 'POST', path: RPC_PATH, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}', chunked: false }).catch(() => undefined);
      report.maxProbeMs = Math.max(report.maxProbeMs, performance.now() - t0);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();

  try {
    t.baseline = await snapshot(t);
    const names = METHODS.map((m) => m.name);
    const arb: fc.Arbitrary<FuzzCase> = fc.oneof(
      { arbitrary: paramsCase(names), weight: 14 },
      { arbitrary: envelopeCase(names), weight: 3 },
      { arbitrary: batchCase(), weight: 2 },
      { arbitrary: httpCase(FUZZ_KEY), weight: 1 },
    );
    const known = new Set<string>();
    let shrinking = false;
    let lastGap = 0;
    /** Cases seen stalling the node; re-measured at the end (the machine is shared, GC pauses happen). */
    const stalls: Array<{ c: FuzzCase; ms: number }> = [];
    const deadline = options.minutes === undefined ? Infinity : started + options.minutes * 60_000;
    const total = options.runs ?? (options.minutes === undefined ? 1_000 : Infinity);
    let seed = options.seed;
    let lastLog = Date.now();

    // One case: answered, checked; the first new failure's violation is kept for shrinking.
    const tryCase = async (c: FuzzCase, counted: boolean): Promise<Violation | undefined> => {
      await nodeGap();
      const violations = await runCase(t, c, report);
      const gapMax = await nodeGap();
      lastGap = gapMax;
      if (counted) {
        report.cases++;
        report.byClass[classOf(c)] = (report.byClass[classOf(c)] ?? 0) + 1;
      }
      if (gapMax > report.maxStallMs) {
        report.maxStallMs = gapMax;
        report.maxStallCase = describeCase(c);
      }
      if (gapMax > STALL_LIMIT_MS && !shrinking) stalls.push({ c, ms: gapMax });
      if (fatal.length > 0) violations.push({ invariant: 'process-alive', detail: fatal.splice(0).join('\n') });
      return violations.find((v) => !known.has(signatureOf(c, v)));
    };

    while (report.cases < total && Date.now() < deadline) {
      shrinking = false;
      let found: { c: FuzzCase; v: Violation } | undefined;
      const runs = Math.min(CHUNK_RUNS, total - report.cases);
      const result = await fc.check(
        fc.asyncProperty(arb, async (c) => {
          if (Date.now() > deadline && !shrinking) return true;
          const v = await tryCase(c, !shrinking);
          if (v !== undefined) {
            shrinking = true;
            if (found === undefined || describeCase(c).length <= describeCase(found.c).length) found = { c, v };
            return false;
          }
          return true;
        }),
        { seed, numRuns: runs },
      );
      seed++;
      if (result.failed && found !== undefined) {
        const minimal = (result.counterexample?.[0] as FuzzCase | undefined) ?? found.c;
        // Re-run the minimal case for its own violation (shrinking may land on another one).
        const v = (await tryCase(minimal, false)) ?? found.v;
        const signature = signatureOf(minimal, v);
        known.add(signature);
        known.add(signatureOf(found.c, found.v));
        report.failures.push({ signature, invariant: v.invariant, detail: v.detail, reproduction: describeCase(minimal) });
        log(`FAIL ${signature}: ${v.detail}\n  ${describeCase(minimal)}`);
      }
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        log(`${report.cases} cases, ${report.failures.length} failures, max stall ${report.maxStallMs.toFixed(0)} ms`);
      }
    }
    await sideEffectPhase(t, report, tryCase);
    const measured = async (c: FuzzCase) => {
      await tryCase(c, false);
      return lastGap;
    };
    if (options.checkStalls !== false) await confirmStalls(stalls, report, measured);
  } finally {
    probing = false;
    await probe;
    agent.destroy();
    probeAgent.destroy();
    child.removeAllListeners('exit');
    if (child.connected) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    }
  }
  report.durationMs = Date.now() - started;
  return report;
}

function signatureOf(c: FuzzCase, v: Violation): string {
  const cls = c.kind === 'params' ? `params:${c.method}` : c.kind;
  return `${cls}/${v.invariant}`;
}

/** Runs one case; returns the invariants it broke. */
async function runCase(t: Target, c: FuzzCase, report: FuzzReport): Promise<Violation[]> {
  if (c.kind === 'http') return runHttpCase(t, c);
  const body = bodyOf(c);
  const parsed = parseOrUndefined(body);
  const plan = planOf(t, c, parsed);
  if (plan.skip) {
    report.skippedValid++;
    return [];
  }
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return runHttpCase(t, { kind: 'http', method: 'POST', path: RPC_PATH, contentType: 'application/json', body, chunked: false });
  let answer: HttpAnswer;
  try {
    answer = await send(t.port, t.agent, { method: 'POST', path: RPC_PATH, contentType: 'application/json', body, chunked: false });
  } catch (err) {
    return [{ invariant: 'answered', detail: String(err) }];
  }
  const out: Violation[] = [];
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return [{ invariant: 'answer-json', detail: `status ${answer.status}: ${short(answer.text)}` }];
  }
  for (const a of Array.isArray(json) ? json : [json]) {
    const code = codeOf(a);
    if (code !== undefined) report.codes[code] = (report.codes[code] ?? 0) + 1;
  }
  out.push(...checkJsonRpc(t, c, parsed, json, answer));
  const succeeded = (Array.isArray(json) ? json : [json]).some((a) => typeof a === 'object' && a !== null && 'result' in a);
  if (plan.mayChangeState && succeeded) {
    t.baseline = await snapshot(t);
    if (c.kind === 'params' && c.method === 'sco_banAddress' && Array.isArray(parsed?.params)) await rpc(t, 'sco_unbanAddress', parsed.params);
  } else {
    const now = await snapshot(t);
    if (now !== t.baseline) {
      out.push({ invariant: 'rejected-changes-nothing', detail: `state changed: ${short(t.baseline)} -> ${short(now)}` });
      t.baseline = now;
    }
  }
  return out;
}

/** Whether a case may change state (then its success re-reads the baseline) or must be skipped. */
function planOf(t: Target, c: ParamsCase | EnvelopeCase | BatchCase, parsed: any): { mayChangeState: boolean; skip: boolean } {
  if (c.kind === 'batch' || parsed === undefined || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { mayChangeState: false, skip: false };
  const name = parsed.method;
  if (typeof name !== 'string' || !SIDE_EFFECTS.test(name)) return { mayChangeState: false, skip: false };
  const valid = expectedForParams(t.specs.get(name), parsed.params) === 'valid';
  return { mayChangeState: true, skip: valid && NOT_AT_RANDOM_WHEN_VALID.has(name) && !(c.kind === 'params' && c.forced === true) };
}

function checkJsonRpc(t: Target, c: ParamsCase | EnvelopeCase | BatchCase, parsed: any, json: unknown, answer: HttpAnswer): Violation[] {
  if (parsed === undefined) {
    return [...checkAnswer(json, null), ...expectCode(json, -32700)];
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0 || parsed.length > MAX_BATCH) return [...checkAnswer(json, null), ...expectCode(json, -32600)];
    if (!Array.isArray(json) || json.length !== parsed.length) {
      return [{ invariant: 'batch-one-answer-per-call', detail: `${parsed.length} calls, answer ${short(json)}` }];
    }
    return parsed.flatMap((item, i) => expectRequest(t, item, json[i], undefined));
  }
  const out = expectRequest(t, parsed, json, answer);
  // An id JSON.parse would change must come back as the client wrote it.
  const id = c.kind === 'envelope' ? c.members.id : undefined;
  if (id instanceof RawJson && /^-?\d{16,}$/.test(id.text) && !answer.text.includes(`"id":${id.text}`)) {
    out.push({ invariant: 'answer-id-exact', detail: `sent id ${id.text}, answer ${short(answer.text)}` });
  }
  return out;
}

/** One request's answer against what the dispatcher's rules and the method's decoder expect. */
function expectRequest(t: Target, req: any, a: unknown, answer: HttpAnswer | undefined): Violation[] {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) return [...checkAnswer(a, null), ...expectCode(a, -32600)];
  const idOk = req.id === undefined || req.id === null || typeof req.id === 'string' || typeof req.id === 'number';
  if (!idOk) return [...checkAnswer(a, null), ...expectCode(a, -32600)];
  const out = checkAnswer(a, req.id);
  if (req.jsonrpc !== undefined && req.jsonrpc !== '2.0') return [...out, ...expectCode(a, -32600)];
  if (typeof req.method !== 'string' || req.method.length === 0) return [...out, ...expectCode(a, -32600)];
  const expected = expectedForParams(t.specs.get(req.method), req.params);
  if (expected === 'unknown') out.push({ invariant: 'decoder-throws-rpc-errors', detail: `${req.method}'s decoder threw a non-RpcError` });
  else if (expected !== 'valid') out.push(...expectCode(a, expected.code));
  const code = codeOf(a);
  if (answer !== undefined && code !== undefined && answer.status !== httpStatusFor(code)) {
    out.push({ invariant: 'http-status', detail: `status ${answer.status} for code ${code}` });
  }
  return out;
}

function expectCode(a: unknown, code: number): Violation[] {
  const got = codeOf(a);
  return got === code ? [] : [{ invariant: `code-${code}`, detail: `want ${code}, got ${got === undefined ? short(a) : `${got} ${short((a as any).error?.message)}`}` }];
}

/** HTTP oddities: an answer within the timeout, no 5xx, JSON when it says JSON; the node serves on. */
async function runHttpCase(t: Target, c: HttpCase): Promise<Violation[]> {
  const out: Violation[] = [];
  try {
    const answer = await send(t.port, undefined, c);
    if (answer.status >= 500) out.push({ invariant: 'http-no-5xx', detail: `status ${answer.status}: ${short(answer.text)}` });
    if (answer.contentType.includes('application/json') && c.method !== 'HEAD') {
      try {
        JSON.parse(answer.text);
      } catch {
        out.push({ invariant: 'http-json-body', detail: `status ${answer.status}: ${short(answer.text)}` });
      }
    }
  } catch (err) {
    // The server may close a connection it refuses (an oversized body); it must still serve others.
    if (!/ECONNRESET|EPIPE|socket hang up/.test(String(err))) out.push({ invariant: 'answered', detail: String(err) });
  }
  try {
    await rpc(t, 'eth_blockNumber', []);
  } catch (err) {
    out.push({ invariant: 'process-alive', detail: `eth_blockNumber after the case: ${String(err)}` });
  }
  return out;
}

/** Stalls re-measured per case */
const STALL_RETRIES = 3;
const STALLS_CONFIRMED = 8;

/**
 * The worst stalling cases, each run STALL_RETRIES more times: a stall is a failure only if every
 * run stalls (one slow run on a shared machine proves nothing), reported with its shortest stall.
 */
async function confirmStalls(
  stalls: Array<{ c: FuzzCase; ms: number }>,
  report: FuzzReport,
  measured: (c: FuzzCase) => Promise<number>,
): Promise<void> {
  const seen = new Set<string>();
  const worst = stalls.sort((a, b) => b.ms - a.ms).filter(({ c }) => !seen.has(describeCase(c)) && seen.add(describeCase(c)));
  for (const { c, ms } of worst.slice(0, STALLS_CONFIRMED)) {
    let min = ms;
    for (let i = 0; i < STALL_RETRIES && min > STALL_LIMIT_MS; i++) {
      min = Math.min(min, await measured(c));
    }
    if (min > STALL_LIMIT_MS) {
      const cls = c.kind === 'params' ? `params:${c.method}` : c.kind;
      report.failures.push({ signature: `${cls}/stall`, invariant: 'stall', detail: `event loop held ${min.toFixed(0)} ms or more in each of ${STALL_RETRIES + 1} runs`, reproduction: describeCase(c) });
    }
  }
}

/** The side-effect methods with valid params, each once, answers checked and the baseline re-read. */
async function sideEffectPhase(t: Target, report: FuzzReport, tryCase: (c: FuzzCase, counted: boolean) => Promise<Violation | undefined>): Promise<void> {
  const calls: Array<[string, unknown[]]> = [
    ['evm_snapshot', []], ['evm_mine', []], ['evm_revert', ['0x1']], ['evm_increaseTime', [10]], ['evm_setNextBlockTimestamp', [4_000_000_000]],
    ['hardhat_setBalance', [WATCHED_ACCOUNTS[2], '0x1000']], ['hardhat_mine', ['0x3']], ['anvil_mine', [2, 1]],
    ['evm_setIntervalMining', [0]], ['anvil_setIntervalMining', [0]], ['evm_setAutomine', [false]], ['evm_setAutomine', [true]],
    ['sco_banAddress', ['10.1.2.3']], ['sco_unbanAddress', ['10.1.2.3']], ['sco_banAddress', ['127.0.0.1']], ['sco_banAddress', ['0.0.0.0/0']], ['sco_banAddress', ['::1']],
    ['personal_newAccount', ['fuzz']], ['personal_importRawKey', ['0x' + '11'.repeat(32), 'fuzz']], ['personal_unlockAccount', ['0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a', 'fuzz', '0x10']],
    ['hardhat_reset', []], ['evm_reset', []],
  ];
  for (const [method, params] of calls) {
    const c: ParamsCase = { kind: 'params', method, params, id: 1, forced: true };
    report.cases++;
    report.byClass['side-effects'] = (report.byClass['side-effects'] ?? 0) + 1;
    const v = await tryCase(c, false);
    if (v !== undefined && v.invariant !== 'stall') report.failures.push({ signature: `side-effects:${method}/${v.invariant}`, invariant: v.invariant, detail: v.detail, reproduction: describeCase(c) });
    t.baseline = await snapshot(t);
  }
  // The ban list must still let this machine in.
  await rpc(t, 'eth_blockNumber', []).catch((err) => report.failures.push({ signature: 'side-effects/loopback-usable', invariant: 'loopback-usable', detail: String(err), reproduction: 'sco_banAddress' }));
}

/** Head, state root, pool and watched balances, as one comparable string. */
async function snapshot(t: Target): Promise<string> {
  const batch = [
    { jsonrpc: '2.0', id: 0, method: 'eth_getBlockByNumber', params: ['latest', false] },
    { jsonrpc: '2.0', id: 1, method: 'txpool_content', params: [] },
    ...WATCHED_ACCOUNTS.map((a, i) => ({ jsonrpc: '2.0', id: 2 + i, method: 'eth_getBalance', params: [a, 'latest'] })),
  ];
  const answer = await send(t.port, t.agent, { method: 'POST', path: RPC_PATH, contentType: 'application/json', body: JSON.stringify(batch), chunked: false });
  const [block, pool, ...balances] = JSON.parse(answer.text) as Array<{ result: any }>;
  return JSON.stringify({ head: block!.result?.number, hash: block!.result?.hash, stateRoot: block!.result?.stateRoot, pool: pool!.result, balances: balances.map((b) => b.result) });
}

async function rpc(t: Target, method: string, params: unknown[]): Promise<unknown> {
  const answer = await send(t.port, t.agent, { method: 'POST', path: RPC_PATH, contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), chunked: false });
  const json = JSON.parse(answer.text) as { result?: unknown; error?: unknown };
  if (json.error !== undefined) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result;
}

function parseOrUndefined(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A case as a reproduction: the body (cut to 300 characters) or the HTTP request line. */
export function describeCase(c: FuzzCase): string {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s);
  if (c.kind === 'http') {
    return `${c.method} ${cut(c.path)} content-type=${c.contentType ?? '-'}${c.chunked ? ' chunked' : ''} body=${c.body === undefined ? '-' : cut(JSON.stringify(c.body))}`;
  }
  return `POST /<key> ${cut(bodyOf(c))}`;
}

/**
 * One HTTP exchange. A keep-alive socket the server closed as idle just as it was reused fails
 * with a reset: that request is sent again once on a new socket (Node's documented remedy).
 */
async function send(port: number, agent: Agent | undefined, c: Omit<HttpCase, 'kind'>): Promise<HttpAnswer> {
  try {
    return await sendOnce(port, agent, c);
  } catch (err) {
    if ((err as { reusedSocket?: boolean }).reusedSocket !== true) throw err;
    return sendOnce(port, undefined, c);
  }
}

function sendOnce(port: number, agent: Agent | undefined, c: Omit<HttpCase, 'kind'>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    if (c.body !== undefined && !c.chunked) headers['content-length'] = Buffer.byteLength(c.body);
    const req = httpRequest({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, agent: agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(CASE_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${CASE_TIMEOUT_MS} ms`)));
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket && /ECONNRESET|socket hang up/.test(String(err)) })));
    if (c.body !== undefined && c.chunked) {
      // Chunked: the body in a few pieces, no content-length.
      const step = Math.max(1, Math.ceil(c.body.length / 3));
      for (let i = 0; i < c.body.length; i += step) req.write(c.body.slice(i, i + step));
      req.end();
    } else {
      req.end(c.body);
    }
  });
}
