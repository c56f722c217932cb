/**
 * eth_call and eth_estimateGas share a few EVMs per chain (chain/exec/call-runner.ts, IDLE_ENGINES)
 * instead of making one per head or per historical call: reads at latest, at older blocks and at
 * pending, interleaved and concurrent, each see their own state, and new EVMs are rarely made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, nodesClosedAfterEach } from '../helpers/node.js';
import { EvmRuntime } from '../../src/chain/exec/runtime.js';
import { IDLE_ENGINES } from '../../src/chain/exec/call-runner.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const HOLDER = '0x00000000000000000000000000000000000c0ffe';
/** @ethereumjs/evm's Interpreter: not exported by the package, so imported by its file. */
const interpreterFile = join(dirname(createRequire(import.meta.url).resolve('@ethereumjs/evm')).replace(/cjs$/, 'esm'), 'interpreter.js');
const { Interpreter } = (await import(pathToFileURL(interpreterFile).href)) as { Interpreter: { prototype: { _getValidJumpDestinations: (code: Uint8Array) => unknown } } };

describe('call engines', () => {
  it('calls at latest, older blocks and pending see their own state; EVMs are reused across heads', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const deployed = await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(10n ** 24n, { type: 0 });
    await deployed.waitForDeployment();
    const address = await deployed.getAddress();
    const balanceOf = async (block: string) =>
      BigInt(await call(t.testnetUrl, 'eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [HOLDER]) }, block]));

    const made = vi.spyOn(EvmRuntime.prototype, 'evm');
    try {
      // Five blocks, each sending the holder 1 more token: block k leaves the holder k tokens.
      const blocks: string[] = [];
      for (let k = 1; k <= 5; k++) {
        const tx = await wallet.sendTransaction({ to: address, data: token.encodeFunctionData('transfer', [HOLDER, 1n]), type: 0, nonce: k });
        const receipt = (await tx.wait())!;
        blocks.push(`0x${receipt.blockNumber.toString(16)}`);
        expect(await balanceOf('latest')).toBe(BigInt(k));
      }
      // Interleaved and concurrent: every older block, latest and pending at once, three times.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([...blocks.map((block) => balanceOf(block)), balanceOf('latest'), balanceOf('pending')]);
        expect(answers).toEqual([1n, 2n, 3n, 4n, 5n, 5n, 5n]);
      }
      const estimate = BigInt(await call(t.testnetUrl, 'eth_estimateGas', [{ from: COW.address, to: address, data: token.encodeFunctionData('transfer', [HOLDER, 1n]) }]));
      expect(estimate).toBeGreaterThan(21_000n);
      // One at a time, calls at any block take an idle EVM: none is made.
      const made0 = made.mock.calls.length;
      for (const block of [...blocks, 'latest', ...blocks.reverse()]) expect(await balanceOf(block)).toBeGreaterThan(0n);
      expect(made.mock.calls.length).toBe(made0);
      expect(made0).toBeGreaterThan(0);
      expect(IDLE_ENGINES).toBeGreaterThan(0);
    } finally {
      made.mockRestore();
    }
  });

  // lean-evm.ts keeps a code's jump analysis only when the code has a buffer of its own (CREATE's
  // init code is a view into memory): the codes the store answers must have one, or every call
  // would analyse its contract again.
  for (const where of ['in memory', 'on disk'] as const) {
    it(`analyses a deployed contract's code once across calls (${where})`, async () => {
      const dataDir = where === 'on disk' ? mkdtempSync(join(tmpdir(), 'rsk-analysis-')) : undefined;
      // Spied before the node starts: each EVM takes the analysis function at its first frame.
      const analyse = vi.spyOn(Interpreter.prototype, '_getValidJumpDestinations');
      try {
        const t = await start(dataDir === undefined ? {} : { inMemory: false, dataDir });
        const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
        const deployed = await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, new Wallet(COW.privateKey, provider)).deploy(10n ** 24n, { type: 0 });
        await deployed.waitForDeployment();
        const data = token.encodeFunctionData('balanceOf', [COW.address]);
        const before = analyse.mock.calls.length;
        for (let i = 0; i < 4; i++) expect(BigInt(await call(t.testnetUrl, 'eth_call', [{ to: await deployed.getAddress(), data }, 'latest']))).toBe(10n ** 24n);
        expect(analyse.mock.calls.length - before).toBe(1);
        await t.close();
      } finally {
        analyse.mockRestore();
        if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
