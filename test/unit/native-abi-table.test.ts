/**
 * The explorer's table of native ABIs (src/server/native-abis.ts, GET /explorer/api/native-abis)
 * covers every native contract the node registers that has functions (all but the secp256k1
 * precompiles, which take raw input), under the registry's name, with Solidity's selectors
 * computed independently here with ethers.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '@ethereumjs/util';
import { id } from 'ethers';
import { NATIVE_CONTRACTS } from '../../src/chain/native/registry.js';
import { nativeAbiTable } from '../../src/server/native-abis.js';

/** Native contracts without an ABI: RSKIP516's precompiles read raw 128/96-byte input. */
const RAW_INPUT = /^secp256k1/i;
const sel = (signature: string) => id(signature).slice(0, 10);

describe('the explorer decodes calls to every native contract with functions', () => {
  const table = nativeAbiTable();

  it('lists each registered native contract (but the raw-input precompiles) under its registry name', () => {
    const expected = NATIVE_CONTRACTS.filter((c) => !RAW_INPUT.test(c.name)).map((c) => [bytesToHex(c.address), c.name]);
    expect(expected.map(([, name]) => name).sort()).toEqual(['BlockHeader', 'Bridge', 'Environment', 'HDWalletUtils', 'REMASC']);
    expect(Object.entries(table).map(([address, entry]) => [address, entry.name]).sort()).toEqual(expected.sort());
  });

  it('keys BlockHeader, Environment and REMASC functions by their Solidity selectors', () => {
    const header = table['0x0000000000000000000000000000000001000010']!.functions;
    expect(header[sel('getCoinbaseAddress(int256)')]).toEqual({ name: 'getCoinbaseAddress', inputs: [{ name: 'blockDepth', type: 'int256' }] });
    expect(header[sel('getUncleCoinbaseAddress(int256,int256)')]?.inputs.map((p) => p.name)).toEqual(['blockDepth', 'uncleIndex']);
    expect(Object.keys(header)).toHaveLength(11);
    expect(table['0x0000000000000000000000000000000001000011']!.functions).toEqual({ [sel('getCallStackDepth()')]: { name: 'getCallStackDepth', inputs: [] } });
    // REMASC: empty call data (every REMASC transaction's) runs processMinersFees.
    expect(table['0x0000000000000000000000000000000001000008']!.functions).toEqual({
      [sel('processMinersFees()')]: { name: 'processMinersFees', inputs: [] },
      [sel('getStateForDebugging()')]: { name: 'getStateForDebugging', inputs: [] },
      '0x': { name: 'processMinersFees', inputs: [] },
    });
  });
});

/**
 * The Bridge's method table (src/chain/native/bridge/methods.ts) against the published ABI and
 * rskj master's BridgeMethods.java (d987a4c; regtest activates every RSKIP from block 0).
 */
describe("the Bridge's table covers the published ABI and rskj master's methods", () => {
  const bridgeAbi = createRequire(import.meta.url)('@rsksmart/rsk-precompiled-abis').bridge.abi as { type: string; name: string; inputs: { type: string }[] }[];
  /** In the package, absent from the node, and why. */
  const KNOWINGLY_ABSENT: Record<string, string> = {
    // BridgeMethods.java: enabled only while an RSKIP is NOT active; regtest activates them all.
    addFederatorPublicKey: 'replaced by addFederatorPublicKeyMultikey (RSKIP123)',
    getFederatorPublicKey: 'replaced by getFederatorPublicKeyOfType (RSKIP123)',
    getRetiringFederatorPublicKey: 'replaced by getRetiringFederatorPublicKeyOfType (RSKIP123)',
    getPendingFederatorPublicKey: 'replaced by getPendingFederatorPublicKeyOfType (RSKIP123)',
    addLockWhitelistAddress: 'replaced by addOneOffLockWhitelistAddress (RSKIP87)',
  };
  /** rskj master BridgeMethods.java entries enabled on regtest but not in the package 8.0.0 (its ABI predates them). */
  const MASTER_ONLY = ['getEstimatedFeesForPegOutAmount', 'getSuperEvent', 'setSuperEvent', 'clearSuperEvent', 'getBaseEvent', 'setBaseEvent', 'clearBaseEvent'];

  it('answers every function of the package by its selector, or lists why not', async () => {
    const { bridgeMethodBySelector } = await import('../../src/chain/native/bridge/index.js');
    const missing: string[] = [];
    for (const f of bridgeAbi.filter((item) => item.type === 'function')) {
      const signature = `${f.name}(${f.inputs.map((p) => p.type.replace(/^(u?int)$/, '$1256')).join(',')})`;
      const method = bridgeMethodBySelector(Uint8Array.from(Buffer.from(sel(signature).slice(2), 'hex')));
      if (method === undefined) missing.push(f.name);
      else expect(method.name, signature).toBe(f.name);
    }
    expect(missing.sort()).toEqual(Object.keys(KNOWINGLY_ABSENT).sort());
  });

  it("has rskj master's methods the package lacks", async () => {
    const { BRIDGE_METHODS } = await import('../../src/chain/native/bridge/methods.js');
    const names = new Set(BRIDGE_METHODS.map((m) => m.name));
    for (const name of MASTER_ONLY) expect(names.has(name), name).toBe(true);
    expect(bridgeAbi.some((f) => MASTER_ONLY.includes(f.name))).toBe(false);
  });
});
