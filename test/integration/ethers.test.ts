/**
 * ethers v6 against a running node, used as a dapp developer would: ContractFactory deployments,
 * contract calls and transactions, revert decoding, storage reads, node-held signers, and two
 * networks behind two API keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AbiCoder,
  Contract,
  ContractFactory,
  EventLog,
  JsonRpcProvider,
  Wallet,
  getAddress,
  getCreateAddress,
  isError,
  keccak256,
  parseEther,
  toBeHex,
  Transaction,
  verifyMessage,
  zeroPadValue,
  type ContractTransactionReceipt,
  type ContractTransactionResponse,
} from 'ethers';
import { contracts, type ContractName } from '../fixtures/contracts.js';
import { COW, COW1, rejection, type TestNode } from '../helpers/node.js';
import { ethersNodeForTests } from '../helpers/ethers.js';

const REMASC = '0x0000000000000000000000000000000001000008';
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const GENESIS_BALANCE = 10n ** 30n;
const MIN_GAS_PRICE = 60_000_000n;
const GAS_PRICE = 66_000_000n;
const INITIAL_SUPPLY = 1_000_000n * 10n ** 18n;

let t: TestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;

ethersNodeForTests((node) => ({ t, provider, wallet } = node));

async function deploy(name: ContractName, ...args: unknown[]): Promise<{ contract: Contract; receipt: ContractTransactionReceipt }> {
  const { abi, bytecode } = contracts[name];
  const factory = new ContractFactory(abi, bytecode, wallet);
  const deployed = await factory.deploy(...args, { type: 0 });
  const tx = deployed.deploymentTransaction()!;
  const receipt = (await tx.wait())!;
  expect(receipt.status).toBe(1);
  const contract = new Contract(await deployed.getAddress(), abi, wallet);
  return { contract, receipt };
}

async function send(pending: Promise<ContractTransactionResponse>): Promise<ContractTransactionReceipt> {
  const receipt = (await (await pending).wait())!;
  expect(receipt.status).toBe(1);
  return receipt;
}

const coder = AbiCoder.defaultAbiCoder();

/** The opcodes of EVM code, skipping PUSH immediates. */
function opcodes(code: string): Set<number> {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const out = new Set<number>();
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i]!;
    out.add(op);
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return out;
}

