/**
 * JSON-RPC ids exactly as the client wrote them. `JSON.parse` turns an id such as
 * 18446744073709551617 (2^64+1) into the nearest double, which `JSON.stringify` writes back as
 * 18446744073709552000: a client matching answers by id would lose the call. When (and only when)
 * a parsed id is a number that is not a safe integer, these helpers read the id's raw token from
 * the body and put it back into the answer's text, so the lean path pays nothing for ordinary ids.
 *
 * Written by hand: no maintained JSON library both parses at `JSON.parse` speed and keeps number
 * tokens; this is a small iterative scanner over a body `JSON.parse` has already accepted.
 */
import type { JsonRpcId } from './types.js';

/** Whether `id` may have been changed by `JSON.parse` (a number that is not a safe integer). */
export function idNeedsRawText(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/**
 * The raw text of the top-level "id" member of each request in `body` (valid JSON): one entry for
 * a single object, one per element for a batch (undefined where an element is not an object or has
 * no id). As with `JSON.parse`, the last of duplicate members wins.
 */
export function rawIds(body: string): (string | undefined)[] {
  let p = skipWs(body, 0);
  if (body[p] === '{') return [objectId(body, p).id];
  if (body[p] !== '[') return [];
  const ids: (string | undefined)[] = [];
  p = skipWs(body, p + 1);
  if (body[p] === ']') return ids;
  for (;;) {
    if (body[p] === '{') {
      const scanned = objectId(body, p);
      ids.push(scanned.id);
      p = scanned.end;
    } else {
      ids.push(undefined);
      p = skipValue(body, p);
    }
    p = skipWs(body, p);
    if (body[p] !== ',') return ids;
    p = skipWs(body, p + 1);
  }
}

/**
 * `text` (a serialized response whose id is `id`) with the id written as the client sent it in
 * element `index` of `body` (0 for a single request). Unchanged when the id needs no raw text.
 */
export function echoRawId(text: string, id: JsonRpcId, body: string | undefined, index = 0, ids?: (string | undefined)[]): string {
  if (!idNeedsRawText(id) || body === undefined) return text;
  const raw = (ids ?? rawIds(body))[index];
  if (raw === undefined) return text;
  const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)}`;
  // Every response the dispatcher and the gate build starts with jsonrpc, then id.
  if (!text.startsWith(prefix)) return text;
  return `{"jsonrpc":"2.0","id":${raw}${text.slice(prefix.length)}`;
}

function isWs(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function skipWs(s: string, p: number): number {
  while (isWs(s[p])) p++;
  return p;
}

/** End (exclusive) of the string starting at the quote `s[p]`. */
function skipString(s: string, p: number): number {
  p++;
  for (;;) {
    const q = s.indexOf('"', p);
    if (q < 0) return s.length;
    let backslashes = 0;
    for (let i = q - 1; s[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    p = q + 1;
  }
}

/** End (exclusive) of the JSON value starting at `s[p]`; nested values without recursion. */
function skipValue(s: string, p: number): number {
  const c = s[p];
  if (c === '"') return skipString(s, p);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (;;) {
      const ch = s[p];
      if (ch === undefined) return p;
      if (ch === '"') {
        p = skipString(s, p);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return p + 1;
      }
      p++;
    }
  }
  while (p < s.length && s[p] !== ',' && s[p] !== '}' && s[p] !== ']' && !isWs(s[p])) p++;
  return p;
}

/** The raw "id" member of the object starting at `s[p]`, and where the object ends. */
function objectId(s: string, p: number): { id: string | undefined; end: number } {
  let id: string | undefined;
  p = skipWs(s, p + 1);
  if (s[p] === '}') return { id, end: p + 1 };
  for (;;) {
    const keyEnd = skipString(s, p);
    const rawKey = s.slice(p + 1, keyEnd - 1);
    const key = rawKey.includes('\\') ? (JSON.parse(s.slice(p, keyEnd)) as string) : rawKey;
    p = skipWs(s, skipWs(s, keyEnd) + 1); // past the ':'
    const end = skipValue(s, p);
    if (key === 'id') id = s.slice(p, end);
    p = skipWs(s, end);
    if (s[p] !== ',') return { id, end: p + 1 };
    p = skipWs(s, p + 1);
  }
}
