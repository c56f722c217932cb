/**
 * eth_signTypedData_v4 (issue 19): EIP-712 signatures with the node's keys, through the clients
 * users sign with (ethers' JsonRpcSigner over HTTP and over the in-process provider, viem's wallet
 * client with a JSON-RPC account), checked with ethers' verifyTypedData and by an EIP-2612 permit
 * that the chain's own ecrecover accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserProvider, Contract, ContractFactory, JsonRpcProvider, Signature, TypedDataEncoder, verifyTypedData } from 'ethers';
import { createWalletClient, http } from 'viem';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, call, rpcError, startTestNode, type TestNode } from '../helpers/node.js';

const IMPERSONATED = '0x00000000000000000000000000000000000b0b00';
const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};
const MAIL_DOMAIN = { name: 'Ether Mail', version: '1', chainId: 31, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' };
const MAIL_TYPES = {
  Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
  Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
};
const MAIL = { from: { name: 'Cow', wallet: COW.address }, to: { name: 'Bob', wallet: COW1.address }, contents: 'Hello, Bob!' };
/** The JSON ethers' JsonRpcSigner.signTypedData sends. */
const MAIL_PAYLOAD = TypedDataEncoder.getPayload(MAIL_DOMAIN, MAIL_TYPES, MAIL);

let t: TestNode;
let provider: JsonRpcProvider;

