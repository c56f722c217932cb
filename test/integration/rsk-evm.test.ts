/**
 * The EVM as RSK runs it, through ethers against a real node: eth_call, eth_estimateGas and mined
 * transactions. Expected values come from rskj's rules (reference section 8; rskj VM.java,
 * Program.java, PrecompiledContracts.java); the exact gas arithmetic is in test/unit/rsk-evm.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Contract,
  ContractFactory,
  JsonRpcProvider,
  Wallet,
  ZeroAddress,
  getBytes,
  type TransactionReceipt,
} from 'ethers';
import { contracts, type CompiledContract } from '../fixtures/contracts.js';
import { COW, call, type TestNode } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';

const fixtures = contracts as unknown as Record<string, CompiledContract>;
const BLAKE2F = '0x0000000000000000000000000000000000000009';
const GAS_ESTIMATION_CAP = 6_800_000n;

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;

ethersNodeForTests((node) => ({ t, provider, wallet } = node));

async function deploy(name: string): Promise<Contract> {
  const { abi, bytecode } = fixtures[name]!;
  const deployed = await new ContractFactory(abi, bytecode, wallet).deploy({ type: 0 });
  const receipt = (await deployed.deploymentTransaction()!.wait())!;
  expect(receipt.status).toBe(1);
  return new Contract(await deployed.getAddress(), abi, wallet);
}

/** Sends a transaction with a fixed gas limit and returns its receipt, whatever its status. */
async function mine(request: { to?: string; data: string; gasLimit: bigint; value?: bigint }): Promise<TransactionReceipt> {
  const tx = await wallet.sendTransaction({ ...request, type: 0 });
  const receipt = await provider.getTransactionReceipt(tx.hash);
  expect(receipt).not.toBeNull();
  return receipt!;
}

/** Intrinsic gas on RSK: 21,000 (+32,000 for a creation), 4 per zero and 16 per other calldata byte (RSKIP400). */
function intrinsic(data: string, create = false): bigint {
  let gas = create ? 53_000n : 21_000n;
  for (const byte of getBytes(data)) gas += byte === 0 ? 4n : 16n;
  return gas;
}

