/**
 * eth_getLogs (issue 5; spec: Log object, Filter, eth_getLogs rules, Limits): selection by
 * blockHash or by range, the default of the latest block, address and topics through real
 * contract events, every field of the log object, the two alternative caps at and just past their
 * boundaries, bad filter input, and the separation of the two networks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, id as eventId, getAddress, toUtf8Bytes, zeroPadValue } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { call, COW, COW1, rpc, startTestNode, type TestNode, rpcError } from '../helpers/node.js';
import { type RpcLog, sendFromCow, successfulReceipt, topicOf, word } from '../helpers/logs.js';

const coder = AbiCoder.defaultAbiCoder();
const tokenIface = new Interface(contracts.Token.abi);
const factoryIface = new Interface(contracts.Factory.abi);
const reverterIface = new Interface(contracts.Reverter.abi);

const TRANSFER = eventId('Transfer(address,address,uint256)');
const APPROVAL = eventId('Approval(address,address,uint256)');
const INCREMENTED = eventId('Incremented(uint256)');
const CHILD_CREATED = eventId('ChildCreated(address,uint256)');
const CREATED = eventId('Created(address,uint256)');
const OTHER = '0x00000000000000000000000000000000000000a1';
const REMASC = '0x0000000000000000000000000000000001000008';
/** rskj RemascContract.MINING_FEE_TOPIC: DataWord.fromString("mining_fee_topic"). */
const MINING_FEE_TOPIC = zeroPadValue(toUtf8Bytes('mining_fee_topic'), 32);

const hexNum = (n: bigint | number) => `0x${n.toString(16)}`;


const getLogs = (url: string, filter: Record<string, unknown>): Promise<RpcLog[]> => call(url, 'eth_getLogs', [filter]);

async function deploy(url: string, name: 'Token' | 'Factory' | 'Reverter', args = '0x'): Promise<string> {
  const hash = await sendFromCow(url, { data: contracts[name].bytecode + args.slice(2) });
  return (await successfulReceipt(url, hash)).contractAddress as string;
}

const tokenArgs = (supply: bigint) => coder.encode(['uint256'], [supply]);
const transferData = (to: string, amount: bigint) => tokenIface.encodeFunctionData('transfer', [to, amount]);

