/**
 * The dashboard's JSON API under /api (documented in docs/gateway.md). Errors are `{ error }` with a
 * fitting HTTP status. Sessions ride in an HttpOnly, SameSite=Strict cookie, and state-changing
 * requests must come from our own origin when the browser says where they come from.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { NetworkName } from '../chain/index.js';
import { ALLOW_RULES, AllowlistError, parseAllowlist } from './allowlist.js';
import { clientAddressOf } from './ban-list.js';
import { ALT_PATH_PREFIX, type ApiKeyRecord, type Gateway, GatewayError, type SessionUser } from './gateway.js';
import { type JwtAlgorithm, type JwtKeySettings, JwtKeyError, checkPublicKey } from './jwt-keys.js';
import { MAX_METHODS_PER_DAY, OTHER_METHODS } from './key-usage.js';

const SESSION_COOKIE = 'rsk_devnode_session';
/** Dashboard requests are a few small fields. */
const MAX_API_BODY = '16kb';
/** Days of usage the API returns (and the pages show). */
export const USAGE_DAYS = 30;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;

type Handler = (req: Request, res: Response) => Promise<void> | void;

/**
 * `publicUrl`: the base of the key URLs the API answers (the listening address or --public-url).
 * Not the request's Host header, which any client can forge (a phishing page's links, cached answers).
 */
export function createApiRouter(gateway: Gateway, publicUrl: () => string): Router {
  const router = express.Router();
  router.use(express.json({ limit: MAX_API_BODY, strict: true, type: () => true }));
  router.use(checkOrigin);

  const route = (handler: Handler) => (req: Request, res: Response, next: NextFunction) => {
    Promise.resolve(handler(req, res)).catch(next);
  };
  const signedIn = (req: Request): SessionUser => {
    const user = gateway.sessionUser(sessionToken(req));
    if (user === undefined) throw new GatewayError(401, 'Not signed in');
    return user;
  };

  router.post('/signup', route(async (req, res) => {
    const { email, password } = fields(req.body, { email: 'string', password: 'string' }, ['email', 'password']);
    await gateway.signup(email!, password!);
    res.status(201).json({ ok: true });
  }));

  router.post('/login', route(async (req, res) => {
    const { email, password } = fields(req.body, { email: 'string', password: 'string' }, ['email', 'password']);
    // Throttled per client address in the one form every check uses (ban-list.ts clientAddressOf).
    const token = await gateway.login(email!, password!, clientAddressOf(req.socket.remoteAddress) ?? 'unknown');
    // A new session on every login; the one the browser came with (if any) ends.
    const previous = sessionToken(req);
    if (previous !== undefined) gateway.logout(previous);
    res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/' });
    res.json({ ok: true, email: email!.trim().toLowerCase() });
  }));

  router.post('/logout', route((req, res) => {
    const token = sessionToken(req);
    if (token !== undefined) gateway.logout(token);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ ok: true });
  }));

  router.get('/me', route((req, res) => {
    res.json({ email: signedIn(req).email });
  }));

  router.get('/keys', route((req, res) => {
    const user = signedIn(req);
    res.json({ keys: gateway.listKeys(user.userId).map((k) => keyView(k, publicUrl())) });
  }));

  router.post('/keys', route(async (req, res) => {
    const user = signedIn(req);
    const { name, network, description } = fields(req.body, { name: 'string', network: 'string', description: 'string' }, ['name', 'network']);
    const trimmedName = name!.trim();
    if (trimmedName.length === 0 || trimmedName.length > MAX_NAME) throw new GatewayError(400, `name is required (at most ${MAX_NAME} characters)`);
    const net = network!.toLowerCase();
    if (net !== 'testnet' && net !== 'mainnet') throw new GatewayError(400, 'network must be "testnet" or "mainnet"');
    if ((description ?? '').length > MAX_DESCRIPTION) throw new GatewayError(400, `description has at most ${MAX_DESCRIPTION} characters`);
    const record = await gateway.createKey(user.userId, { name: trimmedName, network: net as NetworkName, description: description ?? '' });
    res.status(201).json(keyView(record, publicUrl()));
  }));

  router.delete('/keys/:id', route(async (req, res) => {
    const user = signedIn(req);
    res.json(keyView(await gateway.revokeKey(user.userId, String(req.params.id)), publicUrl()));
  }));

  router.put('/keys/:id/allowlist', route(async (req, res) => {
    const user = signedIn(req);
    const body = objectBody(req.body);
    for (const name of Object.keys(body)) if (!(ALLOW_RULES as readonly string[]).includes(name)) throw new GatewayError(400, `Unknown field "${name}"`);
    let allowlist;
    try {
      allowlist = parseAllowlist(body);
    } catch (err) {
      if (err instanceof AllowlistError) throw new GatewayError(400, err.message);
      throw err;
    }
    res.json(keyView(await gateway.setAllowlist(user.userId, String(req.params.id), allowlist), publicUrl()));
  }));

  router.post('/keys/:id/jwt-keys', route(async (req, res) => {
    const user = signedIn(req);
    const body = objectBody(req.body);
    for (const name of Object.keys(body)) if (!['name', 'algorithm', 'publicKey'].includes(name)) throw new GatewayError(400, `Unknown field "${name}"`);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name.length === 0 || name.length > MAX_NAME) throw new GatewayError(400, `name is required (at most ${MAX_NAME} characters)`);
    try {
      await checkPublicKey(body.algorithm, body.publicKey);
    } catch (err) {
      if (err instanceof JwtKeyError) throw new GatewayError(400, err.message);
      throw err;
    }
    const publicKey = typeof body.publicKey === 'string' ? body.publicKey.trim() : (body.publicKey as JwtKeySettings['publicKey']);
    const record = await gateway.addJwtKey(user.userId, String(req.params.id), { name, algorithm: body.algorithm as JwtAlgorithm, publicKey });
    res.status(201).json(keyView(record, publicUrl()));
  }));

  router.delete('/keys/:id/jwt-keys/:jwtKeyId', route(async (req, res) => {
    const user = signedIn(req);
    res.json(keyView(await gateway.removeJwtKey(user.userId, String(req.params.id), String(req.params.jwtKeyId)), publicUrl()));
  }));

  router.get('/keys/:id/usage', route(async (req, res) => {
    const user = signedIn(req);
    const record = gateway.ownKey(user.userId, String(req.params.id));
    const days = await gateway.usage.history(record.id, USAGE_DAYS);
    res.json({ id: record.id, day: days[days.length - 1]!.day, methodsPerDay: MAX_METHODS_PER_DAY, otherMethods: OTHER_METHODS, days });
  }));

  router.get('/usage', route(async (req, res) => {
    const user = signedIn(req);
    const history = await gateway.quotas.history(user.userId, USAGE_DAYS);
    const today = history[history.length - 1]!;
    const limit = gateway.quotas.dailyLimit;
    res.json({ limit, used: today.requests, remaining: Math.max(0, limit - today.requests), day: today.day, history });
  }));

  router.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'No such API endpoint' });
  });
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof GatewayError) {
      if (err.retryAfterSeconds !== undefined) res.set('retry-after', String(err.retryAfterSeconds));
      res.status(err.status).json({ error: err.message });
      return;
    }
    const status = (err as { status?: number; type?: string }).status;
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      res.status(413).json({ error: `Request body too large: the limit is ${MAX_API_BODY}` });
    } else if (type === 'entity.parse.failed') {
      res.status(400).json({ error: 'Malformed JSON body' });
    } else if (status !== undefined && status >= 400 && status < 500) {
      res.status(status).json({ error: (err as Error).message });
    } else {
      res.status(500).json({ error: 'Internal server error' });
    }
  });
  return router;
}

