/**
 * eth_getLogs at scale: 2,000 blocks with one Transfer event each, then address and topic queries
 * over the whole range, in-process through the dispatcher (no HTTP) and over HTTP.
 * Run: npx tsx scripts/bench/logs.ts   (for comparison, anvil answers such a query in about 18 ms)
 */
import { Interface, Wallet, id as topicId } from 'ethers';
import { contracts } from '../../test/fixtures/contracts.js';
import { startTestNode } from '../../test/helpers/node.js';

const COW_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const BLOCKS = 2_000;
const RUNS = 20;

const t = await startTestNode();
try {
  const wallet = new Wallet(COW_KEY);
  const iface = new Interface(contracts.Token.abi);
  const send = async (raw: string) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] });
    const res = (await t.node.handle('testnet', body)).body;
    if (res.includes('"error"')) throw new Error(res);
  };
  const deploy = await wallet.signTransaction({ type: 0, chainId: 31, nonce: 0, gasLimit: 2_000_000, gasPrice: 66_000_000, data: contracts.Token.bytecode + iface.encodeDeploy([10n ** 24n]).slice(2) });
  await send(deploy);
  const receipt = JSON.parse((await t.node.handle('testnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [await hashOf(deploy)] }))).body).result;
  const token: string = receipt.contractAddress;
  const started = performance.now();
  for (let i = 1; i <= BLOCKS; i++) {
    await send(await wallet.signTransaction({ type: 0, chainId: 31, nonce: i, to: token, gasLimit: 60_000, gasPrice: 66_000_000, data: iface.encodeFunctionData('transfer', ['0x7986b3df570230288501eea3d890bd66948c9b79', 1n]) }));
  }
  console.log(`${BLOCKS} blocks with one event each mined in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const queries = {
    'address, whole chain': { fromBlock: '0x0', toBlock: 'latest', address: token },
    'topic0, whole chain': { fromBlock: '0x0', toBlock: 'latest', topics: [topicId('Transfer(address,address,uint256)')] },
    'address + topic2 (to), whole chain': {
      fromBlock: '0x0',
      toBlock: 'latest',
      address: token,
      topics: [null, null, '0x0000000000000000000000007986b3df570230288501eea3d890bd66948c9b79'],
    },
    'no match (other address)': { fromBlock: '0x0', toBlock: 'latest', address: '0x1111111111111111111111111111111111111111' },
  };
  for (const [label, filter] of Object.entries(queries)) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [filter] });
    let count = 0;
    const inProcess = await timeRuns(async () => (count = JSON.parse((await t.node.handle('testnet', body)).body).result.length));
    const overHttp = await timeRuns(async () => {
      const res = await fetch(t.testnetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.json();
    });
    console.log(`${label.padEnd(36)} ${String(count).padStart(5)} logs  in-process ${inProcess.toFixed(1)} ms  HTTP ${overHttp.toFixed(1)} ms (median of ${RUNS})`);
  }
} finally {
  await t.close();
}

async function timeRuns(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)]!;
}

async function hashOf(raw: string): Promise<string> {
  const { keccak256 } = await import('ethers');
  return keccak256(raw);
}
