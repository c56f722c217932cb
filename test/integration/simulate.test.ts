/**
 * eth_simulateV1 (issue 22) through viem's simulateBlocks and simulateCalls, as users call it:
 * calls over several blocks with state and block overrides, their logs, gas and failures, checked
 * against what the node mines for the same transactions, and the spec's error codes. Nothing a
 * simulation does reaches the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeFunctionData,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, nodesClosedAfterEach, rpc, startTestNode, type TestNode } from '../helpers/node.js';
import { devnodeChain } from '../helpers/viem-chain.js';

const tokenAbi = contracts.Token.abi as Abi;
const reverterAbi = contracts.Reverter.abi as Abi;
const INITIAL_SUPPLY = 1_000_000n * 10n ** 18n;
/** An address nothing has touched. */
const FRESH: Address = '0x00000000000000000000000000000000000f0f0f';

let t: TestNode;
let publicClient: PublicClient<Transport, Chain>;
let walletClient: WalletClient<Transport, Chain, Account>;
let token: Address;
let reverter: Address;
const account = privateKeyToAccount(COW.privateKey);

async function deploy(abi: Abi, bytecode: Hex, args: unknown[] = []): Promise<Address> {
  const hash = await walletClient.deployContract({ abi, bytecode, args, type: 'legacy' });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
  return receipt.contractAddress!;
}

beforeAll(async () => {
  t = await startTestNode();
  const chain = devnodeChain(t.testnetUrl);
  publicClient = createPublicClient({ chain, transport: http(t.testnetUrl), pollingInterval: 50 });
  walletClient = createWalletClient({ account, chain, transport: http(t.testnetUrl), pollingInterval: 50 });
  token = await deploy(tokenAbi, contracts.Token.bytecode, [INITIAL_SUPPLY]);
  reverter = await deploy(reverterAbi, contracts.Reverter.bytecode);
});
afterAll(() => t?.close());

