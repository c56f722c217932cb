/**
 * The node's logger: plain lines for a terminal ("12:00:01 INFO  testnet block 1: ...") instead of
 * JSON, as anvil and `hardhat node` do. Written here rather than through pino: the node calls five
 * methods of it and wants lines, not JSON records to parse back, and loading pino cost about 10 ms
 * of every cold start (docs/pending/start-rss.md). The call shapes are pino's (`info(msg)`,
 * `error({ err, ...fields }, msg)`), so a pino logger would still fit the Logger type.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Fields shown after the message as key=value; `err` is shown as its stack on the lines below. */
export type LogFields = Record<string, unknown> & { err?: unknown };

type LogMethod = { (msg: string): void; (fields: LogFields, msg?: string): void };

export interface Logger {
  fatal: LogMethod;
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace: LogMethod;
  isLevelEnabled(level: LogLevel): boolean;
}

/** Where the formatted lines go: the terminal by default, a buffer in tests. */
export interface LogDestination {
  write(line: string): unknown;
}

/** pino's level numbers (trace 10 ... fatal 60), so the same level names filter the same way. */
const LEVEL_VALUES: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const LOGGED: readonly Exclude<LogLevel, 'silent'>[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

export function createLogger(level: LogLevel, destination: LogDestination = process.stdout): Logger {
  const threshold = LEVEL_VALUES[level];
  const isLevelEnabled = (l: LogLevel) => LEVEL_VALUES[l] >= threshold;
  const method = (l: Exclude<LogLevel, 'silent'>): LogMethod =>
    ((first: string | LogFields, msg?: string) => {
      if (!isLevelEnabled(l)) return;
      const [fields, text] = typeof first === 'string' ? [{}, first] : [first, msg];
      destination.write(formatLine(l, Date.now(), text, fields));
    }) as LogMethod;
  return { ...(Object.fromEntries(LOGGED.map((l) => [l, method(l)])) as Record<Exclude<LogLevel, 'silent'>, LogMethod>), isLevelEnabled };
}

/** One record as `HH:MM:SS LEVEL message key=value...`, an error's stack below it. */
export function formatLine(level: Exclude<LogLevel, 'silent'>, time: number, msg: string | undefined, { err, ...fields }: LogFields = {}): string {
  const clock = new Date(time).toTimeString().slice(0, 8);
  const extra = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : shown(value)}`);
  return `${clock} ${level.toUpperCase().padEnd(5)} ${msg ?? ''}${extra.join('')}${err === undefined ? '' : `\n${errorText(err)}`}\n`;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? err.message;
  const record = err as { stack?: unknown; message?: unknown } | null;
  if (typeof record?.stack === 'string') return record.stack;
  if (typeof record?.message === 'string') return record.message;
  return shown(err);
}

/** JSON where it can be (a bigint or a cycle cannot): a log line never throws. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
