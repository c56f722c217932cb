/**
 * The state file's text (docs/state-file.md): one JSON document laid out one record per line, so
 * that it is written and read line by line in bounded memory, and any JSON tool can still read it.
 *
 *   {"format":"rsk-devnode-state","version":1,"networks":[
 *   {"network":"testnet","chainId":31,"headNumber":"0x2","headHash":"0x…","meta":[…],"blocks":[
 *   ["0x<stored block RLP>","0x<stored receipts RLP>"]
 *   ,["0x…","0x…"]
 *   ],"stateNodes":[
 *   ["0x<node key>","0x<node bytes>"]
 *   ,…
 *   ]}
 *   ,{"network":"mainnet",…
 *   ],"end":{"networks":2,"blocks":5,"stateNodes":300}}
 *
 * A record after the first of its list starts with a comma. The closing "end" line with its counts
 * is how a truncated file is told apart from a complete one. A fork's section also names its fork
 * ("fork":{"chainId":31,"block":"0x…","hash":"0x…"}, before "blocks") and its blocks start at the
 * fork block: the remote's blocks below it are never in a file.
 */
import { ChainError } from '../base/errors.js';

export const STATE_FORMAT = 'rsk-devnode-state';
/** The version this node writes and the newest it reads. */
export const STATE_VERSION = 1;
/** Every file of this format starts with this, whatever its version (how a file is recognised). */
export const STATE_FILE_PREFIX = `{"format":"${STATE_FORMAT}",`;

export interface NetworkHeader {
  network: string;
  chainId: bigint;
  headNumber: bigint;
  headHash: Uint8Array;
  /** The chain's state meta records (test-control state changes), name and value. */
  meta: Array<[string, Uint8Array]>;
  /** Set when the chain is a fork: the remote's chain id and fork block; blocks start at it. */
  fork?: ForkPoint;
}

/** Which remote block a fork continues (the fork's record, fork-base.ts). */
export interface ForkPoint {
  chainId: bigint;
  block: bigint;
  hash: Uint8Array;
}

export interface BlockRecord {
  block: Uint8Array;
  receipts: Uint8Array;
}

/** One network's part of a dump: its header, then its blocks from genesis up, then its state nodes. */
export interface NetworkSection {
  header: NetworkHeader;
  blocks: AsyncIterable<BlockRecord>;
  nodes: AsyncIterable<[string, Uint8Array]>;
}

export type StateFileEvent =
  | { kind: 'network'; header: NetworkHeader }
  | ({ kind: 'block' } & BlockRecord)
  | { kind: 'node'; node: string; value: Uint8Array };

const BLOCKS_START = '],"stateNodes":[';
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;

/** The file's lines (each without its newline). */
export async function* stateFileLines(sections: NetworkSection[]): AsyncGenerator<string> {
  yield `{"format":"${STATE_FORMAT}","version":${STATE_VERSION},"networks":[`;
  let blocks = 0;
  let nodes = 0;
  for (const [i, { header, blocks: blockRecords, nodes: nodeRecords }] of sections.entries()) {
    const head = {
      network: header.network,
      chainId: Number(header.chainId),
      headNumber: `0x${header.headNumber.toString(16)}`,
      headHash: hex(header.headHash),
      meta: header.meta.map(([name, value]) => [name, hex(value)]),
      ...(header.fork === undefined
        ? {}
        : { fork: { chainId: Number(header.fork.chainId), block: `0x${header.fork.block.toString(16)}`, hash: hex(header.fork.hash) } }),
    };
    yield `${i === 0 ? '' : ','}${JSON.stringify(head).slice(0, -1)},"blocks":[`;
    let first = true;
    for await (const record of blockRecords) {
      yield `${first ? '' : ','}["${hex(record.block)}","${hex(record.receipts)}"]`;
      first = false;
      blocks++;
    }
    yield BLOCKS_START;
    first = true;
    for await (const [key, value] of nodeRecords) {
      yield `${first ? '' : ','}["0x${key}","${hex(value)}"]`;
      first = false;
      nodes++;
    }
    yield ']}';
  }
  yield `],"end":${JSON.stringify({ networks: sections.length, blocks, stateNodes: nodes })}}`;
}

/** A file that cannot be loaded: the message names the file and what is wrong. */
export function badStateFile(file: string, problem: string): ChainError {
  return new ChainError('invalidArgument', `state file ${file}: ${problem}; nothing was loaded`);
}

/**
 * The records of a file in this format, checked for layout, JSON, hex and the closing counts; the
 * caller checks what the records mean (block links, hashes). Sections `wanted` refuses are only
 * counted, not decoded (a network's load skips the other network's records). Throws badStateFile
 * on any fault.
 */
