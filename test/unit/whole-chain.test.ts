/**
 * The whole-chain work (src/chain/storage/whole-chain.ts) through ChainStore's methods, on two
 * in-memory stores: a chain read out record by record and loaded into another store is the same
 * chain there; reads issued during a load wait for it; a load that fails leaves reads open; a
 * restart drops the blocks and keeps the state nodes.
 */
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { type RskBlock, blockRlpLength } from '../../src/chain/records/block.js';
import { type RskHeader, baseHashForMergedMining, blockHash } from '../../src/chain/records/header.js';
import type { BlockReceipts } from '../../src/chain/records/receipt.js';
import { type ChainRecord, ChainStore } from '../../src/chain/storage/store.js';

const EMPTY = new Uint8Array(0);
const NODE = 'ab'.repeat(32);
const isStateMeta = (name: string) => name.startsWith('state-');

/** A block with no transactions on `parent` (a real header: its hash is the header's). */
function makeBlock(number: bigint, parent: Uint8Array): { block: RskBlock; receipts: BlockReceipts } {
  const header: RskHeader = {
    parentHash: parent,
    unclesHash: KECCAK256_RLP_ARRAY,
    coinbase: new Uint8Array(20),
    stateRoot: new Uint8Array(32).fill(Number(number) + 1),
    txTrieRoot: KECCAK256_RLP,
    receiptTrieRoot: KECCAK256_RLP,
    logsBloom: new Uint8Array(256),
    difficulty: 1n,
    number,
    gasLimit: 6_800_000n,
    gasUsed: 0n,
    timestamp: 1_700_000_000n + number,
    extraData: EMPTY,
    paidFees: 0n,
    minimumGasPrice: 0n,
    uncleCount: 0,
    ummRoot: EMPTY,
    bitcoinMergedMiningHeader: EMPTY,
    bitcoinMergedMiningMerkleProof: EMPTY,
    bitcoinMergedMiningCoinbaseTransaction: EMPTY,
  };
  const hash = blockHash(header);
  const block: RskBlock = { header, hash, hashForMergedMining: baseHashForMergedMining(header), transactions: [], size: blockRlpLength(header, []), totalDifficulty: number + 1n };
  return { block, receipts: { blockHash: hash, blockNumber: number, txHashes: [], receipts: [] } };
}

/** Every record of `store` as a state file carries them: blocks 0..head, the state meta records, the state nodes. */
async function* recordsOf(store: ChainStore): AsyncGenerator<ChainRecord> {
  const head = (await store.headNumber())!;
  for (let n = 0n; n <= head; n++) yield (await store.rawBlock(n))!;
  for await (const [meta, value] of store.metaRecords()) if (isStateMeta(meta)) yield { meta, value };
  for await (const [node, value] of store.stateNodes()) yield { node, value };
}

const opened: ChainStore[] = [];
async function openStore(): Promise<ChainStore> {
  const store = await ChainStore.open(undefined);
  opened.push(store);
  return store;
}
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** A three-block chain with a state meta record, a miner meta record and one state node. */
async function sourceChain(): Promise<{ store: ChainStore; blocks: RskBlock[] }> {
  const store = await openStore();
  const blocks: RskBlock[] = [];
  let parent: Uint8Array = new Uint8Array(32);
  for (let n = 0n; n < 3n; n++) {
    const { block, receipts } = makeBlock(n, parent);
    await store.commitBlock(block, receipts);
    blocks.push(block);
    parent = block.hash;
  }
  await store.putMeta('state-clock', Uint8Array.of(7));
  await store.putMeta('miner-targets', Uint8Array.of(1));
  await store.stateDb.put(NODE, Uint8Array.of(1, 2, 3));
  await store.commitState('state-override', Uint8Array.of(9), 2n);
  return { store, blocks };
}

