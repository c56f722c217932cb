/**
 * The ethereumjs Common for an RSK chain. RSK's gas schedule (SLOAD 200, BALANCE 400, classic
 * SSTORE, no warm/cold access lists) is Petersburg's; on top of it RSK has PUSH0 (EIP-3855),
 * transient storage (EIP-1153), and the EIP-3860 initcode limit and word cost. CHAINID,
 * SELFBALANCE, BASEFEE and MCOPY cannot be enabled below Istanbul/London/Shanghai in
 * @ethereumjs/common, so they are custom opcodes (opcodes.ts); RSK's call-gas rules and
 * precompiles are in evm/.
 *
 * RSK's own values go into the chain's Petersburg entry (`customHardforks`, which @ethereumjs/common
 * reads in place of its built-in fork table), since `eips` refuses EIP-3541 below Berlin:
 * - EIP-3541, code starting with 0xEF refused at creation (RSKIP544; rskj Program.java
 *   `hasInvalidCodePrefix` and TransactionExecutor.java). In @ethereumjs/evm 10 the EIP has no
 *   parameters and only switches that check (evm.ts `_executeCreate`).
 * - `stackLimit` 400: the maximum call depth (RSKIP150; rskj Program.getMaxDepth). The operand
 *   stack keeps its own 1,024.
 * - bn128 prices as EIP-1108 (RSKIP137; rskj BN128Addition/Multiplication/Pairing.java) and
 *   blake2f's 1 gas per round (RSKIP153; rskj Blake2F.getGasForData), read by the precompiles.
 */
import { Mainnet, type ParamsDict, createCustomCommon, type Common } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';
import { ecrecover } from '../base/secp256k1.js';
import { keccak256 } from '../base/hash.js';

/** rskj Program.getMaxDepth() since RSKIP150. */
export const RSK_MAX_CALL_DEPTH = 400;

export function createRskCommon(chainId: number, name: string): Common {
  return withFixedHardforks(createCustomCommon(
    {
      chainId,
      name,
      customHardforks: {
        petersburg: {
          // 1716 is Petersburg's own meta-EIP (@ethereumjs/common hardforks.ts).
          eips: [1716, 3541],
          params: {
            stackLimit: RSK_MAX_CALL_DEPTH,
            bn254AddGas: 150,
            bn254MulGas: 6000,
            bn254PairingGas: 45000,
            bn254PairingWordGas: 34000,
            blake2RoundGas: 1,
          },
        },
      },
    },
    Mainnet,
    {
      hardfork: 'petersburg',
      eips: [3855, 1153, 3860],
      customCrypto: { ecrecover, keccak256 },
    },
  ));
}

/**
 * With `customHardforks` set, @ethereumjs/common's `hardforks()` builds its list anew at every call
 * (a Set of the names, a filtered and a spread array), and `gteHardfork` calls it: the EVM, runTx,
 * the transaction constructor and the receipt ask it dozens of times per transaction (~13 KiB of
 * Sets alone per sequential transfer, issue 25). A Common's chain parameters are copied once in its
 * constructor and never change, so the list is built once and the comparison looks positions up.
 * Both are own properties, so `copy()` (Object.assign) carries them; `this` keeps each copy's own
 * hardfork. Positions as ethereumjs's loop finds them: a name's last entry.
 */
function withFixedHardforks(common: Common): Common {
  const hardforks = common.hardforks();
  const position = new Map(hardforks.map((hf, i) => [hf.name, i]));
  common.hardforks = () => hardforks;
  common.hardforkGteHardfork = function (this: Common, hardfork1: string | null, hardfork2: string): boolean {
    const first = position.get(hardfork1 ?? this.hardfork()) ?? -1;
    const second = position.get(hardfork2) ?? -1;
    return first >= second && second !== -1;
  };
  return common;
}

/**
 * Transaction parameters: 16 gas per non-zero calldata byte (RSKIP400) instead of Petersburg's 68.
 * ethereumjs applies them to each transaction's Common, so they must be passed at creation
 * (rskTxOptions does).
 */
export const RSK_TX_PARAMS: ParamsDict = {
  ...paramsTx,
  1: { ...paramsTx[1], txDataNonZeroGas: 16 },
};

const sharedTxCommons = new WeakMap<Common, Common>();

/**
 * Options for creating a transaction of a chain. An ethereumjs transaction copies the Common it is
 * given and merges its params into the copy twice, each time through JSON deep copies: about a
 * third of a millisecond per transaction. All transactions of a chain share instead one Common
 * with RSK_TX_PARAMS applied once, which is its own copy and ignores a re-application of the same
 * params. Nothing changes a transaction's Common afterwards: the hardfork is fixed (Petersburg),
 * so runTx's "align the transaction's hardfork with the block's" never fires.
 */
export function rskTxOptions(common: Common): { common: Common; params: ParamsDict } {
  let shared = sharedTxCommons.get(common);
  if (shared === undefined) {
    const txCommon = common.copy();
    txCommon.updateParams(RSK_TX_PARAMS);
    const updateParams = txCommon.updateParams.bind(txCommon);
    txCommon.copy = () => txCommon;
    txCommon.updateParams = (params) => {
      if (params !== RSK_TX_PARAMS) updateParams(params);
    };
    sharedTxCommons.set(common, txCommon);
    shared = txCommon;
  }
  return { common: shared, params: RSK_TX_PARAMS };
}
