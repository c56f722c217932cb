/**
 * eth_getLogs on the default persistent path (a LevelDB data directory, as `npm start` runs):
 * the log index read in batches, the logs kept in memory for recent blocks, and both following
 * evm_revert and a restart over the same directory. Driven through ethers as a dapp would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, getCreateAddress } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, startTestNode, type TestNode } from '../helpers/node.js';

const RECIPIENTS = ['0x00000000000000000000000000000000000000b1', '0x00000000000000000000000000000000000000b2'];
const TRANSFERS = 12;

describe('eth_getLogs over a LevelDB data directory', () => {
  const dirs: string[] = [];
  let t: TestNode | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (dataDir: string) => {
    t = await startTestNode({ inMemory: false, dataDir });
    // cacheTimeout -1: ethers answers a request identical to one made in the last 250 ms from its own cache.
    const provider = new JsonRpcProvider(t.testnetUrl, 31, { staticNetwork: true, polling: true, pollingInterval: 10, cacheTimeout: -1 });
    return { provider, wallet: new Wallet(COW.privateKey, provider) };
  };

  it('finds every Transfer by address and by topic, forgets reverted blocks, and reads the same logs after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'persistent-logs-'));
    dirs.push(dir);
    let { provider, wallet } = await start(dir);
    const token = (await (await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(10n ** 24n)).waitForDeployment()) as Contract;
    const address = await token.getAddress();
    const first = (await token.deploymentTransaction()!.wait())!.blockNumber;
    // Nonces counted here: a cached 'pending' count can lag one automined block behind.
    let nonce = await wallet.getNonce();
    const transfer = async (to: string, amount: bigint) => (await token.transfer!(to, amount, { nonce: nonce++ })).wait();
    for (let i = 0; i < TRANSFERS; i++) await transfer(RECIPIENTS[i % 2]!, BigInt(i + 1));

    const all = await token.queryFilter(token.filters.Transfer!(), first + 1);
    expect(all.map((log) => (log as { args: unknown[] }).args[2])).toEqual(Array.from({ length: TRANSFERS }, (_, i) => BigInt(i + 1)));
    const toSecond = await token.queryFilter(token.filters.Transfer!(null, RECIPIENTS[1]), first + 1);
    expect(toSecond).toHaveLength(TRANSFERS / 2);
    // Asked twice: the second answer comes from the logs kept in memory and must be the same.
    expect((await token.queryFilter(token.filters.Transfer!(), first + 1)).map((l) => l.transactionHash)).toEqual(all.map((l) => l.transactionHash));

    // A snapshot, more transfers, a revert: the dropped blocks' logs are gone from index and memory.
    const snapshot = await provider.send('evm_snapshot', []);
    const beforeRevert = nonce;
    for (let i = 0; i < 3; i++) await transfer(RECIPIENTS[1]!, 1_000n + BigInt(i));
    expect(await token.queryFilter(token.filters.Transfer!(), first + 1)).toHaveLength(TRANSFERS + 3);
    expect(await provider.send('evm_revert', [snapshot])).toBe(true);
    const afterRevert = await provider.getLogs({ address, fromBlock: first + 1, toBlock: 'latest' });
    expect(afterRevert.map((l) => l.transactionHash)).toEqual(all.map((l) => l.transactionHash));
    // A new block at a reverted height: its log, not the reverted one's.
    nonce = beforeRevert;
    const replacement = await transfer(RECIPIENTS[0]!, 7n);
    const atHeight = await provider.getLogs({ address, fromBlock: replacement!.blockNumber, toBlock: replacement!.blockNumber });
    expect(atHeight.map((l) => l.transactionHash)).toEqual([replacement!.hash]);

    // The same directory again: the logs come from disk (receipts and the index).
    const expected = await provider.getLogs({ address, fromBlock: first + 1, toBlock: replacement!.blockNumber });
    expect(expected).toHaveLength(TRANSFERS + 1);
    provider.destroy();
    await t!.close();
    ({ provider } = await start(dir));
    const reopened = await provider.getLogs({ address, fromBlock: first + 1, toBlock: replacement!.blockNumber });
    expect(reopened.map((l) => [l.blockNumber, l.transactionHash, l.index, l.data])).toEqual(expected.map((l) => [l.blockNumber, l.transactionHash, l.index, l.data]));
    provider.destroy();
  });

  // The log index's postings a query read stay in memory (storage/log-postings.ts): a block mined
  // again at a height a query had seen without the token's logs must still be found.
  it('forgets the postings a query kept when evm_revert or hardhat_reset drops their blocks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'persistent-logs-'));
    dirs.push(dir);
    const { provider, wallet } = await start(dir);
    let nonce = await wallet.getNonce();
    const token = (await (await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(10n ** 24n, { nonce: nonce++ })).waitForDeployment()) as Contract;
    const address = await token.getAddress();
    // The deployment's block holds the mint's Transfer: the queries start after it.
    const after = (await token.deploymentTransaction()!.wait())!.blockNumber + 1;

    const snapshot = await provider.send('evm_snapshot', []);
    const plain = await (await wallet.sendTransaction({ to: RECIPIENTS[0], value: 1n, nonce })).wait();
    expect(await provider.getLogs({ address, fromBlock: after, toBlock: 'latest' })).toEqual([]);
    expect(await provider.send('evm_revert', [snapshot])).toBe(true);
    const sent = await (await token.transfer!(RECIPIENTS[1], 5n, { nonce })).wait();
    expect(sent!.blockNumber).toBe(plain!.blockNumber);
    const afterRevert = await provider.getLogs({ address, fromBlock: after, toBlock: sent!.blockNumber });
    expect(afterRevert.map((l) => l.transactionHash)).toEqual([sent!.hash]);

    // hardhat_reset: the same sender's first contract lands at the address a query saw empty before.
    await provider.send('hardhat_reset', []);
    const firstContract = getCreateAddress({ from: wallet.address, nonce: 0 });
    for (let n = 0; n < 2; n++) await (await wallet.sendTransaction({ to: RECIPIENTS[0], value: 1n, nonce: n })).wait();
    expect(await provider.getLogs({ address: firstContract, fromBlock: 2, toBlock: 'latest' })).toEqual([]);
    await provider.send('hardhat_reset', []);
    const again = (await (await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(10n ** 24n, { nonce: 0 })).waitForDeployment()) as Contract;
    expect(await again.getAddress()).toBe(firstContract);
    const transfer = await (await again.transfer!(RECIPIENTS[1], 9n, { nonce: 1 })).wait();
    const afterReset = await provider.getLogs({ address: firstContract, fromBlock: 2, toBlock: transfer!.blockNumber });
    expect(afterReset.map((l) => l.transactionHash)).toEqual([transfer!.hash]);
    provider.destroy();
  });
});