describe('ethers: value transfers and RSK blocks', () => {
  it('sees chain 31 through network detection', async () => {
    const detecting = new JsonRpcProvider(t.testnetUrl, undefined, { cacheTimeout: -1 });
    try {
      const network = await detecting.getNetwork();
      expect(network.chainId).toBe(31n);
    } finally {
      detecting.destroy();
    }
  });

  it('sends RBTC with an exact fee that goes to REMASC, not to the miner', async () => {
    const recipient = Wallet.createRandom().address;
    const senderBefore = await provider.getBalance(COW.address);
    const remascBefore = await provider.getBalance(REMASC);
    const latestBefore = await provider.getBlock('latest');

    const tx = await wallet.sendTransaction({ to: recipient, value: 12_345n, type: 0 });
    expect(tx.type).toBe(0);
    expect(tx.gasPrice).toBe(GAS_PRICE);
    expect(tx.chainId).toBe(31n);
    const receipt = (await tx.wait())!;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.gasPrice).toBe(GAS_PRICE);
    expect(receipt.blockNumber).toBe(latestBefore!.number + 1);
    const fee = 21_000n * GAS_PRICE;

    expect(await provider.getBalance(recipient)).toBe(12_345n);
    expect(await provider.getBalance(COW.address)).toBe(senderBefore - 12_345n - fee);
    expect(await provider.getBalance(REMASC)).toBe(remascBefore + fee);
    const block = (await provider.getBlock(receipt.blockNumber))!;
    expect(BigInt(block.gasUsed)).toBe(21_000n);
    expect(await provider.getBalance(block.miner, receipt.blockNumber)).toBe(await provider.getBalance(block.miner, receipt.blockNumber - 1));

    // Automine: one block per transaction, holding the user transaction then REMASC.
    expect(block.transactions).toHaveLength(2);
    expect(block.transactions[0]).toBe(tx.hash);
    const remasc = await provider.getTransaction(block.transactions[1]!);
    expect(remasc!.from).toBe(ZERO_ADDRESS);
    expect(remasc!.to).toBe(getAddress(REMASC));
    expect(remasc!.value).toBe(0n);
  });

  it('shows the RSK block fields in the raw block JSON', async () => {
    const tx = await wallet.sendTransaction({ to: COW1.address, value: 1n, type: 0 });
    const receipt = (await tx.wait())!;
    const raw = await provider.send('eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(raw.number)).toBe(BigInt(receipt.blockNumber));
    expect(raw.hash).toBe(receipt.blockHash);
    expect(BigInt(raw.minimumGasPrice)).toBe(MIN_GAS_PRICE);
    expect(BigInt(raw.paidFees)).toBe(21_000n * GAS_PRICE);
    expect(raw.hashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
    expect(raw.bitcoinMergedMiningHeader).toMatch(/^0x[0-9a-f]+$/);
    expect(raw.bitcoinMergedMiningCoinbaseTransaction).toMatch(/^0x[0-9a-f]+$/);
    expect(raw.bitcoinMergedMiningMerkleProof).toMatch(/^0x[0-9a-f]*$/);
    expect(BigInt(raw.cumulativeDifficulty)).toBe(BigInt(raw.difficulty));
    expect(raw.uncles).toEqual([]);
    expect(raw.transactions).toEqual([tx.hash, expect.stringMatching(/^0x[0-9a-f]{64}$/)]);

    // ethers' own block object parses the same block.
    const block = (await provider.getBlock('latest', true))!;
    expect(block.hash).toBe(raw.hash);
    expect(block.number).toBe(receipt.blockNumber);
    expect(block.gasUsed).toBe(21_000n);
    expect(block.baseFeePerGas).toBeNull();
    expect(block.prefetchedTransactions).toHaveLength(2);
    expect(block.prefetchedTransactions[0]!.hash).toBe(tx.hash);
    expect(block.prefetchedTransactions[0]!.from).toBe(getAddress(COW.address));
    expect(block.prefetchedTransactions[1]!.from).toBe(ZERO_ADDRESS);
    expect(block.prefetchedTransactions[1]!.to).toBe(getAddress(REMASC));
    const parent = (await provider.getBlock(receipt.blockNumber - 1))!;
    expect(block.parentHash).toBe(parent.hash);
  });

  it('answers eth_gasPrice as 66,000,000 through getFeeData', async () => {
    const fees = await provider.getFeeData();
    expect(fees.gasPrice).toBe(GAS_PRICE);
  });
});

describe('ethers: Token (ERC20)', () => {
  let token: Contract;
  let deployReceipt: ContractTransactionReceipt;

  beforeAll(async () => {
    ({ contract: token, receipt: deployReceipt } = await deploy('Token', INITIAL_SUPPLY));
  });

  it('deploys with the right code, metadata and a mint Transfer event', async () => {
    const address = await token.getAddress();
    expect(deployReceipt.contractAddress).toBe(address);
    expect(await provider.getCode(address)).toBe(contracts.Token.deployedBytecode);
    expect(await token.getFunction('name')()).toBe('Test Token');
    expect(await token.getFunction('symbol')()).toBe('TST');
    expect(await token.getFunction('decimals')()).toBe(18n);
    expect(await token.getFunction('totalSupply')()).toBe(INITIAL_SUPPLY);
    expect(await token.getFunction('balanceOf')(COW.address)).toBe(INITIAL_SUPPLY);

    expect(deployReceipt.logs).toHaveLength(1);
    const parsed = token.interface.parseLog(deployReceipt.logs[0]!)!;
    expect(parsed.name).toBe('Transfer');
    expect(parsed.args.from).toBe(ZERO_ADDRESS);
    expect(parsed.args.to).toBe(getAddress(COW.address));
    expect(parsed.args.value).toBe(INITIAL_SUPPLY);
  });

  it('transfers and emits a Transfer event with exact args', async () => {
    const recipient = Wallet.createRandom().address;
    const amount = parseEther('250');
    const receipt = await send(token.getFunction('transfer')(recipient, amount, { type: 0 }));

    expect(await token.getFunction('balanceOf')(recipient)).toBe(amount);
    expect(await token.getFunction('balanceOf')(COW.address)).toBe(INITIAL_SUPPLY - amount);

    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0]!;
    expect(log).toBeInstanceOf(EventLog);
    const event = log as EventLog;
    expect(event.eventName).toBe('Transfer');
    expect(event.address).toBe(await token.getAddress());
    expect(event.index).toBe(0);
    expect(event.transactionHash).toBe(receipt.hash);
    expect(event.blockNumber).toBe(receipt.blockNumber);
    expect(event.args.from).toBe(getAddress(COW.address));
    expect(event.args.to).toBe(recipient);
    expect(event.args.value).toBe(amount);
    expect(event.topics[0]).toBe(token.interface.getEvent('Transfer')!.topicHash);
    expect(event.topics[1]).toBe(zeroPadValue(COW.address, 32));
    expect(event.topics[2]).toBe(zeroPadValue(recipient.toLowerCase(), 32));
  });

  it('estimates enough gas for a transfer to succeed with exactly that limit', async () => {
    const recipient = Wallet.createRandom().address;
    const estimate = await token.getFunction('transfer').estimateGas(recipient, 5n);
    expect(estimate).toBeGreaterThan(21_000n);
    const receipt = await send(token.getFunction('transfer')(recipient, 5n, { type: 0, gasLimit: estimate }));
    expect(receipt.gasUsed).toBeLessThanOrEqual(estimate);
    expect(await token.getFunction('balanceOf')(recipient)).toBe(5n);
  });

  it('rejects a failing transfer in estimateGas with the require reason', async () => {
    const err = await rejection(() => token.getFunction('transfer').estimateGas(ZERO_ADDRESS, 1n));
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.reason).toBe('transfer to zero address');
  });
});

