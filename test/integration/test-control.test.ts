/**
 * Test control (issue 4, reference 10.2): evm_snapshot / evm_revert / evm_reset with rskj's
 * semantics, the clock (evm_mine with a timestamp, evm_increaseTime, evm_setNextBlockTimestamp),
 * mining many blocks in one call, the anvil_ / hardhat_ state helpers and impersonation, driven
 * through viem's test client (anvil and hardhat modes), ethers and raw JSON-RPC.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionResult,
  encodeFunctionData,
  http,
  keccak256,
  numberToHex,
  pad,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, rpcFailure, startTestNode, type TestNode } from '../helpers/node.js';
import { devnodeChain, ETHER, MIN_GAS_PRICE, REMASC, ZERO } from '../helpers/viem-chain.js';

const GENESIS_BALANCE = 10n ** 30n;
const storeAbi = contracts.MappingStore.abi as Abi;
const tokenAbi = contracts.Token.abi as Abi;

/** Everything one node needs: its URL, viem's test clients in both modes, a public client, ethers. */
function clientsFor(t: TestNode) {
  const url = t.testnetUrl;
  const chain = devnodeChain(url);
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  return {
    url,
    chain,
    anvil: createTestClient({ mode: 'anvil', transport: http(url), chain }),
    hardhat: createTestClient({ mode: 'hardhat', transport: http(url), chain }),
    publicClient: createPublicClient({ chain, transport: http(url), pollingInterval: 50 }),
    provider,
    wallet: new Wallet(COW.privateKey, provider),
  };
}

type Clients = ReturnType<typeof clientsFor>;

/** Starts a node before the enclosing describe block's tests, hands `use` its clients, and closes both after them. */
function nodeForBlock(use: (c: Clients) => void): void {
  let t: TestNode | undefined;
  let c: Clients | undefined;
  beforeAll(async () => {
    t = await startTestNode();
    c = clientsFor(t);
    use(c);
  });
  afterAll(async () => {
    c?.provider.destroy();
    await t?.close();
  });
}

const hexOf = (n: bigint | number) => `0x${n.toString(16)}`;
const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Address;

async function headNumber(url: string): Promise<bigint> {
  return BigInt(await call(url, 'eth_blockNumber'));
}

async function block(url: string, id: string, full = false): Promise<any> {
  return call(url, 'eth_getBlockByNumber', [id, full]);
}

async function balance(url: string, address: string, tag = 'latest'): Promise<bigint> {
  return BigInt(await call(url, 'eth_getBalance', [address, tag]));
}

async function nonceOf(url: string, address: string, tag = 'latest'): Promise<bigint> {
  return BigInt(await call(url, 'eth_getTransactionCount', [address, tag]));
}

/** A garbage collector for heap measurements, whether or not node runs with --expose-gc. */
function collector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

// ---- snapshots -----------------------------------------------------------------------------------

