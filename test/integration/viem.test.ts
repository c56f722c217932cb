/**
 * viem against a running node: public and wallet clients on a custom chain, a local account
 * (signed raw legacy transactions) and a JSON-RPC account (eth_sendTransaction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaseError,
  decodeErrorResult,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  numberToHex,
  pad,
  parseEther,
  serializeTransaction,
  type Transaction,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  type Account,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, startTestNode, type TestNode } from '../helpers/node.js';
import { devnodeChain } from '../helpers/viem-chain.js';

const REMASC: Address = '0x0000000000000000000000000000000001000008';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const GAS_PRICE = 66_000_000n;
/** viem prices a legacy transaction at eth_gasPrice times its default fee multiplier, 1.2. */
const VIEM_GAS_PRICE = (GAS_PRICE * 12n) / 10n;
const INITIAL_SUPPLY = 1_000_000n * 10n ** 18n;

const tokenAbi = contracts.Token.abi as Abi;
const reverterAbi = contracts.Reverter.abi as Abi;
const storeAbi = contracts.MappingStore.abi as Abi;

let t: TestNode;
let chain: Chain;
let publicClient: PublicClient<Transport, Chain>;
let walletClient: WalletClient<Transport, Chain, Account>;
const account = privateKeyToAccount(COW.privateKey);

beforeAll(async () => {
  t = await startTestNode();
  chain = devnodeChain(t.testnetUrl);
  publicClient = createPublicClient({ chain, transport: http(t.testnetUrl), pollingInterval: 50 });
  walletClient = createWalletClient({ account, chain, transport: http(t.testnetUrl), pollingInterval: 50 });
});
afterAll(() => t?.close());

/** The EIP-155 chain id of a legacy transaction, checked by re-serializing it to its hash. */
function chainIdOf(tx: Transaction): number {
  expect([97n, 98n]).toContain(tx.v);
  const chainId = Number((tx.v - 35n) / 2n);
  const raw = serializeTransaction(
    { type: 'legacy', chainId, nonce: tx.nonce, gas: tx.gas, gasPrice: tx.gasPrice!, to: tx.to, value: tx.value, data: tx.input },
    { r: tx.r, s: tx.s, v: tx.v },
  );
  expect(keccak256(raw)).toBe(tx.hash);
  return chainId;
}

async function mined(hash: Hex): Promise<TransactionReceipt> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function deploy(abi: Abi, bytecode: Hex, args: unknown[] = []): Promise<{ address: Address; receipt: TransactionReceipt }> {
  const hash = await walletClient.deployContract({ abi, bytecode, args, type: 'legacy' });
  const receipt = await mined(hash);
  expect(receipt.contractAddress).toBeTruthy();
  return { address: getAddress(receipt.contractAddress!), receipt };
}