describe('ethers: reverts', () => {
  let reverter: Contract;
  beforeAll(async () => {
    ({ contract: reverter } = await deploy('Reverter'));
  });

  it('rejects a reverting call with CALL_EXCEPTION and the reason string', async () => {
    const err = await rejection(() => reverter.getFunction('revertWithReason')());
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.reason).toBe('nope: reason string');
    expect(err.revert).toEqual({ name: 'Error', signature: 'Error(string)', args: ['nope: reason string'] });
    expect(err.data).toBe(reverter.interface.encodeErrorResult('Error', ['nope: reason string']));
  });

  it('rejects a revert without reason with CALL_EXCEPTION and empty data', async () => {
    const err = await rejection(() => reverter.getFunction('revertWithoutReason')());
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.data).toBe('0x');
    expect(err.revert).toBeNull();
    // ethers' own wording for a revert without data.
    expect(err.reason).toBe('require(false)');
  });

  it('decodes the custom error Bad(7)', async () => {
    const err = await rejection(() => reverter.getFunction('revertWithCustomError')(7n));
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.data).toBe(reverter.interface.encodeErrorResult('Bad', [7n]));
    const parsed = reverter.interface.parseError(err.data)!;
    expect(parsed.name).toBe('Bad');
    expect(parsed.args.toArray()).toEqual([7n]);
    expect(err.revert.name).toBe('Bad');
    expect(err.revert.args.toArray()).toEqual([7n]);
  });

  it('decodes assert(false) as Panic(1)', async () => {
    const err = await rejection(() => reverter.getFunction('assertFail')());
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.revert.name).toBe('Panic');
    expect(err.data).toBe('0x4e487b71' + '0'.repeat(63) + '1');
    expect(Array.from(err.revert.args).map((v) => BigInt(v as number))).toEqual([1n]);
    expect(err.reason).toBe('Panic due to ASSERT_FALSE(1)');
  });

  it('rejects estimateGas of requireNonZero(0) with reason "x is zero"', async () => {
    const err = await rejection(() => reverter.getFunction('requireNonZero').estimateGas(0n));
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true);
    expect(err.reason).toBe('x is zero');
    expect(await reverter.getFunction('requireNonZero')(9n)).toBe(9n);
  });

  it('mines a transaction, increments the counter and emits Incremented', async () => {
    const receipt = await send(reverter.getFunction('increment')({ type: 0 }));
    expect(await reverter.getFunction('counter')()).toBe(1n);
    const event = receipt.logs[0] as EventLog;
    expect(event.eventName).toBe('Incremented');
    expect(event.args.newValue).toBe(1n);
  });

  it('chainInfo: chain id 31, basefee = minimumGasPrice, blockhash(n-1) = parent hash', async () => {
    const address = await reverter.getAddress();
    expect((await (await wallet.sendTransaction({ to: address, value: 777n, type: 0 })).wait())!.status).toBe(1);
    const info = await reverter.getFunction('chainInfo')();
    const latest = (await provider.getBlock('latest'))!;
    const raw = await provider.send('eth_getBlockByNumber', ['latest', false]);
    const parent = (await provider.getBlock(latest.number - 1))!;

    expect(info.chainid).toBe(31n);
    expect(info.basefee).toBe(BigInt(raw.minimumGasPrice));
    expect(info.basefee).toBe(MIN_GAS_PRICE);
    expect(info.selfBalance).toBe(777n);
    expect(info.number).toBe(BigInt(latest.number));
    expect(info.timestamp).toBe(BigInt(latest.timestamp));
    expect(info.parentHash).toBe(parent.hash);
    expect(info.parentHash).toBe(latest.parentHash);
  });
});