beforeAll(async () => {
  t = await startTestNode();
  provider = new JsonRpcProvider(t.testnetUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
});
afterAll(async () => {
  provider?.destroy();
  await t?.close();
});

describe('eth_signTypedData_v4', () => {
  it("signs an EIP-2612 permit through ethers' JsonRpcSigner, and the token's permit accepts it on chain", async () => {
    const owner = await provider.getSigner(COW.address);
    const spender = await provider.getSigner(COW1.address);
    const factory = new ContractFactory(contracts.PermitToken.abi, contracts.PermitToken.bytecode, owner);
    const deployed = await factory.deploy({ type: 0 });
    await deployed.waitForDeployment();
    const token = new Contract(await deployed.getAddress(), contracts.PermitToken.abi, spender);

    const domain = { name: 'Permit Token', version: '1', chainId: 31, verifyingContract: await token.getAddress() };
    expect(TypedDataEncoder.hashDomain(domain)).toBe(await token.getFunction('DOMAIN_SEPARATOR')());
    const permit = { owner: COW.address, spender: COW1.address, value: 10n ** 24n, nonce: 0n, deadline: 2n ** 64n };
    const signature = await owner.signTypedData(domain, PERMIT_TYPES, permit);
    expect(verifyTypedData(domain, PERMIT_TYPES, permit, signature).toLowerCase()).toBe(COW.address);

    const { v, r, s } = Signature.from(signature);
    const tx = await token.getFunction('permit')(COW.address, COW1.address, permit.value, permit.deadline, v, r, s, { type: 0, gasLimit: 200_000n });
    expect((await tx.wait())!.status).toBe(1);
    expect(await token.getFunction('allowance')(COW.address, COW1.address)).toBe(10n ** 24n);
    expect(await token.getFunction('nonces')(COW.address)).toBe(1n);
  });

  it("signs through ethers' BrowserProvider over the in-process provider", async () => {
    const inProcess = new BrowserProvider(t.node.provider, undefined, { cacheTimeout: -1 });
    try {
      const signer = await inProcess.getSigner(COW1.address);
      const signature = await signer.signTypedData(MAIL_DOMAIN, MAIL_TYPES, MAIL);
      expect(verifyTypedData(MAIL_DOMAIN, MAIL_TYPES, MAIL, signature).toLowerCase()).toBe(COW1.address);
    } finally {
      inProcess.destroy();
    }
  });

  it("signs for viem's wallet client with a JSON-RPC account", async () => {
    const wallet = createWalletClient({ account: COW.address, transport: http(t.testnetUrl) });
    const signature = await wallet.signTypedData({ domain: MAIL_DOMAIN as never, types: MAIL_TYPES, primaryType: 'Mail', message: MAIL as never });
    expect(verifyTypedData(MAIL_DOMAIN, MAIL_TYPES, MAIL, signature).toLowerCase()).toBe(COW.address);
  });

  it('answers eth_signTypedData and eth_signTypedData_v3 alike, with the typed data as a string or an object', async () => {
    const v4 = await call(t.testnetUrl, 'eth_signTypedData_v4', [COW.address, JSON.stringify(MAIL_PAYLOAD)]);
    expect(verifyTypedData(MAIL_DOMAIN, MAIL_TYPES, MAIL, v4).toLowerCase()).toBe(COW.address);
    expect(await call(t.testnetUrl, 'eth_signTypedData_v4', [COW.address, MAIL_PAYLOAD])).toBe(v4);
    expect(await call(t.testnetUrl, 'eth_signTypedData_v3', [COW.address, JSON.stringify(MAIL_PAYLOAD)])).toBe(v4);
    expect(await call(t.testnetUrl, 'eth_signTypedData', [COW.address, MAIL_PAYLOAD])).toBe(v4);
  });

  it('signs with an unlocked personal_ account and refuses it once locked', async () => {
    const created: string = await call(t.testnetUrl, 'personal_newAccount', ['typed-data pass']);
    const signature = await call(t.testnetUrl, 'eth_signTypedData_v4', [created, JSON.stringify(MAIL_PAYLOAD)]);
    expect(verifyTypedData(MAIL_DOMAIN, MAIL_TYPES, MAIL, signature).toLowerCase()).toBe(created);
    expect(await call(t.testnetUrl, 'personal_lockAccount', [created])).toBe(true);
    const locked = await rpcError(t.testnetUrl, 'eth_signTypedData_v4', [created, JSON.stringify(MAIL_PAYLOAD)]);
    expect(locked.code).toBe(-32602);
    expect(locked.message).toBe('Account not found (the account is locked: unlock it with personal_unlockAccount)');
  });

  it('refuses an impersonated account clearly: the node holds no key for it', async () => {
    expect(await call(t.testnetUrl, 'hardhat_impersonateAccount', [IMPERSONATED])).toBe(true);
    const refused = await rpcError(t.testnetUrl, 'eth_signTypedData_v4', [IMPERSONATED, JSON.stringify(MAIL_PAYLOAD)]);
    expect(refused.code).toBe(-32602);
    expect(refused.message).toBe(`${IMPERSONATED} is impersonated: the node can send transactions as it but holds no key to sign with`);
    expect((await rpcError(t.testnetUrl, 'eth_sign', [IMPERSONATED, '0x00'])).message).toBe(refused.message);
    const unknown = await rpcError(t.testnetUrl, 'eth_signTypedData_v4', [COW1.address.replace('7', '8'), JSON.stringify(MAIL_PAYLOAD)]);
    expect(unknown).toMatchObject({ code: -32602, message: 'Account not found' });
  });

  it('answers malformed typed data with -32602 and what is wrong', async () => {
    const cases: Array<[unknown, string]> = [
      ['{not json', 'invalid argument 1 (typedData): typed data is not valid JSON'],
      [42, 'invalid argument 1 (typedData): expected typed data (a JSON object or its string), got number'],
      [{ ...MAIL_PAYLOAD, primaryType: 'Letter' }, 'invalid typed data: primaryType "Letter" is not one of the types'],
      [{ ...MAIL_PAYLOAD, message: { ...MAIL_PAYLOAD.message, from: { name: 'Cow', wallet: '0x12' } } }, 'invalid typed data: Person.wallet must be a 20-byte address'],
      [`${'['.repeat(200)}${']'.repeat(200)}`, 'invalid argument 1 (typedData): typed data nested more than 100 levels deep'],
    ];
    for (const [typedData, message] of cases) {
      expect(await rpcError(t.testnetUrl, 'eth_signTypedData_v4', [COW.address, typedData])).toMatchObject({ code: -32602, message });
    }
  });
});