describe('no EIP-150 "all but 1/64" rule', () => {
  let nested: Contract;
  beforeAll(async () => {
    nested = await deploy('Nested');
  });

  it('eth_call: three nested calls lose the same fixed overhead whatever the gas (no 1/64 retention)', async () => {
    const lost: bigint[] = [];
    for (const gasLimit of [1_000_000n, 3_000_000n, 9_000_000n]) {
      const seen = (await nested.getFunction('probe').staticCall(3n, { gasLimit })) as bigint;
      lost.push(gasLimit - seen);
    }
    // Under EIP-150 the innermost frame would lose about 3/64 of the gas: 47k, 141k and 422k.
    expect(lost[1]).toBe(lost[0]);
    expect(lost[2]).toBe(lost[0]);
    expect(lost[0]).toBeLessThan(20_000n);
  });

  it('a call asking for 2^256-1 gas gets everything left instead of failing or being capped', async () => {
    const [ok, seen] = (await nested.getFunction('askTooMuch').staticCall({ gasLimit: 1_000_000n })) as [boolean, bigint];
    expect(ok).toBe(true);
    expect(seen).toBeGreaterThan(1_000_000n - 5_000n);
  });

  it('estimateGas gives a limit that succeeds when all gas goes through three nested calls; one less fails', async () => {
    const need = 1_000_000n;
    const estimate = await nested.getFunction('run').estimateGas(3n, need);
    const data = nested.interface.encodeFunctionData('run', [3n, need]);
    // Under EIP-150 the innermost frame would get at most (63/64)^3 of the execution gas: too little.
    const execution = estimate - intrinsic(data);
    expect((execution * 63n ** 3n) / 64n ** 3n).toBeLessThan(need);
    expect(execution).toBeGreaterThan(need);

    const ok = await mine({ to: await nested.getAddress(), data, gasLimit: estimate });
    expect(ok.status).toBe(1);
    expect(ok.gasUsed).toBeLessThanOrEqual(estimate);

    // The search is exact: one gas less and the innermost require fails, reverting every frame.
    const short = await mine({ to: await nested.getAddress(), data, gasLimit: estimate - 1n });
    expect(short.status).toBe(0);
    expect(short.gasUsed).toBeLessThan(estimate);
  });

  it('CREATE and CREATE2 hand the new contract all the gas left', async () => {
    const creator = await deploy('Creator');
    for (const [name, args] of [['probeCreate', []], ['probeCreate2', ['0x' + '11'.repeat(32)]]] as const) {
      const lost: bigint[] = [];
      for (const gasLimit of [500_000n, 5_000_000n]) {
        const [before, childSaw] = (await creator.getFunction(name).staticCall(...args, { gasLimit })) as [bigint, bigint];
        lost.push(before - childSaw);
      }
      // 32,000 for CREATE, then copying the init code: a fixed cost. EIP-150 would keep 1/64 (70k of 4.5M).
      expect(lost[1]).toBe(lost[0]);
      expect(lost[0]).toBeLessThan(40_000n);
    }
    // And a mined creation with the estimate succeeds.
    const estimate = await creator.getFunction('probeCreate').estimateGas();
    const receipt = await mine({ to: await creator.getAddress(), data: creator.interface.encodeFunctionData('probeCreate'), gasLimit: estimate });
    expect(receipt.status).toBe(1);
  });

  it('a CALL with value pays its 2,300 stipend itself (1 wei to an account: 9,700); a CALL to a new account pays 25,000 even without value', async () => {
    const payer = await deploy('Payer');
    await (await wallet.sendTransaction({ to: await payer.getAddress(), value: 10n, type: 0 })).wait();
    const [ok, used] = (await payer.getFunction('pay').staticCall(COW.address, 1n, 0n)) as [boolean, bigint];
    expect(ok).toBe(true);
    // 700 + 9,000; Ethereum would credit back the unused stipend (7,400). The rest is a few opcodes.
    expect(used).toBeGreaterThanOrEqual(9_700n);
    expect(used).toBeLessThan(9_700n + 100n);
    // A CALL to an address that does not exist costs 25,000 more, even without a value (rskj
    // VM.computeCallGas; Ethereum charges it only with a value).
    const fresh = Wallet.createRandom().address;
    const [freshOk, freshUsed] = (await payer.getFunction('pay').staticCall(fresh, 0n, 0n)) as [boolean, bigint];
    expect(freshOk).toBe(true);
    expect(freshUsed).toBeGreaterThanOrEqual(25_700n);
    expect(freshUsed).toBeLessThan(25_700n + 100n);
    const receipt = await mine({
      to: await payer.getAddress(),
      data: payer.interface.encodeFunctionData('pay', [COW.address, 1n, 0n]),
      gasLimit: await payer.getFunction('pay').estimateGas(COW.address, 1n, 0n),
    });
    expect(receipt.status).toBe(1);
  });
});

describe('maximum call depth 400 (RSKIP150)', () => {
  let deep: Contract;
  beforeAll(async () => {
    deep = await deploy('Deep');
  });

  it('eth_call: 400 nested calls run; the 401st is refused and its caller carries on', async () => {
    const down = deep.getFunction('down');
    expect(await down.staticCall(399n, { gasLimit: 9_000_000n })).toBe(399n);
    expect(await down.staticCall(400n, { gasLimit: 9_000_000n })).toBe(400n);
    // The frame at depth 400 has n = 1 left; its call is refused (returns 0), nothing reverts.
    expect(await down.staticCall(401n, { gasLimit: 9_000_000n })).toBe(400n);
    expect(await down.staticCall(450n, { gasLimit: 9_000_000n })).toBe(400n);
  });

  it('mined: depth 400 is reached without refusal, 401 is refused at the last frame only', async () => {
    const to = await deep.getAddress();
    const reached = await mine({ to, data: deep.interface.encodeFunctionData('down', [400n]), gasLimit: 6_000_000n });
    expect(reached.status).toBe(1);
    expect(await deep.getFunction('refusedAt').staticCall()).toBe(0n);

    const refused = await mine({ to, data: deep.interface.encodeFunctionData('down', [401n]), gasLimit: 6_000_000n });
    expect(refused.status).toBe(1);
    expect(await deep.getFunction('refusedAt').staticCall()).toBe(1n);
  });
});

