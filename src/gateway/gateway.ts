/**
 * The hosted-gateway emulation: users, sessions, API keys bound to a network, and daily quotas
 * (spec: Authentication, Limits). Kept in its own LevelDB (<data-dir>/gateway) or in memory.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AbstractLevel } from 'abstract-level';
import { MemoryLevel } from 'memory-level';
import type { NetworkName } from '../chain/index.js';
import { LoginThrottle } from './login-throttle.js';
import { DUMMY_HASH, type PasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { Quotas } from './quota.js';

/** The spec's limit of keys per user (revoked keys do not count). */
export const MAX_KEYS_PER_USER = 4;
/** How long a dashboard session lasts without use. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
const MIN_PASSWORD_LENGTH = 8;
const MAX_FIELD_LENGTH = 200;

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface SessionUser {
  userId: string;
  email: string;
}

interface UserRecord extends PasswordHash {
  id: string;
  email: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  key: string;
  userId: string;
  name: string;
  network: NetworkName;
  description: string;
  createdAt: number;
  revokedAt: number | null;
}

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;

const userKey = (email: string) => `user:${email}`;
const apiKeyKey = (key: string) => `key:${key}`;
const quotaKey = (key: string) => `quota:${key}`;

export interface GatewayOptions {
  location: string | undefined;
  dailyLimit: number;
  now: () => number;
}

export class Gateway {
  readonly quotas: Quotas;
  private readonly throttle: LoginThrottle;
  private readonly sessions = new Map<string, SessionUser & { expiresAt: number }>();
  /** Every key ever made, by key string; loaded at start so the RPC path never waits on disk. */
  private readonly keys = new Map<string, ApiKeyRecord>();

  private constructor(
    private readonly db: Db,
    private readonly now: () => number,
    dailyLimit: number,
  ) {
    this.throttle = new LoginThrottle(now);
    this.quotas = new Quotas(
      dailyLimit,
      now,
      async (key) => Number((await this.db.get(quotaKey(key))) ?? 0),
      (entries) => this.db.batch(entries.map(([key, count]) => ({ type: 'put' as const, key: quotaKey(key), value: String(count) }))),
    );
  }

  static async open(options: GatewayOptions): Promise<Gateway> {
    // `level` (the native LevelDB binding) loads only for a data directory: an in-memory node never needs it.
    const db: Db =
      options.location === undefined ? new MemoryLevel<string, string>() : new (await import('level')).Level<string, string>(options.location);
    await db.open();
    const gateway = new Gateway(db, options.now, options.dailyLimit);
    for await (const value of db.values({ gte: 'key:', lt: 'key;' })) {
      const record = JSON.parse(value) as ApiKeyRecord;
      gateway.keys.set(record.key, record);
    }
    return gateway;
  }

  async close(): Promise<void> {
    await this.quotas.flush();
    await this.db.close();
  }

  // ---- accounts and sessions ---------------------------------------------------------------

  async signup(email: string, password: string): Promise<void> {
    const normalized = checkEmail(email);
    if (password.length < MIN_PASSWORD_LENGTH) throw new GatewayError(400, `Password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    if (password.length > MAX_FIELD_LENGTH) throw new GatewayError(400, `Password must have at most ${MAX_FIELD_LENGTH} characters`);
    if ((await this.db.get(userKey(normalized))) !== undefined) throw new GatewayError(409, 'An account with this email already exists');
    const user: UserRecord = { id: randomUUID(), email: normalized, createdAt: this.now(), ...(await hashPassword(password)) };
    await this.db.put(userKey(normalized), JSON.stringify(user));
  }

  /** Returns a session token. A failure never says whether the email exists. */
  async login(email: string, password: string, clientAddress: string): Promise<string> {
    const normalized = email.trim().toLowerCase();
    // Per account from this address, and per address: never per account alone, or anyone could keep
    // its owner locked out by failing once a minute from elsewhere (login-throttle.ts).
    const subjects = [`email:${normalized}|address:${clientAddress}`, `address:${clientAddress}`];
    const wait = this.throttle.waitFor(subjects);
    if (wait > 0) throw new GatewayError(429, 'Too many failed logins: try again shortly', Math.ceil(wait / 1000));
    const stored = await this.db.get(userKey(normalized));
    const user = stored === undefined ? undefined : (JSON.parse(stored) as UserRecord);
    const ok = await verifyPassword(password, user ?? DUMMY_HASH);
    if (user === undefined || !ok) {
      this.throttle.failed(subjects);
      throw new GatewayError(401, 'Wrong email or password');
    }
    this.throttle.succeeded(subjects);
    const token = randomBytes(32).toString('base64url');
    this.sessions.set(token, { userId: user.id, email: user.email, expiresAt: this.now() + SESSION_TTL_MS });
    return token;
  }

  logout(token: string): void {
    this.sessions.delete(token);
  }

  /** The user of a live session, sliding its expiry. */
  sessionUser(token: string | undefined): SessionUser | undefined {
    if (token === undefined) return undefined;
    const session = this.sessions.get(token);
    if (session === undefined || session.expiresAt < this.now()) {
      this.sessions.delete(token ?? '');
      return undefined;
    }
    session.expiresAt = this.now() + SESSION_TTL_MS;
    return { userId: session.userId, email: session.email };
  }

  // ---- API keys ------------------------------------------------------------------------------

  listKeys(userId: string): ApiKeyRecord[] {
    return [...this.keys.values()].filter((k) => k.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
  }

  async createKey(userId: string, fields: { name: string; network: NetworkName; description: string }): Promise<ApiKeyRecord> {
    const active = this.listKeys(userId).filter((k) => k.revokedAt === null).length;
    if (active >= MAX_KEYS_PER_USER) {
      throw new GatewayError(409, `Key limit reached: a user may hold at most ${MAX_KEYS_PER_USER} keys that are not revoked. Revoke one to create another.`);
    }
    const record: ApiKeyRecord = {
      id: randomUUID(),
      key: randomBytes(16).toString('hex'),
      userId,
      ...fields,
      createdAt: this.now(),
      revokedAt: null,
    };
    await this.db.put(apiKeyKey(record.key), JSON.stringify(record));
    this.keys.set(record.key, record);
    return record;
  }

  async revokeKey(userId: string, id: string): Promise<ApiKeyRecord> {
    const record = this.listKeys(userId).find((k) => k.id === id);
    if (record === undefined) throw new GatewayError(404, 'No such key');
    if (record.revokedAt !== null) return record;
    const revoked = { ...record, revokedAt: this.now() };
    await this.db.put(apiKeyKey(record.key), JSON.stringify(revoked));
    this.keys.set(record.key, revoked);
    return revoked;
  }

  /** The record of a dashboard key, revoked or not. */
  lookup(key: string): ApiKeyRecord | undefined {
    return this.keys.get(key);
  }
}

function checkEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (normalized.length > MAX_FIELD_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized)) {
    throw new GatewayError(400, 'A valid email address is required');
  }
  return normalized;
}
