/**
 * src/chain/evm/lean-evm.ts and lean-run.ts: the cheaper frame setup and opcode loop give the same
 * results as @ethereumjs/evm's own, and they stay copies of the code they were written from.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EVM, type EVMResult, NobleBN254 } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bigIntToBytes, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { ANALYSED_CODE_BYTES, LeanEVM } from '../../src/chain/evm/lean-evm.js';
import { writeWord } from '../../src/chain/evm/words.js';
import { READS_GAS } from '../../src/chain/evm/lean-run.js';
import { RSK_CUSTOM_OPCODES } from '../../src/chain/evm/opcodes.js';
import { Execution } from '../../src/chain/exec/execution.js';
import { contracts } from '../fixtures/contracts.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000cc');
const A = createAddressFromString('0x00000000000000000000000000000000000000aa');
const B = createAddressFromString('0x00000000000000000000000000000000000000bb');
const token = new Interface(contracts.Token.abi);

/**
 * The stock methods lean-evm.ts, lean-run.ts and trace-step.ts copy, as @ethereumjs/evm 10.1.3 has them. A change
 * here means an @ethereumjs/evm update changed them: compare the new code with the copies, bring
 * the copies up to date, then record the new digests.
 */
const STOCK = [
  { file: 'interpreter.js', start: '    async run(code, opts = {}) {', sha256: 'd1660ae6f6898849' },
  { file: 'interpreter.js', start: '    async runStep(opcodeObj) {', sha256: 'e5a1d4b38ef4a0ad' },
  { file: 'interpreter.js', start: '    _getValidJumpDestinations(code) {', sha256: '1d66d320b56fe3b6' },
  { file: 'interpreter.js', start: '    finish(returnData) {', sha256: 'cbcab748ccff5e8a' },
  // evm/trace-step.ts gives the same step payload, read on demand.
  { file: 'interpreter.js', start: '    async _runStepHook(dynamicFee, gasLeft, memorySize) {', sha256: '0e07c4f337db6951' },
  { file: 'evm.js', start: '    async runInterpreter(message, opts = {}) {', sha256: 'b7a1e567bc06af07' },
  { file: 'evm.js', start: '    async _executeCall(message) {', sha256: 'b291a821f6176252' },
  { file: 'evm.js', start: '    postMessageCleanup() {', sha256: '00ce72a33075a58b' },
];

/**
 * The one version of every @ethereumjs package: evm/ copies or hooks internals of evm, vm,
 * statemanager and common, and mixing versions of the family is not supported upstream. Updating
 * means: change all eight here, in package.json and package-lock.json, then re-check STOCK.
 */
const ETHEREUMJS_VERSION = '10.1.3';
const ETHEREUMJS_PACKAGES = ['common', 'evm', 'mpt', 'rlp', 'statemanager', 'tx', 'util', 'vm'];

function stockSource(file: string, start: string): string {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@ethereumjs/evm')).replace(/cjs$/, 'esm');
  const text = readFileSync(join(dir, file), 'utf8');
  const at = text.indexOf(start);
  expect(at, `${file} no longer has "${start.trim()}"`).toBeGreaterThanOrEqual(0);
  return text.slice(at, text.indexOf('\n    }\n', at) + 7);
}

async function evmOf(Kind: typeof EVM): Promise<EVM> {
  const common = createRskCommon(33, 'unit');
  const stateManager = new MerkleStateManager({ common });
  const evm = new Kind({ common, stateManager, bn254: new NobleBN254() });
  await stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
  return evm;
}

async function install(evm: EVM, address: typeof A, code: string): Promise<void> {
  await evm.stateManager.putAccount(address, new Account(1n, 10n ** 18n));
  await evm.stateManager.putCode(address, hexToBytes(code as `0x${string}`));
}

/** What a call's result and the state after it show, for comparing two EVMs. */
async function outcome(evm: EVM, result: EVMResult, slots: Array<[typeof A, number]>) {
  const exec = result.execResult;
  const storage = [];
  for (const [address, slot] of slots) storage.push(bytesToHex(await evm.stateManager.getStorage(address, new Uint8Array(32).fill(slot, 31))));
  return {
    returnValue: bytesToHex(exec.returnValue),
    gasUsed: exec.executionGasUsed,
    gasRefund: exec.gasRefund,
    error: exec.exceptionError?.error,
    logs: (exec.logs ?? []).map((log) => log.map((part) => (Array.isArray(part) ? part.map((p) => bytesToHex(p)) : bytesToHex(part)))),
    created: result.createdAddress?.toString(),
    storage,
  };
}

