/**
 * The node's logger: pino, writing plain lines for a terminal ("12:00:01 INFO  testnet block 1: ...")
 * instead of JSON, as anvil and `hardhat node` do. Written here by hand because pino-pretty is not a
 * dependency and a line needs no more than this.
 *
 * A plain message (a string alone: the mined block's and each transaction's line, two or more per
 * automined send) is formatted straight from its arguments: pino would serialize it to JSON only for
 * formatLine to parse it back, about 4% of a sequential send's main-thread time (issue 25).
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
  const writeLines = (levelValue: number, lines: readonly string[]) => {
    const prefix = `${clockOf(Date.now())} ${labelOf(levelValue)} `;
    let text = '';
    for (const line of lines) text += `${prefix}${line}\n`;
    destination.write(text);
  };
  const logger = pino(
    {
      level,
      base: undefined,
      hooks: {
        logMethod(args, method, levelValue) {
          if (args.length === 1 && typeof args[0] === 'string') writeLines(levelValue, args as [string]);
          else method.apply(this, args);
        },
      },
    },
    { write: (json: string) => void destination.write(formatLine(json)) },
  );
  lineWriters.set(logger, writeLines);
  return logger;
}

/** Each createLogger logger's writer of plain lines, for logLines. */
const lineWriters = new WeakMap<Logger, (levelValue: number, lines: readonly string[]) => void>();

/**
 * Logs each of `lines` as a plain message at `level`. A logger from createLogger writes them in one
 * write to its destination: one system call for a mined block's line and its transactions' lines.
 */
export function logLines(logger: Logger, level: Exclude<LogLevel, 'silent'>, lines: readonly string[]): void {
  const writeLines = lineWriters.get(logger);
  if (writeLines === undefined) {
    for (const line of lines) logger[level](line);
  } else if (logger.isLevelEnabled(level) && lines.length > 0) {
    writeLines(logger.levels.values[level]!, lines);
  }
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
  const extra = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const stack = err === undefined ? '' : `\n${err.stack ?? err.message ?? JSON.stringify(err)}`;
  return `${clockOf(time)} ${labelOf(level)} ${msg ?? ''}${extra.join('')}${stack}\n`;
}

/** "INFO ", "ERROR": the level's name, padded to the longest. */
function labelOf(level: number): string {
  return (pino.levels.labels[level] ?? String(level)).toUpperCase().padEnd(5);
}

/** The last second formatted: a busy node logs many lines a second, and Date's formatting is slow. */
let clockSecond = NaN;
let clockText = '';

/** `time` (ms since the epoch) as the local wall clock, HH:MM:SS. */
function clockOf(time: number): string {
  const second = Math.floor(time / 1000);
  if (second !== clockSecond) {
    clockText = new Date(time).toTimeString().slice(0, 8);
    clockSecond = second;
  }
  return clockText;
}
