/** The node's logger: plain terminal lines, filtered by level, that never throw. */
import { describe, expect, it } from 'vitest';
import { createLogger, formatLine } from '../../src/logger.js';

const at = (h: number, m: number, s: number) => new Date(2024, 0, 2, h, m, s).getTime();

describe('formatLine', () => {
  it('writes time, level and message', () => {
    expect(formatLine('info', at(9, 5, 7), 'testnet block 1: 0 transactions')).toBe('09:05:07 INFO  testnet block 1: 0 transactions\n');
  });

  it('appends other fields as key=value and an error stack on the lines below', () => {
    const err = new Error('boom');
    err.stack = 'Error: boom\n    at x';
    expect(formatLine('error', at(23, 59, 0), 'interval mining failed', { network: 'mainnet', err })).toBe(
      '23:59:00 ERROR interval mining failed network=mainnet\nError: boom\n    at x\n',
    );
  });

  it('shows what is not an Error, a bigint and a cycle without throwing', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(formatLine('warn', at(1, 2, 3), 'odd', { n: 5n, block: { number: 1 } })).toBe('01:02:03 WARN  odd n=5 block={"number":1}\n');
    expect(formatLine('error', at(1, 2, 3), 'thrown', { err: 'a string' })).toBe('01:02:03 ERROR thrown\n"a string"\n');
    expect(formatLine('error', at(1, 2, 3), 'thrown', { err: cycle })).toBe('01:02:03 ERROR thrown\n[object Object]\n');
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
    expect(logger.isLevelEnabled('info')).toBe(true);
    expect(logger.isLevelEnabled('debug')).toBe(false);
  });

  it('writes nothing at level silent', () => {
    const written: string[] = [];
    const logger = createLogger('silent', { write: (line) => written.push(line) });
    logger.fatal('no');
    logger.error({ err: new Error('no') }, 'no');
    expect(written).toEqual([]);
    expect(logger.isLevelEnabled('fatal')).toBe(false);
  });
});
