/**
 * The node's federation wired to the chain (federation/): its triggers (Bitcoin blocks mined
 * through the network's BtcSide, RSK blocks through the chain's 'block' event), the context its
 * duties act through (the intake and the producer directly) and the queue of its runs, which the
 * facade's sends and evm_mine wait for.
 */
import { createAddressFromString, Address as EthAddress } from '@ethereumjs/util';
import { BtcSide } from './btc.js';
import { federationTxGas, hasBridgeLog, nodeFederation, type FederationOptions } from './federation/node-federation.js';
import type { TxIntake } from './intake.js';
import { FEDERATORS } from './keys/federators.js';
import { BridgeStorage } from './native/bridge/storage.js';
import { BRIDGE_ADDRESS } from './base/addresses.js';
import type { ChainParts } from './parts.js';
import type { BlockProducer } from './producer.js';

export class FederationRuns {
  /** The network's Bitcoin regtest chain and its dev methods (btc.ts); its mined blocks trigger the peg-in duty. */
  readonly btc: BtcSide;
  /**
   * The federation's runs after RSK blocks, one after another (pegout-duty.ts). A send or an
   * evm_mine answers once the runs its blocks started are done, so a peg-out is complete when the
   * request's send returns; the duty's own transactions and blocks go to the intake and producer
   * directly, never waiting for themselves.
   */
  private runs: Promise<void> = Promise.resolve();

  constructor(parts: ChainParts, intake: TxIntake, producer: BlockProducer, options: FederationOptions, onError: (err: unknown) => void) {
    const federation = nodeFederation(
      options,
      {
        btc: parts.btc,
        bridgeAtHead: () => new BridgeStorage(parts.execution.stateManager(parts.store.stateDb, parts.head.block.header.stateRoot)),
        sendToBridge: (data, federator = FEDERATORS[0]!) =>
          intake.sendTransaction({ from: createAddressFromString(federator.address), to: BRIDGE, data, gas: federationTxGas(data) }, federator),
        headNumber: () => parts.head.block.header.number,
        automine: () => intake.automine,
        mineRsk: async () => void (await producer.mine()),
        submitBtc: async (raw) => void (await this.btc.sendRawTransaction(raw)),
        // A run's own Bitcoin blocks (BtcSide.mineForDuty) do not wait for the runs (itself among them).
        // Told apart by the path, not by an AsyncLocalStorage: its promise hooks, once on, tax every
        // promise in the process (~5% of a sequential transfer's main-thread CPU, issue 25).
        mineBtc: (count) => this.btc.mineForDuty(count),
      },
      onError,
    );
    this.btc = new BtcSide(parts, async (blocks, byDuty) => {
      await federation.run({ kind: 'btcBlocks', blocks });
      // btc_mine: wait for what the peg-in's registration set off too (a refund), unless a run mines.
      if (!byDuty) await this.runs;
    });
    // After each RSK block, outside the lock that mined it (the duty's transactions take it again).
    parts.events.on('block', (_block, { receipts }) => {
      const bridgeLogs = hasBridgeLog(receipts);
      this.runs = this.runs.then(() => federation.run({ kind: 'rskBlock', bridgeLogs }));
    });
  }

  /** Resolves once the runs started so far are done (a send's or an evm_mine's blocks among them). */
  settled(): Promise<void> {
    return this.runs;
  }
}

const BRIDGE = new EthAddress(BRIDGE_ADDRESS);
