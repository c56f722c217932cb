/**
 * A key's allow lists (the alternative provider's app settings, spec Authentication 5 and 7): which
 * browser origins, client IP ranges, contract addresses and methods may use the key. As on Infura
 * and Alchemy: a key with no lists accepts everything; an empty list does not restrict; entries of
 * one list are OR-ed, the lists are AND-ed. This module parses what a user enters (the dashboard's
 * API) and answers the gate's questions; it knows no JSON-RPC (rpc/call-addresses.ts reads calls).
 */
import { blockContains, clientAddressOf, formatAddress, parseIpLiteral } from './ban-list.js';

/** Entries per list: Infura's limit per allow-list type; more is a sign of a list that should be a second key. */
export const MAX_ALLOWLIST_ENTRIES = 30;
/** Longest entry kept (an origin with a long host name fits). */
const MAX_ENTRY_LENGTH = 300;

/** The four lists as stored with the key and shown by the API (normalised text). */
export interface AllowlistSettings {
  origins: string[];
  ipRanges: string[];
  contracts: string[];
  methods: string[];
}

export type AllowRule = keyof AllowlistSettings;

export const ALLOW_RULES: readonly AllowRule[] = ['origins', 'ipRanges', 'contracts', 'methods'];

/** A user's entry that cannot be a list entry; the API answers it with HTTP 400. */
export class AllowlistError extends Error {}

/** Parses and normalises the four lists; undefined when all are empty (the key has no lists). */
export function parseAllowlist(input: Partial<Record<AllowRule, unknown>>): AllowlistSettings | undefined {
  const lists: AllowlistSettings = { origins: [], ipRanges: [], contracts: [], methods: [] };
  for (const rule of ALLOW_RULES) {
    const value = input[rule] ?? [];
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new AllowlistError(`${rule} must be an array of strings`);
    if (value.length > MAX_ALLOWLIST_ENTRIES) throw new AllowlistError(`${rule} has more than ${MAX_ALLOWLIST_ENTRIES} entries`);
    const seen = new Set<string>();
    for (const raw of value as string[]) {
      const entry = raw.trim();
      if (entry.length === 0) continue;
      if (entry.length > MAX_ENTRY_LENGTH) throw new AllowlistError(`${rule}: an entry is longer than ${MAX_ENTRY_LENGTH} characters`);
      seen.add(PARSERS[rule](entry));
    }
    lists[rule] = [...seen];
  }
  return ALLOW_RULES.some((rule) => lists[rule].length > 0) ? lists : undefined;
}

const PARSERS: Record<AllowRule, (entry: string) => string> = {
  origins: parseOrigin,
  ipRanges: parseIpRange,
  contracts: (entry) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(entry)) throw new AllowlistError(`contracts: "${entry}" is not an address (0x and 40 hex digits)`);
    return entry.toLowerCase();
  },
  methods: (entry) => {
    if (!/^[A-Za-z0-9_]+$/.test(entry)) throw new AllowlistError(`methods: "${entry}" is not a method name (letters, digits and _)`);
    return entry;
  },
};

/** `scheme://host[:port]`, the host optionally `*.`-prefixed (any subdomain); lowercased, no path. */
function parseOrigin(entry: string): string {
  const bad = () => new AllowlistError(`origins: "${entry}" is not an origin like https://app.example.com, https://*.example.com or http://localhost:3000`);
  const match = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?([^/?#]+)\/?$/i.exec(entry);
  if (match === null) throw bad();
  let url: URL;
  try {
    url = new URL(`${match[1]}://${match[3]}`);
  } catch {
    throw bad();
  }
  if (url.username !== '' || url.password !== '' || url.host === '') throw bad();
  return `${url.protocol}//${match[2] ?? ''}${url.host}`;
}

/** An address or CIDR block, IPv4 or IPv6, in the ban list's normal form (`::ffff:10.0.0.7` is 10.0.0.7). */
function parseIpRange(entry: string): string {
  const [address, bits, extra] = entry.split('/');
  const bytes = parseIpLiteral(address!.trim());
  if (bytes === undefined || extra !== undefined) throw new AllowlistError(`ipRanges: "${entry}" is not an IP address or CIDR block (10.0.0.0/8, 2001:db8::/32)`);
  if (bits === undefined) return formatAddress(bytes);
  if (!/^\d+$/.test(bits) || Number(bits) < 0 || Number(bits) > bytes.length * 8) {
    throw new AllowlistError(`ipRanges: "${entry}" has a bad prefix length (0-${bytes.length * 8})`);
  }
  return `${formatAddress(bytes)}/${Number(bits)}`;
}

/** The lists compiled for the gate: each undefined when it does not restrict. */
export class AllowRules {
  private readonly origins?: { exact: Set<string>; suffixes: Array<{ scheme: string; suffix: string }> };
  private readonly ranges?: Array<{ bytes: Uint8Array; bits: number }>;
  readonly contracts?: ReadonlySet<string>;
  readonly methods?: ReadonlySet<string>;

  constructor(readonly settings: AllowlistSettings) {
    if (settings.origins.length > 0) {
      const exact = new Set<string>();
      const suffixes: Array<{ scheme: string; suffix: string }> = [];
      for (const origin of settings.origins) {
        const [scheme, host] = origin.split('//') as [string, string];
        if (host.startsWith('*.')) suffixes.push({ scheme, suffix: host.slice(1) });
        else exact.add(origin);
      }
      this.origins = { exact, suffixes };
    }
    if (settings.ipRanges.length > 0) {
      this.ranges = settings.ipRanges.map((range) => {
        const [address, bits] = range.split('/');
        const bytes = parseIpLiteral(address!)!;
        return { bytes, bits: bits === undefined ? bytes.length * 8 : Number(bits) };
      });
    }
    if (settings.contracts.length > 0) this.contracts = new Set(settings.contracts);
    if (settings.methods.length > 0) this.methods = new Set(settings.methods);
  }

  /** Why the request's Origin header is refused, or undefined when it passes. */
  originRefusal(origin: string | undefined): string | undefined {
    if (this.origins === undefined) return undefined;
    if (origin === undefined || origin === '') return 'the request has no Origin header, and this key accepts only requests from its allowed origins';
    let normal: string;
    try {
      const url = new URL(origin);
      normal = `${url.protocol}//${url.host}`;
    } catch {
      return `the Origin "${shown(origin)}" is not an origin`;
    }
    if (this.origins.exact.has(normal)) return undefined;
    const [scheme, host] = normal.split('//') as [string, string];
    if (this.origins.suffixes.some((s) => s.scheme === scheme && host.endsWith(s.suffix) && host.length > s.suffix.length)) return undefined;
    return `the origin ${shown(normal)} is not in this key's allowed origins`;
  }

  /** Why the client address is refused, or undefined when it passes. */
  ipRefusal(remote: string | undefined): string | undefined {
    if (this.ranges === undefined) return undefined;
    const client = clientAddressOf(remote);
    const bytes = client === undefined ? undefined : parseIpLiteral(client);
    if (bytes !== undefined && this.ranges.some((r) => blockContains(r.bytes, r.bits, bytes))) return undefined;
    return `the client address ${client ?? 'unknown'} is not in this key's allowed IP ranges`;
  }
}

/** A value from the request as an error message repeats it: cut, so a huge header does not come back whole. */
function shown(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}