describe('eth_getLogs (default caps)', () => {
  let t: TestNode;
  let url: string;
  let token: string;
  let factory: string;
  let reverter: string;
  let child: string;
  /** Block 4 holds four transactions (five logs) plus REMASC. */
  let block4: any;
  let block4Txs: string[];
  let block5Tx: string;
  let deployTx: string;

  beforeAll(async () => {
    t = await startTestNode();
    url = t.testnetUrl;
    // block 1: Token (Transfer from 0 to COW, 1000); block 2: Factory; block 3: Reverter
    const hash = await sendFromCow(url, { data: contracts.Token.bytecode + tokenArgs(1000n).slice(2) });
    deployTx = hash;
    token = (await successfulReceipt(url, hash)).contractAddress;
    factory = await deploy(url, 'Factory');
    reverter = await deploy(url, 'Reverter');
    expect(await call(url, 'eth_blockNumber')).toBe('0x3');

    // block 4: four transactions in one block (manual mining for this block)
    await call(url, 'evm_setAutomine', [false]);
    block4Txs = [
      await sendFromCow(url, { to: token, data: transferData(COW1.address, 5n) }),
      await sendFromCow(url, { to: factory, data: factoryIface.encodeFunctionData('create', [7n]) }),
      await sendFromCow(url, { to: reverter, data: reverterIface.encodeFunctionData('increment', []) }),
      await sendFromCow(url, { to: token, data: tokenIface.encodeFunctionData('approve', [COW1.address, 9n]) }),
    ];
    await call(url, 'evm_mine');
    await call(url, 'evm_setAutomine', [true]);
    block4 = await call(url, 'eth_getBlockByNumber', ['0x4', false]);
    expect(block4.transactions.slice(0, 4)).toEqual(block4Txs);
    const factoryReceipt = await successfulReceipt(url, block4Txs[1]!);
    child = factoryReceipt.logs[0].address;

    // block 5: one transfer to OTHER; blocks 6-8 empty
    block5Tx = await sendFromCow(url, { to: token, data: transferData(OTHER, 3n) });
    await call(url, 'hardhat_mine', ['0x3']);
    expect(await call(url, 'eth_blockNumber')).toBe('0x8');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('returns every field of the spec log object; logIndex is the position in the block', async () => {
    const logs = await getLogs(url, { fromBlock: '0x4', toBlock: '0x4' });
    expect(logs).toEqual([
      {
        removed: false,
        logIndex: '0x0',
        transactionIndex: '0x0',
        transactionHash: block4Txs[0],
        blockHash: block4.hash,
        blockNumber: '0x4',
        address: token,
        data: word(5),
        topics: [TRANSFER, topicOf(COW.address), topicOf(COW1.address)],
      },
      {
        removed: false,
        logIndex: '0x1',
        transactionIndex: '0x1',
        transactionHash: block4Txs[1],
        blockHash: block4.hash,
        blockNumber: '0x4',
        address: child,
        data: coder.encode(['address', 'uint256'], [child, 7n]),
        topics: [CREATED],
      },
      {
        removed: false,
        logIndex: '0x2',
        transactionIndex: '0x1',
        transactionHash: block4Txs[1],
        blockHash: block4.hash,
        blockNumber: '0x4',
        address: factory,
        data: '0x',
        topics: [CHILD_CREATED, topicOf(child), word(7)],
      },
      {
        removed: false,
        logIndex: '0x3',
        transactionIndex: '0x2',
        transactionHash: block4Txs[2],
        blockHash: block4.hash,
        blockNumber: '0x4',
        address: reverter,
        data: word(1),
        topics: [INCREMENTED],
      },
      {
        removed: false,
        logIndex: '0x4',
        transactionIndex: '0x3',
        transactionHash: block4Txs[3],
        blockHash: block4.hash,
        blockNumber: '0x4',
        address: token,
        data: word(9),
        topics: [APPROVAL, topicOf(COW.address), topicOf(COW1.address)],
      },
    ]);
  });

  it('blockHash selects exactly what fromBlock = toBlock = that number selects', async () => {
    const byHash = await getLogs(url, { blockHash: block4.hash });
    expect(byHash).toHaveLength(5);
    expect(byHash).toEqual(await getLogs(url, { fromBlock: '0x4', toBlock: '0x4' }));
    // with address / topics too
    expect(await getLogs(url, { blockHash: block4.hash, address: token })).toEqual(await getLogs(url, { fromBlock: '0x4', toBlock: '0x4', address: token }));
    expect((await getLogs(url, { blockHash: block4.hash, topics: [APPROVAL] })).map((l) => l.logIndex)).toEqual(['0x4']);
    const block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
    const one = await getLogs(url, { blockHash: block1.hash });
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ blockNumber: '0x1', blockHash: block1.hash, transactionHash: deployTx, logIndex: '0x0', data: word(1000) });
    expect(one).toEqual(await getLogs(url, { fromBlock: '0x1', toBlock: '0x1' }));
  });

  it('an unknown blockHash has no logs', async () => {
    expect(await getLogs(url, { blockHash: `0x${'ab'.repeat(32)}` })).toEqual([]);
  });

  it('a block without logs (REMASC only, or empty) gives []', async () => {
    const block6 = await call(url, 'eth_getBlockByNumber', ['0x6', false]);
    expect(await getLogs(url, { blockHash: block6.hash })).toEqual([]);
    expect(await getLogs(url, { fromBlock: '0x2', toBlock: '0x3' })).toEqual([]);
    expect(await getLogs(url, { fromBlock: '0x6', toBlock: '0x8' })).toEqual([]);
  });

  it('a range returns the logs of every block in it, in chain order', async () => {
    const logs = await getLogs(url, { fromBlock: '0x1', toBlock: '0x5' });
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      ['0x1', '0x0'],
      ['0x4', '0x0'],
      ['0x4', '0x1'],
      ['0x4', '0x2'],
      ['0x4', '0x3'],
      ['0x4', '0x4'],
      ['0x5', '0x0'],
    ]);
    expect(await getLogs(url, { fromBlock: 'earliest', toBlock: 'latest' })).toEqual(logs);
    expect(await getLogs(url, { fromBlock: '0x0' })).toEqual(logs); // toBlock defaults to latest
    expect(await getLogs(url, { fromBlock: '0x5', toBlock: '0x5' })).toEqual([logs[6]]);
    expect(logs[6]!.transactionHash).toBe(block5Tx);
    // a toBlock past the head is the head
    expect(await getLogs(url, { fromBlock: '0x4', toBlock: '0x64' })).toEqual(logs.slice(1));
  });

  it('logs equal the receipts\' logs, field for field', async () => {
    const all = await getLogs(url, { fromBlock: '0x0', toBlock: 'latest' });
    for (const hash of [deployTx, ...block4Txs, block5Tx]) {
      const r = await successfulReceipt(url, hash);
      expect(r.logs.length).toBeGreaterThan(0);
      expect(all.filter((l) => l.transactionHash === hash)).toEqual(r.logs);
    }
  });

  it('with no block argument returns the logs of the latest block only', async () => {
    // head (block 8) is empty
    expect(await getLogs(url, {})).toEqual([]);
    expect(await getLogs(url, { address: token })).toEqual([]);
    const hash = await sendFromCow(url, { to: token, data: transferData(COW1.address, 1n) });
    const r = await successfulReceipt(url, hash);
    expect(r.blockNumber).toBe('0x9');
    expect(await getLogs(url, {})).toEqual(r.logs);
    expect(await getLogs(url, { address: token })).toEqual(r.logs);
    expect(await getLogs(url, { address: reverter })).toEqual([]);
    // only fromBlock: from there to latest; only toBlock = latest: the latest block
    expect(await getLogs(url, { fromBlock: '0x9' })).toEqual(r.logs);
    expect(await getLogs(url, { toBlock: 'latest' })).toEqual(r.logs);
  });

  it('address as a single string or an array (OR), any letter case', async () => {
    const range = { fromBlock: '0x0', toBlock: '0x8' };
    const tokenLogs = await getLogs(url, { ...range, address: token });
    expect(tokenLogs.map((l) => [l.blockNumber, l.topics[0]])).toEqual([
      ['0x1', TRANSFER],
      ['0x4', TRANSFER],
      ['0x4', APPROVAL],
      ['0x5', TRANSFER],
    ]);
    expect(tokenLogs.every((l) => l.address === token)).toBe(true);
    expect(await getLogs(url, { ...range, address: getAddress(token) })).toEqual(tokenLogs);
    expect(await getLogs(url, { ...range, address: token.toUpperCase().replace('0X', '0x') })).toEqual(tokenLogs);
    expect(await getLogs(url, { ...range, address: [token] })).toEqual(tokenLogs);

    const two = await getLogs(url, { ...range, address: [reverter, factory] });
    expect(two.map((l) => [l.address, l.logIndex])).toEqual([
      [factory, '0x2'],
      [reverter, '0x3'],
    ]);
    expect((await getLogs(url, { ...range, address: [child] })).map((l) => l.topics[0])).toEqual([CREATED]);
    expect(await getLogs(url, { ...range, address: OTHER })).toEqual([]);
    expect(await getLogs(url, { ...range, address: [OTHER] })).toEqual([]);
  });

  it('an empty address array restricts nothing (geth, rskj)', async () => {
    // geth filterLogs: `len(addresses) > 0 && !includes(...)`; rskj matchesContractAddress: `return addresses.length == 0`.
    const range = { fromBlock: '0x0', toBlock: '0x8' };
    expect(await getLogs(url, { ...range, address: [] })).toEqual(await getLogs(url, range));
  });

  it('topics follow the positional rules through real events', async () => {
    const range = { fromBlock: '0x0', toBlock: '0x8' };
    const pick = async (topics: unknown[], address?: unknown) =>
      (await getLogs(url, { ...range, topics, ...(address === undefined ? {} : { address }) })).map((l) => `${Number(l.blockNumber)}:${Number(l.logIndex)}`);

    expect(await pick([])).toEqual(['1:0', '4:0', '4:1', '4:2', '4:3', '4:4', '5:0']);
    expect(await pick([TRANSFER])).toEqual(['1:0', '4:0', '5:0']);
    expect(await pick([[TRANSFER, APPROVAL]])).toEqual(['1:0', '4:0', '4:4', '5:0']);
    expect(await pick([null, topicOf(COW.address)])).toEqual(['4:0', '4:4', '5:0']);
    expect(await pick([TRANSFER, topicOf(COW.address)])).toEqual(['4:0', '5:0']);
    expect(await pick([TRANSFER, null, topicOf(COW1.address)])).toEqual(['4:0']);
    expect(await pick([TRANSFER, null, [topicOf(COW1.address), topicOf(OTHER)]])).toEqual(['4:0', '5:0']);
    expect(await pick([null, null, topicOf(COW.address)])).toEqual(['1:0']);
    expect(await pick([[TRANSFER, APPROVAL], [topicOf(COW.address)], [topicOf(COW1.address)]])).toEqual(['4:0', '4:4']);
    expect(await pick([CHILD_CREATED, topicOf(child), word(7)])).toEqual(['4:2']);
    expect(await pick([CHILD_CREATED, topicOf(child), word(8)])).toEqual([]);
    expect(await pick([INCREMENTED])).toEqual(['4:3']);
    // position matters
    expect(await pick([topicOf(COW.address)])).toEqual([]);
    // extra log topics after the filter's positions are allowed: one position matches 3-topic logs
    expect(await pick([CHILD_CREATED])).toEqual(['4:2']);
    // more positions than the log has never match (Incremented has one topic)
    expect(await pick([INCREMENTED, topicOf(COW.address)])).toEqual([]);
    // address AND topics
    expect(await pick([TRANSFER], reverter)).toEqual([]);
    expect(await pick([[TRANSFER, APPROVAL]], token)).toEqual(['1:0', '4:0', '4:4', '5:0']);
  });

  it('a trailing null position still needs the log to have that many topics (geth, rskj)', async () => {
    // Transfer has 3 topics: [Transfer, from, to]; a 4th position, even null, matches nothing.
    // geth filterLogs: `if len(topics) > len(log.Topics) { continue }`;
    // rskj AddressesTopicsFilter.matchesExactly: `if (i >= logTopics.size()) return false` before the null check.
    expect(await getLogs(url, { fromBlock: '0x0', toBlock: '0x8', topics: [TRANSFER, null, null] })).toHaveLength(3);
    expect(await getLogs(url, { fromBlock: '0x0', toBlock: '0x8', topics: [TRANSFER, null, null, null] })).toEqual([]);
    expect(await getLogs(url, { fromBlock: '0x0', toBlock: '0x8', topics: [INCREMENTED, null] })).toEqual([]);
    expect(await getLogs(url, { fromBlock: '0x0', toBlock: '0x8', topics: [null, null, null, null] })).toEqual([]);
  });

  describe('bad filter input: -32602 with a clear message', () => {
    it('a bad address (single or inside an array)', async () => {
      const short = await rpcError(url, 'eth_getLogs', [{ address: '0x1234' }]);
      expect(short.code).toBe(-32602);
      expect(short.message).toMatch(/address/);
      const inArray = await rpcError(url, 'eth_getLogs', [{ address: [token, 'not-an-address'] }]);
      expect(inArray.code).toBe(-32602);
      expect(inArray.message).toMatch(/address/);
      expect(inArray.message).toMatch(/\[1\]/);
      const notHex = await rpcError(url, 'eth_getLogs', [{ address: `0x${'zz'.repeat(20)}` }]);
      expect(notHex.code).toBe(-32602);
      expect(notHex.message).toMatch(/address/);
    });

    it('five topic positions', async () => {
      const err = await rpcError(url, 'eth_getLogs', [{ topics: [TRANSFER, null, null, null, null] }]);
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/topics/);
      expect(err.message).toMatch(/4/);
      // four positions are accepted
      expect((await rpc(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x8', topics: [TRANSFER, null, null, null] }])).body.error).toBeUndefined();
    });

    it('fromBlock greater than toBlock', async () => {
      const err = await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x2' }]);
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/fromBlock/);
      expect(err.message).toMatch(/toBlock/);
      expect(err.message).toMatch(/5/);
      expect(err.message).toMatch(/2/);
    });

    it('blockHash together with fromBlock or toBlock', async () => {
      for (const extra of [{ fromBlock: '0x1' }, { toBlock: '0x4' }, { fromBlock: '0x1', toBlock: '0x4' }]) {
        const err = await rpcError(url, 'eth_getLogs', [{ blockHash: block4.hash, ...extra }]);
        expect(err.code).toBe(-32602);
        expect(err.message).toBe('Cannot specify both blockHash and fromBlock/toBlock');
      }
    });

    it('a topic that is not a 32-byte hash (directly or inside an OR array)', async () => {
      const short = await rpcError(url, 'eth_getLogs', [{ topics: ['0x1234'] }]);
      expect(short.code).toBe(-32602);
      expect(short.message).toMatch(/topics/);
      const nested = await rpcError(url, 'eth_getLogs', [{ topics: [TRANSFER, [topicOf(COW.address), 'nope']] }]);
      expect(nested.code).toBe(-32602);
      expect(nested.message).toMatch(/topics/);
      expect(nested.message).toMatch(/\[1\]/);
      const notArray = await rpcError(url, 'eth_getLogs', [{ topics: TRANSFER }]);
      expect(notArray.code).toBe(-32602);
      expect(notArray.message).toMatch(/topics/);
    });

    it('a bad blockHash and a non-object filter', async () => {
      const hash = await rpcError(url, 'eth_getLogs', [{ blockHash: '0x1234' }]);
      expect(hash.code).toBe(-32602);
      expect(hash.message).toMatch(/hash/i);
      const notObject = await rpcError(url, 'eth_getLogs', ['latest']);
      expect(notObject.code).toBe(-32602);
      expect(notObject.message).toMatch(/filter/);
    });

    it('the same input is refused by eth_newFilter', async () => {
      for (const filter of [{ address: '0x1234' }, { topics: [null, null, null, null, null] }, { fromBlock: '0x5', toBlock: '0x2' }, { topics: ['0x12'] }]) {
        const err = await rpcError(url, 'eth_newFilter', [filter]);
        expect(err.code).toBe(-32602);
      }
    });
  });

  it('a query over more than 2,000 blocks fits when it has few logs (default caps)', async () => {
    const before = Number(await call(url, 'eth_blockNumber'));
    await call(url, 'hardhat_mine', [hexNum(2001)]);
    const hash = await sendFromCow(url, { to: token, data: transferData(COW1.address, 2n) });
    const last = Number((await successfulReceipt(url, hash)).blockNumber);
    expect(last).toBe(before + 2002);
    const all = await getLogs(url, { fromBlock: '0x0', toBlock: 'latest', address: token });
    // blocks 1, 4 (two), 5, 9, and the last
    expect(all.map((l) => Number(l.blockNumber))).toEqual([1, 4, 4, 5, 9, last]);
    // exactly 2,000 blocks ending at the head: only the last transfer, beside REMASC's payout logs
    // (the fees of the blocks above mature in this window and REMASC logs each payment).
    const window = await getLogs(url, { fromBlock: hexNum(last - 1999), toBlock: hexNum(last) });
    const remasc = window.filter((l) => l.address.toLowerCase() === REMASC);
    expect(window.filter((l) => l.address.toLowerCase() !== REMASC).map((l) => l.transactionHash)).toEqual([hash]);
    expect(remasc.length).toBeGreaterThan(0);
    for (const l of remasc) expect(l.topics[0]).toBe(MINING_FEE_TOPIC);
  });
});