describe('precompiles 0x01-0x09 as RSK has them', () => {
  // EIP-152's test vectors (as rskj's PrecompiledContractTest.blake2fTestVector0-7).
  const H = '48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b';
  const M = '6162630000000000000000000000000000000000000000000000000000000000' + '00'.repeat(96);
  const T = '03000000000000000000000000000000';
  const vector = (rounds: string, final: string) => `0x${rounds}${H}${M}${T}${final}`;
  const valid = [
    { input: vector('00000000', '01'), rounds: 0n, output: '08c9bcf367e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d282e6ad7f520e511f6c3e2b8c68059b9442be0454267ce079217e1319cde05b' },
    { input: vector('0000000c', '01'), rounds: 12n, output: 'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923' },
    { input: vector('0000000c', '00'), rounds: 12n, output: '75ab69d3190a562c51aef8d88f1c2775876944407270c42c9844252c26d2875298743e7f6d5ea2f2d3e8d226039cd31b4e426ac4f2d3d666a610c2116fde4735' },
    { input: vector('00000001', '01'), rounds: 1n, output: 'b63a380cb2897d521994a85234ee2c181b5f844d2c624c002677e9703449d2fba551b3a8333bcdf5f2f7e08993d53923de3d64fcc68c034e717b9293fed7a421' },
  ];
  const invalid = [
    { input: '0x', price: 0n },
    { input: vector('00000c', '01'), price: 0n }, // 212 bytes
    { input: vector('000000000c', '01'), price: 0n }, // 214 bytes
    { input: vector('0000000c', '02'), price: 12n }, // bad final-block flag
  ];

  it('blake2f at 0x09 (RSKIP153): EIP-152 vectors 4-7 by eth_call, priced 1 gas per round', async () => {
    for (const { input, rounds, output } of valid) {
      expect(await call(t.testnetUrl, 'eth_call', [{ to: BLAKE2F, data: input }, 'latest'])).toBe(`0x${output}`);
      expect(BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to: BLAKE2F, data: input }]))).toBe(intrinsic(input) + rounds);
    }
  });

  it('blake2f: vectors 0-3 fail; called from a contract they cost only their price (RSKIP197)', async () => {
    const caller = await deploy('PrecompileCaller');
    for (const { input, price } of invalid) {
      expect(await call(t.testnetUrl, 'eth_call', [{ to: BLAKE2F, data: input }, 'latest'])).toBe('0x');
      const [ok, output, used] = (await caller.getFunction('measure').staticCall(BLAKE2F, input, 100_000n)) as [boolean, string, bigint];
      expect(ok).toBe(false);
      expect(output).toBe('0x');
      // A STATICCALL (700) and some memory; Ethereum would burn the 100,000 given.
      expect(used).toBeLessThan(2_000n + price);
    }
    const [ok, output] = (await caller.getFunction('measure').staticCall(BLAKE2F, valid[1]!.input, 100_000n)) as [boolean, string];
    expect(ok).toBe(true);
    expect(output).toBe(`0x${valid[1]!.output}`);
    // Mined: a failing blake2f call does not fail the transaction that made it.
    const data = caller.interface.encodeFunctionData('measure', [BLAKE2F, invalid[1]!.input, 100_000n]);
    const receipt = await mine({ to: await caller.getAddress(), data, gasLimit: 200_000n });
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBeLessThan(60_000n);
  });

  it('bn128 add, mul and pairing (RSKIP137) are priced as EIP-1108: 150, 6,000, 45,000 + 34,000 per pair', async () => {
    const cases = [
      { to: '0x0000000000000000000000000000000000000006', data: `0x${'00'.repeat(128)}`, price: 150n, output: `0x${'00'.repeat(64)}` },
      { to: '0x0000000000000000000000000000000000000007', data: `0x${'00'.repeat(96)}`, price: 6_000n, output: `0x${'00'.repeat(64)}` },
      { to: '0x0000000000000000000000000000000000000008', data: '0x', price: 45_000n, output: `0x${'00'.repeat(31)}01` },
    ];
    for (const { to, data, price, output } of cases) {
      expect(await call(t.testnetUrl, 'eth_call', [{ to, data }, 'latest'])).toBe(output);
      expect(BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to, data }]))).toBe(intrinsic(data) + price);
      const receipt = await mine({ to, data, gasLimit: intrinsic(data) + price });
      expect(receipt.status).toBe(1);
      expect(receipt.gasUsed).toBe(intrinsic(data) + price);
    }
  });

  it('0x01-0x05 answer as on Ethereum before Istanbul (sha256 of "abc", identity)', async () => {
    const abc = '0x616263';
    expect(await call(t.testnetUrl, 'eth_call', [{ to: '0x0000000000000000000000000000000000000002', data: abc }, 'latest'])).toBe(
      '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await call(t.testnetUrl, 'eth_call', [{ to: '0x0000000000000000000000000000000000000004', data: abc }, 'latest'])).toBe(abc);
    // sha256: 60 + 12 per word.
    expect(BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to: '0x0000000000000000000000000000000000000002', data: abc }]))).toBe(
      intrinsic(abc) + 72n,
    );
  });

  it('nothing at 0x0a: no code, an empty answer, no precompile price', async () => {
    const to = '0x000000000000000000000000000000000000000a';
    const data = `0x${'01'.repeat(192)}`;
    expect(await call(t.testnetUrl, 'eth_call', [{ to, data }, 'latest'])).toBe('0x');
    expect(BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to, data }]))).toBe(intrinsic(data));
  });
});

