/**
 * rskj's REMASC configuration for regtest (paths relative to rskj-core/src/main/, read at
 * rsksmart/rskj). Regtest activates every network upgrade from block 0
 * (resources/config/regtest.conf), so RSKIP85 (minimum payable fees), RSKIP218 (RSK Labs address)
 * and RSKIP415 (federators paid at their RSK key's address) are active.
 */
import { hexToBytes, publicToAddress } from '@ethereumjs/util';
import { GENESIS_FEDERATION, federatorPublicKey } from '../bridge/federation.js';

/** resources/remasc.json "regtest". */
export const REMASC_CONFIG = {
  maturity: 10n,
  syntheticSpan: 5n,
  rskLabsDivisor: 5n,
  punishmentDivisor: 10n,
  federationDivisor: 100n,
  /** rskLabsAddress and rskLabsAddressRskip218 (the same on regtest). */
  rskLabsAddress: hexToBytes('0xdabadabadabadabadabadabadabadabadaba0001'),
} as const;

/** java/org/ethereum/config/Constants.java getMinimumPayableGas (RSKIP85). */
export const MINIMUM_PAYABLE_GAS = 200_000n;
/** java/org/ethereum/config/Constants.java getFederatorMinimumPayableGas (RSKIP85). */
export const FEDERATOR_MINIMUM_PAYABLE_GAS = 50_000n;

/**
 * java/co/rsk/remasc/RemascFederationProvider.java getFederatorAddress (RSKIP415 active): the
 * address of each active federator's RSK public key, in federation member order. No federation
 * change is ever voted here, so the active federation is always the regtest genesis one.
 */
export const FEDERATOR_ADDRESSES: readonly Uint8Array[] = GENESIS_FEDERATION.members.map((_, k) =>
  publicToAddress(federatorPublicKey(GENESIS_FEDERATION, BigInt(k), 'rsk')!, true),
);

const ascii = new TextEncoder();
/** java/org/ethereum/vm/DataWord.java fromString: the UTF-8 bytes, right-aligned in 32 bytes. */
export function dataWordFromString(value: string): Uint8Array {
  const bytes = ascii.encode(value);
  if (bytes.length > 32) throw new Error(`DataWord.fromString: "${value}" is longer than 32 bytes`);
  const word = new Uint8Array(32);
  word.set(bytes, 32 - bytes.length);
  return word;
}

/** java/co/rsk/remasc/RemascStorageProvider.java: the contract's storage keys. */
export const STORAGE_KEYS = {
  rewardBalance: dataWordFromString('rewardBalance'),
  burnedBalance: dataWordFromString('burnedBalance'),
  siblings: dataWordFromString('siblings'),
  brokenSelectionRule: dataWordFromString('brokenSelectionRule'),
  federationBalance: dataWordFromString('federationBalance'),
} as const;

/** java/co/rsk/remasc/RemascContract.java MINING_FEE_TOPIC. */
export const MINING_FEE_TOPIC = dataWordFromString('mining_fee_topic');