describe('viem: chain basics', () => {
  it('reports chain id 31 and the gas price 66,000,000', async () => {
    expect(await publicClient.getChainId()).toBe(31);
    expect(await publicClient.getGasPrice()).toBe(GAS_PRICE);
  });

  it('sends a legacy value transfer with an exact fee', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const before = await publicClient.getBalance({ address: account.address });
    const nonce = await publicClient.getTransactionCount({ address: account.address });
    const hash = await walletClient.sendTransaction({ to: recipient, value: parseEther('0.5'), type: 'legacy' });
    const receipt = await mined(hash);

    expect(receipt.type).toBe('legacy');
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.effectiveGasPrice).toBe(VIEM_GAS_PRICE);
    expect(receipt.from).toBe(account.address.toLowerCase());
    expect(receipt.to).toBe(recipient.toLowerCase());
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('0.5'));
    expect(await publicClient.getBalance({ address: account.address })).toBe(before - parseEther('0.5') - 21_000n * VIEM_GAS_PRICE);
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(nonce + 1);

    const tx = await publicClient.getTransaction({ hash });
    expect(tx.hash).toBe(hash);
    expect(tx.type).toBe('legacy');
    expect(tx.from).toBe(account.address.toLowerCase());
    expect(tx.to).toBe(recipient.toLowerCase());
    expect(tx.value).toBe(parseEther('0.5'));
    expect(tx.gasPrice).toBe(VIEM_GAS_PRICE);
    expect(tx.gas).toBe(21_000n);
    expect(tx.nonce).toBe(nonce);
    // rskj's transaction JSON has no chainId field; the EIP-155 v carries it (31 * 2 + 35 + parity).
    expect(chainIdOf(tx)).toBe(31);
    expect(tx.blockNumber).toBe(receipt.blockNumber);
    expect(tx.blockHash).toBe(receipt.blockHash);
    expect(tx.transactionIndex).toBe(0);
  });

  it('getBlock includes the user transaction and the REMASC transaction', async () => {
    const hash = await walletClient.sendTransaction({ to: COW1.address, value: 1n, type: 'legacy' });
    const receipt = await mined(hash);
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true });
    expect(block.number).toBe(receipt.blockNumber);
    expect(block.hash).toBe(receipt.blockHash);
    expect(block.gasUsed).toBe(21_000n);
    expect(block.baseFeePerGas).toBeNull();
    expect(block.transactions).toHaveLength(2);
    const [user, remasc] = block.transactions;
    expect(user!.hash).toBe(hash);
    expect(user!.from).toBe(account.address.toLowerCase());
    expect(user!.value).toBe(1n);
    expect(remasc!.from).toBe(ZERO);
    expect(remasc!.to).toBe(REMASC);
    expect(remasc!.value).toBe(0n);
    expect(remasc!.transactionIndex).toBe(1);

    const latest = await publicClient.getBlock();
    expect(latest.hash).toBe(block.hash);
    expect(latest.transactions).toEqual([hash, remasc!.hash]);
    const parent = await publicClient.getBlock({ blockNumber: block.number - 1n });
    expect(block.parentHash).toBe(parent.hash);
    expect(await publicClient.getBlockNumber({ cacheTime: 0 })).toBe(block.number);
    expect(await publicClient.getBlockTransactionCount({ blockNumber: block.number })).toBe(2);
  });

  it('estimates 21,000 gas for a plain transfer', async () => {
    expect(await publicClient.estimateGas({ account: account.address, to: COW1.address, value: 1n })).toBe(21_000n);
  });
});

describe('viem: Token (ERC20)', () => {
  let token: Address;
  let deployReceipt: TransactionReceipt;

  beforeAll(async () => {
    const nonce = await publicClient.getTransactionCount({ address: account.address });
    ({ address: token, receipt: deployReceipt } = await deploy(tokenAbi, contracts.Token.bytecode, [INITIAL_SUPPLY]));
    expect(token).toBe(getContractAddress({ from: account.address, nonce: BigInt(nonce) }));
  });

  it('deploys the expected runtime code and mints to the deployer', async () => {
    expect(await publicClient.getCode({ address: token })).toBe(contracts.Token.deployedBytecode);
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'name' })).toBe('Test Token');
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] })).toBe(
      INITIAL_SUPPLY,
    );
    expect(deployReceipt.logs).toHaveLength(1);
    const event = decodeEventLog({ abi: tokenAbi, ...deployReceipt.logs[0]! });
    expect(event).toEqual({ eventName: 'Transfer', args: { from: ZERO, to: getAddress(account.address), value: INITIAL_SUPPLY } });
  });

  it('writeContract transfers; decodeEventLog reads the Transfer event', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const amount = 1_234n * 10n ** 18n;
    const { result } = await publicClient.simulateContract({
      account,
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [recipient, amount],
    });
    expect(result).toBe(true);
    const hash = await walletClient.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [recipient, amount], type: 'legacy' });
    const receipt = await mined(hash);

    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [recipient] })).toBe(amount);
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] })).toBe(
      INITIAL_SUPPLY - amount,
    );

    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0]!;
    expect(log.address).toBe(token.toLowerCase());
    expect(log.transactionHash).toBe(hash);
    expect(log.blockNumber).toBe(receipt.blockNumber);
    expect(log.logIndex).toBe(0);
    const event = decodeEventLog({ abi: tokenAbi, data: log.data, topics: log.topics });
    expect(event.eventName).toBe('Transfer');
    expect(event.args).toEqual({ from: getAddress(account.address), to: recipient, value: amount });
  });

  it('estimateGas for a transfer is enough for it to succeed', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const gas = await publicClient.estimateContractGas({
      account,
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [recipient, 9n],
    });
    expect(gas).toBeGreaterThan(21_000n);
    const hash = await walletClient.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [recipient, 9n], gas, type: 'legacy' });
    const receipt = await mined(hash);
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);
    expect(await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [recipient] })).toBe(9n);
  });

  it('getStorageAt reads balanceOf at keccak256(abi.encode(addr, 3))', async () => {
    // Token layout: name (0), symbol (1), totalSupply (2), balanceOf (3), allowance (4).
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account.address, 3n]));
    const balance = await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] });
    expect(await publicClient.getStorageAt({ address: token, slot })).toBe(pad(numberToHex(balance as bigint), { size: 32 }));
    expect(await publicClient.getStorageAt({ address: token, slot: '0x2' })).toBe(pad(numberToHex(INITIAL_SUPPLY), { size: 32 }));
  });

  it('getStorageAt accepts a slot written as a full 32-byte word', async () => {
    // viem passes `slot` through as given; a 32-byte word is how slots are usually written.
    expect(await publicClient.getStorageAt({ address: token, slot: numberToHex(2, { size: 32 }) })).toBe(
      pad(numberToHex(INITIAL_SUPPLY), { size: 32 }),
    );
  });
});