describe('evm_snapshot / evm_revert / evm_reset', () => {
  let c: Clients;
  nodeForBlock((clients) => (c = clients));
  // Every test starts from genesis with no snapshots.
  beforeEach(async () => {
    expect(await call(c.url, 'evm_reset')).toBeNull();
    expect(await headNumber(c.url)).toBe(0n);
  });

  it('numbers snapshots "0x1", "0x2", ... through viem (both modes), ethers and raw JSON-RPC', async () => {
    expect(await c.anvil.snapshot()).toBe('0x1');
    expect(await c.hardhat.snapshot()).toBe('0x2');
    expect(await c.provider.send('evm_snapshot', [])).toBe('0x3');
    expect(await call(c.url, 'evm_snapshot')).toBe('0x4');
    // Reverting to 0x2 keeps 0x1 and 0x2 and drops the later ones: the next id is 0x3 again.
    expect(await call(c.url, 'evm_revert', ['0x2'])).toBe(true);
    expect(await call(c.url, 'evm_revert', ['0x4'])).toBe(false);
    expect(await call(c.url, 'evm_snapshot')).toBe('0x3');
  });

  it('reverts 50+ blocks: same head number and hash, balances and nonces; receipts, logs and blocks above are gone', async () => {
    // History before the snapshot.
    const first = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 1_000n });
    expect((await first.wait())!.status).toBe(1);
    const head = await block(c.url, 'latest');
    expect(head.number).toBe('0x1');
    const cowBalance = await balance(c.url, COW.address);
    const cow1Balance = await balance(c.url, COW1.address);
    const cowNonce = await nonceOf(c.url, COW.address);
    expect(cowNonce).toBe(1n);
    const remascBalance = await balance(c.url, REMASC);

    const id = await c.anvil.snapshot();
    expect(id).toBe('0x1');

    // A deployment with logs, a transfer, then 50 empty blocks.
    const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, c.wallet);
    const token = await factory.deploy(1_000n, { type: 0 });
    const deployReceipt = (await token.deploymentTransaction()!.wait())!;
    const tokenAddress = (await token.getAddress()).toLowerCase();
    expect(deployReceipt.logs.length).toBe(1);
    const transfer = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 12_345n });
    const transferReceipt = (await transfer.wait())!;
    expect(transferReceipt.blockNumber).toBe(3);
    await c.anvil.mine({ blocks: 50 });
    expect(await headNumber(c.url)).toBe(53n);
    const dropped = await block(c.url, '0x35');
    expect(dropped.number).toBe('0x35');
    expect(await balance(c.url, COW1.address)).toBe(cow1Balance + 12_345n);
    const logFilter = { fromBlock: '0x0', toBlock: 'latest', address: tokenAddress };
    expect((await call(c.url, 'eth_getLogs', [logFilter])).length).toBe(1);

    expect(await call(c.url, 'evm_revert', [id])).toBe(true);

    expect(await headNumber(c.url)).toBe(1n);
    const after = await block(c.url, 'latest');
    expect(after.hash).toBe(head.hash);
    expect(after.stateRoot).toBe(head.stateRoot);
    expect(await balance(c.url, COW.address)).toBe(cowBalance);
    expect(await balance(c.url, COW1.address)).toBe(cow1Balance);
    expect(await balance(c.url, REMASC)).toBe(remascBalance);
    expect(await nonceOf(c.url, COW.address)).toBe(cowNonce);
    expect(await nonceOf(c.url, COW.address, 'pending')).toBe(cowNonce);
    // Receipts, transactions, indexes and blocks above the snapshot are gone.
    expect(await call(c.url, 'eth_getTransactionReceipt', [transfer.hash])).toBeNull();
    expect(await call(c.url, 'eth_getTransactionReceipt', [deployReceipt.hash])).toBeNull();
    expect(await call(c.url, 'eth_getTransactionByHash', [transfer.hash])).toBeNull();
    expect(await block(c.url, '0x2')).toBeNull();
    expect(await block(c.url, '0x35')).toBeNull();
    expect(await call(c.url, 'eth_getBlockByHash', [dropped.hash, false])).toBeNull();
    expect(await call(c.url, 'eth_getBlockTransactionCountByNumber', ['0x2'])).toBeNull();
    expect(await call(c.url, 'eth_getLogs', [logFilter])).toEqual([]);
    expect(await call(c.url, 'eth_getLogs', [{ blockHash: deployReceipt.blockHash }])).toEqual([]);
    expect(await call(c.url, 'eth_getCode', [tokenAddress, 'latest'])).toBe('0x');
    // What was there before the snapshot is untouched.
    expect((await call(c.url, 'eth_getTransactionReceipt', [first.hash])).blockNumber).toBe('0x1');
    // The reverted snapshot stays usable (rskj).
    expect(await call(c.url, 'evm_revert', [id])).toBe(true);
    expect((await block(c.url, 'latest')).hash).toBe(head.hash);
  });

  it('nested snapshots: reverting to 2 keeps 1 and 2 usable and drops 3; unknown and dropped ids answer false', async () => {
    const s1 = await c.hardhat.snapshot();
    const h0 = await block(c.url, 'latest');
    await c.hardhat.mine({ blocks: 2 });
    const s2 = await c.hardhat.snapshot();
    const h2 = await block(c.url, 'latest');
    await c.hardhat.mine({ blocks: 3 });
    const s3 = await c.hardhat.snapshot();
    await c.hardhat.mine({ blocks: 4 });
    expect([s1, s2, s3]).toEqual(['0x1', '0x2', '0x3']);
    expect(await headNumber(c.url)).toBe(9n);

    expect(await call(c.url, 'evm_revert', [s2])).toBe(true);
    expect(await headNumber(c.url)).toBe(2n);
    expect((await block(c.url, 'latest')).hash).toBe(h2.hash);
    expect(await call(c.url, 'evm_revert', [s3])).toBe(false); // dropped
    expect(await headNumber(c.url)).toBe(2n);

    // The same snapshot twice, with blocks mined in between.
    await c.anvil.mine({ blocks: 5 });
    expect(await headNumber(c.url)).toBe(7n);
    expect(await call(c.url, 'evm_revert', [s2])).toBe(true);
    expect((await block(c.url, 'latest')).hash).toBe(h2.hash);
    expect(await call(c.url, 'evm_revert', [s2])).toBe(true);
    expect((await block(c.url, 'latest')).hash).toBe(h2.hash);

    // Unknown ids.
    expect(await call(c.url, 'evm_revert', ['0x0'])).toBe(false);
    expect(await call(c.url, 'evm_revert', ['0x63'])).toBe(false);
    expect(await call(c.url, 'evm_revert', ['0xffffffffffffffffffffffff'])).toBe(false);
    expect(await headNumber(c.url)).toBe(2n);

    // Back to 1: 2 is dropped now, 1 stays usable.
    expect(await call(c.url, 'evm_revert', [s1])).toBe(true);
    expect((await block(c.url, 'latest')).hash).toBe(h0.hash);
    expect(await call(c.url, 'evm_revert', [s2])).toBe(false);
    expect(await call(c.url, 'evm_revert', [s1])).toBe(true);
    expect(await c.anvil.snapshot()).toBe('0x2');
  });

  it('revert then new transactions: the nonce continues from the reverted state and no stale receipt survives', async () => {
    const base = await block(c.url, 'latest');
    const cow1Before = await balance(c.url, COW1.address);
    const id = await c.anvil.snapshot();

    const staleRaw = await c.wallet.signTransaction({ type: 0, to: COW1.address, value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: MIN_GAS_PRICE, chainId: 31n });
    const stale = await c.provider.broadcastTransaction(staleRaw);
    const staleReceipt = (await stale.wait())!;
    expect(staleReceipt.blockNumber).toBe(1);
    expect(stale.nonce).toBe(0);
    const staleBlockHash = staleReceipt.blockHash;
    expect(await nonceOf(c.url, COW.address)).toBe(1n);

    expect(await c.provider.send('evm_revert', [id])).toBe(true);
    expect(await nonceOf(c.url, COW.address)).toBe(0n);
    expect(await nonceOf(c.url, COW.address, 'pending')).toBe(0n);

    const fresh = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 2n });
    expect(fresh.nonce).toBe(0);
    expect(fresh.hash).not.toBe(stale.hash);
    const freshReceipt = (await fresh.wait())!;
    expect(freshReceipt.blockNumber).toBe(1);
    expect(freshReceipt.blockHash).not.toBe(staleBlockHash);
    expect((await block(c.url, '0x1')).parentHash).toBe(base.hash);

    expect(await call(c.url, 'eth_getTransactionReceipt', [stale.hash])).toBeNull();
    expect(await call(c.url, 'eth_getTransactionByHash', [stale.hash])).toBeNull();
    expect(await call(c.url, 'eth_getBlockByHash', [staleBlockHash, false])).toBeNull();
    const receipt = await call(c.url, 'eth_getTransactionReceipt', [fresh.hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.blockHash).toBe(freshReceipt.blockHash);
    expect((await block(c.url, '0x1')).transactions).toEqual([fresh.hash, expect.any(String)]);
    expect(await balance(c.url, COW1.address)).toBe(cow1Before + 2n);
    expect(await nonceOf(c.url, COW.address)).toBe(1n);

    // After another revert the first signed transaction is valid again, and the second one is gone.
    expect(await call(c.url, 'evm_revert', [id])).toBe(true);
    const replay = await call(c.url, 'eth_sendRawTransaction', [staleRaw]);
    expect(replay).toBe(stale.hash);
    expect((await call(c.url, 'eth_getTransactionReceipt', [stale.hash])).status).toBe('0x1');
    expect(await call(c.url, 'eth_getTransactionReceipt', [fresh.hash])).toBeNull();
  });

  it('restores the pool and the time offset exactly as they were at the snapshot; evm_reset clears both', async () => {
    expect(await call(c.url, 'evm_setAutomine', [false])).toBe(true);
    try {
      const kept = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 1n, nonce: 0, gasLimit: 21_000n });
      expect(await call(c.url, 'evm_increaseTime', ['100'])).toBe('0x64');
      const id = await c.anvil.snapshot();

      const dropped = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 2n, nonce: 1, gasLimit: 21_000n });
      expect(await call(c.url, 'evm_increaseTime', ['50'])).toBe('0x96');
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 2, queued: 0 });

      expect(await call(c.url, 'evm_revert', [id])).toBe(true);
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 1, queued: 0 });
      expect((await call(c.url, 'eth_getTransactionByHash', [kept.hash])).hash).toBe(kept.hash);
      expect(await call(c.url, 'eth_getTransactionByHash', [dropped.hash])).toBeNull();
      expect(await call(c.url, 'evm_increaseTime', ['0'])).toBe('0x64');

      // Mined after a revert, the restored pool and clock are what the block gets.
      const parent = await block(c.url, 'latest');
      const clockBefore = BigInt(Math.floor(Date.now() / 1000));
      await call(c.url, 'evm_mine');
      const mined = await block(c.url, 'latest');
      expect(mined.transactions.slice(0, 1)).toEqual([kept.hash]);
      expect(mined.transactions.length).toBe(2);
      expect(BigInt(mined.timestamp)).toBeGreaterThanOrEqual(clockBefore + 100n);
      expect(BigInt(mined.timestamp)).toBeGreaterThan(BigInt(parent.timestamp));

      // Back to the snapshot once more, then reset: pool and offset are gone.
      expect(await call(c.url, 'evm_revert', [id])).toBe(true);
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 1, queued: 0 });
      expect(await call(c.url, 'evm_reset')).toBeNull();
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });
      expect(await call(c.url, 'eth_getTransactionByHash', [kept.hash])).toBeNull();
      expect(await call(c.url, 'evm_increaseTime', ['0'])).toBe('0x0');
    } finally {
      await call(c.url, 'evm_setAutomine', [true]);
    }
  });

  it('a pooled transaction mined and then reverted to is rebuilt from its record and mines again, signed or impersonated', async () => {
    const whale = freshAddress();
    await c.anvil.setBalance({ address: whale, value: ETHER });
    await c.anvil.impersonateAccount({ address: whale });
    expect(await call(c.url, 'evm_setAutomine', [false])).toBe(true);
    try {
      const signed = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 7n, gasLimit: 21_000n });
      const impersonated = await call(c.url, 'eth_sendTransaction', [
        { from: whale, to: COW1.address, value: '0x9', gas: '0x5208', gasPrice: hexOf(MIN_GAS_PRICE) },
      ]);
      const id = await c.anvil.snapshot();
      await call(c.url, 'evm_mine');
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 0, queued: 0 });

      // The snapshot kept only their records; the revert rebuilds both transactions.
      expect(await call(c.url, 'evm_revert', [id])).toBe(true);
      expect(await call(c.url, 'txpool_status')).toEqual({ pending: 2, queued: 0 });
      await call(c.url, 'evm_mine');
      const mined = await block(c.url, 'latest');
      // The third transaction is REMASC's.
      expect(mined.transactions.slice(0, 2).sort()).toEqual([signed.hash, impersonated].sort());
      const receipts = await Promise.all([signed.hash, impersonated].map((hash) => call(c.url, 'eth_getTransactionReceipt', [hash])));
      expect(receipts.map((r) => [r.status, r.from])).toEqual([
        ['0x1', c.wallet.address.toLowerCase()],
        ['0x1', whale],
      ]);
      expect(await balance(c.url, whale)).toBe(ETHER - 9n - 21_000n * MIN_GAS_PRICE);
    } finally {
      await call(c.url, 'evm_setAutomine', [true]);
      await c.anvil.stopImpersonatingAccount({ address: whale });
    }
  });

  it('restores state set by the anvil_/hardhat_ helpers', async () => {
    const address = freshAddress();
    await c.anvil.setBalance({ address, value: 5n });
    const id = await c.anvil.snapshot();
    await c.hardhat.setBalance({ address, value: 7n });
    await c.hardhat.setNonce({ address, nonce: 9 });
    expect(await balance(c.url, address)).toBe(7n);
    expect(await call(c.url, 'evm_revert', [id])).toBe(true);
    expect(await balance(c.url, address)).toBe(5n);
    expect(await nonceOf(c.url, address)).toBe(0n);
    expect(await headNumber(c.url)).toBe(0n);
  });

  it('evm_reset goes back to genesis and drops every snapshot', async () => {
    await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 3n }).then((tx) => tx.wait());
    await c.anvil.mine({ blocks: 10 });
    const genesis = await block(c.url, '0x0');
    expect(await c.anvil.snapshot()).toBe('0x1');
    expect(await c.anvil.snapshot()).toBe('0x2');
    expect(await headNumber(c.url)).toBe(11n);

    expect(await call(c.url, 'evm_reset')).toBeNull();

    expect(await headNumber(c.url)).toBe(0n);
    expect((await block(c.url, 'latest')).hash).toBe(genesis.hash);
    expect(await block(c.url, '0x1')).toBeNull();
    expect(await balance(c.url, COW.address)).toBe(GENESIS_BALANCE);
    expect(await balance(c.url, COW1.address)).toBe(GENESIS_BALANCE);
    expect(await nonceOf(c.url, COW.address)).toBe(0n);
    expect(await call(c.url, 'evm_revert', ['0x1'])).toBe(false);
    expect(await call(c.url, 'evm_revert', ['0x2'])).toBe(false);
    expect(await c.anvil.snapshot()).toBe('0x1');
  });

  it('evm_revert with an id that is not a 0x-hex string answers -32602 (HTTP 400)', async () => {
    expect(await call(c.url, 'evm_snapshot')).toBe('0x1');
    for (const bad of ['1', 1, 'abc', '0x', '0xzz', true, {}]) {
      const { status, error } = await rpcFailure(c.url, 'evm_revert', [bad]);
      expect(error.code, JSON.stringify(bad)).toBe(-32602);
      expect(error.message, JSON.stringify(bad)).toContain('invalid snapshot id');
      expect(status, JSON.stringify(bad)).toBe(400);
    }
    // The snapshot is still there.
    expect(await call(c.url, 'evm_revert', ['0x1'])).toBe(true);
  });
});