describe('ethers: Factory and Child', () => {
  it('creates a Child and reads it at the address from the event', async () => {
    const { contract: factory } = await deploy('Factory');
    const receipt = await send(factory.getFunction('create')(42n, { type: 0 }));

    const childInterface = new Contract(ZERO_ADDRESS, contracts.Child.abi).interface;
    const created = receipt.logs.map((log) => factory.interface.parseLog(log)).find((e) => e?.name === 'ChildCreated');
    expect(created).toBeTruthy();
    const childAddress = created!.args.child as string;
    expect(created!.args.value).toBe(42n);

    // The CREATE address follows from the factory's address and nonce (1 for a contract).
    expect(childAddress).toBe(getCreateAddress({ from: await factory.getAddress(), nonce: 1 }));

    // The Child's constructor event comes first, from the child's address.
    expect(receipt.logs).toHaveLength(2);
    expect(receipt.logs[0]!.address).toBe(childAddress);
    const childEvent = childInterface.parseLog(receipt.logs[0]!)!;
    expect(childEvent.name).toBe('Created');
    expect(childEvent.args.self).toBe(childAddress);
    expect(childEvent.args.v).toBe(42n);

    const child = new Contract(childAddress, contracts.Child.abi, provider);
    expect(await child.getFunction('value')()).toBe(42n);
    expect(await provider.getCode(childAddress)).toBe(contracts.Child.deployedBytecode);
    expect(await factory.getFunction('childrenCount')()).toBe(1n);
    expect(await factory.getFunction('children')(0n)).toBe(childAddress);
  });
});

