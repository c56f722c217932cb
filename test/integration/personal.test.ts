/**
 * personal_ (issue 9, "Accounts held by the node"): rskj's PersonalModuleWalletEnabled and Wallet
 * (reference 10.8) through real HTTP. Keys created or imported are Web3 Secret Storage v3 files in
 * <data-dir>/keystore that survive a restart (locked), hold no plaintext key, and open with ethers'
 * own decryptor. Signatures and transactions are checked with ethers, not with our code.
 * Unlock deadlines run on an injected clock (createNode's `now`): no timing assertions.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signature, Transaction, Wallet, keccak256, toUtf8Bytes, verifyMessage } from 'ethers';
import { COW, COW1, call, rpc, rpcError, startTestNode, type TestNode } from '../helpers/node.js';
import { uncachedProvider } from '../helpers/ethers.js';

const ADDRESS = /^0x[0-9a-f]{40}$/;
const HASH = /^0x[0-9a-f]{64}$/;
const PRIVATE_KEY = /^0x[0-9a-f]{64}$/;
const MINER = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';
const THIRTY_MINUTES = 30 * 60 * 1000;
const ONE_RBTC = '0xde0b6b3a7640000';
const MESSAGE_HEX = '0x68656c6c6f'; // "hello"
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// rskj's refusals (EthModuleTransactionBase, EthModuleWalletEnabled, PersonalModuleWalletEnabled).
const NOT_FOUND_FOR_SEND = 'Could not find account for address: ';
const ACCOUNT_NOT_FOUND = 'Account not found';
const DUMP_LOCKED = 'Address private key is locked or could not be found in this node';
const SEND_NO_KEYSTORE = 'From address private key could not be found in this node';
const WRONG_PASSWORD = 'could not decrypt key with given password';

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rsk-devnode-personal-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The signer of a mined transaction, recovered by ethers from the fields the node returns. */
async function recoveredSender(url: string, hash: string): Promise<string> {
  const tx = await call(url, 'eth_getTransactionByHash', [hash]);
  const rebuilt = Transaction.from({
    type: 0,
    nonce: Number(tx.nonce),
    gasPrice: BigInt(tx.gasPrice),
    gasLimit: BigInt(tx.gas),
    to: tx.to,
    value: BigInt(tx.value),
    data: tx.input,
    chainId: 31n,
    signature: Signature.from({ r: tx.r, s: tx.s, v: Number(tx.v) }),
  });
  expect(rebuilt.hash).toBe(hash);
  return rebuilt.from!.toLowerCase();
}

async function mined(url: string, hash: string): Promise<void> {
  expect(hash).toMatch(HASH);
  expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
}

async function fund(url: string, to: string): Promise<void> {
  await mined(url, await call(url, 'eth_sendTransaction', [{ from: COW.address, to, value: ONE_RBTC }]));
}