describe('eth_getLogs caps (maxLogs 5, maxLogBlockRange 10)', () => {
  let t: TestNode;
  let url: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestNode({ maxLogs: 5, maxLogBlockRange: 10 });
    url = t.testnetUrl;
    // block 1: deploy (1 log); blocks 2-6: transfers to COW1; blocks 7-8: transfers to OTHER; 9-18 empty
    token = await deploy(url, 'Token', tokenArgs(1000n));
    for (let i = 0; i < 5; i++) await sendFromCow(url, { to: token, data: transferData(COW1.address, 1n) });
    for (let i = 0; i < 2; i++) await sendFromCow(url, { to: token, data: transferData(OTHER, 1n) });
    await call(url, 'hardhat_mine', ['0xa']);
    expect(await call(url, 'eth_blockNumber')).toBe(hexNum(18));
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectCapError = (err: { code: number; message: string }) => {
    expect(err.code).toBe(-32005);
    // names both limits...
    expect(err.message).toMatch(/\b5 logs\b/);
    expect(err.message).toMatch(/\b10[- ]blocks?\b/);
    // ...and suggests a smaller range
    expect(err.message).toMatch(/smaller (block )?range/i);
  };

  it('a range of exactly 10 blocks fits, however many logs it holds', async () => {
    const logs = await getLogs(url, { fromBlock: '0x1', toBlock: '0xa' });
    expect(logs).toHaveLength(8);
    expect(logs.map((l) => Number(l.blockNumber))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await getLogs(url, { fromBlock: '0x0', toBlock: '0x9' })).toHaveLength(8);
  });

  it('11 blocks with 5 logs fits (within the log cap)', async () => {
    const logs = await getLogs(url, { fromBlock: '0x4', toBlock: '0xe' });
    expect(logs.map((l) => Number(l.blockNumber))).toEqual([4, 5, 6, 7, 8]);
  });

  it('11 blocks with 6 logs is refused with -32005 naming both limits', async () => {
    expectCapError(await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x3', toBlock: '0xd' }]));
    expectCapError(await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0xb' }]));
  });

  it('the whole chain: refused with 8 logs, fits when address/topics narrow it to 5', async () => {
    expectCapError(await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]));
    expectCapError(await rpcError(url, 'eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest', address: token }]));
    const toCow1 = await getLogs(url, { fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, null, topicOf(COW1.address)] });
    expect(toCow1.map((l) => Number(l.blockNumber))).toEqual([2, 3, 4, 5, 6]);
    // the cap counts matching logs: 7 transfers from COW over 19 blocks do not fit
    expectCapError(await rpcError(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, topicOf(COW.address)] }]));
    const toOther = await getLogs(url, { fromBlock: '0x0', toBlock: 'latest', topics: [null, null, topicOf(OTHER)] });
    expect(toOther.map((l) => Number(l.blockNumber))).toEqual([7, 8]);
  });

  it('a blockHash query is one block: always within the range cap', async () => {
    const block = await call(url, 'eth_getBlockByNumber', ['0x2', false]);
    expect(await getLogs(url, { blockHash: block.hash })).toHaveLength(1);
  });
});