/** Hand-assembled programs that end every way a frame can end. */
const PROGRAMS: Record<string, string> = {
  'a loop of 100 JUMPIs, then RETURN': '0x60645b600190038060025760005260206000f3',
  'SSTORE, LOG1, RETURN': '0x602a60015560ff600052607760206000a160206000f3',
  REVERT: '0x60ff60005260206000fd',
  'invalid opcode': '0x6001fe',
  'bad jump destination': '0x600356',
  'stack underflow': '0x01',
  'out of gas in an endless loop': '0x5b600056',
  'CALL with value to B, which stores and returns': `0x6020600060006000600a73${B.toString().slice(2)}61fffff160206000f3`,
  // STATICCALL the identity precompile (0x04) with 32 bytes of memory, return what it copied.
  'STATICCALL of a precompile': '0x60ff600052602060206020600060045afa5060206020f3',
  'DELEGATECALL to B, which stores in the caller': `0x6020600060006000${'73' + B.toString().slice(2)}61fffff460206000f3`,
  // PUSH, ADD, POP (static gas, counted in a number by lean-run.ts), then GAS reads what is left.
  'GAS after static opcodes, returning it': '0x600160020150600a5a0360005260206000f3',
  // A CALL forwarding all gas but 1/64 right after static opcodes: its gas function reads gasLeft.
  'CALL forwarding all gas after static opcodes': `0x60206000600060006000${'73' + B.toString().slice(2)}6001600201505af160206000f3`,
  // The endless loop above runs out on a static opcode; this one on MSTORE's memory growth.
  'out of gas growing memory after static opcodes': '0x6001600201506001620fffff52',
  'CREATE of a contract, returning its address': '0x69602a60005260206000f3600052600a60166000f060005260206000f3',
  // After a JUMP (so the lean loop pushes the analysis' values itself), PUSH1..PUSH32 summed, then RETURN.
  'PUSH1..PUSH32 after the jump analysis, summed': `0x6003565b${Array.from({ length: 32 }, (_, i) => `${(0x60 + i).toString(16)}${'a5'.repeat(i).padStart(2 * (i + 1), '7')}${i === 0 ? '' : '01'}`).join('')}60005260206000f3`,
  // PUSH32 with only two of its bytes left in the code: the missing ones read as zeros (then STOP).
  'a PUSH32 cut short by the end of the code, after a jump': '0x6003565b7fabcd',
};
const B_CODE = '0x600760025560206000f3';

async function compare(run: (evm: EVM) => Promise<EVMResult>, slots: Array<[typeof A, number]>) {
  const stock = await evmOf(EVM);
  const lean = await evmOf(LeanEVM);
  for (const evm of [stock, lean]) await setUp(evm);
  const expected = await outcome(stock, await run(stock), slots);
  expect(await outcome(lean, await run(lean), slots)).toEqual(expected);
  return expected;
}

async function setUp(evm: EVM) {
  await install(evm, B, B_CODE);
}