// ---- the clock and mining many blocks ------------------------------------------------------------

describe('time and mining', () => {
  let c: Clients;
  nodeForBlock((clients) => (c = clients));

  it('evm_increaseTime (decimal and hex) returns the accumulated offset as hex; the next block consumes it', async () => {
    expect(await call(c.url, 'evm_mine')).toBeNull();
    const previous = await block(c.url, 'latest');

    expect(await call(c.url, 'evm_increaseTime', ['3600'])).toBe('0xe10');
    expect(await call(c.url, 'evm_increaseTime', ['0xe10'])).toBe('0x1c20');
    expect(await c.anvil.increaseTime({ seconds: 60 })).toBe('0x1c5c');
    expect(await c.provider.send('evm_increaseTime', [0])).toBe('0x1c5c');

    await call(c.url, 'evm_mine');
    const moved = await block(c.url, 'latest');
    expect(BigInt(moved.number)).toBe(BigInt(previous.number) + 1n);
    expect(BigInt(moved.timestamp)).toBeGreaterThanOrEqual(BigInt(previous.timestamp) + 7260n);
    expect(BigInt(moved.timestamp)).toBeLessThanOrEqual(BigInt(Math.floor(Date.now() / 1000)) + 7260n);

    // rskj: the offset is consumed by that block; the clock never goes back, so the next block is +1.
    expect(await call(c.url, 'evm_increaseTime', ['0'])).toBe('0x0');
    await call(c.url, 'evm_mine');
    expect(BigInt((await block(c.url, 'latest')).timestamp)).toBe(BigInt(moved.timestamp) + 1n);

    const bad = await rpcFailure(c.url, 'evm_increaseTime', ['ten']);
    expect(bad.error.code).toBe(-32602);
  });

  it('evm_mine with a timestamp mines at exactly that time (hex or number)', async () => {
    const latest = BigInt((await block(c.url, 'latest')).timestamp);
    expect(await call(c.url, 'evm_mine', [hexOf(latest + 1000n)])).toBeNull();
    expect(BigInt((await block(c.url, 'latest')).timestamp)).toBe(latest + 1000n);
    await c.provider.send('evm_mine', [Number(latest + 2000n)]);
    expect(BigInt((await block(c.url, 'latest')).timestamp)).toBe(latest + 2000n);
  });

  it('evm_setNextBlockTimestamp fixes the next block exactly; a timestamp in the past is -32602', async () => {
    const latest = await block(c.url, 'latest');
    const at = BigInt(latest.timestamp) + 500n;
    await c.anvil.setNextBlockTimestamp({ timestamp: at });
    // The next block, mined by a transaction (automine), carries it.
    const tx = await c.wallet.sendTransaction({ type: 0, to: COW1.address, value: 1n });
    const receipt = (await tx.wait())!;
    const mined = await block(c.url, hexOf(receipt.blockNumber));
    expect(BigInt(mined.timestamp)).toBe(at);
    expect(mined.number).toBe(hexOf(BigInt(latest.number) + 1n));

    // Hardhat mode sends the same method.
    await c.hardhat.setNextBlockTimestamp({ timestamp: at + 7n });
    await c.hardhat.mine({ blocks: 1 });
    expect(BigInt((await block(c.url, 'latest')).timestamp)).toBe(at + 7n);

    for (const past of [hexOf(at + 7n), hexOf(at - 10n), '0x1']) {
      const { status, error } = await rpcFailure(c.url, 'evm_setNextBlockTimestamp', [past]);
      expect(error.code, past).toBe(-32602);
      expect(status, past).toBe(400);
    }
  });

  it('hardhat_mine / anvil_mine mine thousands of blocks in one call, the interval apart', async () => {
    const start = await headNumber(c.url);
    const startedAt = performance.now();
    // viem's default 10 s request timeout is not about correctness; a loaded CI machine may need more.
    const patient = createTestClient({ mode: 'hardhat', transport: http(c.url, { timeout: 120_000 }), chain: c.chain });
    await patient.mine({ blocks: 5_000, interval: 2 });
    const elapsed = performance.now() - startedAt;
    console.log(`[test-control] hardhat_mine of 5,000 blocks: ${elapsed.toFixed(0)} ms`);
    expect(await headNumber(c.url)).toBe(start + 5_000n);

    const at = async (n: bigint) => block(c.url, hexOf(n), true);
    const firstNew = await at(start + 1n);
    const last = await at(start + 5_000n);
    expect(BigInt(last.timestamp) - BigInt(firstNew.timestamp)).toBe(2n * 4_999n);
    for (const n of [start + 1n, start + 2_500n, start + 4_999n]) {
      const [a, b] = [await at(n), await at(n + 1n)];
      expect(BigInt(b.timestamp) - BigInt(a.timestamp), `block ${n + 1n}`).toBe(2n);
      expect(b.parentHash).toBe(a.hash);
    }
    // Every block still closes with REMASC (nonce = number - 1).
    expect(last.transactions.length).toBe(1);
    expect(last.transactions[0].to).toBe(REMASC);
    expect(last.transactions[0].from).toBe(ZERO);
    expect(BigInt(last.transactions[0].nonce)).toBe(start + 4_999n);

    // anvil_mine with an interval, and ethers / raw JSON-RPC with the defaults (1 block, 1 s apart).
    await c.anvil.mine({ blocks: 5, interval: 7 });
    const afterAnvil = await headNumber(c.url);
    expect(afterAnvil).toBe(start + 5_005n);
    for (let n = afterAnvil - 3n; n <= afterAnvil; n++) {
      expect(BigInt((await at(n)).timestamp) - BigInt((await at(n - 1n)).timestamp)).toBe(7n);
    }
    await c.provider.send('hardhat_mine', ['0x3']);
    expect(await headNumber(c.url)).toBe(start + 5_008n);
    expect(BigInt((await at(start + 5_008n)).timestamp) - BigInt((await at(start + 5_007n)).timestamp)).toBe(1n);
    expect(await call(c.url, 'anvil_mine')).toBeNull();
    expect(await headNumber(c.url)).toBe(start + 5_009n);
  });
});

