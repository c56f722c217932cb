/** console.log call data → lines (src/chain/console/): the selector table, Hardhat's formatting, the observer's cap. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { encodeFunctionData, parseAbiItem, toFunctionSelector, type Hex } from 'viem';
import { EventEmitter } from 'node:events';
import { Address } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';
import { consoleLine } from '../../src/chain/console/decode.js';
import { MAX_CONSOLE_CALLS, consoleLines, observeConsoleCalls, takeConsoleCalls } from '../../src/chain/console/observer.js';
import { CONSOLE_SIGNATURES } from '../../src/chain/console/signatures.js';

const hexToBytes = (hex: Hex) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
/** The call data console.sol sends for `signature` with `args`. */
function callData(signature: string, args: unknown[]): Uint8Array {
  const item = parseAbiItem(`function ${signature}`) as any;
  return hexToBytes(encodeFunctionData({ abi: [item], functionName: item.name, args } as any));
}
/** `signature` as a function with named parameters, which parseAbiItem takes for any spelling. */
const line = (signature: string, ...args: unknown[]) => consoleLine(callData(signature, args));

describe('the selector table', () => {
  const bySelector = new Map(CONSOLE_SIGNATURES.map(([s, sig]) => [s, sig]));
  const has = (signature: string) => bySelector.get(Number(toFunctionSelector(signature))) === signature;

  it("holds every signature of node_modules/hardhat/console.sol (375), each under its keccak selector", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve('hardhat/console.sol'), 'utf8');
    const hardhat = new Set([...source.matchAll(/abi\.encodeWithSignature\("([^"]+)"/g)].map((m) => m[1]!));
    expect(hardhat.size).toBe(375);
    for (const signature of hardhat) expect(has(signature), signature).toBe(true);
    for (const [selector, signature] of CONSOLE_SIGNATURES) expect(Number(toFunctionSelector(signature)), signature).toBe(selector);
  });

  it("holds anvil's extra overloads and the legacy uint/int aliases", () => {
    for (const s of ['log(string,int256)', 'table(uint256[])', 'table(string[],address[])']) expect(has(s), s).toBe(true);
    expect(bySelector.get(0x9710a9d0)).toBe('log(string,uint)');
    expect(bySelector.get(0xf5b1bba9)).toBe('log(uint)');
    expect(bySelector.get(0x4e0c1d1d)).toBe('log(int)');
  });
});

