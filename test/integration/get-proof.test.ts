/**
 * eth_getProof (EIP-1186) over HTTP: every proof is verified against the stateRoot the block
 * shows, twice: with @ethereumjs/mpt's verifier (and @ethereumjs/statemanager's EIP-1186 checker),
 * and with the independent walker of test/helpers/mpt-verify.ts (ethers' RLP and keccak256 only).
 * Neither viem nor ethers verifies proofs; viem's getProof is used as a client would use it.
 * Every field is compared with eth_getBalance, eth_getTransactionCount, eth_getCode and
 * eth_getStorageAt at the same block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, Interface, concat, getBytes, getCreateAddress, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { createPublicClient, defineChain, http } from 'viem';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager, verifyMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToBigInt, bytesToHex, createAccountFromRLP } from '@ethereumjs/util';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import { EMPTY_TRIE_ROOT, decodeAccount, decodeStorageValue, verifySecureTrieProof } from '../helpers/mpt-verify.js';

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const HASH = /^0x[0-9a-f]{64}$/;
const DATA = /^0x([0-9a-f]{2})+$/;
const EMPTY_CODE_HASH = keccak256('0x');
const TOKEN_SUPPLY = 1_000_000n * 10n ** 18n;
const SENT_TOKENS = 1_000n;
/** Token's storage layout: name 0, symbol 1, totalSupply 2, balanceOf 3, allowance 4. */
const TOTAL_SUPPLY_SLOT = '0x2';
const balanceSlot = (holder: string) => keccak256(concat([zeroPadValue(holder, 32), zeroPadValue('0x03', 32)]));
/** A slot the Token never writes. */
const UNUSED_SLOT = '0x10';
/** An account no block ever touches. */
const NEVER_TOUCHED = '0x00000000000000000000000000000000deadbeef';
/** An account created by a value transfer in block 3. */
const FRESH = '0x1234567890123456789012345678901234567890';

const q = (n: bigint | number) => `0x${n.toString(16)}`;
/** A QUANTITY storage key as the 32-byte key the storage trie hashes. */
const slot32 = (key: string) => toBeHex(BigInt(key), 32);
const token = new Interface(contracts.Token.abi);

let t: TestNode;
let url: string;
let tokenAddress: string;
/** Block 1: Token deployed, the whole supply with COW. */
let block1: any;
/** Block 3, the head after setup: COW sent SENT_TOKENS to COW1 (block 2) and 5 wei to FRESH (block 3). */
let block3: any;

beforeAll(async () => {
  t = await startTestNode();
  url = t.testnetUrl;
  const deployData = contracts.Token.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [TOKEN_SUPPLY]).slice(2);
  await call(url, 'eth_sendTransaction', [{ from: COW.address, gas: q(3_000_000), data: deployData }]);
  tokenAddress = getCreateAddress({ from: COW.address, nonce: 0 }).toLowerCase();
  block1 = await call(url, 'eth_getBlockByNumber', ['0x1', false]);
  const transfer = token.encodeFunctionData('transfer', [COW1.address, SENT_TOKENS]);
  await call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data: transfer, gas: q(100_000) }]);
  await call(url, 'eth_sendTransaction', [{ from: COW.address, to: FRESH, value: '0x5', gas: q(21_000) }]);
  block3 = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  expect(block3.number).toBe('0x3');
});
afterAll(() => t?.close());

type Proof = {
  address: string;
  accountProof: string[];
  balance: string;
  codeHash: string;
  nonce: string;
  storageHash: string;
  storageProof: { key: string; value: string; proof: string[] }[];
};

/**
 * eth_getProof at `block`, checked against `stateRoot`: formats, agreement with the plain state
 * reads at the same block, and both verifiers. Returns the proof.
 */
