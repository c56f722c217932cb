/**
 * The Bridge as dapps call it: an ethers Contract with the published ABI (@rsksmart/rsk-precompiled-abis)
 * at its fixed address; a node set up for Bridge tests; and the CallTypeProbe contract that calls it
 * with a chosen opcode. Shared so the Bridge test files do not each write the same set-up.
 */
import { createRequire } from 'node:module';
import { Contract, ContractFactory, type ContractRunner, type Wallet } from 'ethers';
import type { NodeOptions } from '../../src/index.js';
import { contracts, type CompiledContract } from '../fixtures/contracts.js';
import { ethersNodeForTests, type EthersNode } from './ethers.js';
import { call } from './node.js';

const require = createRequire(import.meta.url);
const bridgeAbi = require('@rsksmart/rsk-precompiled-abis').bridge as { abi: unknown[] };

export const BRIDGE = '0x0000000000000000000000000000000001000006';

/** The Bridge over `runner`: a provider for calls, a signer for transactions. */
export function bridgeContract(runner: ContractRunner): Contract {
  return new Contract(BRIDGE, bridgeAbi.abi as never, runner);
}

/** An ethers test node with the Bridge over its provider and a caller of the node's btc_ methods (testnet). */
export interface BridgeNode extends EthersNode {
  bridge: Contract;
  btc: (method: string, params?: unknown[]) => Promise<any>;
}

/** ethersNodeForTests, with the Bridge and btc_ added (see BridgeNode). */
export function bridgeNodeForTests(use: (node: BridgeNode) => void, options: NodeOptions = {}): void {
  ethersNodeForTests((node) => {
    const btc = (method: string, params: unknown[] = []) => call(node.t.testnetUrl, method, params);
    use({ ...node, bridge: bridgeContract(node.provider), btc });
  }, options);
}

/**
 * Deploys test/fixtures/contracts/CallTypeProbe.sol from `wallet` (a legacy transaction at
 * `gasPrice`) and answers it connected to that wallet.
 */
export async function deployCallTypeProbe(wallet: Wallet, gasPrice: bigint): Promise<Contract> {
  const { abi, bytecode } = (contracts as unknown as Record<string, CompiledContract>).CallTypeProbe!;
  const deployed = await new ContractFactory(abi, bytecode, wallet).deploy({ type: 0, gasPrice });
  await deployed.waitForDeployment();
  return new Contract(await deployed.getAddress(), abi, wallet);
}
