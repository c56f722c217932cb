/**
 * What every node gets before the workloads: the bench's own keys funded from the node's first
 * unlocked account, the same ERC20 (test fixture Token) deployed, tokens handed to the senders, and
 * one block holding several transfers for eth_getBlockByNumber. Transactions are legacy (type 0),
 * signed by the bench with ethers for the node's chain id.
 */
import { Interface, Wallet, keccak256, toUtf8Bytes } from 'ethers';
import { contracts } from '../../test/fixtures/contracts.js';
import { post, rpc } from './load.js';
import type { RunningNode } from './peers.js';

/** Senders in flight in the "8 senders" workload. */
export const SENDERS = 8;
/** Transfers in the block read by the eth_getBlockByNumber workload. */
const RICH_BLOCK_TXS = 10;
const FUNDING_WEI = 10n ** 19n;
const TOKEN_SUPPLY = 10n ** 24n;
const SENDER_TOKENS = 10n ** 21n;
const DEPLOY_GAS = 2_000_000;
/** An ERC20 transfer to a fresh holder uses about 52k gas. */
export const TRANSFER_GAS = 60_000;
/** Where the transfers go: a fixed holder, so every node does the same storage writes. */
export const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const RECEIPT_POLL_MS = 1;
const RECEIPT_TIMEOUT_MS = 30_000;

const iface = new Interface(contracts.Token.abi);
const benchKey = (i: number) => keccak256(toUtf8Bytes(`rsk-devnode bench key ${i}`));

export interface BenchTarget {
  node: RunningNode;
  /** The URL the workloads use (rsk-user: the dashboard user's key). */
  url: URL;
  chainId: bigint;
  gasPrice: bigint;
  token: string;
  main: Wallet;
  senders: Wallet[];
  /** Next nonce of each bench key, by address. */
  nonces: Map<string, number>;
  richBlock: { number: string; txs: number };
}

export interface Receipt {
  status: string;
  blockNumber: string;
  contractAddress: string | null;
}

/** After a failed workload the counted nonces may be off: take the node's own counts again. */
export async function resyncNonces(target: BenchTarget): Promise<void> {
  for (const wallet of [target.main, ...target.senders]) {
    target.nonces.set(wallet.address, Number(BigInt(await rpc<string>(target.url, 'eth_getTransactionCount', [wallet.address, 'pending']))));
  }
}

/** eth_sendRawTransaction, then eth_getTransactionReceipt until the node has mined it. */
export async function sendAndWait(url: URL, raw: string): Promise<Receipt> {
  const hash = await rpc<string>(url, 'eth_sendRawTransaction', [raw]);
  return waitReceipt(url, hash);
}

export async function waitReceipt(url: URL, hash: string): Promise<Receipt> {
  const deadline = performance.now() + RECEIPT_TIMEOUT_MS;
  for (;;) {
    const receipt = await rpc<Receipt | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt !== null) {
      if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
      return receipt;
    }
    if (performance.now() > deadline) throw new Error(`no receipt for ${hash}`);
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
}

/**
 * Pre-signs `count` token transfers from `wallet`, taking its next nonces; with `sameNonce`, all
 * take the next one (and differ by amount), for a workload that reverts after each.
 */
export function signTransfers(target: BenchTarget, wallet: Wallet, count: number, options: { sameNonce?: boolean } = {}): Promise<string[]> {
  const first = target.nonces.get(wallet.address)!;
  target.nonces.set(wallet.address, first + (options.sameNonce ? 1 : count));
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      wallet.signTransaction({
        type: 0,
        chainId: target.chainId,
        nonce: options.sameNonce ? first : first + i,
        to: target.token,
        gasLimit: TRANSFER_GAS,
        gasPrice: target.gasPrice,
        data: iface.encodeFunctionData('transfer', [RECIPIENT, options.sameNonce ? BigInt(i + 1) : 1n]),
      }),
    ),
  );
}

export function balanceOfData(holder: string): string {
  return iface.encodeFunctionData('balanceOf', [holder]);
}