async function proveAndCheck(address: string, keys: string[], block: unknown, stateRoot: string): Promise<Proof> {
  const proof: Proof = await call(url, 'eth_getProof', [address, keys, block]);

  // Formats (spec: balance, nonce, key and value QUANTITY; hashes 32 bytes; nodes DATA).
  expect(Object.keys(proof)).toEqual(['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof']);
  expect(proof.address).toBe(address.toLowerCase());
  for (const f of ['balance', 'nonce'] as const) expect(proof[f], f).toMatch(QUANTITY);
  for (const f of ['codeHash', 'storageHash'] as const) expect(proof[f], f).toMatch(HASH);
  for (const node of proof.accountProof) expect(node).toMatch(DATA);
  expect(proof.storageProof.map((s) => s.key)).toEqual(keys.map((k) => q(BigInt(k))));
  for (const s of proof.storageProof) {
    expect(s.key).toMatch(QUANTITY);
    expect(s.value).toMatch(QUANTITY);
    for (const node of s.proof) expect(node).toMatch(DATA);
  }

  // Field by field against the plain reads at the same block.
  expect(proof.balance, 'balance').toBe(await call(url, 'eth_getBalance', [address, block]));
  expect(proof.nonce, 'nonce').toBe(await call(url, 'eth_getTransactionCount', [address, block]));
  expect(proof.codeHash, 'codeHash').toBe(keccak256(await call(url, 'eth_getCode', [address, block])));
  for (const s of proof.storageProof) {
    const stored = await call(url, 'eth_getStorageAt', [address, s.key, block]);
    expect(BigInt(s.value), `storage ${s.key}`).toBe(BigInt(stored));
  }

  // The independent walker, from the block's stateRoot.
  expect(keccak256(proof.accountProof[0]!), 'the first node is the state root').toBe(stateRoot);
  const leaf = verifySecureTrieProof(stateRoot, address, proof.accountProof);
  const account = leaf === null ? { nonce: 0n, balance: 0n, storageHash: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH } : decodeAccount(leaf);
  expect(BigInt(proof.balance)).toBe(account.balance);
  expect(BigInt(proof.nonce)).toBe(account.nonce);
  expect(proof.storageHash).toBe(account.storageHash);
  expect(proof.codeHash).toBe(account.codeHash);
  for (const s of proof.storageProof) {
    const slotKey = slot32(s.key);
    expect(decodeStorageValue(verifySecureTrieProof(proof.storageHash, slotKey, s.proof)), `walker, slot ${s.key}`).toBe(BigInt(s.value));
  }

  // @ethereumjs/mpt, given the expected roots.
  const accountRlp = await verifyMerkleProof(getBytes(address), proof.accountProof.map((n) => getBytes(n)), { useKeyHashing: true, root: getBytes(stateRoot) });
  if (accountRlp === null) {
    expect(leaf).toBeNull();
  } else {
    const decoded = createAccountFromRLP(accountRlp);
    expect([decoded.balance, decoded.nonce]).toEqual([BigInt(proof.balance), BigInt(proof.nonce)]);
    expect([bytesToHex(decoded.storageRoot), bytesToHex(decoded.codeHash)]).toEqual([proof.storageHash, proof.codeHash]);
  }
  for (const s of proof.storageProof) {
    if (s.proof.length === 0) {
      // The empty storage trie has no node to list (geth answers the same); nothing is stored there.
      expect(proof.storageHash).toBe(EMPTY_TRIE_ROOT);
      expect(s.value).toBe('0x0');
      continue;
    }
    const slotKey = getBytes(slot32(s.key));
    const stored = await verifyMerkleProof(slotKey, s.proof.map((n) => getBytes(n)), { useKeyHashing: true, root: getBytes(proof.storageHash) });
    expect(stored === null ? 0n : bytesToBigInt(RLP.decode(stored) as Uint8Array), `ethereumjs, slot ${s.key}`).toBe(BigInt(s.value));
  }
  // @ethereumjs/statemanager's EIP-1186 checker, on a present account (32-byte keys, non-empty paths).
  if (accountRlp !== null) {
    const forChecker = {
      ...proof,
      storageProof: proof.storageProof.filter((s) => s.proof.length > 0).map((s) => ({ ...s, key: slot32(s.key) })),
    };
    expect(await verifyMerkleStateProof(new MerkleStateManager(), forChecker as never)).toBe(true);
  }
  return proof;
}

