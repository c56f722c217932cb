/**
 * A method result already serialised to JSON (mined blocks, transactions, receipts and logs never
 * change, so their JSON is encoded once and kept: json-cache.ts). The dispatcher splices it into
 * the response instead of stringifying a value; anything else that meets one (the in-process
 * provider, a plain JSON.stringify) gets the parsed value, so a RawJson is never wrong, only
 * sometimes not faster.
 *
 * A big answer (eth_getLogs over thousands of logs) is held as UTF-8 pieces instead of one text:
 * the HTTP responder copies them once into the response's bytes (rawSuccessBytes), where a joined
 * string of a megabyte was flattened, measured (Buffer.byteLength) and encoded again per answer.
 */
export class RawJson {
  private readonly text: string | undefined;
  /** The JSON as UTF-8 pieces whose concatenation is the text; undefined for a text RawJson. */
  readonly pieces: readonly Buffer[] | undefined;

  constructor(json: string | readonly Buffer[]) {
    if (typeof json === 'string') this.text = json;
    else this.pieces = json;
  }

  /** The JSON text (decoded from the pieces on each call: the HTTP path never asks). */
  get json(): string {
    return this.text ?? Buffer.concat(this.pieces!).toString('utf8');
  }

  /** For JSON.stringify of a value that holds a RawJson: the same JSON, reparsed. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The JSON value of a method result: a RawJson parsed, anything else as it is. */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? (JSON.parse(result.json) as unknown) : result;
}

const OPEN_BRACKET = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE_BRACKET = Buffer.from(']');
const CLOSE_BRACE = Buffer.from('}');

/** A JSON array of JSON items given as UTF-8 bytes, kept as pieces (nothing is copied here). */
export function rawJsonArray(items: readonly Buffer[]): RawJson {
  const pieces = new Array<Buffer>(items.length === 0 ? 2 : 2 * items.length + 1);
  pieces[0] = OPEN_BRACKET;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) pieces[2 * i] = COMMA;
    pieces[2 * i + 1] = items[i]!;
  }
  pieces[pieces.length - 1] = CLOSE_BRACKET;
  return new RawJson(pieces);
}

/**
 * The response text `{"jsonrpc":"2.0","id":…,"result":…}`, key for key what JSON.stringify of the
 * success object gives, with the result's text spliced in.
 */
export function rawSuccessText(id: string | number | null, result: RawJson): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.json}}`;
}

/**
 * The bytes of an answer are written in chunks of at most this size. A buffer of a megabyte per
 * answer is a malloc glibc serves by mmap and, once a free has raised its threshold, from its heap:
 * in one run of the bench's sequence its getLogs row (20 answers of 1.2 MB) added 18 MiB of RSS with
 * one buffer per answer, 7 with 64 KiB chunks, which stay below glibc's default mmap threshold
 * (128 KiB) and are reused.
 */
export const ANSWER_CHUNK_BYTES = 64 * 1024;

/**
 * `rawSuccessText` as bytes, for a RawJson held as pieces: the pieces copied once into chunks of
 * at most ANSWER_CHUNK_BYTES (a piece larger than that is its own chunk, as it is), no text.
 */
export function rawSuccessBytes(id: string | number | null, pieces: readonly Buffer[]): Buffer[] {
  const chunks: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
  let at = 0;
  const add = (piece: Buffer) => {
    if (at + piece.length > ANSWER_CHUNK_BYTES) {
      if (at > 0) chunks.push(chunk.subarray(0, at));
      if (piece.length >= ANSWER_CHUNK_BYTES) {
        chunks.push(piece);
        chunk = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
        at = 0;
        return;
      }
      chunk = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
      at = 0;
    }
    // TypedArray#set: V8 copies a small piece inline, where Buffer#copy is a call into C++ each.
    chunk.set(piece, at);
    at += piece.length;
  };
  add(Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`));
  for (const piece of pieces) add(piece);
  add(CLOSE_BRACE);
  chunks.push(chunk.subarray(0, at));
  return chunks;
}
