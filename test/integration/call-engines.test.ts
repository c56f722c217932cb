/**
 * eth_call and eth_estimateGas share a few EVMs per chain (chain/call-runner.ts, IDLE_ENGINES)
 * instead of making one per head or per historical call: reads at latest, at older blocks and at
 * pending, interleaved and concurrent, each see their own state, and new EVMs are rarely made.
 */
import { describe, expect, it, vi } from 'vitest';
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, nodesClosedAfterEach } from '../helpers/node.js';
import { EvmRuntime } from '../../src/chain/evm-runtime.js';
import { IDLE_ENGINES } from '../../src/chain/call-runner.js';

const start = nodesClosedAfterEach();
const token = new Interface(contracts.Token.abi);
const HOLDER = '0x00000000000000000000000000000000000c0ffe';

describe('call engines', () => {
  it('calls at latest, older blocks and pending see their own state; EVMs are reused across heads', async () => {
    const t = await start();
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true });
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
});
