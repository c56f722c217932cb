import { describe, expect, it } from 'vitest';
import { targetMet, type WorkloadResult } from '../../scripts/bench/report.js';
import { TARGETS } from '../../scripts/bench/targets.js';
import { WORKLOADS } from '../../scripts/bench/workloads.js';

const workload = (id: string) => WORKLOADS.find((w) => w.id === id)!;

describe('the bench targets (issue 25)', () => {
  it('name only rows the bench runs', () => {
    for (const id of Object.keys(TARGETS)) expect(WORKLOADS.map((w) => w.id), id).toContain(id);
  });

  it('pass a two-target row only when both are met (ERC20 transfers: ≥ 1.3 × Hardhat and ≥ 0.8 × anvil)', () => {
    const r = (rsk: number): WorkloadResult => ({ workload: workload('transfer-serial'), values: { anvil: { value: 400 }, hardhat: { value: 200 }, rsk: { value: rsk } } });
    expect(targetMet(r(320), r(320).values.rsk)).toBe(true);
    expect(targetMet(r(300), r(300).values.rsk)).toBe(false); // ≥ 1.3 × Hardhat, under 0.8 × anvil
    expect(targetMet(r(250), r(250).values.rsk)).toBe(false); // under both
  });

  it('judge times and memory as lower is better, against a bound or a peer', () => {
    const start = (ms: number): WorkloadResult => ({ workload: workload('cold-start'), values: { rsk: { value: ms } } });
    expect(targetMet(start(250), start(250).values.rsk)).toBe(true);
    expect(targetMet(start(251), start(251).values.rsk)).toBe(false);
    const snap = (ms: number): WorkloadResult => ({ workload: workload('snapshot'), values: { anvil: { value: 1.5 }, rsk: { value: ms } } });
    expect(targetMet(snap(1.4), snap(1.4).values.rsk)).toBe(true);
    expect(targetMet(snap(3.2), snap(3.2).values.rsk)).toBe(false);
  });

  it('give no verdict without the peer, for a failed value, or for a row without a target', () => {
    const noPeer: WorkloadResult = { workload: workload('getBalance'), values: { rsk: { value: 1e9 } } };
    expect(targetMet(noPeer, noPeer.values.rsk)).toBeUndefined();
    const peerFailed: WorkloadResult = { workload: workload('getBalance'), values: { anvil: { value: NaN, failed: 'x' }, rsk: { value: 1 } } };
    expect(targetMet(peerFailed, peerFailed.values.rsk)).toBeUndefined();
    const rskFailed: WorkloadResult = { workload: workload('getBalance'), values: { anvil: { value: 1 }, rsk: { value: NaN, failed: 'x' } } };
    expect(targetMet(rskFailed, rskFailed.values.rsk)).toBeUndefined();
    const untargeted: WorkloadResult = { workload: workload('suite'), values: { anvil: { value: 1 }, rsk: { value: 1 } } };
    expect(targetMet(untargeted, untargeted.values.rsk)).toBeUndefined();
  });
});
