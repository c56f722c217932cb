/** formatLine: pino's JSON records as the plain terminal lines the node prints. */
import { describe, expect, it } from 'vitest';
import { createLogger, formatLine } from '../../src/logger.js';

const at = (h: number, m: number, s: number) => new Date(2024, 0, 2, h, m, s).getTime();

describe('formatLine', () => {
  it('writes time, level and message', () => {
    expect(formatLine(JSON.stringify({ level: 30, time: at(9, 5, 7), msg: 'testnet block 1: 0 transactions' }))).toBe(
      '09:05:07 INFO  testnet block 1: 0 transactions\n',
    );
  });

  it('appends other fields as key=value and an error stack on the lines below', () => {
    const line = formatLine(JSON.stringify({ level: 50, time: at(23, 59, 0), msg: 'interval mining failed', network: 'mainnet', err: { message: 'boom', stack: 'Error: boom\n    at x' } }));
    expect(line).toBe('23:59:00 ERROR interval mining failed network=mainnet\nError: boom\n    at x\n');
  });
});

describe('createLogger', () => {
  it('sends formatted lines at or above its level to the destination', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line) => written.push(line) });
    logger.debug('hidden');
    logger.info('shown');
    logger.warn({ network: 'testnet' }, 'careful');
    expect(written.map((l) => l.slice(9))).toEqual(['INFO  shown\n', 'WARN  careful network=testnet\n']);
  });
});
