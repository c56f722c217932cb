/**
 * The explorer (/explorer) in a real browser, as the dashboard's test drives it: a Token deployed
 * and transferred with ethers, then the home page (latest blocks, a new block appearing while it is
 * open), a block page (number, hash, RSK fields), a transaction page (status, decoded Transfer,
 * call tree), an address page (balance and its transactions, newest first, paged) and the search
 * box navigating to each, on both networks, at 1280 px and 390 px with nothing wider than the screen.
 * Also the endpoint's read-only rule and its refusal beyond loopback / on a hosted node.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { WebSocket } from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createRequire } from 'node:module';
import { ContractFactory, Contract, Interface, type InterfaceAbi, JsonRpcProvider, Wallet, formatEther } from 'ethers';
import { TEST_OUTPUT_DIR as OUTPUT_DIR, chromiumAndNodeForTests, recordPageErrors } from '../helpers/browser.js';
import { measurePageWidth } from '../helpers/layout.js';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';
import { contracts } from '../fixtures/contracts.js';
import { isLoopbackAddress } from '../../src/server/explorer-socket.js';
import { decodeMergedMining } from '../../src/chain/index.js';
import { BLOCK_HEADER_ABI, ENVIRONMENT_ABI } from '../fixtures/native-abis.js';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import * as btc from '@scure/btc-signer';
import { merkleRootAndBranch, sha256d } from '../helpers/btc.js';

const bridge = createRequire(import.meta.url)('@rsksmart/rsk-precompiled-abis').bridge as { abi: InterfaceAbi; address: string };
const hdWalletUtils = createRequire(import.meta.url)('@rsksmart/rsk-precompiled-abis').hdWalletUtils as { abi: InterfaceAbi; address: string };
const BLOCK_HEADER = '0x0000000000000000000000000000000001000010';
const ENVIRONMENT = '0x0000000000000000000000000000000001000011';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const SUPPLY = 1_000_000n;
const SENT = 1234n;

let t: TestNode;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
let token: string;
let transferHash: string;
let transferBlock: { number: string; hash: string };

chromiumAndNodeForTests((node) => ({ t, browser } = node));
beforeAll(async () => {
  const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(COW.privateKey, provider);
  const deployed = await new ContractFactory(contracts.Token.abi, contracts.Token.bytecode, wallet).deploy(SUPPLY);
  await deployed.waitForDeployment();
  token = (await deployed.getAddress()).toLowerCase();
  const sent = await (new Contract(token, contracts.Token.abi, wallet).getFunction('transfer'))(COW1.address, SENT);
  const receipt = await sent.wait();
  transferHash = sent.hash;
  transferBlock = { number: String(receipt!.blockNumber), hash: receipt!.blockHash };
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  recordPageErrors(page, pageErrors);
});

async function noOverflow(name: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const width = await measurePageWidth(page);
    expect(width.scrollWidth, `${name} at ${viewport.width} px`).toBeLessThanOrEqual(width.clientWidth);
    expect(width.offScreen, `${name} at ${viewport.width} px`).toEqual([]);
    await page.screenshot({ path: `${OUTPUT_DIR}explorer-${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** Where RSKBLOCK: starts in the stored coinbase's tail (after its 8-byte count and 32-byte midstate). */
async function tagOffset(block: { bitcoinMergedMiningCoinbaseTransaction: string }): Promise<number> {
  const tail = block.bitcoinMergedMiningCoinbaseTransaction.slice(2 + 80);
  return tail.indexOf(Buffer.from('RSKBLOCK:').toString('hex')) / 2;
}