describe('viem: reverts', () => {
  let reverter: Address;
  beforeAll(async () => {
    ({ address: reverter } = await deploy(reverterAbi, contracts.Reverter.bytecode));
  });

  /**
   * The spec makes a revert JSON-RPC code -32015 (rskj's), and viem only turns codes 3 and -32603
   * into ContractFunctionRevertedError. So a viem user gets a ContractFunctionExecutionError whose
   * cause is the node's error, with the revert payload in `data`, which decodeErrorResult reads.
   */
  async function revertOf(fn: () => Promise<unknown>) {
    try {
      await fn();
    } catch (err) {
      expect(err).toBeInstanceOf(BaseError);
      const rpcError = (err as BaseError).walk((e) => (e as { code?: unknown }).code === -32015) as (BaseError & { code: number; data: Hex }) | null;
      expect(rpcError, (err as BaseError).message).not.toBeNull();
      expect(rpcError!.details).toMatch(/^VM Exception while processing transaction: /);
      return { message: rpcError!.details, ...decodeErrorResult({ abi: reverterAbi, data: rpcError!.data }) };
    }
    throw new Error('expected a revert');
  }

  it('simulateContract of revertWithReason fails with -32015 whose data decodes to the reason', async () => {
    const err = await revertOf(() =>
      publicClient.simulateContract({ account, address: reverter, abi: reverterAbi, functionName: 'revertWithReason' }),
    );
    expect(err.message).toBe('VM Exception while processing transaction: revert nope: reason string');
    expect(err.errorName).toBe('Error');
    expect(err.args).toEqual(['nope: reason string']);
  });

  it('decodes the custom error Bad(7)', async () => {
    const err = await revertOf(() =>
      publicClient.simulateContract({ account, address: reverter, abi: reverterAbi, functionName: 'revertWithCustomError', args: [7n] }),
    );
    expect(err.message).toBe('VM Exception while processing transaction: transaction reverted');
    expect(err.errorName).toBe('Bad');
    expect(err.args).toEqual([7n]);
  });

  it('readContract of requireNonZero(0) reverts with "x is zero"; (5) returns 5', async () => {
    const err = await revertOf(() => publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'requireNonZero', args: [0n] }));
    expect(err.args).toEqual(['x is zero']);
    expect(await publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'requireNonZero', args: [5n] })).toBe(5n);
  });

  it('estimateContractGas of requireNonZero(0) reverts with "x is zero"', async () => {
    const err = await revertOf(() =>
      publicClient.estimateContractGas({ account, address: reverter, abi: reverterAbi, functionName: 'requireNonZero', args: [0n] }),
    );
    expect(err.message).toBe('VM Exception while processing transaction: revert x is zero');
    expect(err.args).toEqual(['x is zero']);
  });

  it('decodes assert(false) as Panic 0x01', async () => {
    const err = await revertOf(() => publicClient.simulateContract({ account, address: reverter, abi: reverterAbi, functionName: 'assertFail' }));
    expect(err.errorName).toBe('Panic');
    expect(err.args).toEqual([1n]);
  });

  it('chainInfo reads chain id 31 and basefee 60,000,000', async () => {
    const [chainid, basefee, , number, timestamp, parentHash] = (await publicClient.readContract({
      address: reverter,
      abi: reverterAbi,
      functionName: 'chainInfo',
    })) as readonly [bigint, bigint, bigint, bigint, bigint, Hex];
    const latest = await publicClient.getBlock({ blockTag: 'latest' });
    expect(chainid).toBe(31n);
    expect(basefee).toBe(60_000_000n);
    expect(number).toBe(latest.number);
    expect(timestamp).toBe(latest.timestamp);
    expect(parentHash).toBe(latest.parentHash);
  });
});