describe('LeanEVM gives the stock EVM results', () => {
  for (const [name, code] of Object.entries(PROGRAMS)) {
    it(name, async () => {
      const result = await compare(async (evm) => {
        await install(evm, A, code);
        return evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 200_000n, skipBalance: true });
      }, [[A, 1], [B, 2]]);
      expect(result.gasUsed).toBeGreaterThan(0n);
    });
  }

  it('GAS with more gas than a double holds exactly (the loop keeps the BigInt count)', async () => {
    const result = await compare(async (evm) => {
      await install(evm, A, PROGRAMS['GAS after static opcodes, returning it']!);
      return evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 2n ** 60n + 7n, skipBalance: true });
    }, []);
    expect(BigInt(result.returnValue)).toBeGreaterThan(2n ** 59n);
  });

  it('SELFBALANCE sees the value a frame received, also when a contract calls itself (its account read once)', async () => {
    // SELFBALANCE is one of RSK's custom opcodes (evm/opcodes.ts); it reads the frame's env.contract.
    const SELFBALANCE = '0x4760005260206000f3';
    for (const caller of [CALLER, A]) {
      const outcomes = [];
      for (const Kind of [EVM, LeanEVM]) {
        const common = createRskCommon(33, 'unit');
        const stateManager = new MerkleStateManager({ common });
        const evm = new Kind({ common, stateManager, customOpcodes: RSK_CUSTOM_OPCODES });
        await stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n));
        await install(evm, A, SELFBALANCE);
        outcomes.push(await outcome(evm, await evm.runCall({ caller, origin: caller, to: A, value: 5n, gasLimit: 100_000n }), []));
      }
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(BigInt(outcomes[0]!.returnValue)).toBe(caller === A ? 10n ** 18n : 10n ** 18n + 5n);
    }
  });

  it('a top-level value transfer the sender cannot pay, and one to an account without code', async () => {
    for (const value of [10n ** 30n, 5n]) {
      const result = await compare(async (evm) => evm.runCall({ caller: CALLER, origin: CALLER, to: A, value, gasLimit: 100_000n }), [[A, 1]]);
      expect(result.error).toBe(value === 5n ? undefined : 'insufficient balance');
    }
  });

  it('an ERC20: deployment, transfer (event, storage), balanceOf and a failing transfer', async () => {
    const deploy = hexToBytes((contracts.Token.bytecode + token.encodeDeploy([1000n]).slice(2)) as `0x${string}`);
    const steps = async (evm: EVM) => {
      const created = await evm.runCall({ caller: CALLER, origin: CALLER, data: deploy, gasLimit: 3_000_000n, skipBalance: true });
      const at = created.createdAddress!;
      const call = (data: string) => evm.runCall({ caller: CALLER, origin: CALLER, to: at, data: hexToBytes(data as `0x${string}`), gasLimit: 200_000n, skipBalance: true });
      const results = [created, await call(token.encodeFunctionData('transfer', [B.toString(), 10n])), await call(token.encodeFunctionData('balanceOf', [B.toString()]))];
      results.push(await call(token.encodeFunctionData('transfer', [B.toString(), 10n ** 9n])));
      return results;
    };
    const stock = await evmOf(EVM);
    const lean = await evmOf(LeanEVM);
    const expected = await Promise.all((await steps(stock)).map((r) => outcome(stock, r, [])));
    const actual = await Promise.all((await steps(lean)).map((r) => outcome(lean, r, [])));
    expect(actual).toEqual(expected);
    expect(BigInt(expected[2]!.returnValue)).toBe(10n);
    expect(expected[3]!.error).toBe('revert');
  });
});

