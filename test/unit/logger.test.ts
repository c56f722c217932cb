/** formatLine: pino's JSON records as the plain terminal lines the node prints. */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createLogger, formatLine, logLines } from '../../src/logger.js';

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

describe('createLogger, plain messages', () => {
  it('writes a plain message as formatLine writes the same record: time, level, message', () => {
    const written: string[] = [];
    const logger = createLogger('debug', { write: (line) => written.push(line) });
    const before = Date.now();
    logger.info('testnet block 7: 1 transaction, gas used 21000, hash 0xab');
    logger.debug('testnet rpc eth_chainId');
    const after = Date.now();
    const possible = (level: number, msg: string) => [before, after].map((time) => formatLine(JSON.stringify({ level, time, msg })));
    expect(possible(30, 'testnet block 7: 1 transaction, gas used 21000, hash 0xab')).toContain(written[0]);
    expect(possible(20, 'testnet rpc eth_chainId')).toContain(written[1]);
  });

  it('keeps printf-like characters and messages with fields as pino gives them', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line) => written.push(line) });
    logger.info('100% of %s done');
    logger.info('state written to %s', 'a.json');
    logger.info({ file: 'a.json' }, 'state written');
    expect(written.map((l) => l.slice(9))).toEqual(['INFO  100% of %s done\n', 'INFO  state written to a.json\n', 'INFO  state written file=a.json\n']);
  });

  it('writes the wall clock of each line, also after the second changes', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line) => written.push(line) });
    const first = new Date(2024, 0, 2, 9, 5, 7, 900).getTime();
    const realNow = Date.now;
    try {
      Date.now = () => first;
      logger.info('one');
      Date.now = () => first + 200;
      logger.info('two');
    } finally {
      Date.now = realNow;
    }
    expect(written).toEqual(['09:05:07 INFO  one\n', '09:05:08 INFO  two\n']);
  });
});

describe('logLines', () => {
  it("writes a createLogger logger's lines in one write, each as its own plain line", () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line) => written.push(line) });
    logLines(logger, 'info', ['testnet block 3: 1 transaction', 'testnet tx 0xab: success']);
    expect(written).toHaveLength(1);
    const [first, second] = written[0]!.split('\n');
    expect(first!.slice(9)).toBe('INFO  testnet block 3: 1 transaction');
    expect(second!.slice(9)).toBe('INFO  testnet tx 0xab: success');
    expect(written[0]!.endsWith('success\n')).toBe(true);
  });

  it('writes nothing below the level, and logs line by line through any other pino logger', () => {
    const written: string[] = [];
    logLines(createLogger('warn', { write: (line) => written.push(line) }), 'info', ['hidden']);
    expect(written).toEqual([]);
    const other = pino({ base: undefined }, { write: (json: string) => void written.push(JSON.parse(json).msg) });
    logLines(other, 'info', ['one', 'two']);
    expect(written).toEqual(['one', 'two']);
  });
});
