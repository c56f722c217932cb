/**
 * JWT keys of an API key (the alternative provider's app settings, spec Authentication 5 and 7),
 * as Infura does them: the user registers public keys (RS256 or ES256, PEM SPKI or JWK); from then
 * on every request with the key carries `Authorization: Bearer <JWT>` signed by a matching private
 * key. Verified with `jose` (jwtVerify, `algorithms` pinned to the registered key's), never by hand;
 * `jose` loads on the first key registered or token checked.
 */
import type { CryptoKey, JWK } from 'jose';

export type JwtAlgorithm = 'RS256' | 'ES256';
export const JWT_ALGORITHMS: readonly JwtAlgorithm[] = ['RS256', 'ES256'];

/** Public keys per API key: a current one and its successor during a rotation, with room for one more. */
export const MAX_JWT_KEYS = 3;
/** A token may expire at most this far ahead (the brief: a day), so a leaked token dies soon. */
export const MAX_JWT_LIFETIME_S = 24 * 3600;
/** Clock difference tolerated between the token's issuer and the node for exp, nbf and iat. */
export const JWT_CLOCK_SKEW_S = 30;
/**
 * Verified tokens remembered (a client reuses one token for many requests); past this the cache
 * starts over. A jwtVerify took 250 µs (RS256) / 170 µs (ES256) on this machine, about ten times a
 * whole lean-path request; a cached token costs a map lookup.
 */
export const MAX_CACHED_TOKENS = 1024;
/** Longest token read: an RS256 token with ordinary claims is under 1 kB. */
const MAX_TOKEN_LENGTH = 8192;
/** Longest public key accepted: an RSA-4096 SPKI PEM is about 800 characters. */
const MAX_PUBLIC_KEY_LENGTH = 4096;

/** A registered public key as stored with the API key. */
export interface JwtKeySettings {
  id: string;
  name: string;
  algorithm: JwtAlgorithm;
  /** The PEM text (SPKI) or the JWK as given. */
  publicKey: string | JWK;
  createdAt: number;
}

/** A key a user cannot register; the API answers it with HTTP 400. */
export class JwtKeyError extends Error {}

