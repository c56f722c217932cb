/**
 * The Bridge (0x…01000006) through a real node and ethers with the published ABI.
 * Needs bridgeContract registered as a native contract (src/chain/native/registry.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { rpc, type TestNode } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';
import { BRIDGE, bridgeContract } from '../helpers/bridge-contract.js';

/** Runtime: forward calldata to the Bridge with all gas; slot 0 = CALL success, slot 1 = RETURNDATASIZE. */
const RELAY_RUNTIME = '36600060003760006000366000600073' + '0000000000000000000000000000000001000006' + '5af16000553d60015500'; // 46 bytes
const RELAY_INIT = '602e600c600039602e6000f3'; // CODECOPY 46 bytes from offset 12, RETURN them

let t: TestNode;
let provider: JsonRpcProvider;
let bridge: Contract;
let wallet: Wallet;

ethersNodeForTests((node) => {
  ({ t, provider, wallet } = node);
  bridge = bridgeContract(provider);
});

describe('Bridge read methods through eth_call', () => {
  it('answers rskj regtest values with their ABI types', async () => {
    expect(await bridge.getFederationAddress!()).toBe('2MvQSG61B4LtKLECeo1dRDeDWXgJfnr3fC7');
    expect(await bridge.getFederationSize!()).toBe(3n);
    expect(await bridge.getFederationThreshold!()).toBe(2n);
    expect(await bridge.getFederationCreationTime!()).toBe(1_451_606_400n);
    expect(await bridge.getFederationCreationBlockNumber!()).toBe(1n);
    expect(await bridge.getFederatorPublicKeyOfType!(0, 'btc')).toBe('0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1');
    expect(await bridge.getMinimumLockTxValue!()).toBe(500_000n);
    expect(await bridge.getLockingCap!()).toBe(100_000_000_000n);
    expect(await bridge.getFeePerKb!()).toBe(100_000n);
    // The BTC chain is the network's Bitcoin regtest chain: genesis and 101 premined blocks (bridge-btc-headers.test.ts).
    expect(await bridge.getBtcBlockchainBestChainHeight!()).toBe(101n);
    expect(await bridge.getBtcBlockchainInitialBlockHeight!()).toBe(0n);
    expect(await bridge.getBtcBlockchainBlockHashAtDepth!(101)).toBe('0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206');
    expect(((await bridge.getBtcBlockchainBestBlockHeader!()) as string).length).toBe(2 + 160);
    expect(await bridge.isBtcTxHashAlreadyProcessed!('ab'.repeat(32))).toBe(false);
    expect(await bridge.getBtcTxHashProcessedHeight!('ab'.repeat(32))).toBe(-1n);
    expect(((await bridge.getActivePowpegRedeemScript!()) as string).length).toBe(2 + 504);
    expect(await bridge.getNextPegoutCreationBlockNumber!()).toBe(0n);
    expect(await bridge.getQueuedPegoutsCount!()).toBe(0n);
    expect(await bridge.getEstimatedFeesForNextPegOutEvent!()).toBe(34_400n);
  });

  it('eth_bridgeState agrees with getBtcBlockchainBestChainHeight', async () => {
    const height = await bridge.getBtcBlockchainBestChainHeight!();
    const { body } = await rpc(t.testnetUrl, 'eth_bridgeState');
    expect(body.result).toEqual({ rskTxsWaitingForSignatures: [], btcBlockchainBestChainHeight: Number(height) });
  });
});

describe('Bridge calls from a contract in mined transactions', () => {
  let relay: string;
  beforeAll(async () => {
    const tx = await wallet.sendTransaction({ data: '0x' + RELAY_INIT + RELAY_RUNTIME, gasLimit: 200_000, type: 0 });
    relay = (await tx.wait())!.contractAddress!;
  });

  async function relayed(data: string) {
    const tx = await wallet.sendTransaction({ to: relay, data, gasLimit: 300_000, type: 0 });
    await tx.wait();
    return { success: BigInt(await provider.getStorage(relay, 0)), returnSize: BigInt(await provider.getStorage(relay, 1)) };
  }

  it('a local-only method (getFederationAddress) is refused: CALL returns 0 and no data', async () => {
    expect(await relayed(bridge.interface.encodeFunctionData('getFederationAddress'))).toEqual({ success: 0n, returnSize: 0n });
  });

  it('a method open to contracts (getBtcBlockchainBestChainHeight) answers one word', async () => {
    expect(await relayed(bridge.interface.encodeFunctionData('getBtcBlockchainBestChainHeight'))).toEqual({ success: 1n, returnSize: 32n });
  });

  it('registerBtcTransaction fails and leaves the Bridge balance as it was', async () => {
    const before = await provider.getBalance(BRIDGE);
    const r = await relayed(bridge.interface.encodeFunctionData('registerBtcTransaction', ['0x01', 1, '0x02']));
    expect(r).toEqual({ success: 0n, returnSize: 0n });
    expect(await provider.getBalance(BRIDGE)).toBe(before);
  });
});