describe('LeanEVM takes its own path, and the stock one when something observes the steps', () => {
  it('analyses a code once per EVM, and runs the stock loop only for step listeners', async () => {
    const LOOP = '0x60645b600190038060025760005260206000f3';
    const primer = await evmOf(LeanEVM);
    await install(primer, A, LOOP);
    const first = await primer.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 200_000n, skipBalance: true });
    const interpreter = first.execResult.runState!.interpreter;
    const proto = Object.getPrototypeOf(interpreter) as typeof interpreter;
    const analyse = vi.spyOn(proto, '_getValidJumpDestinations');
    const run = vi.spyOn(proto, 'run');
    try {
      const evm = await evmOf(LeanEVM);
      await install(evm, A, LOOP);
      const call = () => evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 200_000n, skipBalance: true });
      const results = [await call(), await call(), await call()];
      for (const result of results) expect(result.execResult.returnValue).toEqual(first.execResult.returnValue);
      expect(analyse).toHaveBeenCalledTimes(1);
      expect(run).not.toHaveBeenCalled();
      const steps: string[] = [];
      evm.events.on('step', (step) => steps.push(step.opcode.name));
      const traced = await call();
      expect(run).toHaveBeenCalledTimes(1);
      expect(traced.execResult.returnValue).toEqual(first.execResult.returnValue);
      expect(traced.execResult.executionGasUsed).toBe(results[0]!.execResult.executionGasUsed);
      expect(steps.filter((name) => name === 'JUMPI')).toHaveLength(100);
    } finally {
      analyse.mockRestore();
      run.mockRestore();
    }
  });

  it('keeps analyses for at most ANALYSED_CODE_BYTES of code, dropping the least recently used', async () => {
    const LOOP = '60645b600190038060025760005260206000f3';
    // The loop, then padding never reached: each code is over half the budget, so two never fit.
    const big = (pad: string) => `0x${LOOP}${pad.repeat(ANALYSED_CODE_BYTES / 2 + 1)}`;
    const primer = await evmOf(LeanEVM);
    await install(primer, A, `0x${LOOP}`);
    const proto = Object.getPrototypeOf((await primer.runCall({ caller: CALLER, to: A, gasLimit: 100_000n })).execResult.runState!.interpreter);
    const analyse = vi.spyOn(proto, '_getValidJumpDestinations');
    try {
      const evm = await evmOf(LeanEVM);
      const call = (to: typeof A) => evm.runCall({ caller: CALLER, origin: CALLER, to, gasLimit: 200_000n, skipBalance: true });
      await install(evm, A, `0x${LOOP}`);
      await install(evm, B, `0x${LOOP}00`);
      for (const to of [A, B, A, B]) await call(to);
      expect(analyse).toHaveBeenCalledTimes(2);
      await install(evm, A, big('00'));
      await install(evm, B, big('5b'));
      for (const to of [A, B, A]) expect((await call(to)).execResult.exceptionError).toBeUndefined();
      expect(analyse).toHaveBeenCalledTimes(5);
    } finally {
      analyse.mockRestore();
    }
  });

  it('keeps no analysis of CREATE init code, a view into the creating frame\'s memory', async () => {
    const evm = await evmOf(LeanEVM);
    // mstore(0x100000, 0) grows memory to 1 MiB; mstore(0, 0x6004565b00); create(0, 27, 5): the
    // init code PUSH1 4 JUMP JUMPDEST STOP is analysed (it jumps) and deploys nothing.
    await install(evm, A, '0x60006210000052646004565b006000526005601b6000f000');
    for (let i = 0; i < 3; i++) expect((await evm.runCall({ caller: CALLER, to: A, gasLimit: 5_000_000n })).execResult.exceptionError).toBeUndefined();
    const analysed = [...(evm as unknown as { analyses: Map<Uint8Array, unknown> }).analyses.keys()];
    expect(analysed.every((code) => code.byteLength === code.buffer.byteLength)).toBe(true);
  });

  it('the stock methods it copies are the ones it was written from', () => {
    for (const { file, start, sha256 } of STOCK) {
      const digest = createHash('sha256').update(stockSource(file, start)).digest('hex').slice(0, 16);
      expect(digest, `@ethereumjs/evm changed ${file} "${start.trim()}": see the comment on STOCK`).toBe(sha256);
    }
  });

  it('the @ethereumjs packages are pinned to the exact version the copies were written from', () => {
    const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
    const manifest = read('../../package.json').dependencies as Record<string, string>;
    const lockRoot = read('../../package-lock.json').packages[''].dependencies as Record<string, string>;
    const names = Object.keys(manifest).filter((name) => name.startsWith('@ethereumjs/'));
    expect(names.sort()).toEqual(ETHEREUMJS_PACKAGES.map((name) => `@ethereumjs/${name}`));
    for (const name of names) {
      expect(manifest[name], `${name} in package.json`).toBe(ETHEREUMJS_VERSION);
      expect(lockRoot[name], `${name} in package-lock.json`).toBe(ETHEREUMJS_VERSION);
      expect(read(`../../node_modules/${name}/package.json`).version, `${name} installed`).toBe(ETHEREUMJS_VERSION);
    }
  });

  it('only the opcodes in READS_GAS read or charge gas in their logic without a dynamic gas function', async () => {
    const evm = (await evmOf(LeanEVM)) as unknown as { _opcodes: Map<number, { dynamicGas: boolean }>; _handlers: Map<number, (...args: unknown[]) => unknown> };
    const readers: number[] = [];
    for (const [opcode, info] of evm._opcodes) {
      const source = evm._handlers.get(opcode)?.toString() ?? '';
      if (info.dynamicGas || !/gasLeft|GasLeft|useGas|addStipend|refundGas/.test(source)) continue;
      // BLOCKHASH and PUSH charge gas only under EIP-6800/7864, which the lean loop never runs.
      if (/useGas\(statelessGas/.test(source) && /isActivatedEIP\(6800\) \|\| common\.isActivatedEIP\(7864\)/.test(source) && !/getGasLeft|addStipend|refundGas/.test(source)) continue;
      readers.push(opcode);
    }
    expect(readers.sort()).toEqual([...READS_GAS].sort());
  });

  it('the stock PUSH does only what the lean loop does in its place after the jump analysis', async () => {
    const handlers = (await evmOf(LeanEVM) as unknown as { _handlers: Map<number, (...args: unknown[]) => unknown> })._handlers;
    const push = handlers.get(0x60)!;
    for (let opcode = 0x61; opcode <= 0x7f; opcode++) expect(handlers.get(opcode)).toBe(push);
    const source = push.toString();
    expect(source).toMatch(/if \(\(common\.isActivatedEIP\(6800\) \|\| common\.isActivatedEIP\(7864\)\) &&/);
    expect(source).toMatch(/if \(!runState\.shouldDoJumpAnalysis\) \{\s*runState\.stack\.push\(runState\.cachedPushes\[runState\.programCounter\]\);\s*runState\.programCounter \+= numToPush;\s*\}/);
  });

  it('RETURN ends its frame by calling finish last, so leanRun may stop there without the exception', async () => {
    const handlers = (await evmOf(LeanEVM) as unknown as { _handlers: Map<number, (...args: unknown[]) => unknown> })._handlers;
    expect(handlers.get(0xf3)!.toString()).toMatch(/runState\.interpreter\.finish\(returnData\);\s*\}$/);
  });
});

