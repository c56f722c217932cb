/**
 * Impersonated accounts with code (issue 19): OpenZeppelin's tests impersonate an AccessManager or
 * a ProxyAdmin and send from it. Hardhat and anvil allow that; so does the node now (it refused
 * with EIP-3607 before), while signed transactions from an account with code stay refused.
 */
import { describe, expect, it } from 'vitest';
import { Contract, Interface, JsonRpcProvider, JsonRpcSigner, Wallet } from 'ethers';
import { contracts } from '../fixtures/contracts.js';
import { COW, COW1, call, nodesClosedAfterEach, rpc } from '../helpers/node.js';

const start = nodesClosedAfterEach();
const ONE_RBTC = '0xde0b6b3a7640000';
const token = new Interface(contracts.Token.abi);

async function deploy(url: string, bytecode: string): Promise<string> {
  const hash = await call(url, 'eth_sendTransaction', [{ from: COW.address, data: bytecode, gas: '0x2dc6c0' }]);
  const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return receipt.contractAddress;
}

/** A Token with 1000 units, 400 of them held by a deployed Reverter contract (the impersonated account). */
async function tokenHeldByContract(url: string): Promise<{ tokenAddress: string; holder: string }> {
  const tokenAddress = await deploy(url, contracts.Token.bytecode + token.encodeDeploy([1000n]).slice(2));
  const holder = await deploy(url, contracts.Reverter.bytecode);
  await call(url, 'eth_sendTransaction', [{ from: COW.address, to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 400n]), gas: '0x30d40' }]);
  await call(url, 'hardhat_setBalance', [holder, ONE_RBTC]);
  return { tokenAddress, holder };
}

describe('an impersonated account with code', () => {
  it("sends (as in Hardhat and anvil) through ethers' JsonRpcSigner, keeps its code, and its transaction traces", async () => {
    const t = await start();
    const url = t.testnetUrl;
    const { tokenAddress, holder } = await tokenHeldByContract(url);
    const code = await call(url, 'eth_getCode', [holder, 'latest']);
    expect(code).toBe(contracts.Reverter.deployedBytecode);
    expect(await call(url, 'hardhat_impersonateAccount', [holder])).toBe(true);

    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
    try {
      // As hardhat-ethers' getImpersonatedSigner does: eth_accounts does not list impersonated accounts.
      const asHolder = new Contract(tokenAddress, contracts.Token.abi, new JsonRpcSigner(provider, holder));
      const sent = await asHolder.getFunction('transfer')(COW1.address, 150n, { type: 0, gasLimit: 100_000n });
      const receipt = (await sent.wait())!;
      expect(receipt.status).toBe(1);
      expect(receipt.from.toLowerCase()).toBe(holder);
      expect(await asHolder.getFunction('balanceOf')(COW1.address)).toBe(150n);
      expect(await asHolder.getFunction('balanceOf')(holder)).toBe(250n);
      // The sender's nonce moved, its balance paid the gas, and its code is untouched.
      expect(await call(url, 'eth_getTransactionCount', [holder, 'latest'])).toBe('0x2');
      expect(BigInt(await call(url, 'eth_getBalance', [holder, 'latest']))).toBeLessThan(BigInt(ONE_RBTC));
      expect(await call(url, 'eth_getCode', [holder, 'latest'])).toBe(code);
      // A block replay runs the same transaction the same way (tracing).
      const trace = await call(url, 'debug_traceTransaction', [sent.hash, { tracer: 'callTracer' }]);
      expect(trace).toMatchObject({ from: holder, to: tokenAddress.toLowerCase(), type: 'CALL' });
      expect(trace.error).toBeUndefined();
    } finally {
      provider.destroy();
    }
  });

  it('sends from a pool restored by evm_revert (the transaction rebuilt from its bytes)', async () => {
    const t = await start();
    const url = t.testnetUrl;
    const { tokenAddress, holder } = await tokenHeldByContract(url);
    await call(url, 'anvil_impersonateAccount', [holder]);
    await call(url, 'evm_setAutomine', [false]);
    const hash = await call(url, 'eth_sendTransaction', [{ from: holder, to: tokenAddress, data: token.encodeFunctionData('transfer', [COW1.address, 7n]), gas: '0x186a0' }]);
    const snapshot = await call(url, 'evm_snapshot');
    await call(url, 'evm_mine');
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    expect(await call(url, 'eth_getTransactionReceipt', [hash])).toBeNull();
    await call(url, 'evm_mine');
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    const balance = await call(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [COW1.address]) }, 'latest']);
    expect(BigInt(balance)).toBe(7n);
  });

  it('a signed transaction from an account with code is still refused (EIP-3607)', async () => {
    const t = await start();
    const url = t.testnetUrl;
    await call(url, 'hardhat_setCode', [COW1.address, contracts.Reverter.deployedBytecode]);
    const wallet = new Wallet(COW1.privateKey);
    const raw = await wallet.signTransaction({ type: 0, chainId: 31, nonce: 0, gasPrice: 0x3938700n, gasLimit: 21_000n, to: COW.address, value: 1n });
    const { body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
    expect(body.error?.code).toBe(-32009);
    expect(body.error?.message).toContain('invalid sender address, address is not EOA (EIP-3607)');
    expect(await call(url, 'eth_getTransactionCount', [COW1.address, 'latest'])).toBe('0x0');
  });
});
