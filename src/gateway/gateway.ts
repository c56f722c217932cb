/**
 * The hosted-gateway emulation: users, sessions, API keys bound to a network, and daily quotas
 * (spec: Authentication, Limits). Kept in its own LevelDB (<data-dir>/gateway) or in memory.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AbstractLevel } from 'abstract-level';
import { MemoryLevel } from 'memory-level';
import type { NetworkName } from '../chain/index.js';
import { AllowRules, type AllowlistSettings } from './allowlist.js';
import { type JwtAlgorithm, type JwtKeySettings, JwtVerifier, MAX_JWT_KEYS } from './jwt-keys.js';
import { LoginThrottle } from './login-throttle.js';
import { DUMMY_HASH, type PasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { KeyUsage } from './key-usage.js';
import { Quotas } from './quota.js';

/** The spec's limit of keys per user (revoked keys do not count). */
export const MAX_KEYS_PER_USER = 4;
/** How long a dashboard session lasts without use. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
/** The alternative provider's addresses, `/v2/<API_KEY>`: a fixed `v2` segment before the key (spec Versioning 2). */
export const ALT_PATH_PREFIX = '/v2';
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
  /** The alternative provider's allow lists (allowlist.ts); absent when the key has none. */
  allowlist?: AllowlistSettings;
  /** Registered JWT public keys (jwt-keys.ts); absent or empty: no JWT needed. */
  jwtKeys?: JwtKeySettings[];
}

/** What the gate enforces for a key with options; a key without any has none (one map lookup). */
export interface KeyPolicy {
  allow?: AllowRules;
  jwt?: JwtVerifier;
}

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;

const userKey = (email: string) => `user:${email}`;
const apiKeyKey = (key: string) => `key:${key}`;
const quotaKey = (key: string) => `quota:${key}`;
/** A key's calls by method on one day: `usage:<key id>:<YYYY-MM-DD>` -> JSON [[method, count], ...]. */
const usageKey = (keyDay: string) => `usage:${keyDay}`;

export interface GatewayOptions {
  location: string | undefined;
  dailyLimit: number;
  now: () => number;
}

export class Gateway {
  readonly quotas: Quotas;
  /** Calls per key, day and method (key-usage.ts). */
  readonly usage: KeyUsage;
  private readonly throttle: LoginThrottle;
  private readonly sessions = new Map<string, SessionUser & { expiresAt: number }>();
  /** Every key ever made, by key string; loaded at start so the RPC path never waits on disk. */
  private readonly keys = new Map<string, ApiKeyRecord>();
  /** The compiled options of the keys that have some, by key string. */
  private readonly policies = new Map<string, KeyPolicy>();

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
    this.usage = new KeyUsage(
      now,
      async (key) => {
        const stored = await this.db.get(usageKey(key));
        return stored === undefined ? undefined : (JSON.parse(stored) as Array<[string, number]>);
      },
      (entries) => this.db.batch(entries.map(([key, counts]) => ({ type: 'put' as const, key: usageKey(key), value: JSON.stringify(counts) }))),
    );
  }

  static async open(options: GatewayOptions): Promise<Gateway> {
    // `level` (the native LevelDB binding) loads only for a data directory: an in-memory node never needs it.
    const db: Db =
      options.location === undefined ? new MemoryLevel<string, string>() : new (await import('level')).Level<string, string>(options.location);
    await db.open();
    const gateway = new Gateway(db, options.now, options.dailyLimit);
    for await (const value of db.values({ gte: 'key:', lt: 'key;' })) {
      gateway.remember(JSON.parse(value) as ApiKeyRecord);
    }
    return gateway;
  }

  async close(): Promise<void> {
    await this.quotas.flush();
    await this.usage.flush();
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
    this.remember(record);
    return record;
  }

  async revokeKey(userId: string, id: string): Promise<ApiKeyRecord> {
    const record = this.listKeys(userId).find((k) => k.id === id);
    if (record === undefined) throw new GatewayError(404, 'No such key');
    if (record.revokedAt !== null) return record;
    return this.update({ ...record, revokedAt: this.now() });
  }

  /** Replaces a key's allow lists (undefined: none). */
  async setAllowlist(userId: string, id: string, allowlist: AllowlistSettings | undefined): Promise<ApiKeyRecord> {
    const { allowlist: _old, ...record } = this.ownKey(userId, id);
    return this.update(allowlist === undefined ? record : { ...record, allowlist });
  }

  /** Registers a JWT public key (already checked by jwt-keys.ts checkPublicKey). */
  async addJwtKey(userId: string, id: string, fields: { name: string; algorithm: JwtAlgorithm; publicKey: JwtKeySettings['publicKey'] }): Promise<ApiKeyRecord> {
    const record = this.ownKey(userId, id);
    const keys = record.jwtKeys ?? [];
    if (keys.length >= MAX_JWT_KEYS) throw new GatewayError(409, `JWT key limit reached: a key holds at most ${MAX_JWT_KEYS} public keys. Remove one to add another.`);
    if (keys.some((k) => k.name === fields.name)) throw new GatewayError(409, `A JWT key named "${fields.name}" is already registered on this key`);
    return this.update({ ...record, jwtKeys: [...keys, { id: randomUUID(), ...fields, createdAt: this.now() }] });
  }

  async removeJwtKey(userId: string, id: string, jwtKeyId: string): Promise<ApiKeyRecord> {
    const record = this.ownKey(userId, id);
    const keys = record.jwtKeys ?? [];
    if (!keys.some((k) => k.id === jwtKeyId)) throw new GatewayError(404, 'No such JWT key');
    const { jwtKeys: _old, ...rest } = record;
    const left = keys.filter((k) => k.id !== jwtKeyId);
    return this.update(left.length === 0 ? rest : { ...rest, jwtKeys: left });
  }

  /** The options the gate enforces for a key; undefined for a key without any (the common case). */
  policyOf(record: ApiKeyRecord): KeyPolicy | undefined {
    return this.policies.get(record.key);
  }

  /** One of the user's keys, revoked or not (404 for another user's or no key). */
  ownKey(userId: string, id: string): ApiKeyRecord {
    const record = this.listKeys(userId).find((k) => k.id === id);
    if (record === undefined) throw new GatewayError(404, 'No such key');
    return record;
  }

  private async update(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    await this.db.put(apiKeyKey(record.key), JSON.stringify(record));
    this.remember(record);
    return record;
  }

  /** Keeps the record in memory and compiles its options (a new policy also starts a new token cache). */
  private remember(record: ApiKeyRecord): void {
    this.keys.set(record.key, record);
    const hasJwt = record.jwtKeys !== undefined && record.jwtKeys.length > 0;
    if (record.allowlist === undefined && !hasJwt) {
      this.policies.delete(record.key);
      return;
    }
    this.policies.set(record.key, {
      ...(record.allowlist === undefined ? {} : { allow: new AllowRules(record.allowlist) }),
      ...(hasJwt ? { jwt: new JwtVerifier(record.jwtKeys!, this.now) } : {}),
    });
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