describe('viem: MappingStore', () => {
  it('stores and reads a mapping slot, now and at an older block', async () => {
    const { address } = await deploy(storeAbi, contracts.MappingStore.bytecode);
    const first = await mined(
      await walletClient.writeContract({ address, abi: storeAbi, functionName: 'setBalance', args: [COW1.address, 10n], type: 'legacy' }),
    );
    await mined(await walletClient.writeContract({ address, abi: storeAbi, functionName: 'setBalance', args: [COW1.address, 20n], type: 'legacy' }));
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [COW1.address, 0n]));
    expect(await publicClient.getStorageAt({ address, slot })).toBe(pad(numberToHex(20n), { size: 32 }));
    expect(await publicClient.getStorageAt({ address, slot, blockNumber: first.blockNumber })).toBe(pad(numberToHex(10n), { size: 32 }));
    expect(
      await publicClient.readContract({ address, abi: storeAbi, functionName: 'balances', args: [COW1.address], blockNumber: first.blockNumber }),
    ).toBe(10n);
    const { result } = await publicClient.simulateContract({ account, address, abi: storeAbi, functionName: 'useTransient', args: [424242n] });
    expect(result).toBe(424242n);
  });

  it('reads a mapping slot whose keccak256 key starts with a zero nibble', async () => {
    const { address } = await deploy(storeAbi, contracts.MappingStore.bytecode);
    const holder: Address = '0x0000000000000000000000000000000000000010';
    await mined(await walletClient.writeContract({ address, abi: storeAbi, functionName: 'setBalance', args: [holder, 77n], type: 'legacy' }));
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 0n]));
    expect(slot).toBe('0x020abee21eef15c21bc31a406c2b8ac3afc5df94a4b02b38abb286f4334e6c5b');
    expect(await publicClient.getStorageAt({ address, slot })).toBe(pad(numberToHex(77n), { size: 32 }));
  });
});

describe('viem: JSON-RPC account (node signs)', () => {
  it('sendTransaction from an address-only account goes through eth_sendTransaction', async () => {
    const nodeWallet = createWalletClient({ account: COW1.address, chain, transport: http(t.testnetUrl), pollingInterval: 50 });
    expect(nodeWallet.account.type).toBe('json-rpc');
    const addresses = await nodeWallet.getAddresses();
    expect(addresses).toHaveLength(11);
    expect(addresses[1]).toBe(getAddress(COW1.address));

    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const before = await publicClient.getBalance({ address: COW1.address });
    const hash = await nodeWallet.sendTransaction({ to: recipient, value: 31_000n, type: 'legacy' });
    const receipt = await mined(hash);
    expect(receipt.from).toBe(COW1.address);
    expect(await publicClient.getBalance({ address: recipient })).toBe(31_000n);
    expect(await publicClient.getBalance({ address: COW1.address })).toBe(before - 31_000n - receipt.gasUsed * receipt.effectiveGasPrice);

    const tx = await publicClient.getTransaction({ hash });
    expect(tx.from).toBe(COW1.address);
    expect(tx.type).toBe('legacy');
    expect(chainIdOf(tx)).toBe(31);
  });
});