// ---- state helpers and impersonation -------------------------------------------------------------

describe('anvil_ / hardhat_ state helpers and impersonation', () => {
  let c: Clients;
  nodeForBlock((clients) => (c = clients));

  for (const mode of ['anvil', 'hardhat'] as const) {
    it(`${mode}_setBalance / setNonce / setCode / setStorageAt show at latest at once and persist into the next block`, async () => {
      const client = mode === 'anvil' ? c.anvil : c.hardhat;
      const account = freshAddress();
      const store = freshAddress();
      const before = await headNumber(c.url);
      const singleData = encodeFunctionData({ abi: storeAbi, functionName: 'single' });

      await client.setBalance({ address: account, value: 5n * ETHER });
      await client.setNonce({ address: account, nonce: 7 });
      await client.setCode({ address: store, bytecode: contracts.MappingStore.deployedBytecode });
      await client.setStorageAt({ address: store, index: 2, value: pad('0x2a') });

      // Visible at latest (and pending) without a block.
      expect(await headNumber(c.url)).toBe(before);
      expect(await balance(c.url, account)).toBe(5n * ETHER);
      expect(await balance(c.url, account, 'pending')).toBe(5n * ETHER);
      expect(await nonceOf(c.url, account)).toBe(7n);
      expect(await call(c.url, 'eth_getCode', [store, 'latest'])).toBe(contracts.MappingStore.deployedBytecode);
      expect(await call(c.url, 'eth_getStorageAt', [store, '0x2', 'latest'])).toBe(pad('0x2a'));
      expect(await call(c.url, 'eth_call', [{ to: store, data: singleData }, 'latest'])).toBe(pad('0x2a'));
      expect(await c.publicClient.readContract({ address: store, abi: storeAbi, functionName: 'single' })).toBe(42n);

      // The raw spellings, as Hardhat network helpers and Foundry send them.
      await call(c.url, `${mode}_setBalance`, [account, hexOf(6n * ETHER)]);
      await call(c.url, `${mode}_setNonce`, [account, '0x8']);
      await call(c.url, `${mode}_setStorageAt`, [store, '0x2', pad('0x2b')]);
      expect(await balance(c.url, account)).toBe(6n * ETHER);
      expect(await nonceOf(c.url, account)).toBe(8n);
      expect(await call(c.url, 'eth_getStorageAt', [store, '0x2', 'latest'])).toBe(pad('0x2b'));

      // They persist into the next mined block and the blocks after it.
      await call(c.url, 'evm_mine');
      const mined = hexOf(before + 1n);
      expect(await headNumber(c.url)).toBe(before + 1n);
      expect(await balance(c.url, account, mined)).toBe(6n * ETHER);
      expect(await nonceOf(c.url, account, mined)).toBe(8n);
      expect(await call(c.url, 'eth_getCode', [store, mined])).toBe(contracts.MappingStore.deployedBytecode);
      expect(await call(c.url, 'eth_getStorageAt', [store, '0x2', mined])).toBe(pad('0x2b'));

      // A transaction builds on the changed state: the contract runs, the balance adds up.
      const setSingle = await c.wallet.sendTransaction({
        type: 0,
        to: store,
        data: encodeFunctionData({ abi: storeAbi, functionName: 'setSingle', args: [99n] }),
      });
      expect((await setSingle.wait())!.status).toBe(1);
      expect(await call(c.url, 'eth_getStorageAt', [store, '0x2', 'latest'])).toBe(pad('0x63'));
      const pay = await c.wallet.sendTransaction({ type: 0, to: account, value: 1n });
      await pay.wait();
      expect(await balance(c.url, account)).toBe(6n * ETHER + 1n);
      expect(await nonceOf(c.url, account)).toBe(8n);
      expect(await call(c.url, 'eth_getCode', [store, 'latest'])).toBe(contracts.MappingStore.deployedBytecode);
    });
  }

  it('setCode of Token runtime code and setStorageAt of its balance slot make a readable token', async () => {
    const token = freshAddress();
    const holder = freshAddress();
    await c.anvil.setCode({ address: token, bytecode: contracts.Token.deployedBytecode });
    // Token's layout: name (0), symbol (1), totalSupply (2), balanceOf (3); decimals is a constant.
    const slot = keccak256(`${pad(holder)}${pad('0x3').slice(2)}` as Hex);
    await c.hardhat.setStorageAt({ address: token, index: slot, value: pad('0x0400') });
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'balanceOf', args: [holder] });
    const result = (await call(c.url, 'eth_call', [{ to: token, data }, 'latest'])) as Hex;
    expect(decodeFunctionResult({ abi: tokenAbi, functionName: 'balanceOf', data: result })).toBe(1024n);
  });

  it('impersonateAccount lets eth_sendTransaction send from an address without a key; stopImpersonating ends it', async () => {
    for (const mode of ['anvil', 'hardhat'] as const) {
      const client = mode === 'anvil' ? c.anvil : c.hardhat;
      const whale = freshAddress();
      const before = await balance(c.url, COW1.address);

      // Not a node key: refused as rskj refuses it.
      const refused = await rpcFailure(c.url, 'eth_sendTransaction', [{ from: whale, to: COW1.address, value: '0x1' }]);
      expect(refused.error.code).toBe(-32602);
      expect(refused.error.message).toBe(`Could not find account for address: ${whale}`);

      await client.setBalance({ address: whale, value: 10n * ETHER });
      await client.impersonateAccount({ address: whale });
      const hash = await call(c.url, 'eth_sendTransaction', [
        { from: whale, to: COW1.address, value: hexOf(ETHER), gas: '0x5208', gasPrice: hexOf(MIN_GAS_PRICE) },
      ]);
      const receipt = await call(c.url, 'eth_getTransactionReceipt', [hash]);
      expect(receipt.status).toBe('0x1');
      expect(receipt.from).toBe(whale);
      expect(receipt.to).toBe(COW1.address);
      const tx = await call(c.url, 'eth_getTransactionByHash', [hash]);
      expect(tx.from).toBe(whale);
      expect(tx.nonce).toBe('0x0');
      expect(await balance(c.url, whale)).toBe(10n * ETHER - ETHER - 21_000n * MIN_GAS_PRICE);
      expect(await balance(c.url, COW1.address)).toBe(before + ETHER);
      expect(await nonceOf(c.url, whale)).toBe(1n);

      // viem's wallet client with a JSON-RPC account (eth_sendTransaction) works too.
      const walletClient = createWalletClient({ account: whale, chain: c.chain, transport: http(c.url) });
      const viemHash = await walletClient.sendTransaction({ to: COW1.address, value: 5n, type: 'legacy', gasPrice: MIN_GAS_PRICE });
      const viemReceipt = await c.publicClient.waitForTransactionReceipt({ hash: viemHash, pollingInterval: 50 });
      expect(viemReceipt.status).toBe('success');
      expect(viemReceipt.from).toBe(whale);
      expect(await nonceOf(c.url, whale)).toBe(2n);
      expect(await balance(c.url, COW1.address)).toBe(before + ETHER + 5n);

      await client.stopImpersonatingAccount({ address: whale });
      const after = await rpcFailure(c.url, 'eth_sendTransaction', [{ from: whale, to: COW1.address, value: '0x1' }]);
      expect(after.error.code).toBe(-32602);
      expect(after.error.message).toBe(`Could not find account for address: ${whale}`);
      expect(await nonceOf(c.url, whale)).toBe(2n);
    }
  });
});

