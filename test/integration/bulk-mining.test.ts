/**
 * hardhat_mine on a data directory writes its blocks in chunks, one batch each with the head
 * (src/chain/storage/store.ts openChunk): the blocks must read the same as blocks written one by
 * one, during the call, after it and after a restart, and a live snapshot must still revert them
 * with the state nodes they were first to add.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet } from 'ethers';
import type { Chain } from '../../src/chain/chain.js';
import type { Kv } from '../../src/chain/storage/keys.js';
import { COW, type TestNode, startTestNode } from '../helpers/node.js';

const REMASC = '0x0000000000000000000000000000000001000008';
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
/** More than two chunks of 64 and a partial one. */
const BLOCKS = 150;

const dirs: string[] = [];
const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(dataDir: string): Promise<{ url: string; provider: JsonRpcProvider; node: TestNode }> {
  const node = await startTestNode({ inMemory: false, dataDir });
  nodes.push(node);
  return { url: node.testnetUrl, provider: new JsonRpcProvider(node.testnetUrl, undefined, { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 }), node };
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-mining-'));
  dirs.push(dir);
  return dir;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** Trie nodes in the chain's store (key prefix 0x06, src/chain/storage/keys.ts), as reverted-nodes.test.ts counts them. */
async function storedNodes(chain: Chain): Promise<number> {
  const kv = (chain as unknown as { store: { kv: Kv } }).store.kv;
  let count = 0;
  for await (const _ of kv.keys({ gte: Uint8Array.of(0x06), lt: Uint8Array.of(0x07) })) count++;
  return count;
}

/** Every block from 1 to `head`: linked to its parent, found by hash, its REMASC transaction and receipt found by hash. */
async function checkChain(provider: JsonRpcProvider, head: number): Promise<void> {
  let parentHash = (await provider.send('eth_getBlockByNumber', ['0x0', false])).hash;
  for (let n = 1; n <= head; n++) {
    const block = await provider.send('eth_getBlockByNumber', [hex(n), true]);
    expect(block, `block ${n}`).not.toBeNull();
    expect(block.parentHash, `parent of block ${n}`).toBe(parentHash);
    expect((await provider.send('eth_getBlockByHash', [block.hash, false])).number).toBe(hex(n));
    const remasc = block.transactions.at(-1);
    expect([remasc.from, remasc.to, remasc.nonce]).toEqual([ZERO_ADDRESS, REMASC, hex(n - 1)]);
    expect((await provider.send('eth_getTransactionByHash', [remasc.hash])).blockHash).toBe(block.hash);
    const receipt = await provider.send('eth_getTransactionReceipt', [remasc.hash]);
    expect([receipt.blockNumber, receipt.blockHash, receipt.status]).toEqual([hex(n), block.hash, '0x1']);
    parentHash = block.hash;
  }
}

describe('hardhat_mine on a data directory', () => {
  it('writes blocks that read whole after the call and after a restart, and mining goes on from the head', async () => {
    const dir = await dataDir();
    let { provider, node } = await start(dir);
    const wallet = new Wallet(COW.privateKey, provider);
    const recipient = Wallet.createRandom().address;
    expect((await (await wallet.sendTransaction({ to: recipient, value: 7n, type: 0 })).wait())?.blockNumber).toBe(1);
    await provider.send('hardhat_mine', [hex(BLOCKS)]);
    expect(Number(await provider.send('eth_blockNumber', []))).toBe(BLOCKS + 1);
    await checkChain(provider, BLOCKS + 1);
    const headBefore = await provider.send('eth_getBlockByNumber', ['latest', false]);
    const remascBalance = await provider.send('eth_getBalance', [REMASC, 'latest']);

    provider.destroy();
    await node.close();
    nodes.splice(0);
    ({ provider, node } = await start(dir));
    expect(await provider.send('eth_getBlockByNumber', ['latest', false])).toEqual(headBefore);
    expect(await provider.send('eth_getBalance', [REMASC, 'latest'])).toBe(remascBalance);
    expect(await provider.send('eth_getBalance', [recipient, 'latest'])).toBe('0x7');
    await checkChain(provider, BLOCKS + 1);
    const next = await new Wallet(COW.privateKey, provider).sendTransaction({ to: recipient, value: 5n, type: 0 });
    expect((await next.wait())?.blockNumber).toBe(BLOCKS + 2);
    expect(await provider.send('eth_getBalance', [recipient, 'latest'])).toBe('0xc');
    provider.destroy();
  });

  it('serves the blocks it has mined while the call is still mining', async () => {
    const { provider } = await start(await dataDir());
    let done = false;
    const mining = provider.send('hardhat_mine', [hex(4 * BLOCKS)]).finally(() => (done = true));
    let seen = 0;
    while (!done) {
      const block = await provider.send('eth_getBlockByNumber', ['latest', true]);
      const number = Number(block.number);
      expect((await provider.send('eth_getBlockByHash', [block.hash, false]))?.number, `block ${number} by hash`).toBe(block.number);
      if (number === 0) continue; // genesis has no REMASC transaction
      const remasc = block.transactions.at(-1);
      expect((await provider.send('eth_getTransactionReceipt', [remasc.hash]))?.blockHash, `REMASC receipt of block ${number}`).toBe(block.hash);
      seen++;
    }
    await mining;
    expect(seen).toBeGreaterThan(0);
    expect(Number(await provider.send('eth_blockNumber', []))).toBe(4 * BLOCKS);
    provider.destroy();
  });

  it('answers hash and transaction lookups of a block whose chunk is not written yet', async () => {
    const { node } = await start(await dataDir());
    const request = (method: string, params: unknown[]) => node.node.provider.request({ method, params }) as Promise<any>;
    // Issued from the block event, inside the chunk: before its batch is written.
    const lookups: Array<Promise<[string, unknown, unknown]>> = [];
    node.node.chains.testnet.events.on('block', (block) => {
      const hash = `0x${Buffer.from(block.hash).toString('hex')}`;
      const remasc = `0x${Buffer.from(block.transactions.at(-1)!.hash).toString('hex')}`;
      lookups.push(Promise.all([hash, request('eth_getBlockByHash', [hash, false]), request('eth_getTransactionReceipt', [remasc])]));
    });
    await request('hardhat_mine', [hex(BLOCKS)]);
    expect(lookups).toHaveLength(BLOCKS);
    for (const [hash, block, receipt] of await Promise.all(lookups)) {
      expect((block as { hash: string } | null)?.hash, `block ${hash} by hash`).toBe(hash);
      expect((receipt as { blockHash: string } | null)?.blockHash, `REMASC receipt of block ${hash}`).toBe(hash);
    }
  });

  it('is reverted whole by evm_revert of a snapshot taken before it, its state nodes deleted', async () => {
    const { provider, node } = await start(await dataDir());
    const chain = node.node.chains.testnet;
    const snapshot = await provider.send('evm_snapshot', []);
    const genesisState = await provider.send('eth_getBalance', [REMASC, 'latest']);
    const nodesBefore = await storedNodes(chain);
    for (let round = 0; round < 2; round++) {
      // The snapshot stays live after a revert to it (rskj): the second round mines under it too.
      await provider.send('hardhat_mine', [hex(BLOCKS)]);
      const minedHead = await provider.send('eth_getBlockByNumber', ['latest', false]);
      expect(await storedNodes(chain)).toBeGreaterThan(nodesBefore);
      expect(await provider.send('evm_revert', [snapshot])).toBe(true);
      expect(await provider.send('eth_blockNumber', [])).toBe('0x0');
      expect(await provider.send('eth_getBlockByHash', [minedHead.hash, false])).toBeNull();
      expect(await provider.send('eth_getBalance', [REMASC, 'latest'])).toBe(genesisState);
      expect(await storedNodes(chain), `round ${round}`).toBe(nodesBefore);
    }
    await provider.send('hardhat_mine', [hex(BLOCKS)]);
    await checkChain(provider, BLOCKS);
    provider.destroy();
  });
});
