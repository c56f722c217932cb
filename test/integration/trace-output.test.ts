/**
 * Issue 19: trace_transaction's top entry showed `output: "0x"` for an ERC20 transfer that returns
 * true, while callTracer showed the `…01`. Checked against rskj (TraceTransformer.addTrace builds
 * the top entry's result from `ProgramResult.empty()` with only the receipt's gas spent): rskj
 * answers "0x" there too, so the node keeps it; nested entries (ProgramSubtrace) carry the
 * callee's real return data, and callTracer (geth's shape) the real output at every level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, startTestNode, type TestNode } from '../helpers/node.js';

const TRUE_WORD = `0x${'1'.padStart(64, '0')}`;
/** Forwards its call data to `token` (CALL with all gas) and returns the answer's first word. */
const forwarder = (token: string) => `366000600037602060003660006000 73${token.slice(2)}5af150 60206000f3`.replace(/ /g, '');
const initCode = (runtime: string) => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;

let t: TestNode;
let provider: JsonRpcProvider;
let token: Contract;
let tokenAddress: string;

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  const wallet = new Wallet(COW.privateKey, provider);
  const deployed = await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(10n ** 24n, { type: 0 });
  await deployed.waitForDeployment();
  tokenAddress = (await deployed.getAddress()).toLowerCase();
  token = new Contract(tokenAddress, contracts.Token.abi, wallet);
});

afterAll(async () => {
  await t?.close();
});

describe('trace_transaction output of a call that returns true', () => {
  it('the top entry answers "0x" as rskj does; callTracer shows the returned true', async () => {
    const response = await token.getFunction('transfer')(COW1.address, 5n, { type: 0 });
    const receipt = await response.wait();
    expect(receipt.status).toBe(1);
    const [top] = await provider.send('trace_transaction', [response.hash]);
    expect(top.result).toEqual({ gasUsed: `0x${receipt.gasUsed.toString(16)}`, output: '0x' });
    const call = await provider.send('debug_traceTransaction', [response.hash, { tracer: 'callTracer' }]);
    expect(call.output).toBe(TRUE_WORD);
    expect(call.gasUsed).toBe(`0x${receipt.gasUsed.toString(16)}`);
  });

  it('a nested call\'s entry carries the true it returned', async () => {
    const wallet = new Wallet(COW.privateKey, provider);
    const deployTx = await wallet.sendTransaction({ type: 0, data: initCode(forwarder(tokenAddress)) });
    const relay = (await deployTx.wait())!.contractAddress!;
    await (await token.getFunction('transfer')(relay, 100n, { type: 0 })).wait();
    const data = token.interface.encodeFunctionData('transfer', [COW1.address, 7n]);
    const sent = await wallet.sendTransaction({ type: 0, to: relay, data, gasLimit: 200_000 });
    expect((await sent.wait())!.status).toBe(1);
    const traces = await provider.send('trace_transaction', [sent.hash]);
    expect(traces).toHaveLength(2);
    expect(traces[0].result.output).toBe('0x');
    expect(traces[1]).toMatchObject({ traceAddress: [0], action: { callType: 'call', from: relay.toLowerCase(), to: tokenAddress }, result: { output: TRUE_WORD } });
    expect(await token.getFunction('balanceOf')(relay)).toBe(93n);
  });
});
