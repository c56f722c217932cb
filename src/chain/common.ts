/**
 * The ethereumjs Common for an RSK chain. RSK's gas schedule (SLOAD 200, BALANCE 400, classic
 * SSTORE, no warm/cold access lists) is Petersburg's; on top of it RSK has PUSH0 (EIP-3855),
 * transient storage (EIP-1153), the EIP-3860 initcode limit and word cost, and 16 gas per
 * non-zero calldata byte (RSKIP400). CHAINID, SELFBALANCE, BASEFEE and MCOPY cannot be enabled
 * below Istanbul/London/Shanghai in @ethereumjs/common, so they are custom opcodes (opcodes.ts).
 */
import { Mainnet, createCustomCommon, type Common } from '@ethereumjs/common';
import { ecrecover } from './crypto.js';

export function createRskCommon(chainId: number, name: string): Common {
  return createCustomCommon({ chainId, name }, Mainnet, {
    hardfork: 'petersburg',
    eips: [3855, 1153, 3860],
    params: { 2028: { txDataNonZeroGas: 16 } },
    customCrypto: { ecrecover },
  });
}