describe('consoleLine', () => {
  const who = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';

  it('prints each type as Hardhat does', () => {
    expect(line('log()')).toBe('');
    expect(line('log(string)', 'hello')).toBe('hello');
    expect(line('log(uint256)', 2n ** 256n - 1n)).toBe((2n ** 256n - 1n).toString());
    expect(line('log(int256)', -(2n ** 255n))).toBe((-(2n ** 255n)).toString());
    expect(line('log(bool)', true)).toBe('true');
    expect(line('log(bool)', false)).toBe('false');
    expect(line('log(address)', who)).toBe(who);
    expect(line('log(bytes)', '0xdeadbeef')).toBe('0xdeadbeef');
    expect(line('log(bytes)', '0x')).toBe('0x');
    expect(line('log(bytes1)', '0xab')).toBe('0xab');
    expect(line('log(bytes32)', `0x${'11'.repeat(32)}`)).toBe(`0x${'11'.repeat(32)}`);
    expect(line('log(string,uint256,bool,address)', 'mixed', 5n, true, who)).toBe(`mixed 5 true ${who}`);
    expect(line('log(string)', 'héllo ✓')).toBe('héllo ✓');
  });

  it('formats the first argument like util.format, %d and %i as %s so big numbers stay exact', () => {
    expect(line('log(string,address,uint256)', '%s has %d tokens', who, 10n ** 30n)).toBe(`${who} has ${10n ** 30n} tokens`);
    expect(line('log(string,int256)', 'signed %i', -7n)).toBe('signed -7');
    expect(line('log(string,uint256)', '100%% of %d', 3n)).toBe('100% of 3');
    expect(line('log(string,string)', 'no placeholder', 'extra')).toBe('no placeholder extra');
    expect(line('log(uint256,string)', 5n, 'apples')).toBe('5 apples');
  });

  it('decodes the legacy log(string,uint) selector 0x9710a9d0 (anvil reverts on it)', () => {
    // viem spells `uint` as uint256 in selectors: the legacy selector is set by hand.
    const data = callData('log(string,uint256)', ['legacy', 7n]);
    data.set([0x97, 0x10, 0xa9, 0xd0]);
    expect(consoleLine(data)).toBe('legacy 7');
  });

  it('prints an unknown selector, short data or arguments that do not decode raw', () => {
    expect(consoleLine(Uint8Array.of(0x12, 0x34, 0x56, 0x78, 0xff))).toBe('console.log call with unknown selector 0x12345678, arguments 0xff');
    expect(consoleLine(Uint8Array.of(0x41, 0x30))).toBe('console.log call with 2-byte data 0x4130');
    // log(string) whose offset points past the data
    const bad = callData('log(string)', ['x']);
    bad[4 + 31] = 0xff;
    expect(consoleLine(bad)).toMatch(/^console\.log call with unknown selector 0x41304fac, arguments 0x/);
    // log(string) with a huge length word
    const huge = callData('log(string)', ['x']);
    huge.fill(0xff, 4 + 32, 4 + 64);
    expect(consoleLine(huge)).toMatch(/^console\.log call with unknown selector 0x41304fac/);
  });

  it("draws anvil's tables as foundry does", () => {
    expect(line('table(uint256[])', [100n, 200n, 300n])).toBe(
      ['┌─────────┬────────┐', '│ (index) │ Values │', '├─────────┼────────┤', '│ 0       │ 100    │', '│ 1       │ 200    │', '│ 2       │ 300    │', '└─────────┴────────┘'].join('\n'),
    );
    expect(line('table(string[],uint256[])', ['alice', 'bob', 'charlie'], [1n, 2n])).toBe(
      ['┌─────────┬────────┐', '│ (index) │ Values │', '├─────────┼────────┤', '│ alice   │ 1      │', '│ bob     │ 2      │', '│ charlie │        │', '└─────────┴────────┘'].join('\n'),
    );
    expect(line('table(string[],string[])', ['k'], ['a longer value'])).toContain('│ k       │ a longer value │');
  });
});

describe('the observer', () => {
  const CONSOLE = new Address(Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f67', 'hex')));
  /** An object with the EVM's `events`, which is all the observer uses. */
  function fakeEvm() {
    const events = new EventEmitter();
    const evm = { events } as unknown as EVM;
    observeConsoleCalls(evm);
    return { evm, send: (message: object) => events.emit('beforeMessage', message) };
  }

  it('keeps console calls (by code address) in order, copies their data, and ignores other messages', () => {
    const { evm, send } = fakeEvm();
    const data = callData('log(string)', ['one']);
    send({ to: CONSOLE, data });
    send({ to: new Address(new Uint8Array(20).fill(7)), data: callData('log(string)', ['not console']) });
    send({ to: undefined, data: new Uint8Array(0) }); // a creation
    send({ to: new Address(new Uint8Array(20).fill(7)), _codeAddress: CONSOLE, data: callData('log(string)', ['two']) });
    data.fill(0); // the frame's memory changes afterwards
    expect(consoleLines(takeConsoleCalls(evm))).toEqual(['one', 'two']);
    expect(takeConsoleCalls(evm).calls).toEqual([]);
  });

  it(`keeps at most MAX_CONSOLE_CALLS (${MAX_CONSOLE_CALLS}) calls per execution and says how many more there were`, () => {
    const { evm, send } = fakeEvm();
    const data = callData('log(uint256)', [1n]);
    for (let i = 0; i < MAX_CONSOLE_CALLS + 3; i++) send({ to: CONSOLE, data });
    const lines = consoleLines(takeConsoleCalls(evm));
    expect(lines).toHaveLength(MAX_CONSOLE_CALLS + 1);
    expect(lines.at(-1)).toBe(`(3 more console.log calls not kept: one execution keeps ${MAX_CONSOLE_CALLS})`);
    expect(takeConsoleCalls(evm).dropped).toBe(0);
  });
});