describe('simulateBlocks', () => {
  it('runs calls over two blocks: a transfer, a token transfer with its log, then reads in a later block with overrides', async () => {
    const head = await publicClient.getBlock();
    const blocks = await publicClient.simulateBlocks({
      blocks: [
        {
          calls: [
            { account: COW.address, to: FRESH, value: parseEther('1') },
            { account: COW.address, to: token, abi: tokenAbi, functionName: 'transfer', args: [COW1.address, 100n] },
          ],
        },
        {
          blockOverrides: { number: head.number + 10n, time: head.timestamp + 1000n },
          stateOverrides: [{ address: COW1.address, balance: 5n }],
          calls: [
            { to: token, abi: tokenAbi, functionName: 'balanceOf', args: [COW1.address] },
            { to: FRESH, data: '0x' },
          ],
        },
      ],
    });
    expect(blocks).toHaveLength(2);
    const [first, second] = blocks;
    expect(first!.number).toBe(head.number + 1n);
    expect(first!.parentHash).toBe(head.hash);
    expect(second!.number).toBe(head.number + 10n);
    expect(second!.timestamp).toBe(head.timestamp + 1000n);
    expect(second!.parentHash).toBe(first!.hash);

    const [transfer, tokenTransfer] = first!.calls;
    expect(transfer!.status).toBe('success');
    expect(transfer!.gasUsed).toBe(21_000n);
    expect(tokenTransfer!.status).toBe('success');
    expect(tokenTransfer!.result).toBe(true);
    expect(tokenTransfer!.logs).toHaveLength(1);
    const log = tokenTransfer!.logs![0]!;
    expect(log.address.toLowerCase()).toBe(token.toLowerCase());
    expect(log.blockHash).toBe(first!.hash);
    expect(decodeEventLog({ abi: tokenAbi, data: log.data, topics: log.topics })).toMatchObject({
      eventName: 'Transfer',
      args: { from: expect.stringMatching(new RegExp(COW.address, 'i')), to: expect.stringMatching(new RegExp(COW1.address, 'i')), value: 100n },
    });
    expect(first!.gasUsed).toBe(transfer!.gasUsed + tokenTransfer!.gasUsed);

    // The second block sees the first block's writes.
    expect(second!.calls[0]!.result).toBe(100n);
    expect(second!.calls[1]!.status).toBe('success');

    // Nothing reached the chain.
    expect(await publicClient.getBlockNumber()).toBe(head.number);
    expect(await publicClient.getBalance({ address: FRESH })).toBe(0n);
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [COW1.address] })).toBe(0n);
  });

  it('a simulated token transfer uses the gas the same transaction uses once mined, and leaves the balance it leaves', async () => {
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [FRESH, 7n] });
    const [block] = await publicClient.simulateBlocks({ blocks: [{ calls: [{ account: COW.address, to: token, data }] }] });
    const simulated = block!.calls[0]!;
    const hash = await walletClient.sendTransaction({ to: token, data, type: 'legacy', gas: 200_000n });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(simulated.gasUsed).toBe(receipt.gasUsed);
    expect(simulated.logs![0]!.data).toBe(receipt.logs[0]!.data);
  });

  it('a revert is a failed call with its reason; the block goes on', async () => {
    const [block] = await publicClient.simulateBlocks({
      blocks: [
        {
          calls: [
            { to: reverter, abi: reverterAbi, functionName: 'revertWithReason' },
            { to: token, abi: tokenAbi, functionName: 'balanceOf', args: [COW.address] },
          ],
        },
      ],
    });
    const [failed, read] = block!.calls;
    expect(failed!.status).toBe('failure');
    expect(failed!.error?.message).toContain('nope: reason string');
    expect(read!.status).toBe('success');
    expect(read!.result).toBeGreaterThan(0n);
  });

  it('traceTransfers: value transfers show as ERC-7528 logs among the contract’s own, in execution order', async () => {
    // LOG0; CALL(FRESH, value = CALLVALUE); LOG1(topic 1); STOP. Planted by a state override.
    const forwarder: Address = '0x00000000000000000000000000000000000f0f0e';
    const code = `0x60006000a0${'6000'.repeat(4)}3473${FRESH.slice(2)}5af150600160006000a100` as Hex;
    const [block] = await publicClient.simulateBlocks({
      traceTransfers: true,
      blocks: [{ stateOverrides: [{ address: forwarder, code }], calls: [{ account: COW.address, to: forwarder, value: 5n }] }],
    });
    const logs = block!.calls[0]!.logs!;
    const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
    const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const padded = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;
    expect(logs.map((l) => [l.address.toLowerCase(), l.topics, l.data])).toEqual([
      [NATIVE, [TRANSFER, padded(COW.address), padded(forwarder)], padded('0x5')],
      [forwarder, [], '0x'],
      [NATIVE, [TRANSFER, padded(forwarder), padded(FRESH)], padded('0x5')],
      [forwarder, [padded('0x1')], '0x'],
    ]);
    expect(logs.map((l) => l.logIndex)).toEqual([0, 1, 2, 3]);
    // Without traceTransfers, only the contract's own.
    const [plain] = await publicClient.simulateBlocks({
      blocks: [{ stateOverrides: [{ address: forwarder, code }], calls: [{ account: COW.address, to: forwarder, value: 5n }] }],
    });
    expect(plain!.calls[0]!.logs!.map((l) => l.address.toLowerCase())).toEqual([forwarder, forwarder]);
  });

  it('simulateCalls: one block of calls, as viem sends it', async () => {
    const { results } = await publicClient.simulateCalls({
      account: COW.address,
      calls: [
        { to: FRESH, value: 3n },
        { to: token, abi: tokenAbi, functionName: 'transfer', args: [FRESH, 9n] },
      ],
    });
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    expect(results[1]!.logs).toHaveLength(1);
  });
});