describe('LeanEVM emits and finds precompiles as the stock EVM does', () => {
  it('getPrecompile answers the same function for every precompile, and none elsewhere', async () => {
    const lean = await evmOf(LeanEVM);
    const stock = await evmOf(EVM);
    const addresses = [...stock.precompiles.keys()].map((hex) => `0x${hex}` as const);
    expect(addresses.length).toBeGreaterThan(5);
    const others = [A.toString(), '0x0000000000000000000000000000000000000000', '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0x0000000000000000000000000000000000010000'] as `0x${string}`[];
    for (const hex of [...addresses, ...others]) {
      const expected = stock.getPrecompile(createAddressFromString(hex));
      expect(lean.getPrecompile(createAddressFromString(hex))).toBe(expected);
      expect(lean.getPrecompile(hex)).toBe(expected);
    }
  });

  it('getPrecompile finds a custom precompile at an address without leading zeros', async () => {
    const common = createRskCommon(33, 'unit');
    const address = createAddressFromString('0xff000000000000000000000000000000000000f1');
    const precompile = () => ({ executionGasUsed: 0n, returnValue: new Uint8Array(0) });
    const lean = new LeanEVM({ common, stateManager: new MerkleStateManager({ common }), customPrecompiles: [{ address, function: precompile }] });
    expect(lean.getPrecompile(address)).toBe(precompile);
    expect(lean.getPrecompile(createAddressFromString('0xfe000000000000000000000000000000000000f1'))).toBeUndefined();
    expect(lean.getPrecompile(createAddressFromString('0x0000000000000000000000000000000000000001'))).toBeDefined();
  });

  it('beforeMessage and afterMessage reach listeners added after the EVM was made, each frame, in order', async () => {
    const lean = await evmOf(LeanEVM);
    await install(lean, B, B_CODE);
    await install(lean, A, PROGRAMS['CALL with value to B, which stores and returns']!);
    const seen: string[] = [];
    const call = () => lean.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 200_000n, skipBalance: true });
    await call();
    lean.events.on('beforeMessage', (message) => void seen.push(`before ${message.depth}`));
    lean.events.on('afterMessage', (result, resolve) => {
      seen.push(`after ${result.execResult.exceptionError?.error ?? 'ok'}`);
      setImmediate(resolve!);
    });
    await call();
    expect(seen).toEqual(['before 0', 'before 1', 'after ok', 'after ok']);
  });
});

describe('MSTORE (evm/mstore.ts)', () => {
  it('writes the same 32 bytes as the stock logic, leaving the bytes around them', () => {
    const words = [0n, 1n, 0xfn, 0xffn, 0x100n, 0xabcn, 2n ** 160n - 1n, 2n ** 255n, 2n ** 256n - 1n, 0x0123456789abcdefn << 100n];
    for (const word of words) {
      const store = new Uint8Array(70).fill(0xee);
      writeWord(store, 5, word);
      expect(bytesToHex(store.subarray(5, 37))).toBe(bytesToHex(setLengthLeft(bigIntToBytes(word), 32)));
      expect([...store.subarray(0, 5), ...store.subarray(37)].every((b) => b === 0xee)).toBe(true);
    }
  });

  it('through the node\'s EVM: memory grows, gas as the stock MSTORE, words at unaligned offsets', async () => {
    const common = createRskCommon(33, 'unit');
    const execution = new Execution(common, async () => undefined);
    const stateManager = new MerkleStateManager({ common });
    const evm = (await execution.vm(stateManager)).evm as EVM;
    // MSTORE 0xabcdef at 3, MSTORE 2^256-1 at 40, then RETURN 96 bytes from 0.
    const code = `0x62abcdef6003527f${'ff'.repeat(32)}60285260606000f3`;
    await install(evm, A, code);
    const result = await evm.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 100_000n, skipBalance: true });
    const expected = new Uint8Array(96);
    expected.set([0xab, 0xcd, 0xef], 32);
    expected.fill(0xff, 40, 72);
    expect(bytesToHex(result.execResult.returnValue)).toBe(bytesToHex(expected));
    // The same code on a stock EVM (no custom opcodes) uses the same gas.
    const stock = await evmOf(EVM);
    await install(stock, A, code);
    const reference = await stock.runCall({ caller: CALLER, origin: CALLER, to: A, gasLimit: 100_000n, skipBalance: true });
    expect(result.execResult.executionGasUsed).toBe(reference.execResult.executionGasUsed);
    expect(result.execResult.returnValue).toEqual(reference.execResult.returnValue);
  });
});
