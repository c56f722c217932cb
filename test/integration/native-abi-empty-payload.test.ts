/**
 * Regression: the Bridge decoded its arguments with a strict standard ABI coder, so a call with the
 * selector and no arguments failed, where rskj (Bridge.parseData → CallTransaction.Function.decode →
 * SolidityType.IntType.decodeInt) reads every integer argument of an empty payload as 0, as the
 * other native contracts here already did. Both now share native/abi.ts; checked through eth_call
 * and eth_estimateGas, as a user sends such data.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interface, JsonRpcProvider } from 'ethers';
import { COW, call, startTestNode, type TestNode } from '../helpers/node.js';
import { BLOCK_HEADER_ABI } from '../fixtures/native-abis.js';

const require = createRequire(import.meta.url);
const bridgeAbi = require('@rsksmart/rsk-precompiled-abis').bridge as { abi: unknown[] };
const hdWalletUtils = require('@rsksmart/rsk-precompiled-abis').hdWalletUtils as { abi: unknown[]; address: string };
const BRIDGE = '0x0000000000000000000000000000000001000006';
const BLOCK_HEADER = '0x0000000000000000000000000000000001000010';
const bridge = new Interface(bridgeAbi.abi as never);
const header = new Interface(BLOCK_HEADER_ABI);
const hd = new Interface(hdWalletUtils.abi as never);

let t: TestNode;
let provider: JsonRpcProvider;

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  for (let i = 0; i < 2; i++) await call(t.testnetUrl, 'evm_mine');
});
afterAll(async () => {
  provider?.destroy();
  await t?.close();
});

const selectorOnly = (iface: Interface, name: string) => iface.getFunction(name)!.selector;
const ethCall = (to: string, data: string) => call(t.testnetUrl, 'eth_call', [{ from: COW.address, to, data }, 'latest']) as Promise<string>;

describe('a native call with the selector and no arguments (rskj: integers read 0)', () => {
  it('Bridge getBtcBlockchainBlockHashAtDepth() answers as depth 0', async () => {
    const depthZero = await ethCall(BRIDGE, bridge.encodeFunctionData('getBtcBlockchainBlockHashAtDepth', [0]));
    // Depth 0 is the Bitcoin chain's tip (the Bridge follows btc_).
    expect(bridge.decodeFunctionResult('getBtcBlockchainBlockHashAtDepth', depthZero)[0]).toBe('0x' + (await call(t.testnetUrl, 'btc_getInfo')).bestblockhash);
    expect(await ethCall(BRIDGE, selectorOnly(bridge, 'getBtcBlockchainBlockHashAtDepth'))).toBe(depthZero);
  });

  it('Bridge: the price is the method cost plus 2 gas per byte of the 4 bytes, not the unparsable-data price', async () => {
    const data = selectorOnly(bridge, 'getBtcBlockchainBlockHashAtDepth');
    const intrinsic = 21_000n + 4n * 16n; // four non-zero selector bytes
    expect(await provider.estimateGas({ from: COW.address, to: BRIDGE, data })).toBe(intrinsic + 20_000n + 2n * 4n);
  });

  it('BlockHeader getBlockHash() answers as depth 0', async () => {
    const depthZero = await ethCall(BLOCK_HEADER, header.encodeFunctionData('getBlockHash', [0]));
    expect(header.decodeFunctionResult('getBlockHash', depthZero)[0]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await ethCall(BLOCK_HEADER, selectorOnly(header, 'getBlockHash'))).toBe(depthZero);
  });
});

describe('a native call with the selector and no arguments (rskj: a bytes or string argument fails)', () => {
  it('Bridge getFederatorPublicKeyOfType() (int256, string) fails with no data', async () => {
    expect(await ethCall(BRIDGE, selectorOnly(bridge, 'getFederatorPublicKeyOfType'))).toBe('0x');
  });

  it('HDWalletUtils toBase58Check() (bytes, int) fails with no data', async () => {
    expect(await ethCall(hdWalletUtils.address, selectorOnly(hd, 'toBase58Check'))).toBe('0x');
  });
});
