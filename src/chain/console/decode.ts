/**
 * console.log call data → the line Hardhat prints (hardhat@2.29 ConsoleLogger): each argument as a
 * string (numbers in decimal, addresses and bytes as lower-case hex, bools as true/false), `%d` and
 * `%i` in the first argument turned into `%s` (a uint256 does not fit a JavaScript number), then
 * node's util.format. anvil's `table(…)` overloads print a table as foundry draws it.
 *
 * Decoding is strict where Hardhat slices silently: a read outside the call data, or a selector
 * outside the table (signatures.ts), gives the raw line instead. Nothing here can fail a call.
 */
import { format } from 'node:util';
import { CONSOLE_SIGNATURES } from './signatures.js';

/** Where console.sol sends its calls: "console.log" in ASCII. */
export const CONSOLE_ADDRESS_HEX = '0x000000000000000000636f6e736f6c652e6c6f67';

const WORD = 32;
const SELECTOR_BYTES = 4;

/** Selector → argument types, parsed from the generated signatures once, at first use. */
let argumentTypes: Map<number, readonly string[]> | undefined;

function typesOf(selector: number): readonly string[] | undefined {
  argumentTypes ??= new Map(
    CONSOLE_SIGNATURES.map(([sel, signature]) => {
      const inner = signature.slice(signature.indexOf('(') + 1, -1);
      return [sel, inner === '' ? [] : inner.split(',').map((t) => t.replace(/\b(u?int)$/, '$1256').replace(/\b(u?int)\[\]$/, '$1256[]'))];
    }),
  );
  return argumentTypes.get(selector);
}

class OutOfData extends Error {}

function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

function slice(data: Uint8Array, start: number, length: number): Uint8Array {
  if (start < 0 || length < 0 || start + length > data.length) throw new OutOfData();
  return data.subarray(start, start + length);
}

function word(data: Uint8Array, offset: number): bigint {
  const bytes = slice(data, offset, WORD);
  return bytes.every((b) => b === 0) ? 0n : BigInt(hex(bytes));
}

/** An offset or length word, which must fit the data it points into. */
function size(data: Uint8Array, offset: number): number {
  const value = word(data, offset);
  if (value > BigInt(data.length)) throw new OutOfData();
  return Number(value);
}

/** One static value (a head word) or dynamic value (at `base` + its offset) as Hardhat prints it. */
function valueAt(type: string, data: Uint8Array, base: number, position: number): string {
  switch (type) {
    case 'uint256':
      return word(data, position).toString(10);
    case 'int256':
      return BigInt.asIntN(256, word(data, position)).toString(10);
    case 'bool':
      return word(data, position) === 0n ? 'false' : 'true';
    case 'address':
      return hex(slice(data, position + 12, 20));
    case 'string':
    case 'bytes': {
      const start = base + size(data, position);
      const bytes = slice(data, start + WORD, size(data, start));
      return type === 'string' ? new TextDecoder().decode(bytes) : hex(bytes);
    }
    default: {
      const fixed = /^bytes(\d+)$/.exec(type);
      if (fixed === null) throw new OutOfData();
      return hex(slice(data, position, Number(fixed[1])));
    }
  }
}

/** A dynamic array's elements (anvil's table overloads: string[], and arrays of one-word types). */
function arrayAt(type: string, data: Uint8Array, position: number): string[] {
  const start = size(data, position);
  const length = size(data, start);
  const elements = data.subarray(start + WORD);
  return Array.from({ length }, (_, i) => valueAt(type, elements, 0, i * WORD));
}

/** foundry's console_table_format: an "(index)" and a "Values" column, keys or indexes on the left. */
function table(keys: string[] | undefined, values: string[]): string {
  const rows = Array.from({ length: Math.max(keys?.length ?? values.length, values.length) }, (_, i) => [
    keys === undefined ? String(i) : (keys[i] ?? ''),
    values[i] ?? '',
  ]);
  const widths = [0, 1].map((c) => Math.max(c === 0 ? 7 : 6, ...rows.map((r) => [...r[c]!].length)));
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`;
  const row = (cells: string[]) => `│ ${cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' │ ')} │`;
  return [line('┌', '┬', '┐'), row(['(index)', 'Values']), line('├', '┼', '┤'), ...rows.map(row), line('└', '┴', '┘')].join('\n');
}

/** The raw form of a call the table does not know, or whose arguments do not decode. */
function rawLine(data: Uint8Array): string {
  if (data.length < SELECTOR_BYTES) return `console.log call with ${data.length}-byte data ${hex(data)}`;
  return `console.log call with unknown selector ${hex(data.subarray(0, SELECTOR_BYTES))}, arguments ${hex(data.subarray(SELECTOR_BYTES))}`;
}

/** The line a call to the console address with this call data prints. */
export function consoleLine(data: Uint8Array): string {
  const selector = data.length < SELECTOR_BYTES ? undefined : new DataView(data.buffer, data.byteOffset, SELECTOR_BYTES).getUint32(0);
  const types = selector === undefined ? undefined : typesOf(selector);
  if (types === undefined) return rawLine(data);
  const args = data.subarray(SELECTOR_BYTES);
  try {
    if (types[0]?.endsWith('[]')) {
      const values = arrayAt(types.at(-1)!.slice(0, -2), args, (types.length - 1) * WORD);
      return table(types.length === 2 ? arrayAt('string', args, 0) : undefined, values);
    }
    const values = types.map((type, i) => valueAt(type, args, 0, i * WORD));
    if (values.length > 0) values[0] = values[0]!.replace(/((?<!%)(?:%%)*)(%[di])/g, '$1%s');
    return format(...values);
  } catch (err) {
    if (err instanceof OutOfData) return rawLine(data);
    throw err;
  }
}