describe('eth_getProof: a contract with storage', () => {
  const keys = () => ['0x0', '0x1', TOTAL_SUPPLY_SLOT, balanceSlot(COW.address), balanceSlot(COW1.address), UNUSED_SLOT];

  it('at latest: code, storage root and every slot verify against the head stateRoot', async () => {
    const proof = await proveAndCheck(tokenAddress, keys(), 'latest', block3.stateRoot);
    expect(proof.codeHash).toBe(keccak256(contracts.Token.deployedBytecode));
    expect(proof.storageHash).not.toBe(EMPTY_TRIE_ROOT);
    expect(proof.nonce).toBe('0x1'); // EIP-161: a contract starts at nonce 1
    const values = proof.storageProof.map((s) => BigInt(s.value));
    expect(values.slice(2)).toEqual([TOKEN_SUPPLY, TOKEN_SUPPLY - SENT_TOKENS, SENT_TOKENS, 0n]);
    expect(values[0]).not.toBe(0n); // "Test Token", stored inline
    expect(proof.storageProof.at(-1)!.proof.length, 'a slot never written still has its path').toBeGreaterThan(0);
  });

  it('at an older block: the state before the transfer, against that block stateRoot', async () => {
    const old = await proveAndCheck(tokenAddress, keys(), '0x1', block1.stateRoot);
    expect(old.storageProof.map((s) => BigInt(s.value)).slice(2)).toEqual([TOKEN_SUPPLY, TOKEN_SUPPLY, 0n, 0n]);
    const latest: Proof = await call(url, 'eth_getProof', [tokenAddress, keys(), 'latest']);
    expect(old.storageHash).not.toBe(latest.storageHash);
    expect(old.codeHash).toBe(latest.codeHash);
    // The older proof does not verify against the head's root.
    expect(() => verifySecureTrieProof(block3.stateRoot, tokenAddress, old.accountProof)).toThrow(/does not hash/);
    await expect(
      verifyMerkleProof(getBytes(tokenAddress), old.accountProof.map((n) => getBytes(n)), { useKeyHashing: true, root: getBytes(block3.stateRoot) }),
    ).rejects.toThrow();
  });

  it('before the deployment (earliest) the contract is absent', async () => {
    const genesis = await call(url, 'eth_getBlockByNumber', ['earliest', false]);
    const proof = await proveAndCheck(tokenAddress, [TOTAL_SUPPLY_SLOT], 'earliest', genesis.stateRoot);
    expect(verifySecureTrieProof(genesis.stateRoot, tokenAddress, proof.accountProof)).toBeNull();
    expect(proof.storageProof).toEqual([{ key: TOTAL_SUPPLY_SLOT, value: '0x0', proof: [] }]);
  });
});