describe('ethers: MappingStore storage, history and Cancun opcodes', () => {
  let store: Contract;
  let address: string;
  beforeAll(async () => {
    ({ contract: store } = await deploy('MappingStore'));
    address = await store.getAddress();
  });

  const balanceSlot = (account: string) => keccak256(coder.encode(['address', 'uint256'], [account, 0n]));
  const nestedSlot = (a: bigint, b: bigint) =>
    keccak256(coder.encode(['uint256', 'bytes32'], [b, keccak256(coder.encode(['uint256', 'uint256'], [a, 1n]))]));
  const word = (n: bigint) => zeroPadValue(toBeHex(n), 32);

  it('reads mapping, nested mapping and plain slots with getStorage', async () => {
    await send(store.getFunction('setBalance')(COW1.address, 123_456n, { type: 0 }));
    await send(store.getFunction('setNested')(3n, 5n, 999n, { type: 0 }));
    await send(store.getFunction('setSingle')(77n, { type: 0 }));

    expect(await provider.getStorage(address, balanceSlot(COW1.address))).toBe(word(123_456n));
    expect(await provider.getStorage(address, nestedSlot(3n, 5n))).toBe(word(999n));
    expect(await provider.getStorage(address, 2n)).toBe(word(77n));
    expect(await provider.getStorage(address, balanceSlot(COW.address))).toBe(word(0n));
    expect(await store.getFunction('balances')(COW1.address)).toBe(123_456n);
    expect(await store.getFunction('nested')(3n, 5n)).toBe(999n);
  });

  it('keeps state per block: historical getStorage and calls see old values', async () => {
    const first = await send(store.getFunction('setBalance')(COW.address, 1n, { type: 0 }));
    const second = await send(store.getFunction('setBalance')(COW.address, 2n, { type: 0 }));
    expect(second.blockNumber).toBe(first.blockNumber + 1);

    const slot = balanceSlot(COW.address);
    expect(await provider.getStorage(address, slot, first.blockNumber - 1)).toBe(word(0n));
    expect(await provider.getStorage(address, slot, first.blockNumber)).toBe(word(1n));
    expect(await provider.getStorage(address, slot, second.blockNumber)).toBe(word(2n));
    expect(await provider.getStorage(address, slot)).toBe(word(2n));
    expect(await store.getFunction('balances')(COW.address, { blockTag: first.blockNumber })).toBe(1n);

    // Balances and nonces are kept per block too.
    const nonceAtFirst = await provider.getTransactionCount(COW.address, first.blockNumber);
    expect(await provider.getTransactionCount(COW.address, second.blockNumber)).toBe(nonceAtFirst + 1);
    const fee = second.gasUsed * second.gasPrice;
    expect(await provider.getBalance(COW.address, first.blockNumber)).toBe(
      (await provider.getBalance(COW.address, second.blockNumber)) + fee,
    );
  });

  it('runs TSTORE/TLOAD (useTransient) in a call and in a transaction', async () => {
    expect(await store.getFunction('useTransient').staticCall(31337n)).toBe(31337n);
    const receipt = await send(store.getFunction('useTransient')(5n, { type: 0 }));
    expect(receipt.status).toBe(1);
    // Transient storage does not persist into the account's storage.
    expect(await provider.getStorage(address, 0n)).toBe(word(0n));
  });

  it('runs MCOPY (copyMemory)', async () => {
    const a = 'rootstock devnode mcopy fixture: copying memory with MCOPY';
    const expected = '0x' + Buffer.from(a + a, 'utf8').toString('hex');
    expect(await store.getFunction('copyMemory')()).toBe(expected);
    // The runtime code really holds the Cancun opcodes, so these calls exercised them.
    const ops = opcodes(await provider.getCode(address));
    expect(ops).toContain(0x5e); // MCOPY
    expect(ops).toContain(0x5c); // TLOAD
    expect(ops).toContain(0x5d); // TSTORE
  });
});

