/**
 * The node's own PowPeg: what rskj's federators (powpeg-node) do for the Bridge, done by the node
 * with the regtest federation's keys (keys/federators.ts) as ordinary signed RSK transactions to
 * the Bridge, mined like any other. Each job is a FederationDuty; the runner calls every duty
 * after each trigger, in order, and reports a duty's failure without failing what triggered it
 * (btc_mine still answers its blocks, as bitcoind would whatever the federators do).
 *
 * Triggers: 'btcBlocks' after Bitcoin blocks are mined (the peg-in duty, pegin-duty.ts, registers
 * what reached its confirmations); 'rskBlock' after each RSK block (the peg-out duty,
 * pegout-duty.ts: updateCollections, addSignature, the release on the Bitcoin chain).
 */
import type { BtcBlock } from '../btc-chain/block.js';
import type { BtcChain } from '../btc-chain/btc-chain.js';
import type { BridgeStorage } from '../native/bridge/storage.js';
import type { NodeAccount } from '../keys/accounts.js';

export type FederationTrigger =
  | { kind: 'btcBlocks'; blocks: readonly BtcBlock[] }
  /** An RSK block was mined; `bridgeLogs`: it holds a log of the Bridge (pegout-duty.ts looks then). */
  | { kind: 'rskBlock'; bridgeLogs: boolean };

export interface FederationDutyContext {
  /** The network's Bitcoin chain (read it; the duty runs outside the chain's lock). */
  readonly btc: BtcChain;
  /** The Bridge's storage in the state of the chain's head (read only: writes are not kept). */
  bridgeAtHead(): BridgeStorage;
  /**
   * Sends `data` to the Bridge from `federator` (default federator 1) as a signed transaction and,
   * with automine, waits until it is mined. Resolves to the transaction's hash.
   */
  sendToBridge(data: Uint8Array, federator?: NodeAccount): Promise<Uint8Array>;
  /** The number of the chain's head block. */
  headNumber(): bigint;
  /** Whether each transaction is mined as it arrives. */
  automine(): boolean;
  /** Mines one RSK block (empty unless the pool holds transactions). */
  mineRsk(): Promise<void>;
  /** Submits a raw Bitcoin transaction for the next Bitcoin block (btc_sendRawTransaction's checks). */
  submitBtc(raw: Uint8Array): Promise<void>;
  /** Mines `count` Bitcoin blocks, then runs the duties that follow them (as btc_mine does). */
  mineBtc(count: number): Promise<void>;
}

export interface FederationDuty {
  readonly name: string;
  run(context: FederationDutyContext, trigger: FederationTrigger): Promise<void>;
}

export class FederationDutyRunner {
  constructor(
    private readonly duties: readonly FederationDuty[],
    private readonly context: FederationDutyContext,
    private readonly onError: (duty: string, err: unknown) => void,
  ) {}

  async run(trigger: FederationTrigger): Promise<void> {
    for (const duty of this.duties) {
      try {
        await duty.run(this.context, trigger);
      } catch (err) {
        this.onError(duty.name, err);
      }
    }
  }
}
