/**
 * A method result already serialised to JSON text (mined blocks, transactions, receipts and logs
 * never change, so their JSON is encoded once and kept: json-cache.ts). The dispatcher splices the
 * text into the response instead of stringifying a value; anything else that meets one (the
 * in-process provider, a plain JSON.stringify) gets the parsed value, so a RawJson is never wrong,
 * only sometimes not faster.
 */
export class RawJson {
  constructor(readonly json: string) {}

  /** For JSON.stringify of a value that holds a RawJson: the same JSON, reparsed. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The JSON value of a method result: a RawJson parsed, anything else as it is. */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? (JSON.parse(result.json) as unknown) : result;
}

/** A JSON array of JSON texts. */
export function rawJsonArray(items: string[]): RawJson {
  return new RawJson(`[${items.join(',')}]`);
}

/**
 * The response text `{"jsonrpc":"2.0","id":…,"result":…}`, key for key what JSON.stringify of the
 * success object gives, with the result's text spliced in.
 */
export function rawSuccessText(id: string | number | null, result: RawJson): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.json}}`;
}
