/**
 * State files in and out as streams: gzip on the way out, gzip or plain on the way in, split into
 * lines without ever holding the whole file (an anvil file, one JSON value, is the exception).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';
import { type AnvilAccount, anvilAccounts } from './anvil.js';
import { STATE_FILE_PREFIX, type NetworkSection, badStateFile, stateFileLines } from './format.js';

/** Where a state comes from: a file on disk, or bytes (anvil_loadState's argument). */
export type StateSource = { name: string; path: string } | { name: string; bytes: Uint8Array };

/** What a source holds: this node's format (its lines, read again on each call), or anvil's accounts. */
export type OpenedState = { kind: 'rsk'; lines: () => AsyncIterable<string> } | { kind: 'anvil'; accounts: AnvilAccount[] };

/**
 * Longest line read (a block record is one line: a block holds at most its gas limit's worth of
 * data, a few MB at RSK's limits); a longer one is a damaged file, refused before memory runs out.
 */
export const MAX_LINE_CHARS = 256 * 1024 * 1024;
/** Largest anvil file read: it is one JSON value, parsed whole (JSON.parse's own string limit is near 512 MiB). */
export const MAX_ANVIL_FILE_CHARS = 256 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b];
/**
 * Bytes read, inflated or deflated per step: each step is a round trip to libuv's thread pool, and
 * with 64 KiB steps (or a line per step) most of the time went to waiting for those on a busy machine.
 */
const READ_CHUNK_BYTES = 1024 * 1024;

/** Looks at a source: this node's format or an anvil file; anything else is refused naming the file. */
export async function openState(source: StateSource): Promise<OpenedState> {
  let start = '';
  for await (const chunk of decodedChunks(source)) {
    start += chunk;
    if (start.length >= STATE_FILE_PREFIX.length) break;
  }
  if (start.trim() === '') throw badStateFile(source.name, 'the file is empty');
  if (start.startsWith(STATE_FILE_PREFIX)) return { kind: 'rsk', lines: () => lines(source) };
  let text = '';
  for await (const chunk of decodedChunks(source)) {
    text += chunk;
    if (text.length > MAX_ANVIL_FILE_CHARS) throw badStateFile(source.name, `neither an rsk-devnode state file nor an anvil state file under ${MAX_ANVIL_FILE_CHARS} characters`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badStateFile(source.name, 'neither an rsk-devnode state file nor valid JSON (an anvil state file)');
  }
  return { kind: 'anvil', accounts: anvilAccounts(parsed, source.name) };
}

async function leadingBytes(source: StateSource): Promise<Uint8Array> {
  if ('bytes' in source) return source.bytes.subarray(0, GZIP_MAGIC.length);
  let handle;
  try {
    handle = await open(source.path, 'r');
  } catch (err) {
    throw badStateFile(source.name, `cannot be read (${(err as Error).message})`);
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(GZIP_MAGIC.length), 0, GZIP_MAGIC.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The source's text in chunks, gunzipped when it starts with gzip's magic bytes; faults name the file. */
async function* decodedChunks(source: StateSource): AsyncGenerator<string> {
  const head = await leadingBytes(source);
  const raw = 'bytes' in source ? Readable.from([source.bytes]) : createReadStream(source.path, { highWaterMark: READ_CHUNK_BYTES });
  const gzipped = head.length === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const stream = gzipped ? raw.pipe(createGunzip({ chunkSize: READ_CHUNK_BYTES })) : raw;
  if (gzipped) raw.on('error', (err: Error) => stream.destroy(err));
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield decoder.write(chunk);
  } catch (err) {
    throw badStateFile(source.name, gzipped ? `the gzip data is damaged or cut short (${(err as Error).message})` : `cannot be read (${(err as Error).message})`);
  } finally {
    // A reader that stops early (the format sniff) leaves nothing open.
    raw.destroy();
    stream.destroy();
  }
  yield decoder.end();
}

/** The source's lines (without newlines). */
async function* lines(source: StateSource): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of decodedChunks(source)) {
    rest += chunk;
    let start = 0;
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n', start)) {
      yield rest.slice(start, end);
      start = end + 1;
    }
    rest = rest.slice(start);
    if (rest.length > MAX_LINE_CHARS) throw badStateFile(source.name, `a line longer than ${MAX_LINE_CHARS} characters`);
  }
  if (rest !== '') yield rest;
}

/** The file's text in pieces of about READ_CHUNK_BYTES: gzip makes a thread-pool round trip per piece, not per line. */
async function* textPieces(sections: NetworkSection[]): AsyncGenerator<string> {
  let piece: string[] = [];
  let length = 0;
  for await (const line of stateFileLines(sections)) {
    piece.push(line, '\n');
    length += line.length + 1;
    if (length < READ_CHUNK_BYTES) continue;
    yield piece.join('');
    piece = [];
    length = 0;
  }
  yield piece.join('');
}

/**
 * Writes the sections to `path` as gzip, streaming: first to a temporary file beside it, renamed
 * over `path` once complete, so a reader (or a crash mid-write) never sees half a file.
 */
export async function writeStateFile(path: string, sections: NetworkSection[]): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await pipeline(Readable.from(textPieces(sections)), createGzip(), createWriteStream(temporary));
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** The sections as gzip bytes in memory (anvil_dumpState's answer). */
export async function stateBytes(sections: NetworkSection[]): Promise<Uint8Array> {
  const pieces: string[] = [];
  for await (const piece of textPieces(sections)) pieces.push(piece);
  return gzipSync(pieces.join(''));
}