/** A pool's coinbase: a 70-byte scriptSig (so the stored form has a real midstate), a payout, then OP_RETURN RSKBLOCK: + hash. */
function taggedCoinbase(hashForMergedMining: Uint8Array): Uint8Array {
  const tx = new btc.Transaction({ version: 1, allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true });
  tx.addOutput({ script: btc.OutScript.encode({ type: 'pkh', hash: new Uint8Array(20).fill(0x11) }), amount: 625_000_000n });
  tx.addOutput({ script: btc.Script.encode(['RETURN', Uint8Array.from([...Buffer.from('RSKBLOCK:'), ...hashForMergedMining])]), amount: 0n });
  tx.addInput({ txid: new Uint8Array(32), index: 0xffffffff, sequence: 0xffffffff, finalScriptSig: btc.Script.encode([new Uint8Array(70).fill(0x42)]) });
  return tx.toBytes(true, false);
}

/** An 80-byte header over `merkleRoot` with a nonce that meets `target`. */
function mineHeader(merkleRoot: Uint8Array, target: bigint): Uint8Array {
  const header = new Uint8Array(80);
  const view = new DataView(header.buffer);
  view.setUint32(0, 0x20000000, true);
  header.set(merkleRoot, 36);
  view.setUint32(72, 0x207fffff, true);
  for (let nonce = 0; nonce < 1_000_000; nonce++) {
    view.setUint32(76, nonce, true);
    if (BigInt(bytesToHex(Uint8Array.from(sha256d(header)).reverse())) <= target) return header;
  }
  throw new Error('no nonce found');
}

const text = (selector: string) => page.locator(selector).first().textContent();

