/**
 * The ethereumjs Common for an RSK chain. RSK's gas schedule (SLOAD 200, BALANCE 400, classic
 * SSTORE, no warm/cold access lists) is Petersburg's; on top of it RSK has PUSH0 (EIP-3855),
 * transient storage (EIP-1153), and the EIP-3860 initcode limit and word cost. CHAINID,
 * SELFBALANCE, BASEFEE and MCOPY cannot be enabled below Istanbul/London/Shanghai in
 * @ethereumjs/common, so they are custom opcodes (opcodes.ts).
 */
import { Mainnet, type ParamsDict, createCustomCommon, type Common } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';
import { ecrecover } from './crypto.js';

export function createRskCommon(chainId: number, name: string): Common {
  return createCustomCommon({ chainId, name }, Mainnet, {
    hardfork: 'petersburg',
    eips: [3855, 1153, 3860],
    customCrypto: { ecrecover },
  });
}

/**
 * Transaction parameters: 16 gas per non-zero calldata byte (RSKIP400) instead of Petersburg's 68.
 * Every transaction copies its Common and re-applies these, so they must be passed at creation.
 */
export const RSK_TX_PARAMS: ParamsDict = {
  ...paramsTx,
  1: { ...paramsTx[1], txDataNonZeroGas: 16 },
};