export async function* parseStateFile(lines: AsyncIterable<string>, file: string, wanted: (header: NetworkHeader) => boolean = () => true): AsyncGenerator<StateFileEvent> {
  let lineNumber = 0;
  const fail = (problem: string) => badStateFile(file, `line ${lineNumber}: ${problem}`);
  const bytesOf = (value: unknown, what: string) => {
    const bytes = typeof value === 'string' && value.startsWith('0x') ? hexBytes(value) : undefined;
    if (bytes === undefined) throw fail(`${what} is not 0x-prefixed hex bytes`);
    return bytes;
  };
  /** A `["0x…","0x…"]` record (after its comma), split without a JSON parse: the layout is fixed. */
  const pair = (line: string, what: string): [Uint8Array, Uint8Array, string] => {
    const body = line.startsWith(',') ? line.slice(1) : line;
    const middle = body.indexOf('","');
    if (!body.startsWith('["') || !body.endsWith('"]') || middle < 0) throw fail(`${what} is not a pair of hex strings`);
    const first = body.slice(2, middle);
    return [bytesOf(first, what), bytesOf(body.slice(middle + 3, -2), what), first];
  };
  let skipping = false;
  type Place = 'start' | 'networks' | 'blocks' | 'nodes' | 'done';
  let place: Place = 'start';
  const counts = { networks: 0, blocks: 0, stateNodes: 0 };
  for await (const line of lines) {
    lineNumber++;
    if (place === 'start') {
      const version = fileVersion(line);
      if (version === undefined) throw fail(`not an ${STATE_FORMAT} file`);
      if (version > STATE_VERSION) throw fail(`format version ${version} was written by a newer rsk-devnode; this one reads versions up to ${STATE_VERSION}`);
      if (line !== `{"format":"${STATE_FORMAT}","version":${version},"networks":[`) throw fail('unexpected first line');
      place = 'networks';
    } else if (place === 'networks') {
      if (line.startsWith('],"end":')) {
        checkEnd(line, counts, fail);
        place = 'done';
      } else {
        const header = networkHeader(line, counts.networks > 0, fail, bytesOf);
        skipping = !wanted(header);
        if (!skipping) yield { kind: 'network', header };
        counts.networks++;
        place = 'blocks';
      }
    } else if (place === 'blocks') {
      if (line === BLOCKS_START) place = 'nodes';
      else {
        counts.blocks++;
        if (skipping) continue;
        const [block, receipts] = pair(line, 'block record');
        yield { kind: 'block', block, receipts };
      }
    } else if (place === 'nodes') {
      if (line === ']}') place = 'networks';
      else {
        counts.stateNodes++;
        if (skipping) continue;
        const [, value, key] = pair(line, 'state node record');
        yield { kind: 'node', node: key.slice(2).toLowerCase(), value };
      }
    } else if (line !== '') throw fail('text after the end record');
  }
  if (place !== 'done') throw badStateFile(file, `ends after line ${lineNumber} without its end record (truncated)`);
}

/** 0x-prefixed hex as bytes; undefined for an odd length or a character that is not hex. */
function hexBytes(value: string): Uint8Array | undefined {
  if (value.length % 2 !== 0) return undefined;
  const bytes = Buffer.from(value.slice(2), 'hex');
  // Buffer.from stops at the first pair that is not hex: a short result means a bad character.
  return bytes.length * 2 === value.length - 2 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : undefined;
}

/** The version a file's first line declares, or undefined when it is not a file of this format. */
export function fileVersion(firstLine: string): number | undefined {
  if (!firstLine.startsWith(STATE_FILE_PREFIX)) return undefined;
  const match = /^"version":(\d{1,9})[,}]/.exec(firstLine.slice(STATE_FILE_PREFIX.length));
  return match === null ? undefined : Number(match[1]);
}

function networkHeader(
  line: string,
  comma: boolean,
  fail: (problem: string) => Error,
  bytesOf: (value: unknown, what: string) => Uint8Array,
): NetworkHeader {
  const body = comma && line.startsWith(',') ? line.slice(1) : line;
  if (!body.endsWith(',"blocks":[')) throw fail('expected a network record or the end record');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(`${body}]}`) as Record<string, unknown>;
  } catch {
    throw fail('the network record is not valid JSON');
  }
  const { network, chainId, headNumber, meta, fork } = parsed;
  if (typeof network !== 'string') throw fail('network is not a string');
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) throw fail('chainId is not a positive integer');
  if (typeof headNumber !== 'string' || !/^0x[0-9a-f]{1,16}$/.test(headNumber)) throw fail('headNumber is not a hex quantity');
  if (!Array.isArray(meta)) throw fail('meta is not a list');
  return {
    network,
    chainId: BigInt(chainId),
    headNumber: BigInt(headNumber),
    headHash: bytesOf(parsed.headHash, 'headHash'),
    meta: meta.map((entry: unknown) => {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') throw fail('a meta record is not a [name, hex] pair');
      return [entry[0], bytesOf(entry[1], 'a meta value')] as [string, Uint8Array];
    }),
    ...(fork === undefined ? {} : { fork: forkPoint(fork, fail, bytesOf) }),
  };
}

function forkPoint(value: unknown, fail: (problem: string) => Error, bytesOf: (value: unknown, what: string) => Uint8Array): ForkPoint {
  const { chainId, block, hash } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) throw fail('fork.chainId is not a positive integer');
  if (typeof block !== 'string' || !/^0x[0-9a-f]{1,16}$/.test(block)) throw fail('fork.block is not a hex quantity');
  const bytes = bytesOf(hash, 'fork.hash');
  if (bytes.length !== 32) throw fail('fork.hash is not 32 bytes');
  return { chainId: BigInt(chainId), block: BigInt(block), hash: bytes };
}

function checkEnd(line: string, counts: { networks: number; blocks: number; stateNodes: number }, fail: (problem: string) => Error): void {
  let end: unknown;
  try {
    end = (JSON.parse(`{${line.slice(2)}`) as { end: unknown }).end;
  } catch {
    throw fail('the end record is not valid JSON');
  }
  const e = end as Record<string, unknown>;
  if (e?.networks !== counts.networks || e?.blocks !== counts.blocks || e?.stateNodes !== counts.stateNodes) {
    throw fail(`the end record counts ${JSON.stringify(end)} but the file holds ${JSON.stringify(counts)}`);
  }
}
