/**
 * The Bridge's BTC header chain follows the network's Bitcoin regtest chain (btc_): the
 * BTC-chain getters, through ethers with the published Bridge ABI, answer the heights, hashes and
 * headers btc_ answers, per network, and follow evm_revert and evm_reset.
 */
import { describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider } from 'ethers';
import { call, type TestNode } from '../helpers/node.js';
import { BRIDGE, bridgeContract, bridgeNodeForTests, type BridgeNode } from '../helpers/bridge-contract.js';

/** btc-chain/constants.ts PREMINED_BLOCKS: a new chain's Bitcoin tip height. */
const PREMINED = 101;

let t: TestNode;
let bridge: Contract;
let btc: BridgeNode['btc'];

bridgeNodeForTests((node) => ({ t, bridge, btc } = node));

describe("the Bridge's BTC header chain follows the local Bitcoin chain", () => {
  it('a new chain: best height and header are the premined tip, the initial block is regtest genesis (height 0)', async () => {
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(PREMINED));
    expect(await bridge.getBtcBlockchainInitialBlockHeight!()).toBe(0n);
    expect(await bridge.getBtcBlockchainBestBlockHeader!()).toBe('0x' + (await btc('btc_getBlockHeader', [PREMINED])));
    expect(await bridge.getBtcBlockchainBlockHashAtDepth!(PREMINED)).toBe('0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206');
  });

  it('after btc_mine the getters answer the new height, hashes and header', async () => {
    const hashes = (await btc('btc_mine', [3])) as string[];
    const best = PREMINED + 3;
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(best));
    expect(await bridge.getBtcBlockchainBlockHashAtDepth!(0)).toBe('0x' + hashes[2]);
    expect(await bridge.getBtcBlockchainBlockHashAtDepth!(2)).toBe('0x' + hashes[0]);
    expect(await bridge.getBtcBlockchainBestBlockHeader!()).toBe('0x' + (await btc('btc_getBlockHeader', [best])));
    const info = await btc('btc_getBlock', [best - 5]);
    expect(await bridge.getBtcBlockchainBlockHashAtDepth!(5)).toBe('0x' + info.hash);
    expect((await call(t.testnetUrl, 'eth_bridgeState')).btcBlockchainBestChainHeight).toBe(best);
  });

  it('the RSKIP220 header getters answer the headers btc_getBlockHeader answers, by hash, by height and as parent', async () => {
    const [hash] = (await btc('btc_mine', [1])) as string[];
    const best = Number(await bridge.getBtcBlockchainBestChainHeight!());
    const header = '0x' + (await btc('btc_getBlockHeader', [best]));
    const parent = '0x' + (await btc('btc_getBlockHeader', [best - 1]));
    expect(await bridge.getBtcBlockchainBlockHeaderByHash!('0x' + hash)).toBe(header);
    expect(await bridge.getBtcBlockchainBlockHeaderByHeight!(best)).toBe(header);
    expect(await bridge.getBtcBlockchainBlockHeaderByHeight!(0)).toBe('0x' + (await btc('btc_getBlockHeader', [0])));
    expect(await bridge.getBtcBlockchainParentBlockHeaderByHash!('0x' + hash)).toBe(parent);
  });

  it('the RSKIP220 header getters answer empty bytes for an unknown hash, a height above the tip, the parent of genesis', async () => {
    const best = Number(await bridge.getBtcBlockchainBestChainHeight!());
    const genesis = '0x' + (await btc('btc_getBlock', [0])).hash;
    expect(await bridge.getBtcBlockchainBlockHeaderByHash!('0x' + 'ab'.repeat(32))).toBe('0x');
    expect(await bridge.getBtcBlockchainParentBlockHeaderByHash!('0x' + 'ab'.repeat(32))).toBe('0x');
    expect(await bridge.getBtcBlockchainBlockHeaderByHeight!(best + 1)).toBe('0x');
    expect(await bridge.getBtcBlockchainParentBlockHeaderByHash!(genesis)).toBe('0x');
  });

  it('a depth past the initial block fails as rskj (IndexOutOfBoundsException): the eth_call answers no data', async () => {
    const best = Number(await bridge.getBtcBlockchainBestChainHeight!());
    const ok = bridge.interface.encodeFunctionData('getBtcBlockchainBlockHashAtDepth', [best]);
    const past = bridge.interface.encodeFunctionData('getBtcBlockchainBlockHashAtDepth', [best + 1]);
    expect(await call(t.testnetUrl, 'eth_call', [{ to: BRIDGE, data: ok }, 'latest'])).not.toBe('0x');
    expect(await call(t.testnetUrl, 'eth_call', [{ to: BRIDGE, data: past }, 'latest'])).toBe('0x');
  });

  it('each network has its own Bitcoin chain, and the Bridge of each follows its own', async () => {
    const testnet = Number(await bridge.getBtcBlockchainBestChainHeight!());
    await call(t.mainnetUrl, 'btc_mine', [2]);
    const mainnetBridge = bridgeContract(new JsonRpcProvider(t.mainnetUrl, undefined, { staticNetwork: true }));
    expect(await mainnetBridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(PREMINED + 2));
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(testnet));
    (mainnetBridge.runner as JsonRpcProvider).destroy();
  });

  it('follows evm_revert and evm_reset back to the earlier Bitcoin tip', async () => {
    const before = await bridge.getBtcBlockchainBestChainHeight!();
    const snapshot = await call(t.testnetUrl, 'evm_snapshot');
    await btc('btc_mine', [4]);
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(before + 4n);
    await call(t.testnetUrl, 'evm_revert', [snapshot]);
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(before);
    await call(t.testnetUrl, 'evm_reset');
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(BigInt(PREMINED));
    expect((await call(t.testnetUrl, 'eth_bridgeState')).btcBlockchainBestChainHeight).toBe(PREMINED);
  });
});
