/**
 * Tracing speed: one block of 100 ERC20 transfers, traced over HTTP with the struct-log tracer
 * (rskTracer), callTracer and trace_block. Reports the median of several runs and the size of the
 * answer. Run: npx tsx scripts/bench/trace.ts
 */
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../../test/fixtures/contracts.js';
import { bytesToHex } from '@ethereumjs/util';
import { DEV_ACCOUNTS } from '../../src/chain/keys/accounts.js';
import { COW, COW1, call, startTestNode } from '../../test/helpers/node.js';

const TRANSFERS = 100;
const RUNS = 7;

const t = await startTestNode();
try {
  const url = t.testnetUrl;
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  const wallet = new Wallet(COW.privateKey, provider);
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
  const token = await factory.deploy(10n ** 24n, { type: 0, gasLimit: 3_000_000 });
  await token.waitForDeployment();
  const tokenAddress = await token.getAddress();
  const iface = new Interface(contracts.Token.abi);

  // The pool takes at most a few queued nonces per sender (rskj's account slots): ten senders, ten transfers each.
  const senders = DEV_ACCOUNTS.map((a) => new Wallet(bytesToHex(a.privateKey), provider));
  for (const sender of senders.slice(1)) {
    await (await (token.connect(wallet) as any).transfer(sender.address, 10n ** 20n, { type: 0, gasLimit: 100_000 })).wait();
  }
  await call(url, 'evm_setAutomine', [false]);
  const gasPrice = await call(url, 'eth_gasPrice', []);
  for (let i = 0; i < TRANSFERS; i++) {
    const sender = senders[i % senders.length]!;
    const nonce = await provider.getTransactionCount(sender.address, 'pending');
    const to = `0x${(i + 1).toString(16).padStart(40, '0')}`;
    const raw = await sender.signTransaction({
      type: 0, chainId: 31n, nonce, gasPrice, gasLimit: 100_000,
      to: tokenAddress, data: iface.encodeFunctionData('transfer', [i % 2 === 0 ? to : COW1.address, 1000n + BigInt(i)]),
    });
    await call(url, 'eth_sendRawTransaction', [raw]);
  }
  await call(url, 'evm_mine', []);
  const block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  if (block.transactions.length !== TRANSFERS + 1) throw new Error(`block holds ${block.transactions.length} transactions`);

  const measure = async (name: string, method: string, params: unknown[]) => {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      const text = await response.text();
      times.push(performance.now() - start);
      bytes = text.length;
      if (text.includes('"id":1,"error"')) throw new Error(`${method}: ${text.slice(0, 300)}`);
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(34)} median ${times[RUNS >> 1]!.toFixed(1)} ms  min ${times[0]!.toFixed(1)} ms  (${(bytes / 1e6).toFixed(2)} MB)`);
  };

  console.log(`block ${BigInt(block.number)}: ${TRANSFERS} ERC20 transfers + REMASC, ${RUNS} runs each, over HTTP`);
  await measure('debug_traceBlockByNumber rskTracer', 'debug_traceBlockByNumber', [block.number]);
  await measure('  ... disableMemory+disableStack', 'debug_traceBlockByNumber', [block.number, { disableMemory: true, disableStack: true }]);
  await measure('debug_traceBlockByNumber callTracer', 'debug_traceBlockByNumber', [block.number, { tracer: 'callTracer' }]);
  await measure('trace_block', 'trace_block', [block.number]);
  await measure('debug_traceTransaction (last tx)', 'debug_traceTransaction', [block.transactions[TRANSFERS - 1]]);
} finally {
  await t.close();
}
