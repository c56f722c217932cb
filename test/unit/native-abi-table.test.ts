/**
 * The explorer's table of native ABIs (src/server/native-abis.ts, GET /explorer/api/native-abis)
 * covers every native contract the node registers that has functions (all but the secp256k1
 * precompiles, which take raw input), under the registry's name, with Solidity's selectors
 * computed independently here with ethers.
 */
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