describe('eth_simulateV1 errors and options', () => {
  const simulate = (payload: unknown, block: unknown = 'latest') => rpc(t.testnetUrl, 'eth_simulateV1', [payload, block]);

  it('answers the spec codes: nonce (-38010/-38011), gas price (-38012), sender with code (-38024), funds (-38014), intrinsic gas (-38013), block gas (-38015), block order (-38020, -38021), init code (-38025), too many blocks (-38026)', async () => {
    const nonce = BigInt(await publicClient.getTransactionCount({ address: COW.address }));
    const call = { from: COW.address, to: FRESH };
    const cases: Array<[unknown, number]> = [
      [{ validation: true, blockStateCalls: [{ calls: [{ ...call, nonce: `0x${(nonce - 1n).toString(16)}` }] }] }, -38010],
      [{ validation: true, blockStateCalls: [{ calls: [{ ...call, nonce: `0x${(nonce + 1n).toString(16)}` }] }] }, -38011],
      [{ validation: true, blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x10' }, calls: [{ ...call, gasPrice: '0x1' }] }] }, -38012],
      [{ validation: true, blockStateCalls: [{ calls: [{ from: token, to: FRESH }] }] }, -38024],
      [{ blockStateCalls: [{ calls: [{ from: FRESH, to: COW.address, value: '0x1' }] }] }, -38014],
      [{ blockStateCalls: [{ calls: [{ ...call, gas: '0x5208', data: '0x01' }] }] }, -38013],
      [{ blockStateCalls: [{ blockOverrides: { number: '0x100' } }, { blockOverrides: { number: '0x50' } }] }, -38020],
      [{ blockStateCalls: [{ blockOverrides: { time: '0x7fffffff' } }, { blockOverrides: { time: '0x10' } }] }, -38021],
      [{ blockStateCalls: [{ calls: [{ from: COW.address, data: `0x${'00'.repeat(49_153)}` }] }] }, -38025],
      [{ blockStateCalls: [{ blockOverrides: { gasLimit: '0x100000' }, calls: [{ ...call, gas: '0x100001' }] }] }, -38015],
      [{ blockStateCalls: Array.from({ length: 257 }, () => ({})) }, -38026],
    ];
    for (const [payload, code] of cases) {
      const { body } = await simulate(payload);
      expect(body.error?.code, JSON.stringify(payload).slice(0, 120)).toBe(code);
    }
  });

  it('simulates on pending and on an older block; an unknown block is refused like eth_call’s', async () => {
    const head = await publicClient.getBlockNumber();
    const read = { blockStateCalls: [{ calls: [{ to: token, data: encodeFunctionData({ abi: tokenAbi, functionName: 'totalSupply' }) }] }] };
    const pending = await simulate(read, 'pending');
    expect(BigInt(pending.body.result[0].number)).toBe(head + 2n);
    expect(BigInt(pending.body.result[0].calls[0].returnData)).toBe(INITIAL_SUPPLY);
    // On genesis, before the token existed: the call reaches an empty account and returns nothing.
    const before = await simulate(read, '0x0');
    expect(before.body.result[0].number).toBe('0x1');
    expect(before.body.result[0].calls[0]).toMatchObject({ status: '0x1', returnData: '0x' });
    const unknown = await simulate(read, `0x${(head + 100n).toString(16)}`);
    const call = await rpc(t.testnetUrl, 'eth_call', [read.blockStateCalls[0]!.calls[0], `0x${(head + 100n).toString(16)}`]);
    expect(unknown.body.error?.code).toBe(call.body.error?.code);
  });

  it('refuses malformed payloads with -32602', async () => {
    const malformed = [
      {},
      { blockStateCalls: 'x' },
      { blockStateCalls: [{ calls: [{ to: 'nope' }] }] },
      { blockStateCalls: [{ calls: {} }] },
      { blockStateCalls: [], bogus: 1 },
      { blockStateCalls: [], validation: 'yes' },
      { blockStateCalls: [{ blockOverrides: { prevRandao: `0x${'00'.repeat(32)}` } }] },
      { blockStateCalls: [{ stateOverrides: { '0x0000000000000000000000000000000000000001': { balance: '0x1' } } }] },
    ];
    for (const payload of malformed) {
      const { body } = await simulate(payload);
      expect(body.error?.code, JSON.stringify(payload)).toBe(-32602);
    }
  });

  it('with validation the sender pays: the fee recipient gets gasUsed × gasPrice; returnFullTransactions gives transaction objects', async () => {
    const gasPrice = 100_000_000n;
    const { body } = await simulate({
      validation: true,
      returnFullTransactions: true,
      blockStateCalls: [
        {
          calls: [{ from: COW.address, to: FRESH, value: '0x10', gasPrice: `0x${gasPrice.toString(16)}` }],
        },
      ],
    });
    expect(body.error).toBeUndefined();
    const [block] = body.result;
    expect(block.paidFees).toBe(`0x${(21_000n * gasPrice).toString(16)}`);
    expect(block.transactions[0]).toMatchObject({ from: COW.address, to: FRESH, value: '0x10', gasPrice: `0x${gasPrice.toString(16)}`, blockHash: block.hash });
    expect(block.calls[0]).toMatchObject({ status: '0x1', gasUsed: '0x5208', returnData: '0x', logs: [] });
  });
});

describe('eth_simulateV1 and the execution time limit', () => {
  const start = nodesClosedAfterEach();
  /** JUMPDEST, 24 KB of PUSH1 0 POP, back to the JUMPDEST: endless. */
  const LOOP = `0x5b${'600050'.repeat(8000)}600056`;

  it('an endless loop answers -32011 within the request time limit', async () => {
    const node = await start({ limits: { executionTimeoutMs: 20, callGasCap: 10n ** 12n } });
    const { body } = await rpc(node.testnetUrl, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { gasLimit: '0xe8d4a51000' }, calls: [{ data: LOOP, gas: '0xe8d4a51000' }] }] },
      'latest',
    ]);
    expect(body.error?.code).toBe(-32011);
  });
});