describe('eth_getProof: accounts', () => {
  it('an externally owned account at latest and at genesis', async () => {
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    const now = await proveAndCheck(COW.address, ['0x0'], 'latest', block3.stateRoot);
    const then = await proveAndCheck(COW.address, ['0x0'], '0x0', genesis.stateRoot);
    expect(now.codeHash).toBe(EMPTY_CODE_HASH);
    expect(now.storageHash).toBe(EMPTY_TRIE_ROOT);
    expect(now.storageProof).toEqual([{ key: '0x0', value: '0x0', proof: [] }]);
    expect(now.nonce).toBe('0x3');
    expect(then.nonce).toBe('0x0');
    expect(BigInt(then.balance)).toBeGreaterThan(BigInt(now.balance));
  });

  it('an account never touched: a proof of absence and the empty account', async () => {
    const proof = await proveAndCheck(NEVER_TOUCHED, ['0x0', balanceSlot(COW.address)], 'latest', block3.stateRoot);
    expect(verifySecureTrieProof(block3.stateRoot, NEVER_TOUCHED, proof.accountProof)).toBeNull();
    expect(await verifyMerkleProof(getBytes(NEVER_TOUCHED), proof.accountProof.map((n) => getBytes(n)), { useKeyHashing: true, root: getBytes(block3.stateRoot) })).toBeNull();
    expect(proof.accountProof.length).toBeGreaterThan(0);
    expect({ ...proof, accountProof: [] }).toEqual({
      address: NEVER_TOUCHED,
      accountProof: [],
      balance: '0x0',
      codeHash: EMPTY_CODE_HASH,
      nonce: '0x0',
      storageHash: EMPTY_TRIE_ROOT,
      storageProof: [
        { key: '0x0', value: '0x0', proof: [] },
        { key: q(BigInt(balanceSlot(COW.address))), value: '0x0', proof: [] },
      ],
    });
  });

  it('an account absent at an older block and present at latest', async () => {
    const before = await proveAndCheck(FRESH, [], '0x2', (await call(url, 'eth_getBlockByNumber', ['0x2', false])).stateRoot);
    const after = await proveAndCheck(FRESH, [], 'latest', block3.stateRoot);
    expect(before.balance).toBe('0x0');
    expect(verifySecureTrieProof(block3.stateRoot, FRESH, after.accountProof)).not.toBeNull();
    expect(after.balance).toBe('0x5');
  });
});

