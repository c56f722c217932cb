/**
 * The log index's matching rules (spec: Filter, topic matching table) and its postings:
 * logMatches, matchesInBlock (logIndex = position among all logs of the block),
 * logIndexKeys (one posting per distinct address / (position, topic), plus a "has logs" mark)
 * and candidateBlocks over a real in-memory key-value store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLevel } from 'memory-level';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { candidateBlocks, logIndexKeys, logMatches, matchesInBlock, type LogCriteria } from '../../src/chain/storage/log-index.js';
import { LogPostings } from '../../src/chain/storage/log-postings.js';
import type { BlockReceipts, LogRecord, ReceiptRecord } from '../../src/chain/records/receipt.js';
import { type Kv, encodeNumber, logAddressPrefix, logBlockPrefix, logTopicPrefix } from '../../src/chain/storage/keys.js';

const bytes = (fill: number, length: number) => new Uint8Array(length).fill(fill);
const topic = (fill: number) => bytes(fill, 32);
const addr = (fill: number) => bytes(fill, 20);

const A = topic(0xaa);
const B = topic(0xbb);
const C = topic(0xcc);
const D = topic(0xdd);
const ADDRESS_1 = addr(0x11);
const ADDRESS_2 = addr(0x22);
const ADDRESS_3 = addr(0x33);

function log(address: Uint8Array, topics: Uint8Array[], data: Uint8Array = new Uint8Array(0)): LogRecord {
  return { address, topics, data };
}

function receipt(logs: LogRecord[]): ReceiptRecord {
  return { success: true, cumulativeGasUsed: 21_000n, gasUsed: 21_000n, logsBloom: new Uint8Array(256), logs, contractAddress: undefined };
}

type Criteria = Pick<LogCriteria, 'addresses' | 'topics'>;
const byTopics = (topics: (Uint8Array[] | null)[]): Criteria => ({ addresses: undefined, topics });

describe('logMatches: the spec topic matching table (log topics [A, B])', () => {
  const ab = log(ADDRESS_1, [A, B]);

  it('[] matches anything', () => {
    expect(logMatches(ab, byTopics([]))).toBe(true);
    expect(logMatches(log(ADDRESS_1, []), byTopics([]))).toBe(true);
  });

  it('[A] matches A first', () => {
    expect(logMatches(ab, byTopics([[A]]))).toBe(true);
  });

  it('[null, B] matches B second', () => {
    expect(logMatches(ab, byTopics([null, [B]]))).toBe(true);
  });

  it('[A, B] matches both', () => {
    expect(logMatches(ab, byTopics([[A], [B]]))).toBe(true);
  });

  it('[[A, B], [A, B]] matches (A or B) first and (A or B) second', () => {
    expect(logMatches(ab, byTopics([[A, B], [A, B]]))).toBe(true);
    expect(logMatches(log(ADDRESS_1, [B, A]), byTopics([[A, B], [A, B]]))).toBe(true);
    expect(logMatches(log(ADDRESS_1, [B, B]), byTopics([[A, B], [A, B]]))).toBe(true);
    expect(logMatches(log(ADDRESS_1, [C, B]), byTopics([[A, B], [A, B]]))).toBe(false);
    expect(logMatches(log(ADDRESS_1, [A, C]), byTopics([[A, B], [A, B]]))).toBe(false);
  });

  it('[B] does not match (B is not first)', () => {
    expect(logMatches(ab, byTopics([[B]]))).toBe(false);
  });

  it('[null, A] and [A, A] do not match (position matters)', () => {
    expect(logMatches(ab, byTopics([null, [A]]))).toBe(false);
    expect(logMatches(ab, byTopics([[A], [A]]))).toBe(false);
    expect(logMatches(ab, byTopics([[B], [A]]))).toBe(false);
  });

  it('[A, B, C] does not match: more positions than the log has', () => {
    expect(logMatches(ab, byTopics([[A], [B], [C]]))).toBe(false);
  });

  it('[A, B, null] does not match either: a third position needs a third topic', () => {
    // geth / rskj: a filter with more positions than the log has topics never matches.
    expect(logMatches(ab, byTopics([[A], [B], null]))).toBe(false);
  });

  it('extra log topics after the filter positions are allowed', () => {
    const abcd = log(ADDRESS_1, [A, B, C, D]);
    expect(logMatches(abcd, byTopics([[A]]))).toBe(true);
    expect(logMatches(abcd, byTopics([[A], [B]]))).toBe(true);
    expect(logMatches(abcd, byTopics([null, null, [C]]))).toBe(true);
    expect(logMatches(abcd, byTopics([[A], null, null, [D]]))).toBe(true);
    expect(logMatches(abcd, byTopics([[A], null, null, [C]]))).toBe(false);
  });

  it('a log without topics matches only when every position is a wildcard it does not need', () => {
    const anonymous = log(ADDRESS_1, []);
    expect(logMatches(anonymous, byTopics([[A]]))).toBe(false);
    expect(logMatches(anonymous, byTopics([]))).toBe(true);
  });

  it('compares topics by value, not by identity', () => {
    expect(logMatches(ab, byTopics([[topic(0xaa)], [topic(0xbb)]]))).toBe(true);
  });
});

describe('logMatches: address', () => {
  const l = log(ADDRESS_1, [A]);

  it('undefined addresses match any address', () => {
    expect(logMatches(l, { addresses: undefined, topics: [] })).toBe(true);
  });

  it('a single address matches only that address', () => {
    expect(logMatches(l, { addresses: [addr(0x11)], topics: [] })).toBe(true);
    expect(logMatches(l, { addresses: [ADDRESS_2], topics: [] })).toBe(false);
  });

  it('an array of addresses is an OR', () => {
    expect(logMatches(l, { addresses: [ADDRESS_2, ADDRESS_1], topics: [] })).toBe(true);
    expect(logMatches(l, { addresses: [ADDRESS_2, ADDRESS_3], topics: [] })).toBe(false);
  });

  it('address and topics must both match', () => {
    expect(logMatches(l, { addresses: [ADDRESS_1], topics: [[A]] })).toBe(true);
    expect(logMatches(l, { addresses: [ADDRESS_1], topics: [[B]] })).toBe(false);
    expect(logMatches(l, { addresses: [ADDRESS_2], topics: [[A]] })).toBe(false);
  });
});

describe('matchesInBlock', () => {
  const blockHash = bytes(0x01, 32);
  const txHashes = [bytes(0x0a, 32), bytes(0x0b, 32), bytes(0x0c, 32), bytes(0x0d, 32)];
  // tx0: 2 logs, tx1: none, tx2: 3 logs, tx3 (REMASC-like): none
  const block: BlockReceipts = {
    blockHash,
    blockNumber: 42n,
    txHashes,
    receipts: [
      receipt([log(ADDRESS_1, [A], Uint8Array.of(1)), log(ADDRESS_2, [B], Uint8Array.of(2))]),
      receipt([]),
      receipt([log(ADDRESS_1, [B], Uint8Array.of(3)), log(ADDRESS_1, [A, C], Uint8Array.of(4)), log(ADDRESS_3, [A], Uint8Array.of(5))]),
      receipt([]),
    ],
  };

  it('numbers logs across the whole block: logIndex is the position in the block', () => {
    const all = matchesInBlock(block, { addresses: undefined, topics: [] });
    expect(all.map((m) => m.logIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(all.map((m) => m.txIndex)).toEqual([0, 0, 2, 2, 2]);
    expect(all.map((m) => bytesToHex(m.txHash))).toEqual([txHashes[0], txHashes[0], txHashes[2], txHashes[2], txHashes[2]].map(bytesToHex));
    expect(all.map((m) => m.log.data[0])).toEqual([1, 2, 3, 4, 5]);
    for (const m of all) {
      expect(bytesToHex(m.blockHash)).toBe(bytesToHex(blockHash));
      expect(m.blockNumber).toBe(42n);
    }
  });

  it('keeps block positions when only some logs match', () => {
    const a = matchesInBlock(block, { addresses: undefined, topics: [[A]] });
    expect(a.map((m) => m.logIndex)).toEqual([0, 3, 4]);
    expect(a.map((m) => m.txIndex)).toEqual([0, 2, 2]);

    const address1 = matchesInBlock(block, { addresses: [ADDRESS_1], topics: [] });
    expect(address1.map((m) => m.logIndex)).toEqual([0, 2, 3]);

    const second = matchesInBlock(block, { addresses: [ADDRESS_1], topics: [null, [C]] });
    expect(second).toHaveLength(1);
    expect(second[0]!.logIndex).toBe(3);
    expect(second[0]!.txIndex).toBe(2);
    expect(second[0]!.log.data[0]).toBe(4);
  });

  it('returns [] when nothing matches and for a block without logs', () => {
    expect(matchesInBlock(block, { addresses: [addr(0x99)], topics: [] })).toEqual([]);
    expect(matchesInBlock({ blockHash, blockNumber: 1n, txHashes: [txHashes[0]!], receipts: [receipt([])] }, { addresses: undefined, topics: [] })).toEqual([]);
  });
});

describe('logIndexKeys', () => {
  const hexKeys = (keys: Uint8Array[]) => keys.map(bytesToHex).sort();
  const key = (prefix: Uint8Array, n: bigint) => bytesToHex(concatBytes(prefix, encodeNumber(n)));

  it('has one key per distinct address, per distinct (position, topic), plus the block mark', () => {
    const keys = logIndexKeys(7n, [
      receipt([log(ADDRESS_1, [A, B]), log(ADDRESS_1, [A, B])]),
      receipt([log(ADDRESS_1, [A]), log(ADDRESS_2, [B, A])]),
    ]);
    expect(hexKeys(keys)).toEqual(
      [
        key(logAddressPrefix(ADDRESS_1), 7n),
        key(logAddressPrefix(ADDRESS_2), 7n),
        key(logTopicPrefix(0, A), 7n),
        key(logTopicPrefix(1, B), 7n),
        key(logTopicPrefix(0, B), 7n),
        key(logTopicPrefix(1, A), 7n),
        key(logBlockPrefix(), 7n),
      ].sort(),
    );
    // deduplicated: no key appears twice
    expect(new Set(hexKeys(keys)).size).toBe(keys.length);
  });

  it('the same topic at two positions gives two postings', () => {
    const keys = logIndexKeys(3n, [receipt([log(ADDRESS_1, [A, A])])]);
    expect(hexKeys(keys)).toEqual([key(logAddressPrefix(ADDRESS_1), 3n), key(logTopicPrefix(0, A), 3n), key(logTopicPrefix(1, A), 3n), key(logBlockPrefix(), 3n)].sort());
  });

  it('a block without logs has no keys (not even the block mark)', () => {
    expect(logIndexKeys(5n, [])).toEqual([]);
    expect(logIndexKeys(5n, [receipt([]), receipt([])])).toEqual([]);
  });

  it('a log without topics still gets its address posting and the block mark', () => {
    expect(hexKeys(logIndexKeys(9n, [receipt([log(ADDRESS_3, [])])]))).toEqual([key(logAddressPrefix(ADDRESS_3), 9n), key(logBlockPrefix(), 9n)].sort());
  });
});

describe('candidateBlocks', () => {
  let kv: Kv | undefined;
  afterEach(async () => {
    await kv?.close();
    kv = undefined;
  });

  async function indexed(blocks: Array<[bigint, ReceiptRecord[]]>): Promise<Kv> {
    const store: Kv = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' });
    await store.open();
    for (const [n, receipts] of blocks) for (const k of logIndexKeys(n, receipts)) await store.put(k, new Uint8Array(0));
    kv = store;
    return store;
  }

  it('narrows to blocks holding every criterion, within the range', async () => {
    const store = await indexed([
      [1n, [receipt([log(ADDRESS_1, [A])])]],
      [2n, [receipt([log(ADDRESS_2, [A, B])])]],
      [3n, []],
      [4n, [receipt([log(ADDRESS_1, [B])]), receipt([log(ADDRESS_2, [C])])]],
      [5n, [receipt([log(ADDRESS_1, [A, B])])]],
      [300n, [receipt([log(ADDRESS_1, [A])])]],
    ]);
    const postings = new LogPostings(store);
    const q = (c: Partial<LogCriteria>) => candidateBlocks(postings, { fromBlock: 0n, toBlock: 1000n, addresses: undefined, topics: [], ...c });

    expect(await q({})).toEqual([1n, 2n, 4n, 5n, 300n]);
    expect(await q({ fromBlock: 2n, toBlock: 5n })).toEqual([2n, 4n, 5n]);
    expect(await q({ fromBlock: 6n, toBlock: 299n })).toEqual([]);
    expect(await q({ addresses: [ADDRESS_1] })).toEqual([1n, 4n, 5n, 300n]);
    expect(await q({ addresses: [ADDRESS_2] })).toEqual([2n, 4n]);
    expect(await q({ addresses: [ADDRESS_2, ADDRESS_1], fromBlock: 2n, toBlock: 4n })).toEqual([2n, 4n]);
    expect(await q({ topics: [[A]] })).toEqual([1n, 2n, 5n, 300n]);
    expect(await q({ topics: [null, [B]] })).toEqual([2n, 5n]);
    expect(await q({ topics: [[A, C]] })).toEqual([1n, 2n, 4n, 5n, 300n]);
    expect(await q({ addresses: [ADDRESS_1], topics: [[A], [B]] })).toEqual([5n]);
    expect(await q({ addresses: [ADDRESS_3] })).toEqual([]);
    // candidates may over-approximate (block 4: ADDRESS_1 and topic C in different logs), never miss
    expect(await q({ addresses: [ADDRESS_1], topics: [[C]] })).toContain(4n);
  });
});
