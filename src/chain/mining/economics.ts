/** RSK's per-block economics: minimum gas price and gas limit movement, and the suggested price. */

/**
 * rskj's MinimumGasPriceCalculator: the next block's minimum moves toward the miner's target by at
 * most 1% of the parent's (at least 1 wei), and never below zero.
 */
export function nextMinimumGasPrice(parent: bigint, target: bigint): bigint {
  const delta = parent / 100n === 0n ? 1n : parent / 100n;
  if (target > parent + delta) return parent + delta;
  if (target < parent - delta) return parent - delta < 0n ? 0n : parent - delta;
  return target;
}

/** rskj's forced GasLimitCalculator: step toward the target by at most parent/1024 per block. */
export function nextGasLimit(parent: bigint, target: bigint): bigint {
  const step = parent / 1024n;
  if (target > parent + step) return parent + step;
  if (target < parent - step) return parent - step;
  return target;
}

/** rskj's eth_gasPrice: the best block's minimum gas price times rpc.gasPriceMultiplier (1.1). */
export function suggestedGasPrice(minimumGasPrice: bigint): bigint {
  return (minimumGasPrice * 11n) / 10n;
}
