/**
 * The node's logger: pino, writing plain lines for a terminal ("12:00:01 INFO  testnet block 1: ...")
 * instead of JSON, as anvil and `hardhat node` do. Written here by hand because pino-pretty is not a
 * dependency and a line needs no more than this.
 */
import { pino } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type Logger = pino.Logger;

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Where the formatted lines go: the terminal by default, a buffer in tests. */
export interface LogDestination {
  write(line: string): unknown;
}

export function createLogger(level: LogLevel, destination: LogDestination = process.stdout): Logger {
  return pino({ level, base: undefined }, { write: (json: string) => void destination.write(formatLine(json)) });
}

interface PinoRecord {
  level: number;
  time: number;
  msg?: string;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

/** One pino JSON record as `HH:MM:SS LEVEL message key=value...`, an error's stack below it. */
export function formatLine(json: string): string {
  const { level, time, msg, err, ...fields } = JSON.parse(json) as PinoRecord;
  const label = (pino.levels.labels[level] ?? String(level)).toUpperCase().padEnd(5);
  const clock = new Date(time).toTimeString().slice(0, 8);
  const extra = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const stack = err === undefined ? '' : `\n${err.stack ?? err.message ?? JSON.stringify(err)}`;
  return `${clock} ${label} ${msg ?? ''}${extra.join('')}${stack}\n`;
}