describe('EIP-3541: code starting with 0xEF is refused at creation (RSKIP544)', () => {
  // Init code returning one byte: PUSH1 b, PUSH1 0, MSTORE8, PUSH1 1, PUSH1 0, RETURN.
  const returning = (byte: string) => `0x60${byte}60005360016000f3`;

  it('a creation transaction fails and uses all its gas; eth_estimateGas answers the cap', async () => {
    const refused = await mine({ data: returning('ef'), gasLimit: 100_000n });
    expect(refused.status).toBe(0);
    expect(refused.gasUsed).toBe(100_000n);
    expect(refused.contractAddress).not.toBeNull();
    expect(await provider.getCode(refused.contractAddress!)).toBe('0x');

    const accepted = await mine({ data: returning('fe'), gasLimit: 100_000n });
    expect(accepted.status).toBe(1);
    expect(await provider.getCode(accepted.contractAddress!)).toBe('0xfe');

    const head = await provider.getBlock('latest');
    const cap = head!.gasLimit < GAS_ESTIMATION_CAP ? head!.gasLimit : GAS_ESTIMATION_CAP;
    expect(BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, data: returning('ef') }]))).toBe(cap);
    // eth_call answers a non-revert failure with an empty result (rskj), not an error.
    expect(await call(t.testnetUrl, 'eth_call', [{ from: COW.address, data: returning('ef') }, 'latest'])).toBe('0x');
  });

  it('CREATE and CREATE2 from a contract: refused, and having handed over all the gas, the caller runs out too', async () => {
    const creator = await deploy('Creator');
    const to = await creator.getAddress();
    const salt = '0x' + '22'.repeat(32);
    expect(await creator.getFunction('deploy').staticCall(returning('ee'))).not.toBe(ZeroAddress);
    expect(await creator.getFunction('deploy2').staticCall(returning('ee'), salt)).not.toBe(ZeroAddress);
    // The refused creation burns the gas it was given, which is all the caller had (no 1/64 kept
    // back), so the caller fails out of gas right after: eth_call answers an empty result.
    for (const data of [
      creator.interface.encodeFunctionData('deploy', [returning('ef')]),
      creator.interface.encodeFunctionData('deploy2', [returning('ef'), salt]),
    ]) {
      expect(await call(t.testnetUrl, 'eth_call', [{ to, data }, 'latest'])).toBe('0x');
      const receipt = await mine({ to, data, gasLimit: 300_000n });
      expect(receipt.status).toBe(0);
      expect(receipt.gasUsed).toBe(300_000n);
    }
  });
});
