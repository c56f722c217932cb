/**
 * The traffic the node is killed under: transactions from the node's unlocked dev accounts (value
 * transfers, contract deployments, log-emitting calls), evm_mine with and without a timestamp,
 * evm_snapshot / evm_revert sections, hardhat_setBalance, dashboard sign-ups and key creation and
 * revocation. Every answer is written to the ledger the moment it arrives.
 */
import { randomBytes } from 'node:crypto';
import type { AckedUser, Ledger } from './ledger.js';
import { DashboardClient, RpcFailure, call } from './rpc.js';

/** Init code of a contract whose every call emits LOG1(topic = caller, data = calldata). */
export const EMITTER_INIT_CODE = '0x600c600c600039600c6000f3' + '36600060003733366000a100';
const TX_WORKERS = 3;
const GAS = '0x30d40'; // 200,000: enough for every transaction kind here
const PASSWORD = 'crash-test-password';

export interface WorkloadContext {
  rpcUrl: string;
  baseUrl: string;
  ledger: Ledger;
  life: number;
  random: () => number;
  /** Set when the kill is on its way: errors after it are expected. */
  signal: AbortSignal;
  /** Errors the node answered while alive (not losses, but worth reporting). */
  errors: string[];
}

/** A readers-writer lock: transactions run together; a snapshot/revert section runs alone. */
class SectionLock {
  private readers = 0;
  private writer: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.writer !== undefined) await this.writer;
    this.readers++;
    try {
      return await work();
    } finally {
      this.readers--;
      if (this.readers === 0) this.drained?.();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.writer !== undefined) await this.writer;
    let release!: () => void;
    this.writer = new Promise((resolve) => (release = resolve));
    try {
      if (this.readers > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await work();
    } finally {
      this.writer = undefined;
      release();
    }
  }
}

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

export async function runWorkload(ctx: WorkloadContext): Promise<void> {
  const accounts = (await call(ctx.rpcUrl, 'eth_accounts')) as string[];
  const lock = new SectionLock();
  const loop = async (name: string, step: () => Promise<void>) => {
    while (!ctx.signal.aborted) {
      try {
        await step();
      } catch (err) {
        if (ctx.signal.aborted) return;
        // A refused connection with no kill requested means the node died on its own: report it.
        ctx.errors.push(`${name}: ${err instanceof RpcFailure ? err.message : String(err)}`);
        if (!(err instanceof RpcFailure)) return;
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: TX_WORKERS }, (_, i) => loop(`tx worker ${i}`, () => lock.shared(() => sendOne(ctx, accounts[i % accounts.length]!)))),
    loop('miner', async () => {
      await lock.shared(() => mineOrSetBalance(ctx));
      await sleep(20 + ctx.random() * 80);
    }),
    loop('snapshot/revert', async () => {
      await sleep(200 + ctx.random() * 400);
      await lock.exclusive(() => revertSection(ctx, accounts[0]!));
    }),
    loop('dashboard', () => dashboardStep(ctx)),
  ]);
}

async function sendTx(ctx: WorkloadContext, tx: Record<string, string>): Promise<string> {
  const hash = (await call(ctx.rpcUrl, 'eth_sendTransaction', [{ gas: GAS, ...tx }])) as string;
  // Automine: the answer comes once the transaction's block is committed.
  ctx.ledger.ackTx(hash);
  const receipt = await call(ctx.rpcUrl, 'eth_getTransactionReceipt', [hash]);
  if (receipt === null) throw new Error(`no receipt for the mined transaction ${hash}`);
  ctx.ledger.ackReceipt(hash, receipt.blockHash);
  if (tx.data === EMITTER_INIT_CODE && receipt.contractAddress) ctx.ledger.emitters.push(receipt.contractAddress);
  return hash;
}

async function sendOne(ctx: WorkloadContext, from: string): Promise<void> {
  const r = ctx.random();
  if (ctx.ledger.emitters.length === 0 || r < 0.05) {
    await sendTx(ctx, { from, data: EMITTER_INIT_CODE });
  } else if (r < 0.6) {
    await sendTx(ctx, { from, to: pick(ctx.random, ctx.ledger.emitters), data: `0x${randomBytes(1 + Math.floor(ctx.random() * 64)).toString('hex')}` });
  } else {
    await sendTx(ctx, { from, to: randomAddress(), value: `0x${(1 + Math.floor(ctx.random() * 1e6)).toString(16)}` });
  }
}

