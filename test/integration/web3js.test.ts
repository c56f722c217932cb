/**
 * web3.js v4 against a running node: chain queries, a locally signed legacy transaction, a
 * node-signed transaction (eth_sendTransaction), and a Token deployed with web3.eth.Contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Web3 } from 'web3';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, startTestNode, type TestNode } from '../helpers/node.js';

const GAS_PRICE = 66_000_000n;
const GENESIS_BALANCE = 10n ** 30n;
const INITIAL_SUPPLY = 500_000n * 10n ** 18n;
const REMASC = '0x0000000000000000000000000000000001000008';

let t: TestNode;
let web3: Web3;

beforeAll(async () => {
  t = await startTestNode();
  web3 = new Web3(t.testnetUrl);
  web3.setConfig({ transactionPollingInterval: 50, transactionReceiptPollingInterval: 50 });
});
afterAll(() => t?.close());

const freshAddress = () => web3.eth.accounts.create().address;

describe('web3.js: chain queries', () => {
  it('getChainId is 31n, net id 31n, gas price 66,000,000', async () => {
    expect(await web3.eth.getChainId()).toBe(31n);
    expect(await web3.eth.net.getId()).toBe(31n);
    expect(await web3.eth.getGasPrice()).toBe(GAS_PRICE);
  });

  it('getBlockNumber and getBalance at genesis', async () => {
    expect(await web3.eth.getBlockNumber()).toBe(0n);
    expect(await web3.eth.getBalance(COW.address)).toBe(GENESIS_BALANCE);
    expect(await web3.eth.getBalance(COW1.address, 0)).toBe(GENESIS_BALANCE);
    expect(await web3.eth.getBalance(freshAddress())).toBe(0n);
    const genesis = await web3.eth.getBlock(0);
    expect(genesis.number).toBe(0n);
    expect(genesis.transactions).toEqual([]);
  });

  it('lists the 11 node accounts', async () => {
    const accounts = await web3.eth.getAccounts();
    expect(accounts).toHaveLength(11);
    expect(accounts[0]!.toLowerCase()).toBe(COW.address);
  });
});

describe('web3.js: transactions', () => {
  it('sends a locally signed legacy transaction and waits for its receipt', async () => {
    const account = web3.eth.accounts.privateKeyToAccount(COW.privateKey);
    expect(account.address.toLowerCase()).toBe(COW.address);
    const recipient = freshAddress();
    const nonce = await web3.eth.getTransactionCount(COW.address);
    const before = await web3.eth.getBalance(COW.address);
    const blockBefore = await web3.eth.getBlockNumber();

    const signed = await account.signTransaction({
      from: account.address,
      to: recipient,
      value: 123_456_789n,
      gas: 21_000n,
      gasPrice: GAS_PRICE,
      nonce,
      chainId: 31n,
      type: '0x0',
    });
    const receipt = await web3.eth.sendSignedTransaction(signed.rawTransaction);

    expect(receipt.transactionHash).toBe(signed.transactionHash);
    expect(receipt.status).toBe(1n);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.effectiveGasPrice).toBe(GAS_PRICE);
    expect(receipt.blockNumber).toBe(blockBefore + 1n);
    expect(receipt.from.toLowerCase()).toBe(COW.address);
    expect(receipt.to?.toLowerCase()).toBe(recipient.toLowerCase());
    expect(await web3.eth.getBalance(recipient)).toBe(123_456_789n);
    expect(await web3.eth.getBalance(COW.address)).toBe(before - 123_456_789n - 21_000n * GAS_PRICE);
    expect(await web3.eth.getTransactionCount(COW.address)).toBe(nonce + 1n);

    const tx = await web3.eth.getTransaction(signed.transactionHash);
    expect(tx.hash).toBe(signed.transactionHash);
    expect(tx.value).toBe(123_456_789n);
    expect(tx.gasPrice).toBe(GAS_PRICE);
    expect(tx.nonce).toBe(nonce);
    expect(tx.blockNumber).toBe(receipt.blockNumber);

    const block = await web3.eth.getBlock(receipt.blockNumber, true);
    expect(block.transactions).toHaveLength(2);
    const [user, remasc] = block.transactions as Array<{ hash: string; from: string; to: string }>;
    expect(user!.hash).toBe(signed.transactionHash);
    expect(remasc!.from).toBe('0x0000000000000000000000000000000000000000');
    expect(remasc!.to).toBe(REMASC);
  });

  it('sends a node-signed transaction through eth_sendTransaction', async () => {
    const recipient = freshAddress();
    const before = await web3.eth.getBalance(COW1.address);
    const receipt = await web3.eth.sendTransaction({
      from: COW1.address,
      to: recipient,
      value: 1_000_000n,
      gas: 21_000n,
      gasPrice: GAS_PRICE,
      type: '0x0',
    });
    expect(receipt.status).toBe(1n);
    expect(receipt.from.toLowerCase()).toBe(COW1.address);
    expect(await web3.eth.getBalance(recipient)).toBe(1_000_000n);
    expect(await web3.eth.getBalance(COW1.address)).toBe(before - 1_000_000n - 21_000n * GAS_PRICE);
  });

  it('signs with eth_sign through the node and recovers the signer', async () => {
    const message = web3.utils.utf8ToHex('hello rootstock');
    const signature = await web3.eth.sign(message, COW.address);
    expect(typeof signature).toBe('string');
    expect(web3.eth.accounts.recover('hello rootstock', signature as string).toLowerCase()).toBe(COW.address);
    expect(signature).toBe(web3.eth.accounts.sign('hello rootstock', COW.privateKey).signature);
  });
});

describe('web3.js: Token contract', () => {
  it('deploys Token with web3.eth.Contract, calls balanceOf and transfers', async () => {
    const wallet = web3.eth.accounts.wallet.add(COW.privateKey);
    const from = wallet[0]!.address;
    const Token = new web3.eth.Contract(contracts.Token.abi, { from, gasPrice: GAS_PRICE.toString() });

    const deployed = await Token.deploy({ data: contracts.Token.bytecode, arguments: [INITIAL_SUPPLY] }).send({
      from,
      gas: '2000000',
      gasPrice: GAS_PRICE.toString(),
      type: '0x0',
    });
    const address = deployed.options.address!;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await web3.eth.getCode(address)).toBe(contracts.Token.deployedBytecode);

    const token = new web3.eth.Contract(contracts.Token.abi, address);
    expect(await token.methods.name!().call()).toBe('Test Token');
    expect(await token.methods.balanceOf!(from).call()).toBe(INITIAL_SUPPLY);

    const recipient = freshAddress();
    const receipt = await token.methods.transfer!(recipient, 42n).send({ from, gas: '100000', gasPrice: GAS_PRICE.toString(), type: '0x0' });
    expect(receipt.status).toBe(1n);
    const transfer = receipt.events?.Transfer;
    expect(transfer).toBeDefined();
    expect(transfer!.returnValues.from!.toString().toLowerCase()).toBe(COW.address);
    expect(transfer!.returnValues.to!.toString().toLowerCase()).toBe(recipient.toLowerCase());
    expect(transfer!.returnValues.value).toBe(42n);

    expect(await token.methods.balanceOf!(recipient).call()).toBe(42n);
    expect(await token.methods.balanceOf!(from).call()).toBe(INITIAL_SUPPLY - 42n);

    // The ERC20's balance slot for the recipient (mapping at slot 3).
    const slot = web3.utils.soliditySha3({ type: 'uint256', value: recipient }, { type: 'uint256', value: '3' })!;
    expect(BigInt(await web3.eth.getStorageAt(address, slot))).toBe(42n);
    web3.eth.accounts.wallet.clear();
  });
});

describe('web3.js: reverts', () => {
  it('decodes a revert reason and a custom error from eth_call', async () => {
    const wallet = web3.eth.accounts.wallet.add(COW.privateKey);
    const from = wallet[0]!.address;
    const Reverter = new web3.eth.Contract(contracts.Reverter.abi);
    const reverter = await Reverter.deploy({ data: contracts.Reverter.bytecode }).send({
      from,
      gas: '2000000',
      gasPrice: GAS_PRICE.toString(),
      type: '0x0',
    });
    web3.eth.accounts.wallet.clear();

    const reason = await reverter.methods.revertWithReason!().call().then(
      () => undefined,
      (err: any) => err,
    );
    expect(reason?.name).toBe('ContractExecutionError');
    expect(reason.innerError.code).toBe(-32015);
    expect(reason.innerError.message).toBe('VM Exception while processing transaction: revert nope: reason string');
    expect(reason.innerError.errorName).toBe('Error');
    expect(reason.innerError.errorArgs.message).toBe('nope: reason string');

    const custom = await reverter.methods.revertWithCustomError!(7n).call().then(
      () => undefined,
      (err: any) => err,
    );
    expect(custom?.name).toBe('ContractExecutionError');
    expect(custom.innerError.message).toBe('VM Exception while processing transaction: transaction reverted');
    expect(custom.innerError.data).toBe('0xa2f431300000000000000000000000000000000000000000000000000000000000000007');
    expect(custom.innerError.errorName).toBe('Bad');
    expect(custom.innerError.errorArgs.code).toBe(7n);
  });
});
