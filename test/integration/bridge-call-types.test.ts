/**
 * Which call opcodes reach the Bridge (issue 19). DELEGATECALL and CALLCODE used to run Bridge
 * methods; rskj refuses them (RSKIP417, Bridge.validateCallMessageType): getters take CALL and
 * STATICCALL, every other method CALL only. A refused call fails like any Bridge exception: the
 * opcode pushes 0, returns no data and costs the method's price (RSKIP197). rskj checks call types
 * in the Bridge only, so the other native contracts take all four.
 *
 * The probe contract (test/fixtures/contracts/CallTypeProbe.sol) measures the gas from just before
 * its call opcode to just after it; the same call to an account without code is the baseline, so
 * the difference is exactly what the callee charged.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, type Contract, type Log, type Wallet } from 'ethers';
import { COW1 } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';
import { BRIDGE, deployCallTypeProbe } from '../helpers/bridge-contract.js';
import { ENVIRONMENT_ABI } from '../fixtures/native-abis.js';

const require = createRequire(import.meta.url);
const bridgeIface = new Interface(require('@rsksmart/rsk-precompiled-abis').bridge.abi);
const environmentIface = new Interface(ENVIRONMENT_ABI as never);

const ENVIRONMENT = '0x0000000000000000000000000000000001000011';
const GAS_PRICE = 66_000_000n;
/** Gas handed to the probed call: far more than any price here, so a failure that took it all shows. */
const GAS_GIVEN = 100_000n;

const OP = { CALL: 0xf1, CALLCODE: 0xf2, DELEGATECALL: 0xf4, STATICCALL: 0xfa } as const;
type Op = keyof typeof OP;

/** Bridge methods with their price: BridgeMethods fixedCost + 2 gas per byte of call data. */
const GET_FEE_PER_KB = { data: bridgeIface.encodeFunctionData('getFeePerKb'), price: 2_000n + 2n * 4n };
const BEST_CHAIN_HEIGHT = { data: bridgeIface.encodeFunctionData('getBtcBlockchainBestChainHeight'), price: 19_000n + 2n * 4n };
const VOTE_FEE_PER_KB = { data: bridgeIface.encodeFunctionData('voteFeePerKbChange', [1]), price: 10_000n + 2n * 36n };

let wallet: Wallet;
let probe: Contract;

ethersNodeForTests((node) => ({ wallet } = node));
beforeAll(async () => {
  probe = await deployCallTypeProbe(wallet, GAS_PRICE);
});

interface Probed {
  ok: boolean;
  out: string;
  /** What the callee charged: the probe's measure minus the same call to an account without code. */
  charged: bigint;
}

/** One probed call through eth_call (a local call: the Bridge's local-only getters answer too). */
async function probed(op: Op, target: string, data: string): Promise<Probed> {
  const [ok, out, used] = await probe.probe!.staticCall(OP[op], target, data, GAS_GIVEN);
  const [, , baseline] = await probe.probe!.staticCall(OP[op], COW1.address, data, GAS_GIVEN);
  return { ok, out, charged: (used as bigint) - (baseline as bigint) };
}

const word = (n: bigint) => AbiCoder.defaultAbiCoder().encode(['int256'], [n]);

describe('the Bridge refuses DELEGATECALL and CALLCODE (RSKIP417)', () => {
  it('DELEGATECALL and CALLCODE to the Bridge no longer run its methods, getters included: the call fails, costing the method price', async () => {
    for (const op of ['DELEGATECALL', 'CALLCODE'] as const) {
      for (const method of [GET_FEE_PER_KB, BEST_CHAIN_HEIGHT, VOTE_FEE_PER_KB]) {
        expect(await probed(op, BRIDGE, method.data), `${op} ${method.data.slice(0, 10)}`).toEqual({ ok: false, out: '0x', charged: method.price });
      }
    }
  });

  it('getters take CALL and STATICCALL; other methods CALL only', async () => {
    for (const op of ['CALL', 'STATICCALL'] as const) {
      expect(await probed(op, BRIDGE, GET_FEE_PER_KB.data)).toEqual({ ok: true, out: word(100_000n), charged: GET_FEE_PER_KB.price });
    }
    // voteFeePerKbChange answers UNAUTHORIZED_CALLER (-10) to a caller outside the fee authorisers.
    expect(await probed('CALL', BRIDGE, VOTE_FEE_PER_KB.data)).toEqual({ ok: true, out: word(-10n), charged: VOTE_FEE_PER_KB.price });
    expect(await probed('STATICCALL', BRIDGE, VOTE_FEE_PER_KB.data)).toEqual({ ok: false, out: '0x', charged: VOTE_FEE_PER_KB.price });
  });

  it('a CALL made inside a STATICCALL frame is a CALL: a non-getter answers', async () => {
    const inner = probe.interface.encodeFunctionData('probe', [OP.CALL, BRIDGE, VOTE_FEE_PER_KB.data, GAS_GIVEN]);
    const [ok, out] = await probe.probe!.staticCall(OP.STATICCALL, await probe.getAddress(), inner, 500_000n);
    expect(ok).toBe(true);
    const [innerOk, innerOut] = probe.interface.decodeFunctionResult('probe', out);
    expect({ innerOk, innerOut }).toEqual({ innerOk: true, innerOut: word(-10n) });
  });

  it('in a mined transaction: DELEGATECALL fails, the transaction succeeds, CALL answers', async () => {
    const logged = async (op: Op) => {
      const tx = await probe.probeAndLog!(OP[op], BRIDGE, BEST_CHAIN_HEIGHT.data, GAS_GIVEN, { type: 0, gasPrice: GAS_PRICE, gasLimit: 300_000 });
      const receipt = (await tx.wait())!;
      expect(receipt.status).toBe(1);
      const event = probe.interface.parseLog(receipt.logs[0] as Log)!;
      return { ok: event.args.ok as boolean, out: event.args.out as string };
    };
    expect(await logged('DELEGATECALL')).toEqual({ ok: false, out: '0x' });
    expect(await logged('CALLCODE')).toEqual({ ok: false, out: '0x' });
    expect(await logged('CALL')).toEqual({ ok: true, out: word(101n) }); // the Bitcoin chain's premined tip
  });
});

describe('other native contracts take every call type (rskj checks call types in the Bridge only)', () => {
  it('Environment.getCallStackDepth answers through CALL, CALLCODE, DELEGATECALL and STATICCALL', async () => {
    const data = environmentIface.encodeFunctionData('getCallStackDepth');
    const answers = await Promise.all((Object.keys(OP) as Op[]).map((op) => probed(op, ENVIRONMENT, data)));
    // rskj answers the calling program's depth + 1: the probe runs at depth 0 under eth_call.
    const depth = AbiCoder.defaultAbiCoder().encode(['uint32'], [1]);
    for (const answer of answers) expect({ ok: answer.ok, out: answer.out }).toEqual({ ok: true, out: depth });
  });
});