/** A dashboard user and a key of theirs, made through the gateway's API (src/gateway/api.ts); also the profile's --user-key. */
export async function dashboardUserUrl(node: Pick<RunningNode, 'port'>): Promise<URL> {
  const base = `http://127.0.0.1:${node.port}`;
  const credentials = JSON.stringify({ email: 'bench@example.com', password: 'bench-password' });
  const json = { 'content-type': 'application/json' };
  const signup = await fetch(`${base}/api/signup`, { method: 'POST', headers: json, body: credentials });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: json, body: credentials });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (login.status !== 200 || cookie === undefined) throw new Error(`login: ${login.status} ${await login.text()}`);
  const created = await fetch(`${base}/api/keys`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ name: 'bench', network: 'testnet' }),
  });
  if (created.status !== 201) throw new Error(`create key: ${created.status} ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  return new URL(`${base}/${key}`);
}

/** Stands in for the token's address in the calibration node's requests (same size as a real one). */
const CALIBRATION_TOKEN = `0x${'7'.repeat(40)}`;

/**
 * The calibration node (a bare node:http server) answers any request with one fixed result: it
 * runs the read rows only, with the bench's keys and a stand-in token address, so its requests
 * have the same bytes and size as the nodes'.
 */
export function calibrationTarget(node: RunningNode): BenchTarget {
  return {
    node,
    url: node.url,
    chainId: 0n,
    gasPrice: 0n,
    token: CALIBRATION_TOKEN,
    main: new Wallet(benchKey(0)),
    senders: [],
    nonces: new Map(),
    richBlock: { number: '0x0', txs: 0 },
  };
}

export async function prepare(node: RunningNode): Promise<BenchTarget> {
  if (node.spec.kind === 'calibration') return calibrationTarget(node);
  const url = node.spec.id === 'rsk-user' ? await dashboardUserUrl(node) : node.url;
  const chainId = BigInt(await rpc<string>(url, 'eth_chainId'));
  // Twice the node's price: EIP-1559 peers' base fee may move a little; every node then takes all.
  const gasPrice = BigInt(await rpc<string>(url, 'eth_gasPrice')) * 2n;
  const main = new Wallet(benchKey(0));
  const senders = Array.from({ length: SENDERS }, (_, i) => new Wallet(benchKey(i + 1)));
  // Funded through the operator's URL: a dashboard key never reaches the node's own keys.
  const [funder] = await rpc<string[]>(node.url, 'eth_accounts');
  if (funder === undefined) throw new Error(`${node.spec.label}: no unlocked account to fund the bench keys`);
  for (const wallet of [main, ...senders]) {
    const hash = await rpc<string>(node.url, 'eth_sendTransaction', [{ from: funder, to: wallet.address, value: `0x${FUNDING_WEI.toString(16)}`, gas: '0x5208' }]);
    await waitReceipt(node.url, hash);
  }
  const nonces = new Map<string, number>();
  for (const wallet of [main, ...senders]) nonces.set(wallet.address, Number(BigInt(await rpc<string>(url, 'eth_getTransactionCount', [wallet.address, 'latest']))));

  const deploy = await main.signTransaction({
    type: 0,
    chainId,
    nonce: nonces.get(main.address)!,
    gasLimit: DEPLOY_GAS,
    gasPrice,
    data: contracts.Token.bytecode + iface.encodeDeploy([TOKEN_SUPPLY]).slice(2),
  });
  nonces.set(main.address, nonces.get(main.address)! + 1);
  const token = (await sendAndWait(url, deploy)).contractAddress!;
  const target: BenchTarget = { node, url, chainId, gasPrice, token, main, senders, nonces, richBlock: { number: '', txs: 0 } };
  for (const sender of senders) {
    const nonce = nonces.get(main.address)!;
    nonces.set(main.address, nonce + 1);
    const raw = await main.signTransaction({ type: 0, chainId, nonce, to: token, gasLimit: TRANSFER_GAS, gasPrice, data: iface.encodeFunctionData('transfer', [sender.address, SENDER_TOKENS]) });
    await sendAndWait(url, raw);
  }
  target.richBlock = await mineRichBlock(target);
  return target;
}

/** Several transfers in one block: automine off (ganache: miner_stop), send, evm_mine, back on. */
async function mineRichBlock(target: BenchTarget): Promise<{ number: string; txs: number }> {
  const { url } = target;
  const ganache = target.node.spec.id === 'ganache';
  await rpc(url, ganache ? 'miner_stop' : 'evm_setAutomine', ganache ? [] : [false]);
  const raws = await signTransfers(target, target.main, RICH_BLOCK_TXS);
  const hashes: string[] = [];
  for (const raw of raws) hashes.push(await rpc<string>(url, 'eth_sendRawTransaction', [raw]));
  await rpc(url, 'evm_mine');
  await rpc(url, ganache ? 'miner_start' : 'evm_setAutomine', ganache ? [] : [true]);
  const receipts = await Promise.all(hashes.map((h) => waitReceipt(url, h)));
  const number = receipts[receipts.length - 1]!.blockNumber;
  const block = JSON.parse(await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [number, false] }))) as {
    result: { transactions: string[] };
  };
  return { number, txs: block.result.transactions.length };
}