function keyView(record: ApiKeyRecord, base: string) {
  return {
    id: record.id,
    name: record.name,
    network: record.network,
    description: record.description,
    key: record.key,
    url: `${base}/${record.key}`,
    v2Url: `${base}${ALT_PATH_PREFIX}/${record.key}`,
    createdAt: new Date(record.createdAt).toISOString(),
    revokedAt: record.revokedAt === null ? null : new Date(record.revokedAt).toISOString(),
    allowlist: record.allowlist ?? { origins: [], ipRanges: [], contracts: [], methods: [] },
    jwtKeys: (record.jwtKeys ?? []).map((k) => ({ id: k.id, name: k.name, algorithm: k.algorithm, publicKey: k.publicKey, createdAt: new Date(k.createdAt).toISOString() })),
  };
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GatewayError(400, 'Expected a JSON object body');
  return body as Record<string, unknown>;
}

/** Reads the expected fields (all strings), refusing unknown fields and wrong types. */
function fields<K extends string>(body: unknown, types: Record<K, 'string'>, required: NoInfer<K>[]): Partial<Record<K, string>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GatewayError(400, 'Expected a JSON object body');
  const out: Partial<Record<K, string>> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(name in types)) throw new GatewayError(400, `Unknown field "${name}"`);
    if (typeof value !== 'string') throw new GatewayError(400, `Field "${name}" must be a string`);
    out[name as K] = value;
  }
  for (const name of required) if (out[name] === undefined) throw new GatewayError(400, `Field "${name}" is required`);
  return out;
}

/** The session token from the request's cookie (the pages check sessions too). */
export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

/**
 * Cross-site state changes are refused: an Origin other than ours, or a browser's Sec-Fetch-Site
 * saying the request comes from another site (ports do not make a site: another local app on
 * another port is same-site). Requests without either header (curl, tests) pass.
 */
function checkOrigin(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    res.status(403).json({ error: 'Cross-origin request refused' });
    return;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return next();
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== req.headers.host) {
    res.status(403).json({ error: 'Cross-origin request refused' });
    return;
  }
  next();
}