async function mineOrSetBalance(ctx: WorkloadContext): Promise<void> {
  const r = ctx.random();
  if (r < 0.4) {
    await call(ctx.rpcUrl, 'evm_mine');
  } else if (r < 0.6) {
    const head = await call(ctx.rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
    await call(ctx.rpcUrl, 'evm_mine', [`0x${(BigInt(head.timestamp) + 1n + BigInt(Math.floor(ctx.random() * 100))).toString(16)}`]);
  } else if (r < 0.75) {
    await call(ctx.rpcUrl, 'evm_increaseTime', [`0x${Math.floor(1 + ctx.random() * 60).toString(16)}`]);
    return;
  } else {
    const address = randomAddress();
    const balance = BigInt(1 + Math.floor(ctx.random() * 1e9)) * 10n ** 9n;
    await call(ctx.rpcUrl, 'hardhat_setBalance', [address, `0x${balance.toString(16)}`]);
    ctx.ledger.balances.set(address, balance);
    ctx.ledger.counts.setBalances++;
    return;
  }
  ctx.ledger.counts.mines++;
}

/** evm_snapshot, a few transactions, evm_revert: the reverted transactions must stay gone. */
async function revertSection(ctx: WorkloadContext, from: string): Promise<void> {
  const id = await call(ctx.rpcUrl, 'evm_snapshot');
  const snapshotHead = Number(await call(ctx.rpcUrl, 'eth_blockNumber'));
  const hashes: string[] = [];
  const count = 1 + Math.floor(ctx.random() * 4);
  for (let i = 0; i < count; i++) hashes.push(await sendTx(ctx, { from, to: randomAddress(), value: '0x1' }));
  const group = { snapshotHead, hashes, answered: false };
  ctx.ledger.revertGroups.push(group);
  if ((await call(ctx.rpcUrl, 'evm_revert', [id])) !== true) throw new Error(`evm_revert ${id} answered false`);
  group.answered = true;
  for (const hash of hashes) {
    ctx.ledger.txs.delete(hash);
    ctx.ledger.reverted.add(hash);
  }
  ctx.ledger.counts.reverts++;
}

async function dashboardStep(ctx: WorkloadContext): Promise<void> {
  const client = new DashboardClient(ctx.baseUrl);
  const email = `u${ctx.life}-${randomBytes(4).toString('hex')}@crash.test`;
  const signup = await client.request('POST', '/signup', { email, password: PASSWORD });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status} ${JSON.stringify(signup.body)}`);
  const user: AckedUser = { email, password: PASSWORD, keys: new Map(), life: ctx.life };
  ctx.ledger.users.set(email, user);
  ctx.ledger.counts.signups++;
  if (!(await client.login(email, PASSWORD))) throw new Error(`login of the new user ${email} refused`);
  for (let i = 0; i < 6 && !ctx.signal.aborted; i++) {
    const active = [...user.keys.values()].filter((k) => !k.revoked);
    if (active.length > 0 && (active.length >= 4 || ctx.random() < 0.4)) {
      const key = pick(ctx.random, active);
      key.revoking = true;
      const answer = await client.request('DELETE', `/keys/${key.id}`);
      if (answer.status !== 200 || answer.body.revokedAt === null) throw new Error(`revoke answered ${answer.status} ${JSON.stringify(answer.body)}`);
      key.revoked = true;
      ctx.ledger.counts.keysRevoked++;
    } else {
      const network = ctx.random() < 0.5 ? 'testnet' : 'mainnet';
      const answer = await client.request('POST', '/keys', { name: `key ${i}`, network, description: 'crash test' });
      if (answer.status !== 201) throw new Error(`key creation answered ${answer.status} ${JSON.stringify(answer.body)}`);
      user.keys.set(answer.body.id, { id: answer.body.id, key: answer.body.key, revoked: false, revoking: false });
      ctx.ledger.counts.keysCreated++;
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