describe('personal_ on an in-memory node (injected clock)', () => {
  let t: TestNode;
  let url: string;
  const clock = { now: Date.now() };
  let created: string;
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    t = await startTestNode({ now: () => clock.now });
    url = t.testnetUrl;
  });
  afterAll(() => t.close());

  it('personal_listAccounts is eth_accounts: the ten cow accounts, then the miner', async () => {
    const listed: string[] = await call(url, 'personal_listAccounts');
    expect(listed).toEqual(await call(url, 'eth_accounts'));
    expect(listed).toHaveLength(11);
    expect(listed[0]).toBe(COW.address);
    expect(listed[1]).toBe(COW1.address);
    expect(listed[10]).toBe(MINER);
  });

  it('personal_newAccount returns a new address, listed after the miner, unlocked: eth_sendTransaction signs with it', async () => {
    created = await call(url, 'personal_newAccount', [password]);
    expect(created).toMatch(ADDRESS);
    const listed: string[] = await call(url, 'eth_accounts');
    expect(listed).toHaveLength(12);
    expect(listed.slice(0, 11)).toEqual((await call(url, 'personal_listAccounts')).slice(0, 11));
    expect(listed[11]).toBe(created);
    expect(await call(url, 'personal_listAccounts')).toEqual(listed);
    // The same wallet answers on mainnet: a key is an address on either chain.
    expect(await call(t.mainnetUrl, 'eth_accounts')).toEqual(listed);

    await fund(url, created);
    const hash: string = await call(url, 'eth_sendTransaction', [{ from: created, to: COW1.address, value: '0x1' }]);
    await mined(url, hash);
    expect(await recoveredSender(url, hash)).toBe(created);
  });

  it('eth_sign and personal_sign sign with an unlocked created account (checked by ethers)', async () => {
    const viaEthSign: string = await call(url, 'eth_sign', [created, MESSAGE_HEX]);
    expect(verifyMessage(toUtf8Bytes('hello'), viaEthSign).toLowerCase()).toBe(created);
    expect(await call(url, 'personal_sign', [MESSAGE_HEX, created])).toBe(viaEthSign);
  });

  it('personal_dumpRawKey gives the key of the unlocked account (0x + 64 hex)', async () => {
    const key: string = await call(url, 'personal_dumpRawKey', [created]);
    expect(key).toMatch(PRIVATE_KEY);
    expect(new Wallet(key).address.toLowerCase()).toBe(created);
  });

  it('personal_lockAccount: true, then false; a locked key cannot sign (rskj messages), yet stays listed', async () => {
    expect(await call(url, 'personal_lockAccount', [created])).toBe(true);
    expect(await call(url, 'personal_lockAccount', [created])).toBe(false);
    expect(await call(url, 'eth_accounts')).toContain(created);

    const send = await rpc(url, 'eth_sendTransaction', [{ from: created, to: COW1.address, value: '0x1' }]);
    expect(send.status).toBe(400);
    expect(send.body.error!.code).toBe(-32602);
    expect(send.body.error!.message.startsWith(`${NOT_FOUND_FOR_SEND}${created}`)).toBe(true);
    expect(send.body.error!.message).toMatch(/locked/);
    for (const [method, args] of [
      ['eth_sign', [created, MESSAGE_HEX]],
      ['personal_sign', [MESSAGE_HEX, created]],
    ] as const) {
      const error = await rpcError(url, method, [...args]);
      expect(error.code, method).toBe(-32602);
      expect(error.message.startsWith(ACCOUNT_NOT_FOUND), method).toBe(true);
    }
    const dump = await rpcError(url, 'personal_dumpRawKey', [created]);
    expect(dump).toEqual({ code: -32602, message: `${DUMP_LOCKED} (the account is locked: unlock it with personal_unlockAccount)` });
  });

  it('personal_sendTransaction opens the keystore with the passphrase (even locked, as rskj); a wrong one is refused', async () => {
    const tx = { from: created, to: COW1.address, value: '0x2' };
    const nonce = await call(url, 'eth_getTransactionCount', [created, 'latest']);
    expect(await rpcError(url, 'personal_sendTransaction', [tx, 'wrong password'])).toEqual({ code: -32602, message: WRONG_PASSWORD });
    expect(await call(url, 'eth_getTransactionCount', [created, 'latest'])).toBe(nonce);

    const hash: string = await call(url, 'personal_sendTransaction', [tx, password]);
    await mined(url, hash);
    expect(await recoveredSender(url, hash)).toBe(created);
    // rskj's eth_sendTransaction defaults: gas 90000, pending nonce.
    const sent = await call(url, 'eth_getTransactionByHash', [hash]);
    expect(sent.gas).toBe('0x15f90');
    expect(sent.nonce).toBe(nonce);
    // It did not unlock the account.
    expect((await rpcError(url, 'eth_sign', [created, MESSAGE_HEX])).code).toBe(-32602);
  });

  it('personal_sendTransaction refuses an account without a keystore (a cow account) and a missing passphrase', async () => {
    const tx = { from: COW.address, to: COW1.address, value: '0x1' };
    const refused = await rpcError(url, 'personal_sendTransaction', [tx, 'anything']);
    expect(refused.code).toBe(-32602);
    expect(refused.message.startsWith(SEND_NO_KEYSTORE)).toBe(true);
    expect(refused.message).toMatch(/send from this one with eth_sendTransaction/);
    expect((await rpcError(url, 'personal_sendTransaction', [tx])).code).toBe(-32602);
  });

  it('-32603 for bad input: personal_sendTransaction from, and personal_dumpRawKey of, an address the node holds no key for answer -32602 with rskj\'s words', async () => {
    const stranger = Wallet.createRandom().address.toLowerCase();
    const send = await rpc(url, 'personal_sendTransaction', [{ from: stranger, to: COW1.address, value: '0x1' }, 'anything']);
    expect(send.status).toBe(400);
    expect(send.body.error).toEqual({ code: -32602, message: SEND_NO_KEYSTORE });
    const dump = await rpc(url, 'personal_dumpRawKey', [stranger]);
    expect(dump.status).toBe(400);
    expect(dump.body.error).toEqual({ code: -32602, message: DUMP_LOCKED });
    // ethers sees a client error it can show, not a node failure.
    const provider = uncachedProvider(url, undefined, { staticNetwork: true });
    try {
      await expect(provider.send('personal_dumpRawKey', [stranger])).rejects.toMatchObject({ error: { code: -32602, message: DUMP_LOCKED } });
    } finally {
      provider.destroy();
    }
  });

  it('personal_unlockAccount: wrong password refused; no keystore (cow, unknown) answers false', async () => {
    expect(await rpcError(url, 'personal_unlockAccount', [created, 'wrong password', '0x3e8'])).toEqual({ code: -32602, message: WRONG_PASSWORD });
    expect((await rpcError(url, 'eth_sign', [created, MESSAGE_HEX])).code).toBe(-32602);
    expect(await call(url, 'personal_unlockAccount', [COW.address, 'anything'])).toBe(false);
    expect(await call(url, 'personal_unlockAccount', [Wallet.createRandom().address.toLowerCase(), 'anything', '0x3e8'])).toBe(false);
  });

  it('personal_unlockAccount with 0x3e8 unlocks for 1,000 ms of the clock, then the key relocks', async () => {
    expect(await call(url, 'personal_unlockAccount', [created, password, '0x3e8'])).toBe(true);
    expect(verifyMessage(toUtf8Bytes('hello'), await call(url, 'eth_sign', [created, MESSAGE_HEX])).toLowerCase()).toBe(created);
    clock.now += 1000; // the deadline itself: still unlocked (rskj expires strictly after it)
    expect(await call(url, 'personal_dumpRawKey', [created])).toMatch(PRIVATE_KEY);
    clock.now += 1;
    expect((await rpcError(url, 'eth_sign', [created, MESSAGE_HEX])).message.startsWith(ACCOUNT_NOT_FOUND)).toBe(true);
    expect(await call(url, 'personal_lockAccount', [created])).toBe(false); // already relocked
    expect(await call(url, 'eth_accounts')).toContain(created);
  });

  it('personal_unlockAccount without a duration (or "" / null) unlocks for 30 minutes', async () => {
    for (const rest of [[], [''], [null]]) {
      expect(await call(url, 'personal_unlockAccount', [created, password, ...rest])).toBe(true);
      clock.now += THIRTY_MINUTES;
      expect(await call(url, 'personal_dumpRawKey', [created])).toMatch(PRIVATE_KEY);
      clock.now += 1;
      expect((await rpcError(url, 'personal_dumpRawKey', [created])).code).toBe(-32602);
    }
  });

  it('personal_unlockAccount refuses a duration that is not 0x-hex milliseconds (a JSON number included, as rskj)', async () => {
    for (const duration of [600, '600', '0xzz', '0x', `0x${'f'.repeat(17)}`]) {
      const { status, body } = await rpc(url, 'personal_unlockAccount', [created, password, duration]);
      expect(status, String(duration)).toBe(400);
      expect(body.error!.code, String(duration)).toBe(-32602);
    }
    expect((await rpcError(url, 'personal_dumpRawKey', [created])).code).toBe(-32602);
  });

  it('personal_newAccount after its 30 minutes relocks like any unlock', async () => {
    const other: string = await call(url, 'personal_newAccount', ['other']);
    clock.now += THIRTY_MINUTES;
    expect(await call(url, 'personal_dumpRawKey', [other])).toMatch(PRIVATE_KEY);
    clock.now += 1;
    expect((await rpcError(url, 'eth_sign', [other, MESSAGE_HEX])).code).toBe(-32602);
  });

  it('personal_importRawKey (0x optional) returns the address; personal_dumpRawKey returns the key', async () => {
    const wallet = Wallet.createRandom();
    const bare = wallet.privateKey.slice(2);
    const imported: string = await call(url, 'personal_importRawKey', [bare, 'import-pass']);
    expect(imported).toBe(wallet.address.toLowerCase());
    expect(await call(url, 'personal_dumpRawKey', [imported])).toBe(wallet.privateKey);
    expect((await call(url, 'eth_accounts')).at(-1)).toBe(imported);

    const second = Wallet.createRandom();
    expect(await call(url, 'personal_importRawKey', [second.privateKey, 'pass-2'])).toBe(second.address.toLowerCase());
    expect(await call(url, 'personal_dumpRawKey', [second.address])).toBe(second.privateKey);
    // Mixed-case (checksummed) addresses are the same account.
    expect(await call(url, 'personal_lockAccount', [second.address])).toBe(true);
    expect(await call(url, 'personal_unlockAccount', [second.address, 'pass-2', '0x1b7740'])).toBe(true);
  });

  it('personal_importRawKey refuses a missing or malformed key and a missing passphrase (-32602)', async () => {
    for (const args of [[null, 'p'], ['0x1234zz', 'p'], ['0x123', 'p'], [`0x${'00'.repeat(32)}`, 'p'], [`0x${'ff'.repeat(32)}`, 'p'], [`0x${'11'.repeat(33)}`, 'p'], [COW.privateKey]]) {
      const { status, body } = await rpc(url, 'personal_importRawKey', args);
      expect(status, JSON.stringify(args)).toBe(400);
      expect(body.error!.code, JSON.stringify(args)).toBe(-32602);
      // The key is never echoed back.
      expect(body.error!.message).not.toContain('11'.repeat(33));
    }
    expect(await rpcError(url, 'personal_importRawKey', [null, 'p'])).toMatchObject({ message: 'Key cannot be null.' });
  });

  it('personal_newAccountWithSeed: key keccak256(seed), listed, signs at once; "cow" is the cow account; null is refused', async () => {
    expect(await call(url, 'personal_newAccountWithSeed', ['cow'])).toBe(COW.address);
    const seeded: string = await call(url, 'personal_newAccountWithSeed', ['rootstock']);
    const expected = new Wallet(keccak256(toUtf8Bytes('rootstock')));
    expect(seeded).toBe(expected.address.toLowerCase());
    expect(await call(url, 'personal_dumpRawKey', [seeded])).toBe(expected.privateKey);
    const listed: string[] = await call(url, 'eth_accounts');
    expect(listed.filter((a) => a === COW.address)).toHaveLength(1);
    expect(listed.at(-1)).toBe(seeded);
    expect(await call(url, 'personal_unlockAccount', [seeded, 'x'])).toBe(false); // no keystore, as in rskj
    expect(await rpcError(url, 'personal_newAccountWithSeed', [null])).toEqual({ code: -32602, message: 'Seed is null' });
    expect(await rpcError(url, 'personal_newAccount', [])).toEqual({ code: -32602, message: 'Passphrase is null' });
  });

  it('personal_lockAccount on a cow account makes it unusable (rskj: until restart)', async () => {
    expect(await call(url, 'personal_lockAccount', [COW1.address])).toBe(true);
    const error = await rpcError(url, 'eth_sendTransaction', [{ from: COW1.address, to: COW.address, value: '0x1' }]);
    expect(error.code).toBe(-32602);
    expect(error.message.startsWith(`${NOT_FOUND_FOR_SEND}${COW1.address}`)).toBe(true);
    expect(await call(url, 'personal_unlockAccount', [COW1.address, ''])).toBe(false);
    expect(await call(url, 'eth_accounts')).toContain(COW1.address);
  });

  it('personal_sign with a third argument (web3.js) opens a keystore account with that passphrase', async () => {
    const wallet = Wallet.createRandom();
    await call(url, 'personal_importRawKey', [wallet.privateKey, 'sign-pass']);
    await call(url, 'personal_lockAccount', [wallet.address]);
    const signature: string = await call(url, 'personal_sign', [MESSAGE_HEX, wallet.address, 'sign-pass']);
    expect(signature).toBe(await wallet.signMessage('hello'));
    expect(await rpcError(url, 'personal_sign', [MESSAGE_HEX, wallet.address, 'nope'])).toEqual({ code: -32602, message: WRONG_PASSWORD });
    // A cow account has no keystore: its unlocked key signs whatever the passphrase.
    expect(verifyMessage('hello', await call(url, 'personal_sign', [MESSAGE_HEX, COW.address, ''])).toLowerCase()).toBe(COW.address);
  });
});

