/**
 * Crash safety (`npm run crash-test -- [--kills N] [--minutes M] [--seed S] [--from-source] [--no-build] [--keep]`):
 * runs the real CLI on a data dir, drives transactions, mining, snapshot/revert, balance overrides
 * and dashboard sign-ups and key changes at it, and kills it with SIGKILL at a random moment, N
 * times. After each restart the chain must open whole and consistent and keep everything it
 * acknowledged before the kill (scripts/crash-test/verify.ts). Prints a summary; exits 1 on any
 * loss or inconsistency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Ledger } from './ledger.js';
import { OPERATOR_KEY, build, killHard, spawnNode, stop } from './node-process.js';
import { verifyChain, verifyGateway, verifyTransactions } from './verify.js';
import { runWorkload, sleep } from './workload.js';

export const DEFAULT_KILLS = 100;
/** A kill lands this long after the traffic starts (uniformly at random). */
const KILL_AFTER_MS = { min: 100, max: 4_000 };
/** This share of kills land during start-up instead, before or around the banner. */
const STARTUP_KILL_SHARE = 0.1;
const STARTUP_KILL_WINDOW_MS = 5_000;
/** The longest wait for a life's first acknowledged answer before the kill comes anyway. */
const FIRST_ACK_TIMEOUT_MS = 30_000;
/** The share of lives whose kill clock starts at the first dashboard key created. */
const DASHBOARD_ANCHOR_SHARE = 0.3;
/** Blocks below the previous head re-checked in depth after a restart. */
const DEEP_CHECK_MARGIN = 2;

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(10);
}

export interface CrashTestOptions {
  kills: number;
  seed: number;
  fromSource: boolean;
  keepDataDir: boolean;
  /** Stop killing after this long (then the final check runs): a bounded run on a slow machine. */
  maxMinutes: number;
  log: (line: string) => void;
}

export interface CrashTestResult {
  kills: number;
  startupKills: number;
  head: number;
  counts: Ledger['counts'];
  usersChecked: number;
  /** Losses and inconsistencies found; must be empty. */
  problems: string[];
  /** Errors the live node answered to the traffic (not losses). */
  errors: string[];
  dataDir: string;
  seconds: number;
}

