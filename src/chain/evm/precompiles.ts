/**
 * RSK's precompiled contracts 0x01-0x09 (rskj PrecompiledContracts.java). 0x01-0x05 are
 * ethereumjs's Petersburg ones unchanged (ecrecover, sha256, ripemd160, identity, and modexp with
 * EIP-198 pricing, as rskj's BigIntegerModexp). RSK differs at 0x06-0x09:
 *
 * - bn128 add/mul/pairing (RSKIP137) are priced as EIP-1108 (150, 6,000, 45,000 + 34,000 per
 *   pair; rskj BN128Addition/Multiplication/Pairing.java), not Byzantium's; the prices are
 *   Common parameters (rsk-common.ts).
 * - blake2f (RSKIP153) at 0x09, which Petersburg lacks: ethereumjs's own EIP-152 implementation,
 *   taken from an Istanbul Common; 1 gas per round (rskj Blake2F.getGasForData). Nothing at 0x0a.
 * - A precompile that fails (bad input, not lack of gas) makes the call return 0 and costs only its
 *   price (RSKIP197: rskj Program.executePrecompiledAndHandleError refunds `gas - requiredGas`),
 *   where Ethereum burns all the gas given to it. Only 0x06-0x09 can fail that way in
 *   ethereumjs, so only they are wrapped. A malformed blake2f input (not 213 bytes) is priced 0.
 */
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { EVMError, getActivePrecompiles } from '@ethereumjs/evm';
import { createAddressFromString } from '@ethereumjs/util';
import type { CustomPrecompile, GasCommon, PrecompileFunc } from './types.js';

/** The pair size of the bn128 pairing input (rskj AbstractAltBN128.PAIR_SIZE). */
const PAIR_SIZE = 192;
/** The blake2f input length (rskj Blake2F.BLAKE2F_INPUT_LEN, EIP-152). */
const BLAKE2F_INPUT_LENGTH = 213;
const EMPTY = new Uint8Array(0);

const address = (last: string) => createAddressFromString(`0x${'0'.repeat(38)}${last}`);
const key = (last: string) => `${'0'.repeat(38)}${last}`;

type Price = (data: Uint8Array) => bigint;

/**
 * `inner` with rskj's handling around it: more than the gas given → out of gas, all of it used
 * (rskj: "requiredGas > msg.getGas()" refunds nothing); a failure otherwise → the call fails having
 * used only `price(data)`. A REVERT from the EVM's precompile (its bn254 code maps unknown errors to
 * REVERT) must not look like a Solidity revert, so failures carry the error below.
 */
function rskPrecompile(inner: PrecompileFunc, price: Price): PrecompileFunc {
  return async (input) => {
    const required = price(input.data);
    if (required > input.gasLimit) {
      return { returnValue: EMPTY, executionGasUsed: input.gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
    }
    const result = await inner(input);
    if (result.exceptionError === undefined) return result;
    return { returnValue: EMPTY, executionGasUsed: required, exceptionError: new EVMError(EVMError.errorMessages.INVALID_INPUT_LENGTH) };
  };
}

/** The `customPrecompiles` for `createEVM`: RSK's 0x06-0x09 over ethereumjs's implementations. */
export function rskPrecompiles(common: GasCommon): CustomPrecompile[] {
  const own = getActivePrecompiles(common as Parameters<typeof getActivePrecompiles>[0]);
  const istanbul = getActivePrecompiles(createCustomCommon({ chainId: 1 }, Mainnet, { hardfork: 'istanbul' }));
  const take = (map: Map<string, PrecompileFunc | undefined>, last: string): PrecompileFunc => {
    const found = map.get(key(last));
    if (found === undefined) throw new Error(`rskPrecompiles: the EVM has no precompile 0x${last}`);
    return found;
  };

  const addGas = common.param('bn254AddGas');
  const mulGas = common.param('bn254MulGas');
  const pairingGas = common.param('bn254PairingGas');
  const pairingWordGas = common.param('bn254PairingWordGas');
  const roundGas = common.param('blake2RoundGas');

  const blake2fPrice: Price = (data) => {
    if (data.length !== BLAKE2F_INPUT_LENGTH) return 0n;
    return BigInt(new DataView(data.buffer, data.byteOffset, 4).getUint32(0)) * roundGas;
  };

  return [
    { address: address('06'), function: rskPrecompile(take(own, '06'), () => addGas) },
    { address: address('07'), function: rskPrecompile(take(own, '07'), () => mulGas) },
    {
      address: address('08'),
      function: rskPrecompile(take(own, '08'), (data) => pairingGas + BigInt(Math.floor(data.length / PAIR_SIZE)) * pairingWordGas),
    },
    { address: address('09'), function: rskPrecompile(take(istanbul, '09'), blake2fPrice) },
  ];
}