describe('ethers: node-held accounts', () => {
  it('lists 11 accounts, COW first', async () => {
    const accounts = await provider.listAccounts();
    expect(accounts).toHaveLength(11);
    expect(accounts[0]!.address).toBe(getAddress(COW.address));
    expect(accounts[1]!.address).toBe(getAddress(COW1.address));
  });

  it('sends through eth_sendTransaction with a JsonRpcSigner', async () => {
    const signer = await provider.getSigner(COW.address);
    const recipient = Wallet.createRandom().address;
    const before = await provider.getBalance(COW.address);
    const nonce = await provider.getTransactionCount(COW.address);

    const tx = await signer.sendTransaction({ to: recipient, value: 4_242n, type: 0 });
    expect(tx.from).toBe(getAddress(COW.address));
    expect(tx.nonce).toBe(nonce);
    const receipt = (await tx.wait())!;
    expect(receipt.status).toBe(1);
    expect(receipt.from).toBe(getAddress(COW.address));
    // ethers leaves gasPrice to the node, whose default is the block's minimum gas price.
    expect(receipt.gasPrice).toBe(MIN_GAS_PRICE);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(await provider.getBalance(recipient)).toBe(4_242n);
    expect(await provider.getBalance(COW.address)).toBe(before - 4_242n - receipt.gasUsed * receipt.gasPrice);
    expect(await provider.getTransactionCount(COW.address)).toBe(nonce + 1);
  });

  it('signs a message with eth_sign that verifyMessage recovers', async () => {
    const signer = await provider.getSigner(COW.address);
    const message = 'hello rootstock';
    const signature = await signer._legacySignMessage(message);
    expect(verifyMessage(message, signature)).toBe(getAddress(COW.address));
    // Same signature as signing locally with the same key (RFC 6979 is deterministic).
    expect(signature).toBe(await new Wallet(COW.privateKey).signMessage(message));
  });
});

describe('ethers: mainnet key', () => {
  it('sees chain 30 and state separate from testnet', async () => {
    const mainnet = new JsonRpcProvider(t.mainnetUrl, undefined, { cacheTimeout: -1, pollingInterval: 50 });
    try {
      expect((await mainnet.getNetwork()).chainId).toBe(30n);
      const mainnetBefore = await mainnet.getBalance(COW.address);
      const mainnetBlock = await mainnet.getBlockNumber();
      expect(mainnetBefore).toBe(GENESIS_BALANCE);

      const recipient = Wallet.createRandom().address;
      const tx = await wallet.sendTransaction({ to: recipient, value: 1_000n, type: 0 });
      await tx.wait();

      expect(await provider.getBalance(recipient)).toBe(1_000n);
      expect(await mainnet.getBalance(recipient)).toBe(0n);
      expect(await mainnet.getBalance(COW.address)).toBe(GENESIS_BALANCE);
      expect(await mainnet.getBlockNumber()).toBe(mainnetBlock);
      expect(await mainnet.getTransaction(tx.hash)).toBeNull();

      // A testnet-signed transaction (chain id 31) cannot be replayed on mainnet.
      const serialized = Transaction.from(tx).serialized;
      expect(keccak256(serialized)).toBe(tx.hash);
      const err = await rejection(() => mainnet.broadcastTransaction(serialized));
      expect(err.error).toEqual({ code: -32602, message: "Invalid chainId: 31; this key's network (RSK mainnet) expects chain id 30" });

      // A mainnet wallet works there with chain id 30.
      const mainnetWallet = new Wallet(COW1.privateKey, mainnet);
      const mtx = await mainnetWallet.sendTransaction({ to: recipient, value: 5n, type: 0 });
      expect(mtx.chainId).toBe(30n);
      const receipt = (await mtx.wait())!;
      expect(receipt.status).toBe(1);
      expect(receipt.blockNumber).toBe(mainnetBlock + 1);
      expect(await mainnet.getBalance(recipient)).toBe(5n);
      expect(await provider.getBalance(recipient)).toBe(1_000n);
    } finally {
      mainnet.destroy();
    }
  });
});
