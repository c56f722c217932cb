/**
 * Throughput of the main RPC paths over real HTTP, in one process: a trivial method, eth_call of
 * ERC20 balanceOf, and automined ERC20 transfers via eth_sendRawTransaction.
 * Run: npx tsx scripts/bench/rpc.ts   (numbers go in issue notes, never into tests)
 */
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { contracts } from '../../test/fixtures/contracts.js';
import { startTestNode } from '../../test/helpers/node.js';

const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const CONCURRENCY = 32;

async function measure(label: string, total: number, concurrency: number, call: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(40)} ${(total / seconds).toFixed(0).padStart(7)} /s  (${total} in ${seconds.toFixed(2)} s)`);
}

async function post(url: string, body: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const json = (await res.json()) as { error?: unknown };
  if (json.error) throw new Error(JSON.stringify(json.error));
  return json;
}

const t = await startTestNode();
try {
  const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, batchMaxCount: 1 });
  const wallet = new Wallet(COW_KEY, provider);
  const factory = new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet);
  const token = await factory.deploy(10n ** 24n, { type: 0 });
  await token.waitForDeployment();
  const tokenAddress = await token.getAddress();
  const iface = new Interface(contracts.Token.abi);

  await measure('eth_blockNumber (HTTP)', 20_000, CONCURRENCY, () =>
    post(t.testnetUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'),
  );
  const balanceOf = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [{ to: tokenAddress, data: iface.encodeFunctionData('balanceOf', [wallet.address]) }, 'latest'],
  });
  await measure('eth_call balanceOf (HTTP)', 3_000, CONCURRENCY, () => post(t.testnetUrl, balanceOf));

  const nonce = await provider.getTransactionCount(wallet.address);
  const count = 500;
  const raws: string[] = [];
  for (let i = 0; i < count; i++) {
    raws.push(
      await wallet.signTransaction({
        type: 0,
        chainId: 31,
        nonce: nonce + i,
        to: tokenAddress,
        gasLimit: 60_000,
        gasPrice: 66_000_000,
        data: iface.encodeFunctionData('transfer', ['0x7986b3df570230288501eea3d890bd66948c9b79', 1n]),
      }),
    );
  }
  await measure('ERC20 transfer, automined (HTTP)', count, 1, (i) =>
    post(t.testnetUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raws[i]] })),
  );
} finally {
  await t.close();
}
