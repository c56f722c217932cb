/**
 * The node's federation as the chain starts it: the duties the options ask for (the peg-in's and
 * the peg-out's, each with its own off switch) in one runner, and what the chain needs to feed
 * it (whether a block touched the Bridge; the gas of a federator's transaction).
 */
import { equalsBytes } from '@ethereumjs/util';
import { BRIDGE_ADDRESS } from '../base/addresses.js';
import type { ReceiptRecord } from '../records/receipt.js';
import { PEGIN_DUTY } from './pegin-duty.js';
import { pegoutDuty } from './pegout-duty.js';
import { FederationDutyRunner, type FederationDutyContext } from './runner.js';

export interface FederationOptions {
  /** false (`--no-auto-pegin`): registerBtcTransaction is left to the caller. */
  autoPegin?: boolean;
  /** false (`--no-auto-pegout`): the caller drives peg-outs with the federators' keys. */
  autoPegout?: boolean;
}

/** The runner of the duties `options` leave on; a duty's failure goes to `onError`, never to its trigger. */
export function nodeFederation(options: FederationOptions, context: FederationDutyContext, onError: (err: Error) => void): FederationDutyRunner {
  const duties = [...(options.autoPegin === false ? [] : [PEGIN_DUTY]), ...(options.autoPegout === false ? [] : [pegoutDuty()])];
  return new FederationDutyRunner(duties, context, (duty, err) =>
    onError(new Error(`federation duty "${duty}" failed: ${(err as Error).message}`, { cause: err })),
  );
}

/** Whether a block's receipts hold a log of the Bridge (the peg-out duty looks at such blocks). */
export function hasBridgeLog(receipts: readonly ReceiptRecord[]): boolean {
  return receipts.some((r) => r.logs.some((l) => equalsBytes(l.address, BRIDGE_ADDRESS)));
}

/**
 * The gas limit of a federation transaction to the Bridge: 100,000 covers the intrinsic 21,000
 * and the largest fixed method cost (22,000), and 20 per byte covers calldata (16) plus the
 * Bridge's data cost (2). The federator pays only what is used.
 */
export function federationTxGas(data: Uint8Array): bigint {
  return 100_000n + 20n * BigInt(data.length);
}