/** mulberry32: a seeded generator, so a run's kill moments can be replayed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runCrashTest(options: CrashTestOptions): Promise<CrashTestResult> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'rsk-devnode-crash-'));
  const ledger = new Ledger();
  const problems: string[] = [];
  const errors: string[] = [];
  let verifiedHead = 0;
  let startupKills = 0;
  let usersChecked = 0;

  const restartAndVerify = async (life: number, final: boolean) => {
    const node = spawnNode({ dataDir, fromSource: options.fromSource });
    let baseUrl: string;
    try {
      baseUrl = await node.started;
    } catch (err) {
      problems.push(`the node did not start after kill ${life}: ${(err as Error).message}`);
      await killHard(node);
      return undefined;
    }
    const rpcUrl = `${baseUrl}/${OPERATOR_KEY}`;
    const found: string[] = [];
    let head: number;
    try {
      head = await verifyChain(rpcUrl, final ? 0 : verifiedHead - DEEP_CHECK_MARGIN, found);
      await verifyTransactions(rpcUrl, ledger, found);
      usersChecked += await verifyGateway(baseUrl, ledger, final, life - 1, found);
    } catch (err) {
      problems.push(`after kill ${life}: verification failed: ${String(err)}\n${node.output()}`);
      await killHard(node);
      return undefined;
    }
    verifiedHead = head;
    problems.push(...found.map((p) => `after kill ${life}: ${p}`));
    return { node, baseUrl, rpcUrl, head, found };
  };

  let kills = 0;
  for (let life = 0; life < options.kills && Date.now() - started < options.maxMinutes * 60_000; life++, kills++) {
    if (life > 0 && random() < STARTUP_KILL_SHARE) {
      // A kill during start-up: opening the databases, or the first requests.
      const node = spawnNode({ dataDir, fromSource: options.fromSource });
      await sleep(random() * STARTUP_KILL_WINDOW_MS);
      await killHard(node);
      startupKills++;
      options.log(`kill ${life + 1}/${options.kills}: during start-up`);
      continue;
    }
    const live = await restartAndVerify(life, false);
    if (live === undefined) break;
    const controller = new AbortController();
    const acksBefore = ledger.acknowledged();
    const workload = runWorkload({ rpcUrl: live.rpcUrl, baseUrl: live.baseUrl, ledger, life, random, signal: controller.signal, errors });
    // The clock starts at the life's first answer: a loaded machine is slow to warm up, and a kill
    // before any traffic flows tests nothing the start-up kills do not.
    // Some lives start it at the first key created instead: a sign-up and a login come before it,
    // and password hashing makes those slow.
    const keysBefore = ledger.counts.keysCreated;
    const anchor = random() < DASHBOARD_ANCHOR_SHARE ? () => ledger.counts.keysCreated > keysBefore : () => ledger.acknowledged() > acksBefore;
    const flowing = waitUntil(anchor, FIRST_ACK_TIMEOUT_MS);
    await Promise.race([flowing.then(() => sleep(KILL_AFTER_MS.min + random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min))), live.node.exited]);
    controller.abort();
    await killHard(live.node);
    await workload.catch((err: unknown) => errors.push(`workload: ${String(err)}`));
    options.log(`kill ${life + 1}/${options.kills}: head was ${live.head}, ${live.found.length} problems; acknowledged so far ${JSON.stringify(ledger.counts)}`);
  }

  const last = await restartAndVerify(kills, true);
  if (last !== undefined) {
    const code = await stop(last.node);
    if (code !== 0) problems.push(`the final clean stop exited ${code}`);
  }
  if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  return {
    kills,
    startupKills,
    head: last?.head ?? -1,
    counts: { ...ledger.counts },
    usersChecked,
    problems,
    errors,
    dataDir,
    seconds: (Date.now() - started) / 1000,
  };
}

export function summary(result: CrashTestResult): string {
  const lost = result.problems.filter((p) => /LOST|CHANGED|UNREVOKED|RESURRECTED/.test(p)).length;
  return [
    `crash test: ${result.kills} SIGKILLs (${result.startupKills} during start-up), ${result.seconds.toFixed(0)} s`,
    `  survived: ${result.problems.some((p) => p.includes('did not start')) ? 'NO' : 'all restarts opened the chain'}; final head ${result.head}`,
    `  acknowledged before kills: ${result.counts.txs} transactions, ${result.counts.mines} evm_mine, ${result.counts.reverts} evm_revert, ` +
      `${result.counts.setBalances} hardhat_setBalance, ${result.counts.signups} sign-ups, ${result.counts.keysCreated} keys created, ${result.counts.keysRevoked} revoked`,
    `  user checks after restarts: ${result.usersChecked}`,
    `  data lost: ${lost}; other inconsistencies: ${result.problems.length - lost}`,
    ...result.problems.slice(0, 50).map((p) => `    ${p}`),
    `  errors answered by the live node: ${result.errors.length}`,
    ...[...new Set(result.errors)].slice(0, 10).map((e) => `    ${e}`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: String(DEFAULT_KILLS) },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      'from-source': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      minutes: { type: 'string', default: 'Infinity' },
    },
  });
  const fromSource = values['from-source'];
  if (!fromSource && !values['no-build']) build();
  console.log(`crash test: seed ${values.seed}, ${values.kills} kills, ${fromSource ? 'src/cli.ts via tsx' : 'dist/cli.js'}`);
  const result = await runCrashTest({
    kills: Number(values.kills),
    seed: Number(values.seed),
    fromSource,
    keepDataDir: values.keep,
    maxMinutes: Number(values.minutes),
    log: (line) => console.log(line),
  });
  console.log(summary(result));
  if (result.kills < Number(values.kills)) console.log(`  stopped after ${values.minutes} minutes: ${result.kills} of ${values.kills} kills`);
  if (values.keep) console.log(`  data dir kept: ${result.dataDir}`);
  process.exitCode = result.problems.length === 0 ? 0 : 1;
}
