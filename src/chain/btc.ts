/**
 * The Bitcoin side of a network for the btc_ dev methods: mining, submitting and faucet payments
 * run under the chain's one lock (so they never interleave with evm_revert or evm_reset); reads
 * go straight to the in-memory chain. The federation's address is the Bridge's (native/bridge).
 */
import type { BtcTxLookup, BtcChain } from './btc-chain/btc-chain.js';
import type { BtcBlock } from './btc-chain/block.js';
import { scriptOfAddress } from './btc-chain/btc-chain.js';
import type { BtcTransaction } from './btc-chain/transaction.js';
import type { Utxo } from './btc-chain/utxo-set.js';
import { GENESIS_FEDERATION } from './native/bridge/federation.js';
import type { ChainParts } from './parts.js';

export class BtcSide {
  /**
   * `afterMine`: what runs once mined blocks are stored, outside the lock (the federation's duties);
   * `byFederation`: the federation's own runs mined them (mine's third argument).
   */
  constructor(
    private readonly parts: ChainParts,
    private readonly afterMine: (blocks: readonly BtcBlock[], byFederation: boolean) => Promise<void> = async () => undefined,
  ) {}

  private get chain(): BtcChain {
    return this.parts.btc;
  }

  /**
   * Mines `count` blocks; the coinbase pays `address`, or the faucet. Resolves once the federation's
   * duties ran. `byFederation`: a federation run mines, which must not wait for the runs.
   */
  async mine(count: number, address?: string, byFederation = false): Promise<BtcBlock[]> {
    const script = address === undefined ? undefined : scriptOfAddress(address);
    const blocks = await this.parts.lock.run(() => this.chain.mine(count, script));
    await this.afterMine(blocks, byFederation);
    return blocks;
  }

  sendRawTransaction(raw: Uint8Array): Promise<BtcTransaction> {
    return this.parts.lock.run(async () => this.chain.submit(raw));
  }

  fund(address: string, amount: bigint): Promise<BtcTransaction> {
    const script = scriptOfAddress(address);
    return this.parts.lock.run(async () => this.chain.fund(script, amount));
  }

  get tip(): BtcBlock {
    return this.chain.tip;
  }

  get faucet(): { address: string; privateKey: Uint8Array; publicKey: Uint8Array } {
    return this.chain.faucet;
  }

  /** Satoshis the faucet can pay in the next block (matured coinbases, unspent change). */
  get faucetSpendable(): bigint {
    return this.chain.faucetCoins().reduce((sum, u) => sum + u.amount, 0n);
  }

  /** The Bridge's active federation (the regtest genesis federation). */
  get federationAddress(): string {
    return GENESIS_FEDERATION.address;
  }

  blockAt(height: number): BtcBlock | undefined {
    return this.chain.blockAt(height);
  }

  blockByHash(hash: Uint8Array): BtcBlock | undefined {
    return this.chain.blockByHash(hash);
  }

  transaction(txid: Uint8Array): BtcTxLookup | undefined {
    return this.chain.transaction(txid);
  }

  confirmations(block: BtcBlock): number {
    return this.chain.confirmations(block);
  }

  partialMerkleTree(txid: Uint8Array, witness: boolean) {
    return this.chain.partialMerkleTree(txid, witness);
  }

  /** The unspent outputs of an address: mined ones (those the pool spends included) and outputs of pooled transactions. */
  unspent(address: string): { mined: Utxo[]; pooled: Utxo[] } {
    return this.chain.unspent(scriptOfAddress(address));
  }
}