describe('the whole chain in and out of a store', () => {
  it('a chain read out record by record and loaded into another store is the same chain there, its other meta records kept', async () => {
    const { store: source, blocks } = await sourceChain();
    const target = await openStore();
    await target.putMeta('miner-targets', Uint8Array.of(5));
    const { block: stale, receipts } = makeBlock(0n, new Uint8Array(32).fill(1));
    await target.commitBlock(stale, receipts);

    let settledOn: bigint | undefined;
    await target.replaceChain(recordsOf(source), isStateMeta, async (head) => {
      settledOn = head.header.number;
    });
    expect(settledOn).toBe(2n);
    expect(await target.headNumber()).toBe(2n);
    for (const block of blocks) {
      expect((await target.getBlock(block.header.number))!.hash).toEqual(block.hash);
      expect(await target.getBlockNumber(block.hash)).toBe(block.header.number);
    }
    expect(await target.getBlockNumber(stale.hash)).toBeUndefined();
    expect(await target.getMeta('state-clock')).toEqual(Uint8Array.of(7));
    expect(await target.getMeta('state-override')).toEqual(Uint8Array.of(9));
    // Not a state record: the target's own stays.
    expect(await target.getMeta('miner-targets')).toEqual(Uint8Array.of(5));
    expect(await target.stateDb.get(NODE)).toEqual(Uint8Array.of(1, 2, 3));
  });

  it('a read issued while a load settles answers after it, from the loaded chain', async () => {
    const { store: source, blocks } = await sourceChain();
    const target = await openStore();
    const order: string[] = [];
    let read: Promise<RskBlock | undefined> | undefined;
    await target.replaceChain(recordsOf(source), isStateMeta, async () => {
      read = target.getBlock(1n).then((block) => (order.push('read'), block));
      // A turn of the event loop: long enough for an ungated in-memory read to answer first.
      await new Promise((resolve) => setImmediate(resolve));
      order.push('settled');
    });
    expect((await read!)!.hash).toEqual(blocks[1]!.hash);
    expect(order).toEqual(['settled', 'read']);
  });

  it('a load without blocks fails and leaves the store readable: the read gate opens on failure too', async () => {
    const { store, blocks } = await sourceChain();
    // Read once so the block is kept in memory: the failed load must not answer from it afterwards.
    expect((await store.getBlock(1n))!.hash).toEqual(blocks[1]!.hash);
    async function* noBlocks(): AsyncGenerator<ChainRecord> {
      yield { meta: 'state-clock', value: Uint8Array.of(1) };
    }
    await expect(store.replaceChain(noBlocks(), isStateMeta, async () => undefined)).rejects.toThrow('a state load without blocks');
    // Reads answer (none waits for a load that ended); the records were deleted before the stream failed.
    expect(await store.headNumber()).toBeUndefined();
    await store.getBlock(0n);
    expect(await store.getBlock(1n)).toBeUndefined();
    expect(await store.getMeta('miner-targets')).toEqual(Uint8Array.of(1));
  });

  it('a restart drops the blocks and state meta records, keeps the state nodes and other meta records, and starts from the built block', async () => {
    const { store, blocks } = await sourceChain();
    const { block: fresh, receipts } = makeBlock(0n, new Uint8Array(32).fill(2));
    let settledOn: Uint8Array | undefined;
    await store.restartChain(
      isStateMeta,
      async () => {
        await store.commitBlock(fresh, receipts);
        return fresh;
      },
      async (head) => {
        settledOn = head.hash;
      },
    );
    expect(settledOn).toEqual(fresh.hash);
    expect(await store.headNumber()).toBe(0n);
    expect((await store.getBlock(0n))!.hash).toEqual(fresh.hash);
    expect(await store.getBlock(1n)).toBeUndefined();
    expect(await store.getBlockNumber(blocks[2]!.hash)).toBeUndefined();
    expect(await store.getMeta('state-clock')).toBeUndefined();
    expect(await store.getMeta('miner-targets')).toEqual(Uint8Array.of(1));
    expect(await store.stateDb.get(NODE)).toEqual(Uint8Array.of(1, 2, 3));
  });
});