describe('networks', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the testnet key does not see mainnet logs, and the reverse', async () => {
    // COW's first contract has the same address on both networks (same sender, same nonce)
    const testToken = await deploy(t.testnetUrl, 'Token', tokenArgs(111n));
    const mainToken = await deploy(t.mainnetUrl, 'Token', tokenArgs(222n));
    expect(mainToken).toBe(testToken);
    await sendFromCow(t.mainnetUrl, { to: mainToken, data: transferData(COW1.address, 5n) });

    const mainLogs = await getLogs(t.mainnetUrl, { fromBlock: '0x0', toBlock: 'latest', address: mainToken });
    expect(mainLogs.map((l) => l.data)).toEqual([word(222), word(5)]);
    const testLogs = await getLogs(t.testnetUrl, { fromBlock: '0x0', toBlock: 'latest', address: testToken });
    expect(testLogs.map((l) => l.data)).toEqual([word(111)]);

    // a mainnet block hash is unknown to testnet
    expect(await getLogs(t.testnetUrl, { blockHash: mainLogs[1]!.blockHash })).toEqual([]);
    expect(await getLogs(t.mainnetUrl, { blockHash: testLogs[0]!.blockHash })).toEqual([]);

    // a testnet log filter sees no mainnet activity
    const filter = await call(t.testnetUrl, 'eth_newFilter', [{ address: testToken }]);
    await sendFromCow(t.mainnetUrl, { to: mainToken, data: transferData(COW1.address, 6n) });
    expect(await call(t.testnetUrl, 'eth_getFilterChanges', [filter])).toEqual([]);
    await sendFromCow(t.testnetUrl, { to: testToken, data: transferData(COW1.address, 7n) });
    const changes: RpcLog[] = await call(t.testnetUrl, 'eth_getFilterChanges', [filter]);
    expect(changes.map((l) => l.data)).toEqual([word(7)]);
  });
});
