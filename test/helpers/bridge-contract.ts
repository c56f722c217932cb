/** The Bridge as dapps call it: an ethers Contract with the published ABI (@rsksmart/rsk-precompiled-abis) at its fixed address. */
import { createRequire } from 'node:module';
import { Contract, type ContractRunner } from 'ethers';

const require = createRequire(import.meta.url);
const bridgeAbi = require('@rsksmart/rsk-precompiled-abis').bridge as { abi: unknown[] };

export const BRIDGE = '0x0000000000000000000000000000000001000006';

/** The Bridge over `runner`: a provider for calls, a signer for transactions. */
export function bridgeContract(runner: ContractRunner): Contract {
  return new Contract(BRIDGE, bridgeAbi.abi as never, runner);
}
