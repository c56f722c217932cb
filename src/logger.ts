import { pino } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type Logger = pino.Logger;

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: undefined });
}
