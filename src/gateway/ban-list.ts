/**
 * The node-wide ban list of client addresses (sco_banAddress, sco_unbanAddress,
 * sco_bannedAddresses): single addresses and CIDR blocks, IPv4 or IPv6, checked by the RPC gate
 * before a request reaches a chain. Validation follows rskj's `InetAddressUtils` (reference 10.4),
 * with two devnode rules (docs/decisions.md#client-bans-and-reputation-sco_-bridge-state-module-list):
 *  - only IP literals are accepted: rskj resolves host names through DNS, a devnode on RPC input
 *    does not, so a name is an "unknown host";
 *  - rskj refuses every loopback address; we refuse 127.0.0.1, ::1 and any block holding them (so the
 *    operator's own tools can never be locked out) but accept the rest of 127.0.0.0/8, which lets a
 *    test or a demo play a banned client from the same machine (bind the client to 127.0.0.2).
 * Written by hand: no maintained library does rskj's rules, and the address arithmetic is small.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isIPv4, isIPv6 } from 'node:net';

/** The list's file in the data directory (none with --in-memory). */
export const BAN_LIST_FILE = 'banned-addresses.json';

/** rskj's refusal; `Web3Impl` answers it as -32602 "invalid banned address <input>". */
export class InvalidBannedAddress extends Error {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid banned address ${input}`);
    this.name = 'InvalidBannedAddress';
  }
}

/** An address (4 or 16 bytes) or a CIDR block; `text` is how rskj lists it. */
export interface BanEntry {
  bytes: Uint8Array;
  /** Prefix length for a block; undefined for a single address. */
  bits?: number;
  text: string;
}

const PROTECTED_V4 = Uint8Array.of(127, 0, 0, 1);
const PROTECTED_V6 = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);

/** Bytes of an IP literal (`[v6]` too); IPv4-mapped IPv6 becomes IPv4, as Java's InetAddress does. */
export function parseIpLiteral(text: string): Uint8Array | undefined {
  const literal = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (literal !== text && !isIPv6(literal)) return undefined;
  if (isIPv4(literal)) return Uint8Array.from(literal.split('.'), Number);
  if (!isIPv6(literal) || literal.includes('%')) return undefined;
  const bytes = ipv6Bytes(literal);
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

function ipv6Bytes(literal: string): Uint8Array {
  let text = literal;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail.push(...text.slice(lastColon + 1).split('.').map(Number));
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

/** Java's `getHostAddress`: dotted IPv4, or eight lowercase hex groups without `::` compression. */
export function formatAddress(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

let lastRemote: string | undefined;
let lastClient: string | undefined;

/**
 * A client address in rskj's form, the one text every check and record uses (bans, reputation,
 * login throttling, connection shares): trimmed, any `%zone` dropped, `::ffff:a.b.c.d` (and its
 * hex form) as `a.b.c.d`, IPv6 as eight lowercase groups. Undefined if it is no IP address.
 */
export function clientAddressOf(remote: string | undefined): string | undefined {
  if (remote === undefined) return undefined;
  // Every request asks; consecutive ones mostly come from the same client.
  if (remote === lastRemote) return lastClient;
  const bytes = parseIpLiteral(remote.trim().split('%')[0]!);
  lastRemote = remote;
  lastClient = bytes === undefined ? undefined : formatAddress(bytes);
  return lastClient;
}

/** 127.0.0.1 and ::1 as clientAddressOf gives them. */
const PROTECTED_TEXTS: ReadonlySet<string> = new Set([formatAddress(PROTECTED_V4), formatAddress(PROTECTED_V6)]);

/** 127.0.0.1 or ::1 (as clientAddressOf gives them): the operator's own, never banned (see the header). */
export function isProtectedAddress(client: string): boolean {
  return PROTECTED_TEXTS.has(client);
}

/** Whether `address` lies in the block `block`/`bits` (same family only). */
export function blockContains(block: Uint8Array, bits: number, address: Uint8Array): boolean {
  if (block.length !== address.length) return false;
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (block[i] !== address[i]) return false;
  const mask = (0xff00 >> (bits & 7)) & 0xff;
  return mask === 0 || (block[whole]! & mask) === (address[whole]! & mask);
}

/** Java's String.split("/"): trailing empty strings dropped. */
function splitSlash(text: string): string[] {
  if (!text.includes('/')) return [text];
  const parts = text.split('/');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Parses sco_banAddress's argument by rskj's rules (plus ours above); throws InvalidBannedAddress. */
export function parseBanEntry(input: string): BanEntry {
  const invalid = (reason: string) => new InvalidBannedAddress(input, reason);
  // Whitespace around the whole entry is dropped, as around an address (clientAddressOf).
  const entry = input.trim();
  const addressOf = (hostname: string): Uint8Array => {
    const name = hostname.trim();
    if (name.length === 0) throw invalid('empty address');
    const bytes = parseIpLiteral(name);
    if (bytes === undefined) throw invalid(`unknown host: '${name}' (only IP literals; no DNS lookups)`);
    if (bytes.every((b) => b === 0)) throw invalid(`local address: '${name}'`);
    if (sameBytes(bytes, PROTECTED_V4) || sameBytes(bytes, PROTECTED_V6)) throw invalid(`local address: '${name}'`);
    return bytes;
  };
  const parts = splitSlash(entry);
  const isBlock = parts.length === 2 && parts[0]!.length > 0 && parts[1]!.length > 0;
  if (!isBlock) {
    const bytes = addressOf(entry);
    return { bytes, text: formatAddress(bytes) };
  }
  const bytes = addressOf(parts[0]!);
  // Java's Integer.parseInt: an optional sign and decimal digits, within an int.
  if (!/^[+-]?\d+$/.test(parts[1]!) || Math.abs(Number(parts[1])) > 2 ** 31 - 1) throw invalid('Invalid mask');
  const bits = Number(parts[1]);
  if (bits <= 0 || bits > bytes.length * 8) throw invalid('Invalid mask');
  const guarded = bytes.length === 4 ? PROTECTED_V4 : PROTECTED_V6;
  if (blockContains(bytes, bits, guarded)) throw invalid(`the block holds the local address ${formatAddress(guarded)}`);
  // rskj lists a block with the address as given (not masked) and its bit count.
  return { bytes, bits, text: `${formatAddress(bytes)}/${bits}` };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class BanList {
  /** Single addresses then blocks, each in the order first banned (rskj: hash-set order). */
  private readonly addresses = new Map<string, BanEntry>();
  private readonly blocks = new Map<string, BanEntry>();
  private readonly listeners = new Set<() => void>();
  private writes: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string | undefined) {}

  /** Loads the list from `file` (absent: empty); `undefined` keeps it in memory only. */
  static async open(file: string | undefined): Promise<BanList> {
    const list = new BanList(file);
    if (file === undefined) return list;
    let stored: unknown;
    try {
      stored = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return list;
      throw new Error(`${file}: cannot read the ban list (${(err as Error).message}); fix or delete the file`, { cause: err });
    }
    const banned = (stored as { banned?: unknown } | null)?.banned;
    if (!Array.isArray(banned) || !banned.every((b) => typeof b === 'string')) {
      throw new Error(`${file}: expected {"banned": ["<address or block>", ...]}; fix or delete the file`);
    }
    for (const text of banned as string[]) {
      try {
        list.add(parseBanEntry(text));
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}; fix or delete the file`, { cause: err });
      }
    }
    return list;
  }

  /** Bans an address or block; resolves once the list is on disk. */
  ban(input: string): Promise<void> {
    return this.add(parseBanEntry(input)) ? this.changed() : this.writes;
  }

  /** Lifts a ban given exactly as banned (a block by its address and bits); unknown entries are ignored. */
  unban(input: string): Promise<void> {
    const entry = parseBanEntry(input);
    return (entry.bits === undefined ? this.addresses : this.blocks).delete(entry.text) ? this.changed() : this.writes;
  }

  /** rskj's sco_bannedAddresses: plain addresses, then blocks as `<address>/<bits>`. */
  list(): string[] {
    return [...this.addresses.keys(), ...this.blocks.keys()];
  }

  get size(): number {
    return this.addresses.size + this.blocks.size;
  }

  /** Whether a client (a socket's remote address, read as clientAddressOf reads it) is banned. Cheap when the list is empty. */
  isBanned(remote: string | undefined): boolean {
    if (this.size === 0) return false;
    const client = clientAddressOf(remote);
    if (client === undefined) return false;
    if (this.addresses.has(client)) return true;
    const bytes = parseIpLiteral(client)!;
    for (const block of this.blocks.values()) if (blockContains(block.bytes, block.bits!, bytes)) return true;
    return false;
  }

  /** Called after each change (the gate closes WebSockets of newly banned clients); returns an unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private add(entry: BanEntry): boolean {
    const set = entry.bits === undefined ? this.addresses : this.blocks;
    if (set.has(entry.text)) return false;
    set.set(entry.text, entry);
    return true;
  }

  private changed(): Promise<void> {
    for (const listener of this.listeners) listener();
    if (this.file === undefined) return this.writes;
    const file = this.file;
    const text = `${JSON.stringify({ banned: this.list() }, null, 2)}\n`;
    // Writes run one after another, each the whole list; write then rename, so never half-written.
    this.writes = this.writes.catch(() => undefined).then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, text);
      await rename(`${file}.tmp`, file);
    });
    return this.writes;
  }
}