describe('explorer in chromium', () => {
  it('home: the latest blocks and transactions, and a new block shows up while the page is open', async () => {
    await page.goto(`${t.baseUrl}/explorer`);
    await expect.poll(() => text('#head')).toContain(`Head: block ${transferBlock.number}.`);
    expect(await page.locator('#blocks tbody tr').first().locator('td').first().textContent()).toBe(transferBlock.number);
    // Newest first: a block's REMASC transaction (its last) comes before the transfer.
    const rows = page.locator('#txs tbody tr');
    expect(await rows.nth(0).locator('.badge').textContent()).toBe('REMASC');
    expect(await rows.nth(1).locator('a').first().getAttribute('href')).toBe(`/explorer/tx/${transferHash}`);
    await noOverflow('home');

    // The node's newHeads subscription on the explorer's socket brings the next block, no reload.
    await expect.poll(() => page.locator('#head').getAttribute('data-updates')).toBe('live');
    expect(await text('#head')).toBe(`Head: block ${transferBlock.number}. New blocks appear as they are mined.`);
    await rpc(t.testnetUrl, 'evm_mine');
    const next = String(Number(transferBlock.number) + 1);
    await expect.poll(() => text('#head')).toContain(`Head: block ${next}.`);
    expect(await page.locator('#blocks tbody tr').first().locator('td').first().textContent()).toBe(next);
  });

  it('home: when the explorer\'s socket fails, the page polls and a new block still shows up', async () => {
    const failing = await context.newPage();
    try {
      await failing.routeWebSocket(/\/explorer\/ws\//, (socket) => socket.close());
      await failing.goto(`${t.baseUrl}/explorer`);
      await expect.poll(() => failing.locator('#head').getAttribute('data-updates')).toBe('polling');
      const head = BigInt((await rpc(t.testnetUrl, 'eth_blockNumber')).body.result);
      expect(await failing.locator('#head').textContent()).toBe(`Head: block ${head}. Updates every 2 s.`);
      await rpc(t.testnetUrl, 'evm_mine');
      await expect.poll(() => failing.locator('#head').textContent(), { timeout: 10_000 }).toContain(`Head: block ${head + 1n}.`);
    } finally {
      await failing.close();
    }
  });

  it('block: the number, the hash and the RSK fields', async () => {
    await page.goto(`${t.baseUrl}/explorer/block/${transferBlock.number}`);
    await expect.poll(() => text('#block-number')).toBe(transferBlock.number);
    expect(await text('#block-hash')).toBe(transferBlock.hash);
    const block = (await rpc(t.testnetUrl, 'eth_getBlockByHash', [transferBlock.hash, false])).body.result;
    expect(await text('#block-min-gas-price')).toBe(`${BigInt(block.minimumGasPrice)} wei`);
    expect(await text('#block-hfmm')).toBe(block.hashForMergedMining);
    expect(await text('#block-mm-header')).toBe(block.bitcoinMergedMiningHeader);
    expect(await page.locator('#block-txs a', { hasText: transferHash.slice(0, 10) }).count()).toBeGreaterThan(0);

    // The merged-mining fields decoded: the node's own regtest proof (one-transaction Bitcoin block).
    const header = hexToBytes(block.bitcoinMergedMiningHeader);
    await expect.poll(() => text('#mm-valid')).toMatch(/^The proof validates/);
    expect(await text('#mm-btc-hash')).toBe(bytesToHex(sha256d(header).reverse()));
    expect(await text('#mm-version')).toBe(String(new DataView(header.buffer).getUint32(0, true)));
    expect(await text('#mm-merkle-root')).toBe(bytesToHex(header.slice(36, 68).reverse()));
    expect(await text('#mm-tag')).toBe(`RSKBLOCK: at tail offset ${await tagOffset(block)}, followed by ${block.hashForMergedMining}`);
    expect(await text('#mm-tag-match')).toBe("equals this block's hash for merged mining");
    expect(await text('#mm-proof')).toMatch(/^Empty/);
    await noOverflow('block');
  });

  it('block: a merged miner\'s block from a three-transaction Bitcoin block shows its two-step Merkle proof', async () => {
    const external = await startTestNode({ miner: 'external' });
    try {
      const work = (await rpc(external.testnetUrl, 'mnr_getWork')).body.result as { blockHashForMergedMining: string; target: string };
      const coinbase = taggedCoinbase(hexToBytes(work.blockHashForMergedMining as `0x${string}`));
      const coinbaseId = sha256d(coinbase);
      const others = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
      const { root, branch } = merkleRootAndBranch([coinbaseId, ...others]);
      const header = mineHeader(root, BigInt(work.target));
      const display = (b: Uint8Array) => bytesToHex(Uint8Array.from(b).reverse()).slice(2);
      const submitted = await rpc(external.testnetUrl, 'mnr_submitBitcoinBlockTransactions', [
        display(sha256d(header)), bytesToHex(header).slice(2), bytesToHex(coinbase).slice(2), [coinbaseId, ...others].map(display).join(' '),
      ]);
      const blockHash = submitted.body.result.blockHash as string;
      await page.goto(`${external.baseUrl}/explorer/block/${blockHash}`);
      await expect.poll(() => text('#mm-valid')).toMatch(/^The proof validates/);
      expect(await text('#mm-merkle-root')).toBe(`0x${display(root)}`);
      expect(await page.locator('#mm-proof li').allTextContents()).toEqual(branch.map((sibling) => `0x${display(sibling)}`));
      expect(await text('#mm-tag-match')).toBe("equals this block's hash for merged mining");
      await noOverflow('block-merged-mined');
    } finally {
      await external.close();
    }
  });

  it('block: a proof that does not link the coinbase to the header is shown as not validating', async () => {
    const block = t.node.chains.testnet.head;
    const tampered = { ...block, header: { ...block.header, bitcoinMergedMiningMerkleProof: new Uint8Array(32).fill(7) } };
    const view = decodeMergedMining(tampered);
    expect(view.valid).toBe(false);
    expect(view.reason).toBe("merkle proof does not link the coinbase to the BTC header's merkle root");
    expect(view.merkleProof).toEqual([`0x${'07'.repeat(32)}`]);
    const bad = await fetch(`${t.baseUrl}/explorer/api/testnet/merged-mining/0x1234`);
    expect(bad.status).toBe(400);
    const missing = await fetch(`${t.baseUrl}/explorer/api/testnet/merged-mining/0x${'ab'.repeat(32)}`);
    expect(missing.status).toBe(404);
  });

  it('transaction: status, fee and the Transfer decoded, with the call tree', async () => {
    await page.goto(`${t.baseUrl}/explorer/tx/${transferHash}`);
    await expect.poll(() => text('#tx-status')).toBe('Success');
    const receipt = (await rpc(t.testnetUrl, 'eth_getTransactionReceipt', [transferHash])).body.result;
    expect(await text('#tx-gas-used')).toBe(String(BigInt(receipt.gasUsed)));
    expect(await text('#tx-fee')).toBe(`${formatEther(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)).replace(/\.0$/, '')} RBTC`);
    expect(await text('#tx-logs .decoded')).toBe(`Transfer (ERC-20): from ${COW.address}, to ${COW1.address}, value ${SENT}`);
    expect(await text('#call-tree')).toContain(`CALL ${token}`);
    await noOverflow('tx');
  });

  it('transaction: ERC-721 Transfer and Approval (token id in topic 3) and ApprovalForAll decoded', async () => {
    // Creation code that emits the three events from the new contract, as an ERC-721 does, then stops.
    const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
    const APPROVAL_FOR_ALL = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31';
    const push20 = (address: string) => `73${address.slice(2)}`;
    const push32 = (word: string) => `7f${word.slice(2)}`;
    const log4 = (signature: string, tokenId: number) => `60${tokenId.toString(16).padStart(2, '0')}${push20(COW1.address)}33${push32(signature)}60006000a4`;
    const approvalForAll = `6001600052${push20(COW1.address)}33${push32(APPROVAL_FOR_ALL)}60206000a3`;
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const sent = await wallet.sendTransaction({ data: `0x${log4(TRANSFER, 7)}${log4(APPROVAL, 9)}${approvalForAll}00`, gasLimit: 200_000 });
    expect((await sent.wait())?.status).toBe(1);
    await page.goto(`${t.baseUrl}/explorer/tx/${sent.hash}`);
    await expect.poll(() => page.locator('#tx-logs .decoded').allTextContents()).toEqual([
      `Transfer (ERC-721): from ${COW.address}, to ${COW1.address}, tokenId 7`,
      `Approval (ERC-721): owner ${COW.address}, spender ${COW1.address}, tokenId 9`,
      `ApprovalForAll(owner ${COW.address}, operator ${COW1.address}, approved true)`,
    ]);
  });

  it('transaction: a REMASC transaction is marked as such', async () => {
    const block = (await rpc(t.testnetUrl, 'eth_getBlockByHash', [transferBlock.hash, true])).body.result;
    const remasc = block.transactions.at(-1);
    expect(remasc.to).toBe('0x0000000000000000000000000000000001000008');
    await page.goto(`${t.baseUrl}/explorer/tx/${remasc.hash}`);
    await expect.poll(() => text('h1')).toBe('REMASC transaction');
    expect(await text('#tx-kind')).toMatch(/^REMASC/);
    // Its empty call data runs processMinersFees (rskj RemascContract.getFunction).
    expect(remasc.input).toBe('0x');
    await expect.poll(() => text('#tx-native-call')).toBe('REMASC.processMinersFees()');
  });

  it('transaction: a call to the Bridge decoded with its published ABI', async () => {
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const data = new Interface(bridge.abi).encodeFunctionData('getBtcBlockchainBlockHashAtDepth', [-5]);
    const sent = await wallet.sendTransaction({ to: bridge.address, data, gasLimit: 100_000 });
    await sent.wait(undefined).catch(() => undefined);
    await page.goto(`${t.baseUrl}/explorer/tx/${sent.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('Bridge.getBtcBlockchainBlockHashAtDepth(depth: -5)');
    expect(await text('#tx-kind')).toBe('A call to the native contract Bridge');

    // Dynamic arguments (a string pair, then an array of bytes) through HDWalletUtils' ABI.
    const hd = new Interface(hdWalletUtils.abi);
    const derive = await wallet.sendTransaction({ to: hdWalletUtils.address, data: hd.encodeFunctionData('deriveExtendedPublicKey', ['tpub-not-real', 'M/0/1']), gasLimit: 100_000 });
    await page.goto(`${t.baseUrl}/explorer/tx/${derive.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('HDWalletUtils.deriveExtendedPublicKey(xpub: "tpub-not-real", path: "M/0/1")');
    const multisig = await wallet.sendTransaction({ to: hdWalletUtils.address, data: hd.encodeFunctionData('getMultisigScriptHash', [2, ['0x0102', '0x']]), gasLimit: 100_000 });
    await page.goto(`${t.baseUrl}/explorer/tx/${multisig.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('HDWalletUtils.getMultisigScriptHash(minimumSignatures: 2, xpubs: [0x0102, 0x])');
  });

  it('transaction: calls to BlockHeader and Environment decoded with their ABIs (not in the published package)', async () => {
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW.privateKey, provider);
    const header = new Interface(BLOCK_HEADER_ABI);
    const coinbase = await wallet.sendTransaction({ to: BLOCK_HEADER, data: header.encodeFunctionData('getCoinbaseAddress', [3]), gasLimit: 100_000 });
    expect((await coinbase.wait())?.status).toBe(1);
    await page.goto(`${t.baseUrl}/explorer/tx/${coinbase.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('BlockHeader.getCoinbaseAddress(blockDepth: 3)');
    expect(await text('#tx-kind')).toBe('A call to the native contract BlockHeader');
    // Two arguments, one negative (rskj refuses it: the transaction fails, the page still decodes it).
    const uncle = await wallet.sendTransaction({ to: BLOCK_HEADER, data: header.encodeFunctionData('getUncleCoinbaseAddress', [1, -2]), gasLimit: 100_000 });
    await uncle.wait(undefined).catch(() => undefined);
    await page.goto(`${t.baseUrl}/explorer/tx/${uncle.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('BlockHeader.getUncleCoinbaseAddress(blockDepth: 1, uncleIndex: -2)');

    const depth = await wallet.sendTransaction({ to: ENVIRONMENT, data: new Interface(ENVIRONMENT_ABI).encodeFunctionData('getCallStackDepth'), gasLimit: 100_000 });
    expect((await depth.wait())?.status).toBe(1);
    await page.goto(`${t.baseUrl}/explorer/tx/${depth.hash}`);
    await expect.poll(() => text('#tx-native-call')).toBe('Environment.getCallStackDepth()');
    expect(await text('#tx-kind')).toBe('A call to the native contract Environment');
  });

  it('address: balance, nonce, code size and its transactions newest first', async () => {
    await page.goto(`${t.baseUrl}/explorer/address/${token}`);
    await expect.poll(() => text('#address-code-size')).toBe(`${(contracts.Token.deployedBytecode.length - 2) / 2} bytes`);
    expect(await text('#address-balance')).toBe('0 RBTC');
    const hashes = await page.locator('#address-txs tbody tr td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toBe(`/explorer/tx/${transferHash}`);
    await noOverflow('address');

    await page.goto(`${t.baseUrl}/explorer/address/${COW1.address}`);
    const balance = BigInt((await rpc(t.testnetUrl, 'eth_getBalance', [COW1.address, 'latest'])).body.result);
    await expect.poll(() => text('#address-balance')).toBe(`${formatEther(balance).replace(/\.0$/, '')} RBTC`);
  });

  it('address: an address with more transactions than a page pages to older ones', async () => {
    const provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(COW1.privateKey, provider);
    const recipient = Wallet.createRandom().address.toLowerCase();
    const hashes: string[] = [];
    for (let i = 0; i < 30; i++) hashes.push((await wallet.sendTransaction({ to: recipient, value: BigInt(i + 1) })).hash);
    await page.goto(`${t.baseUrl}/explorer/address/${recipient}`);
    await expect.poll(() => page.locator('#address-txs tbody tr').count()).toBe(25);
    expect(await page.locator('#address-txs tbody tr td:first-child a').first().getAttribute('href')).toBe(`/explorer/tx/${hashes[29]}`);
    await page.locator('#older').click();
    await expect.poll(() => page.locator('#address-txs tbody tr').count()).toBe(5);
    expect(await page.locator('#address-txs tbody tr td:first-child a').last().getAttribute('href')).toBe(`/explorer/tx/${hashes[0]}`);
    expect(await page.locator('#older').count()).toBe(0);
  });

  it('search: a block number, a transaction hash, a block hash and an address navigate; junk explains', async () => {
    await page.goto(`${t.baseUrl}/explorer`);
    const search = async (query: string) => {
      await page.locator('#search-input').fill(query);
      await page.locator('#search button').click();
    };
    await search(transferBlock.number);
    await page.waitForURL(`**/explorer/block/${transferBlock.number}`);
    await search(transferHash);
    await page.waitForURL(`**/explorer/tx/${transferHash}`);
    await search(transferBlock.hash);
    await page.waitForURL(`**/explorer/block/${transferBlock.hash}`);
    await expect.poll(() => text('#block-number')).toBe(transferBlock.number);
    await search(token);
    await page.waitForURL(`**/explorer/address/${token}`);
    await search('<img src=x>');
    await expect.poll(() => text('#search-error')).toMatch(/^Enter a block number/);
    expect(await page.locator('img').count()).toBe(0);
  });

  it('switches to mainnet, whose chain is its own', async () => {
    await page.goto(`${t.baseUrl}/explorer`);
    await page.locator('#network').selectOption('mainnet');
    await page.waitForURL('**/explorer?network=mainnet');
    const head = BigInt((await rpc(t.mainnetUrl, 'eth_blockNumber')).body.result);
    await expect.poll(() => text('#head')).toContain(`Head: block ${head}.`);
    expect(await page.locator('#network').inputValue()).toBe('mainnet');
    await page.goto(`${t.baseUrl}/explorer/tx/${transferHash}?network=mainnet`);
    await expect.poll(() => text('.error')).toContain('There is no transaction');
    expect(pageErrors).toEqual([]);
  });
});

describe('explorer endpoint', () => {
  it('is read-only: a method outside the pages\' list is refused before the dispatcher', async () => {
    const answer = await rpc(`${t.baseUrl}/explorer/rpc/testnet`, 'eth_sendTransaction', [{ from: COW.address, to: COW1.address }]);
    expect(answer.body.error?.code).toBe(-32601);
    expect(answer.body.error?.message).toMatch(/read-only/);
    const batch = await fetch(`${t.baseUrl}/explorer/rpc/testnet`, {
      method: 'POST',
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }, { jsonrpc: '2.0', id: 2, method: 'evm_mine' }]),
    });
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32601);
    expect((await rpc(`${t.baseUrl}/explorer/rpc/testnet`, 'eth_chainId')).body.result).toBe('0x1f');
    expect((await rpc(`${t.baseUrl}/explorer/rpc/mainnet`, 'eth_chainId')).body.result).toBe('0x1e');
    const tooLarge = await fetch(`${t.baseUrl}/explorer/rpc/testnet`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(100_000)] }) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { code: number; message: string } }).error).toEqual({ code: -32600, message: "request body too large: the explorer's endpoint takes at most 64kb" });
    const malformed = await rpc(`${t.baseUrl}/explorer/rpc/testnet`, 'eth_getBalance', ['0x12', 'latest']);
    expect(malformed.body.error?.code).toBe(-32602);
    const unknown = await rpc(`${t.baseUrl}/explorer/rpc/devnet`, 'eth_chainId');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe(-32602);
  });

  // The machine's own address on a non-loopback interface: a request to it arrives from that
  // address, not from 127.0.0.1. A machine with no such interface cannot make one, so the case is
  // skipped there (the loopback check itself is tested just below).
  const ownIpv4 = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(ownIpv4 === undefined)('refuses a request that really arrives from a non-loopback address (403), on a node listening on 0.0.0.0', async () => {
    const server = await t.node.server(0, '0.0.0.0');
    try {
      const page = await fetch(`http://${ownIpv4}:${server.port}/explorer`);
      expect(page.status).toBe(403);
      expect(await page.text()).toBe('The explorer answers only on the machine the node runs on (a loopback address).');
      const read = await fetch(`http://${ownIpv4}:${server.port}/explorer/rpc/testnet`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }) });
      expect(read.status).toBe(403);
      // The explorer's socket too.
      const socket = new WebSocket(`ws://${ownIpv4}:${server.port}/explorer/ws/testnet`);
      const [, refused] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
      expect(refused.statusCode).toBe(403);
      // The same server through loopback serves the page.
      expect((await fetch(`http://127.0.0.1:${server.port}/explorer`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('the explorer\'s socket takes only the newHeads subscription', async () => {
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/explorer/ws/testnet`);
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await once(socket, 'open');
    try {
      const answer = async (request: object) => {
        const before = messages.length;
        socket.send(JSON.stringify(request));
        await expect.poll(() => messages.length).toBeGreaterThan(before);
        return messages[before];
      };
      expect((await answer({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{}] })).error).toEqual({
        code: -32601,
        message: 'the explorer\'s socket is read-only and offers only eth_subscribe("newHeads") and eth_unsubscribe, not eth_sendTransaction',
      });
      expect((await answer({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', {}] })).error.code).toBe(-32601);
      expect((await answer({ jsonrpc: '2.0', id: 3, method: 'eth_subscribe' })).error.code).toBe(-32601);
      expect((await answer([{ jsonrpc: '2.0', id: 4, method: 'eth_unsubscribe', params: ['0x1'] }, { jsonrpc: '2.0', id: 5, method: 'evm_mine' }])).error.code).toBe(-32601);
      const subscribed = await answer({ jsonrpc: '2.0', id: 6, method: 'eth_subscribe', params: ['newHeads'] });
      expect(subscribed.result).toMatch(/^0x[0-9a-f]+$/);
      const before = messages.length;
      await rpc(t.testnetUrl, 'evm_mine');
      await expect.poll(() => messages.length).toBeGreaterThan(before);
      const head = (await rpc(t.testnetUrl, 'eth_getBlockByNumber', ['latest', false])).body.result;
      expect(messages[before]).toMatchObject({ method: 'eth_subscription', params: { subscription: subscribed.result, result: { number: head.number, hash: head.hash } } });
      expect((await answer({ jsonrpc: '2.0', id: 7, method: 'eth_unsubscribe', params: [subscribed.result] })).result).toBe(true);
      expect((await answer({ jsonrpc: '2.0', id: 8, method: 'eth_subscribe', params: 'newHeads' })).error.code).toBe(-32601);
      expect((await answer({ not: 'json-rpc' } as object)).error.code).toBe(-32600);
    } finally {
      socket.close();
    }
    // Another path under /explorer/ws is no socket of the explorer's: the RPC paths' 401.
    const elsewhere = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/explorer/ws/devnet`);
    const [, refused] = (await once(elsewhere, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(refused.statusCode).toBe(401);
  });

  it('refuses the socket to an address banned after its connection opened (403, as its pages)', async () => {
    const port = Number(new URL(t.baseUrl).port);
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.write('GET /explorer HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => received).toMatch(/^HTTP\/1\.1 200 /);
    await rpc(t.testnetUrl, 'sco_banAddress', ['127.0.0.2']);
    try {
      received = '';
      socket.write('GET /explorer/ws/testnet HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
      await expect.poll(() => received).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(received).toContain('requests from 127.0.0.2 are banned on this node');
    } finally {
      socket.destroy();
      await rpc(t.testnetUrl, 'sco_unbanAddress', ['127.0.0.2']);
    }
  });

  it('answers only loopback clients, and not at all on a hosted node', async () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.9.8.7'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', undefined].some(isLoopbackAddress)).toBe(false);
    const hosted = await startTestNode({ hosted: true, apiKeys: [] });
    try {
      const response = await fetch(`${hosted.baseUrl}/explorer`);
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(/--hosted/);
      const socket = new WebSocket(`${hosted.baseUrl.replace('http', 'ws')}/explorer/ws/testnet`);
      const [, refused] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
      expect(refused.statusCode).toBe(403);
    } finally {
      await hosted.close();
    }
  });
});
