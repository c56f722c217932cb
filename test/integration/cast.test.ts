/**
 * Foundry's `cast` against a running node. cast (alloy) parses every response into strict types,
 * so a malformed block, transaction or receipt makes a command fail here.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Wallet, getCreateAddress, keccak256 } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, rpc, startTestNode, type TestNode } from '../helpers/node.js';

const CAST = resolve('node_modules/.bin/cast');
const GAS_PRICE = 66_000_000n;
const GENESIS_BALANCE = 10n ** 30n;
const INITIAL_SUPPLY = 777_000n * 10n ** 18n;
const REMASC = '0x0000000000000000000000000000000001000008';
const run = promisify(execFile);

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(() => t?.close());

/** Runs `cast <command> --rpc-url <testnet> ...rest`; rejects with cast's stderr on failure. */
async function cast(command: string, ...rest: string[]): Promise<string> {
  const args = [command, ...rest];
  try {
    const { stdout } = await run(CAST, [command, '--rpc-url', t.testnetUrl, ...rest], {
      timeout: 30_000,
      env: { ...process.env, NO_COLOR: '1', FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' },
    });
    return stdout.trim();
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`cast ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

async function castJson(command: string, ...rest: string[]): Promise<any> {
  return JSON.parse(await cast(command, '--json', ...rest));
}

async function blockNumber(): Promise<bigint> {
  return BigInt((await rpc(t.testnetUrl, 'eth_blockNumber')).body.result);
}

const freshAddress = () => Wallet.createRandom().address.toLowerCase();

describe('cast: chain queries', () => {
  it('chain-id is 31', async () => {
    expect(await cast('chain-id')).toBe('31');
  });

  it('block-number matches eth_blockNumber', async () => {
    expect(BigInt(await cast('block-number'))).toBe(await blockNumber());
  });

  it('balance of an untouched dev account is the genesis balance', async () => {
    const untouched = '0x0a3aa774752ec2042c46548456c094a76c7f3a79';
    expect(await cast('balance', untouched)).toBe(GENESIS_BALANCE.toString());
    expect(await cast('balance', freshAddress())).toBe('0');
  });

  it('gas-price is 66000000', async () => {
    expect(await cast('gas-price')).toBe(GAS_PRICE.toString());
  });
});

describe('cast: value transfer', () => {
  let hash: string;
  let recipient: string;
  let before: bigint;
  let startBlock: bigint;

  beforeAll(async () => {
    recipient = freshAddress();
    startBlock = await blockNumber();
    before = BigInt(await cast('balance', COW.address));
    const receipt = await castJson('send', '--legacy', '--private-key', COW.privateKey, recipient, '--value', '1000');
    expect(receipt.status).toBe('0x1');
    hash = receipt.transactionHash;
  });

  it('send moves exactly the value and charges gasUsed * gasPrice', async () => {
    expect(await cast('balance', recipient)).toBe('1000');
    expect(BigInt(await cast('balance', COW.address))).toBe(before - 1000n - 21_000n * GAS_PRICE);
    expect(BigInt(await cast('block-number'))).toBe(startBlock + 1n);
  });

  it('receipt --json parses with status 0x1 and the exact fields', async () => {
    const receipt = await castJson('receipt', hash);
    expect(receipt.status).toBe('0x1');
    expect(receipt.type).toBe('0x0');
    expect(receipt.transactionHash).toBe(hash);
    expect(receipt.transactionIndex).toBe('0x0');
    expect(BigInt(receipt.blockNumber)).toBe(startBlock + 1n);
    expect(BigInt(receipt.gasUsed)).toBe(21_000n);
    expect(BigInt(receipt.cumulativeGasUsed)).toBe(21_000n);
    expect(BigInt(receipt.effectiveGasPrice)).toBe(GAS_PRICE);
    expect(receipt.from).toBe(COW.address);
    expect(receipt.to).toBe(recipient);
    expect(receipt.contractAddress).toBeNull();
    expect(receipt.logs).toEqual([]);
  });

  it('tx --json parses: legacy, chain id 31, the signed fields', async () => {
    const tx = await castJson('tx', hash);
    expect(tx.hash).toBe(hash);
    expect(tx.type).toBe('0x0');
    expect(tx.chainId).toBe('0x1f');
    expect(tx.from).toBe(COW.address);
    expect(tx.to).toBe(recipient);
    expect(BigInt(tx.value)).toBe(1000n);
    expect(BigInt(tx.gas)).toBe(21_000n);
    expect(BigInt(tx.gasPrice)).toBe(GAS_PRICE);
    expect(tx.input).toBe('0x');
    expect(['0x61', '0x62']).toContain(tx.v);
    expect(BigInt(tx.blockNumber)).toBe(startBlock + 1n);
  });

  it('block latest --json parses, with the RSK fields and the REMASC transaction', async () => {
    const block = await castJson('block', 'latest');
    expect(BigInt(block.number)).toBe(startBlock + 1n);
    expect(block.transactions).toHaveLength(2);
    expect(block.transactions[0]).toBe(hash);
    expect(BigInt(block.gasUsed)).toBe(21_000n);
    expect(BigInt(block.minimumGasPrice)).toBe(60_000_000n);
    expect(BigInt(block.paidFees)).toBe(21_000n * GAS_PRICE);
    expect(block.hashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
    const parent = await castJson('block', (startBlock).toString());
    expect(block.parentHash).toBe(parent.hash);

    const full = await castJson('block', 'latest', '--full');
    expect(full.hash).toBe(block.hash);
    expect(full.transactions).toHaveLength(2);
    expect(full.transactions[0].hash).toBe(hash);
    expect(full.transactions[1].from).toBe('0x0000000000000000000000000000000000000000');
    expect(full.transactions[1].to).toBe(REMASC);
  });

  it('block <number> --field hash agrees with the receipt', async () => {
    const receipt = await castJson('receipt', hash);
    expect(await cast('block', (startBlock + 1n).toString(), '--field', 'hash')).toBe(receipt.blockHash);
  });
});

describe('cast: Token contract', () => {
  let token: string;

  beforeAll(async () => {
    const nonce = BigInt(await cast('nonce', COW.address));
    const args = AbiCoder.defaultAbiCoder().encode(['uint256'], [INITIAL_SUPPLY]).slice(2);
    const receipt = await castJson('send', '--legacy', '--private-key', COW.privateKey, '--create', contracts.Token.bytecode + args);
    expect(receipt.status).toBe('0x1');
    token = receipt.contractAddress;
    expect(token).toBe(getCreateAddress({ from: COW.address, nonce }).toLowerCase());
  });

  it('code returns the runtime bytecode', async () => {
    expect(await cast('code', token)).toBe(contracts.Token.deployedBytecode);
  });

  it('call balanceOf(address)(uint256) returns the minted supply', async () => {
    const out = await cast('call', token, 'balanceOf(address)(uint256)', COW.address);
    expect(BigInt(out.split(' ')[0]!)).toBe(INITIAL_SUPPLY);
    expect(await cast('call', token, 'symbol()(string)')).toBe('"TST"');
  });

  it('send transfer(address,uint256) and read both balances', async () => {
    const recipient = freshAddress();
    const receipt = await castJson(
      'send',
      '--legacy',
      '--private-key',
      COW.privateKey,
      token,
      'transfer(address,uint256)',
      recipient,
      '12345',
    );
    expect(receipt.status).toBe('0x1');
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0];
    expect(log.address).toBe(token);
    expect(log.topics[0]).toBe(keccak256(Buffer.from('Transfer(address,address,uint256)')));
    expect(BigInt(log.data)).toBe(12345n);

    // cast annotates uint results with scientific notation.
    expect(await cast('call', token, 'balanceOf(address)(uint256)', recipient)).toBe('12345 [1.234e4]');
    const rest = await cast('call', token, 'balanceOf(address)(uint256)', COW.address);
    expect(BigInt(rest.split(' ')[0]!)).toBe(INITIAL_SUPPLY - 12345n);
  });

  it('storage reads totalSupply (slot 2) and a balanceOf mapping slot', async () => {
    expect(BigInt(await cast('storage', token, '2'))).toBe(INITIAL_SUPPLY);
    const empty = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [COW1.address, 3n]));
    expect(await cast('storage', token, empty)).toBe('0x' + '0'.repeat(64));
    const slot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [COW.address, 3n]));
    const balance = BigInt((await cast('call', token, 'balanceOf(address)(uint256)', COW.address)).split(' ')[0]!);
    expect(balance).toBeGreaterThan(0n);
    expect(await cast('storage', token, slot)).toBe('0x' + balance.toString(16).padStart(64, '0'));
  });

  it('estimate gives enough gas for the transfer to succeed', async () => {
    const recipient = freshAddress();
    const estimate = BigInt(await cast('estimate', '--from', COW.address, token, 'transfer(address,uint256)', recipient, '1'));
    expect(estimate).toBeGreaterThan(21_000n);
    const receipt = await castJson(
      'send',
      '--legacy',
      '--private-key',
      COW.privateKey,
      '--gas-limit',
      estimate.toString(),
      token,
      'transfer(address,uint256)',
      recipient,
      '1',
    );
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.gasUsed)).toBeLessThanOrEqual(estimate);
    expect(await cast('call', token, 'balanceOf(address)(uint256)', recipient)).toBe('1');
    expect(await cast('estimate', COW1.address, '--value', '1')).toBe('21000');
  });

  it('call of a reverting transfer fails with the revert reason', async () => {
    await expect(cast('call', '--from', COW1.address, token, 'transfer(address,uint256)', COW.address, '1')).rejects.toThrow(
      /insufficient balance/,
    );
  });
});

describe('cast: node-held accounts', () => {
  it('send --unlocked --from goes through eth_sendTransaction', async () => {
    const recipient = freshAddress();
    const receipt = await castJson('send', '--legacy', '--unlocked', '--from', COW1.address, recipient, '--value', '5');
    expect(receipt.status).toBe('0x1');
    expect(receipt.from).toBe(COW1.address);
    expect(await cast('balance', recipient)).toBe('5');
  });
});