// ---- 10,000 snapshot / revert cycles -------------------------------------------------------------

describe('10,000 snapshot/revert cycles', () => {
  let t: TestNode;

  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(() => t?.close());

  it('complete, keep the chain exact, and do not grow the heap without bound', { timeout: 300_000 }, async () => {
    const provider = t.node.provider;
    const request = (method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<any>;
    const url = t.testnetUrl;

    // Some history, then one signed transaction that every cycle sends and reverts.
    await request('hardhat_mine', ['0xa']);
    const base = await block(url, 'latest');
    const cowBalance = await balance(url, COW1.address);
    const account = privateKeyToAccount(COW1.privateKey);
    const raw = await account.signTransaction({
      type: 'legacy',
      chainId: 31,
      nonce: 0,
      gasPrice: MIN_GAS_PRICE,
      gas: 21_000n,
      to: COW.address,
      value: 1n,
    });
    const hash = keccak256(raw);

    let mismatches = 0;
    let id = 0;
    const cycle = async () => {
      id++;
      if ((await request('evm_snapshot')) !== numberToHex(id)) mismatches++;
      if ((await request('eth_sendRawTransaction', [raw])) !== hash) mismatches++;
      if ((await request('evm_revert', [numberToHex(id)])) !== true) mismatches++;
    };
    const gc = collector();
    // Warm-up (JIT, caches) before the baseline.
    for (let i = 0; i < 500; i++) await cycle();
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const startedAt = performance.now();
    for (let i = 0; i < 10_000; i++) await cycle();
    const elapsed = performance.now() - startedAt;
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const growthMb = (heapAfter - heapBefore) / 2 ** 20;
    console.log(
      `[test-control] 10,000 snapshot/send/revert cycles: ${elapsed.toFixed(0)} ms; heapUsed ${(heapBefore / 2 ** 20).toFixed(1)} MB -> ${(heapAfter / 2 ** 20).toFixed(1)} MB (${growthMb >= 0 ? '+' : ''}${growthMb.toFixed(2)} MB${gc ? '' : ', no gc available'})`,
    );

    expect(mismatches).toBe(0);
    expect(id).toBe(10_500);
    // The chain is exactly where the cycles started (asked in process: the loop above starved the
    // event loop, so an idle HTTP keep-alive socket may be closing right now).
    const head = await request('eth_getBlockByNumber', ['latest', false]);
    expect(head.hash).toBe(base.hash);
    expect(await request('eth_getBlockByNumber', [hexOf(BigInt(base.number) + 1n), false])).toBeNull();
    expect(await request('eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await request('eth_getTransactionByHash', [hash])).toBeNull();
    expect(await request('eth_getTransactionCount', [COW1.address, 'latest'])).toBe('0x0');
    expect(BigInt(await request('eth_getBalance', [COW1.address, 'latest']))).toBe(cowBalance);
    expect(await request('txpool_status')).toEqual({ pending: 0, queued: 0 });
    // Every snapshot taken is still there (rskj keeps a reverted snapshot), and the next id follows.
    expect(await request('evm_snapshot')).toBe(numberToHex(10_501));
    // And the node still works, over HTTP too: the transaction mines for real.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await call(url, 'eth_sendRawTransaction', [raw])).toBe(hash);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.blockNumber).toBe(hexOf(BigInt(base.number) + 1n));
    expect(await balance(url, COW1.address)).toBe(cowBalance - 1n - 21_000n * MIN_GAS_PRICE);
    expect(await call(url, 'evm_revert', ['0x1'])).toBe(true);
    expect((await block(url, 'latest')).hash).toBe(base.hash);
    // Bound chosen generously; see the log line for the measured number.
    if (gc !== undefined) expect(growthMb).toBeLessThan(50);
  });
});