type Jose = typeof import('jose');
let jose: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/** Checks that `publicKey` is a public key of `algorithm` in a form jose reads (throws JwtKeyError). */
export async function checkPublicKey(algorithm: unknown, publicKey: unknown): Promise<void> {
  if (typeof algorithm !== 'string' || !(JWT_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new JwtKeyError(`algorithm must be one of ${JWT_ALGORITHMS.join(', ')}`);
  }
  if (typeof publicKey === 'string') {
    if (publicKey.length > MAX_PUBLIC_KEY_LENGTH) throw new JwtKeyError(`publicKey is longer than ${MAX_PUBLIC_KEY_LENGTH} characters`);
    if (!publicKey.includes('-----BEGIN PUBLIC KEY-----')) throw new JwtKeyError('publicKey must be a PEM public key (-----BEGIN PUBLIC KEY-----, SPKI) or a JWK object');
  } else if (typeof publicKey !== 'object' || publicKey === null || Array.isArray(publicKey)) {
    throw new JwtKeyError('publicKey must be a PEM string or a JWK object');
  } else if ('d' in publicKey) {
    throw new JwtKeyError('publicKey is a private JWK (it has "d"): register the public half only');
  }
  try {
    await importKey(algorithm as JwtAlgorithm, publicKey as string | JWK);
  } catch (err) {
    throw new JwtKeyError(`publicKey is not a ${algorithm} public key: ${(err as Error).message}`);
  }
}

async function importKey(algorithm: JwtAlgorithm, publicKey: string | JWK): Promise<CryptoKey> {
  const { importJWK, importSPKI } = await loadJose();
  const key = typeof publicKey === 'string' ? await importSPKI(publicKey.trim(), algorithm) : await importJWK(publicKey, algorithm);
  if (key instanceof Uint8Array || key.type !== 'public') throw new Error('not a public key');
  return key;
}

/** Why a request's token was refused: `reason` is a stable word for programs, `message` for people. */
export interface JwtRefusal {
  reason: 'missing' | 'malformed' | 'unknown_key' | 'wrong_algorithm' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'issued_in_future' | 'no_expiry' | 'lifetime_too_long';
  message: string;
}

/** A verified token: until when it stays good. */
export interface JwtPass {
  expiresAt: number;
}

/** The token of an `Authorization: Bearer <JWT>` header; undefined without one. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match === null ? undefined : match[1];
}

/** The registered keys of one API key, imported once, with a small cache of verified tokens. */
export class JwtVerifier {
  private imported: Promise<Array<{ settings: JwtKeySettings; key: CryptoKey }>> | undefined;
  private readonly verified = new Map<string, JwtPass>();

  constructor(
    readonly keys: readonly JwtKeySettings[],
    private readonly now: () => number,
  ) {}

  /** Checks a token (undefined: none came); a JwtPass, or why it is refused. */
  async check(token: string | undefined): Promise<JwtPass | JwtRefusal> {
    if (token === undefined || token === '') {
      return refusal('missing', 'this key requires a JWT: send Authorization: Bearer <JWT> signed by a key registered on it');
    }
    const nowS = this.now() / 1000;
    const cached = this.verified.get(token);
    if (cached !== undefined) {
      if (cached.expiresAt > nowS - JWT_CLOCK_SKEW_S) return cached;
      this.verified.delete(token);
    }
    if (token.length > MAX_TOKEN_LENGTH) return refusal('malformed', `the JWT is longer than ${MAX_TOKEN_LENGTH} characters`);
    const result = await this.verify(token, nowS);
    if ('expiresAt' in result) {
      if (this.verified.size >= MAX_CACHED_TOKENS) this.verified.clear();
      this.verified.set(token, result);
    }
    return result;
  }

  private async verify(token: string, nowS: number): Promise<JwtPass | JwtRefusal> {
    const { decodeProtectedHeader, jwtVerify, errors } = await loadJose();
    let header: { alg?: unknown; kid?: unknown };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return refusal('malformed', 'the JWT is malformed: expected three base64url parts, header.payload.signature');
    }
    const candidates = (await (this.imported ??= this.importAll())).filter((k) => header.kid === undefined || header.kid === k.settings.id || header.kid === k.settings.name);
    if (candidates.length === 0) return refusal('unknown_key', `the JWT's kid ${JSON.stringify(header.kid)} names no key registered on this API key`);
    const algorithms = new Set(candidates.map((k) => k.settings.algorithm));
    if (typeof header.alg !== 'string' || !algorithms.has(header.alg as JwtAlgorithm)) {
      return refusal('wrong_algorithm', `the JWT is signed with ${JSON.stringify(header.alg)}: this key accepts only ${[...algorithms].join(' or ')}`);
    }
    let last: JwtRefusal | undefined;
    for (const { settings, key } of candidates) {
      if (settings.algorithm !== header.alg) continue;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [settings.algorithm],
          clockTolerance: JWT_CLOCK_SKEW_S,
          currentDate: new Date(nowS * 1000),
          requiredClaims: ['exp'],
        });
        const exp = payload.exp!;
        if (exp > nowS + MAX_JWT_LIFETIME_S + JWT_CLOCK_SKEW_S) {
          return refusal('lifetime_too_long', `the JWT's exp is more than ${MAX_JWT_LIFETIME_S / 3600} hours ahead: make tokens that expire within a day`);
        }
        if (payload.iat !== undefined && payload.iat > nowS + JWT_CLOCK_SKEW_S) {
          return refusal('issued_in_future', "the JWT's iat is in the future: check the issuer's clock");
        }
        return { expiresAt: exp };
      } catch (err) {
        if (err instanceof errors.JWSSignatureVerificationFailed) {
          last = refusal('bad_signature', 'the JWT signature does not verify with the keys registered on this API key (wrong key, or the token was changed)');
          continue;
        }
        if (err instanceof errors.JWTExpired) return refusal('expired', 'the JWT has expired (exp is past): make a new one');
        if (err instanceof errors.JWTClaimValidationFailed) {
          if (err.claim === 'exp') return refusal('no_expiry', `the JWT has no valid exp claim: tokens must expire within ${MAX_JWT_LIFETIME_S / 3600} hours`);
          if (err.claim === 'nbf') return refusal('not_yet_valid', "the JWT is not valid yet (nbf is in the future)");
          return refusal('malformed', `the JWT's ${err.claim} claim is invalid`);
        }
        if (err instanceof errors.JOSEAlgNotAllowed) return refusal('wrong_algorithm', `the JWT's algorithm is not accepted: this key accepts only ${settings.algorithm}`);
        return refusal('malformed', `the JWT is malformed: ${(err as Error).message}`);
      }
    }
    return last!;
  }

  private async importAll(): Promise<Array<{ settings: JwtKeySettings; key: CryptoKey }>> {
    return Promise.all(this.keys.map(async (settings) => ({ settings, key: await importKey(settings.algorithm, settings.publicKey) })));
  }
}

function refusal(reason: JwtRefusal['reason'], message: string): JwtRefusal {
  return { reason, message: `Unauthorized: ${message}` };
}