describe('personal_ keystores in the data directory', () => {
  const imported = Wallet.createRandom();
  const importPassword = 'import password';
  const createPassword = 'create password';
  let dataDir: string;
  let created: string;
  let createdKey: string;

  const open = async () =>
    startTestNode({ inMemory: false, dataDir });

  beforeAll(async () => {
    dataDir = await tempDir();
  });

  it('keys created or imported are v3 keystore files with no plaintext key, which ethers decrypts', async () => {
    const t = await open();
    try {
      expect(await call(t.testnetUrl, 'personal_importRawKey', [imported.privateKey, importPassword])).toBe(imported.address.toLowerCase());
      created = await call(t.testnetUrl, 'personal_newAccount', [createPassword]);
      createdKey = await call(t.testnetUrl, 'personal_dumpRawKey', [created]);
    } finally {
      await t.close();
    }
    const dir = join(dataDir, 'keystore');
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(2);
    for (const [file, address, key, password] of [
      [files.find((f) => f.endsWith(imported.address.slice(2).toLowerCase()))!, imported.address.toLowerCase(), imported.privateKey, importPassword],
      [files.find((f) => f.endsWith(created.slice(2)))!, created, createdKey, createPassword],
    ] as const) {
      expect(file).toMatch(/^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d+Z--[0-9a-f]{40}$/);
      const bytes = await readFile(join(dir, file));
      const raw = bytes.toString('latin1');
      for (const form of [key.slice(2), key.slice(2).toUpperCase()]) expect(raw).not.toContain(form);
      expect(bytes.includes(Buffer.from(key.slice(2), 'hex'))).toBe(false);
      const json = JSON.parse(bytes.toString('utf8'));
      expect(json).toMatchObject({ version: 3, address: address.slice(2), crypto: { cipher: 'aes-128-ctr', kdf: 'scrypt' } });
      expect(json.crypto.kdfparams).toMatchObject({ n: 16384, r: 8, p: 1, dklen: 32 });
      const opened = await Wallet.fromEncryptedJson(bytes.toString('utf8'), password);
      expect(opened.address.toLowerCase()).toBe(address);
      expect(opened.privateKey).toBe(key);
      await expect(Wallet.fromEncryptedJson(bytes.toString('utf8'), 'not the password')).rejects.toThrow();
    }
  });

  it('after a restart the accounts are listed, locked, and unlock with their passwords', async () => {
    const t = await open();
    try {
      const url = t.testnetUrl;
      const listed: string[] = await call(url, 'eth_accounts');
      expect(listed).toHaveLength(13);
      expect(listed[10]).toBe(MINER);
      // Creation order (geth's UTC--<time>--<address> file names sort by time).
      expect(listed.slice(11)).toEqual([imported.address.toLowerCase(), created]);
      expect(await call(url, 'personal_listAccounts')).toEqual(listed);

      for (const address of [imported.address.toLowerCase(), created]) {
        expect((await rpcError(url, 'personal_dumpRawKey', [address])).code).toBe(-32602);
        expect((await rpcError(url, 'eth_sign', [address, MESSAGE_HEX])).message.startsWith(ACCOUNT_NOT_FOUND)).toBe(true);
        expect((await rpcError(url, 'personal_unlockAccount', [address, 'wrong'])).message).toBe(WRONG_PASSWORD);
      }
      expect(await call(url, 'personal_unlockAccount', [imported.address, importPassword])).toBe(true);
      expect(await call(url, 'personal_dumpRawKey', [imported.address])).toBe(imported.privateKey);
      expect(await call(url, 'personal_unlockAccount', [created, createPassword, '0xea60'])).toBe(true);
      expect(await call(url, 'personal_dumpRawKey', [created])).toBe(createdKey);

      await fund(url, created);
      const hash: string = await call(url, 'eth_sendTransaction', [{ from: created, to: imported.address, value: '0x5' }]);
      await mined(url, hash);
      expect(await recoveredSender(url, hash)).toBe(created);
    } finally {
      await t.close();
    }
  });

  it('with --in-memory nothing is written, even when a data directory is named', async () => {
    const dir = await tempDir();
    const t = await startTestNode({ inMemory: true, dataDir: dir });
    try {
      await call(t.testnetUrl, 'personal_newAccount', ['pw']);
      await call(t.testnetUrl, 'personal_importRawKey', [Wallet.createRandom().privateKey, 'pw']);
    } finally {
      await t.close();
    }
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('personal_ and --hosted', () => {
  it('dashboard keys are refused every personal_ method; operator keys keep them', async () => {
    const t = await startTestNode({ hosted: true });
    try {
      const headers = { 'content-type': 'application/json' };
      const credentials = JSON.stringify({ email: 'personal@example.com', password: 'hosted-password-1' });
      expect((await fetch(`${t.baseUrl}/api/signup`, { method: 'POST', headers, body: credentials })).status).toBe(201);
      const login = await fetch(`${t.baseUrl}/api/login`, { method: 'POST', headers, body: credentials });
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const made = await fetch(`${t.baseUrl}/api/keys`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ name: 'app', network: 'testnet' }) });
      const userUrl = ((await made.json()) as { url: string }).url;
      for (const [method, args] of [
        ['personal_newAccount', ['pw']],
        ['personal_newAccountWithSeed', ['seed']],
        ['personal_importRawKey', [Wallet.createRandom().privateKey, 'pw']],
        ['personal_dumpRawKey', [COW.address]],
        ['personal_listAccounts', []],
        ['personal_lockAccount', [COW.address]],
        ['personal_unlockAccount', [COW.address, 'pw']],
        ['personal_sendTransaction', [{ from: COW.address, to: COW1.address }, 'pw']],
      ] as const) {
        const error = await rpcError(userUrl, method, [...args]);
        expect(error.code, method).toBe(-32601);
        expect(error.message, method).toMatch(/the hosted endpoint holds no keys/);
      }
      expect(await call(t.testnetUrl, 'personal_dumpRawKey', [COW.address])).toBe(COW.privateKey);
    } finally {
      await t.close();
    }
  });
});

describe('unlock timers', () => {
  it('an unlocked account does not keep the process alive', async () => {
    const script = [
      "import { NodeWallet } from './src/chain/keys/wallet.ts';",
      'const wallet = new NodeWallet();',
      "const address = await wallet.newAccount('pw');",
      "await wallet.unlock(address, 'pw', 3_600_000);",
      "console.log(wallet.signingKey(address) === undefined ? 'locked' : 'unlocked');",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // A process held open by a timer would never exit: kill it after a generous wait so the test fails, not hangs.
    const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(guard);
    expect(out.trim()).toBe('unlocked');
    expect(code).toBe(0);
  });
});