describe('eth_getProof: parameters', () => {
  it('every form of block selector names the same state', async () => {
    const keys = [TOTAL_SUPPLY_SLOT, balanceSlot(COW.address)];
    const expected = await proveAndCheck(tokenAddress, keys, '0x1', block1.stateRoot);
    for (const selector of ['0x1', '1', block1.hash, { blockHash: block1.hash }, { blockHash: block1.hash, requireCanonical: true }, { blockNumber: '0x1' }]) {
      expect(await call(url, 'eth_getProof', [tokenAddress, keys, selector]), JSON.stringify(selector)).toEqual(expected);
    }
    const head = await call(url, 'eth_getProof', [tokenAddress, keys, block3.hash]);
    for (const selector of ['latest', { blockNumber: 'latest' }, 'safe', 'finalized', '0x3']) {
      expect(await call(url, 'eth_getProof', [tokenAddress, keys, selector]), JSON.stringify(selector)).toEqual(head);
    }
  });

  it('storage keys as 32-byte DATA (the spec) or QUANTITY (as geth accepts) give the same proof; key echoes as QUANTITY', async () => {
    const asData = await call(url, 'eth_getProof', [tokenAddress, [zeroPadValue('0x02', 32), balanceSlot(COW1.address)], 'latest']);
    const asQuantity = await call(url, 'eth_getProof', [tokenAddress, ['0x2', q(BigInt(balanceSlot(COW1.address)))], 'latest']);
    expect(asData).toEqual(asQuantity);
    expect(asData.storageProof[0].key).toBe('0x2');
    expect(asData.storageProof[0].value).toBe(q(TOKEN_SUPPLY));
    // Leading zeros in a short key are accepted too, and an empty list proves the account alone.
    expect((await call(url, 'eth_getProof', [tokenAddress, ['0x0002'], 'latest'])).storageProof[0].key).toBe('0x2');
    expect((await call(url, 'eth_getProof', [tokenAddress, [], 'latest'])).storageProof).toEqual([]);
  });

  it('bad parameters are -32602; an unknown block is -32600 "not found", as eth_getBalance', async () => {
    const bad = [
      [tokenAddress, [`0x${'11'.repeat(33)}`], 'latest'],
      [tokenAddress, ['0xzz'], 'latest'],
      [tokenAddress, ['2'], 'latest'],
      [tokenAddress, '0x2', 'latest'],
      [tokenAddress, ['0x2']],
      ['0x1234', ['0x2'], 'latest'],
    ];
    for (const params of bad) expect((await rpcError(url, 'eth_getProof', params)).code, JSON.stringify(params)).toBe(-32602);
    expect((await rpcError(url, 'eth_getProof', [tokenAddress, [`0x${'11'.repeat(33)}`], 'latest'])).message).toBe(
      'invalid argument 1 (storageKeys): storage key 0: storage slot > 32 bytes',
    );
    const unknown = await rpcError(url, 'eth_getProof', [tokenAddress, [], '0x99']);
    const balance = await rpcError(url, 'eth_getBalance', [tokenAddress, '0x99']);
    expect(unknown).toEqual(balance);
    expect(unknown.code).toBe(-32600);
    expect((await rpcError(url, 'eth_getProof', [tokenAddress, [], `0x${'ab'.repeat(32)}`])).code).toBe(-32600);
  });

  it('viem reads our answer with its getProof', async () => {
    const chain = defineChain({ id: 31, name: 'rsk devnode', nativeCurrency: { name: 'RBTC', symbol: 'RBTC', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const client = createPublicClient({ chain, transport: http(url) });
    const slot = balanceSlot(COW.address) as `0x${string}`;
    const proof = await client.getProof({ address: tokenAddress as `0x${string}`, storageKeys: [slot], blockNumber: 1n });
    expect(proof.storageProof[0]!.value).toBe(TOKEN_SUPPLY);
    expect(proof.nonce).toBe(1);
    expect(keccak256(proof.accountProof[0]!)).toBe(block1.stateRoot);
    const latest = await client.getProof({ address: COW.address, storageKeys: [] });
    expect(latest.balance).toBe(BigInt(await call(url, 'eth_getBalance', [COW.address, 'latest'])));
  });
});

describe('eth_getProof: pending and overridden state', () => {
  it('pending: the state of the pending block, against the stateRoot eth_getBlockByNumber("pending") shows', async () => {
    const target = '0x00000000000000000000000000000000000f00d5';
    await call(url, 'evm_setAutomine', [false]);
    try {
      await call(url, 'eth_sendTransaction', [{ from: COW.address, to: target, value: '0x7', gas: q(21_000) }]);
      const pending = await call(url, 'eth_getBlockByNumber', ['pending', false]);
      const proof = await proveAndCheck(target, [], 'pending', pending.stateRoot);
      expect(proof.balance).toBe('0x7');
      const latest = await proveAndCheck(target, [], 'latest', block3.stateRoot);
      expect(latest.balance).toBe('0x0');
      await call(url, 'evm_mine', []);
      const mined = await call(url, 'eth_getBlockByNumber', ['latest', false]);
      expect((await proveAndCheck(target, [], 'latest', mined.stateRoot)).balance).toBe('0x7');
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
  });

  it('after hardhat_setBalance the head proof agrees with eth_getBalance: it proves the overridden root until the next block', async () => {
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    await call(url, 'hardhat_setBalance', [COW1.address, '0x1234']);
    const proof: Proof = await call(url, 'eth_getProof', [COW1.address, [], 'latest']);
    expect(proof.balance).toBe('0x1234');
    expect(proof.balance).toBe(await call(url, 'eth_getBalance', [COW1.address, 'latest']));
    const overriddenRoot = keccak256(proof.accountProof[0]!);
    expect(overriddenRoot).not.toBe(head.stateRoot);
    expect(decodeAccount(verifySecureTrieProof(overriddenRoot, COW1.address, proof.accountProof)!).balance).toBe(0x1234n);
    // Selected by hash, the head reads the same overridden state, as eth_getBalance does.
    expect(await call(url, 'eth_getProof', [COW1.address, [], head.hash])).toEqual(proof);
    expect(await call(url, 'eth_getBalance', [COW1.address, head.hash])).toBe('0x1234');
    // The next block carries the change in its stateRoot, and the proof verifies against it.
    await call(url, 'evm_mine', []);
    const next = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(next.stateRoot).not.toBe(head.stateRoot);
    const mined = await proveAndCheck(COW1.address, [], 'latest', next.stateRoot);
    expect(mined.balance).toBe('0x1234');
  });
});
