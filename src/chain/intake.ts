/**
 * Transaction intake: eth_sendRawTransaction and eth_sendTransaction (signing with the node's keys
 * or as an impersonated account), pool admission, and the automine wait that answers once the
 * transaction is mined (-32009 when it was dropped instead).
 */
import { type LegacyTx, createLegacyTx } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { NodeAccount } from './keys/accounts.js';
import { AutomineBatch, type AutomineOutcome } from './mining/automine.js';
import type { BlockProducer } from './producer.js';
import type { CallParams } from './exec/call.js';
import type { ChainParts } from './parts.js';
import { rskTxOptions } from './evm/rsk-common.js';
import { ChainError, SentTransactionFailed } from './base/errors.js';
import { impersonatedTransaction } from './pool/impersonation.js';
import type { PoolTx } from './pool/mempool.js';
import { SEND_TRANSACTION_DEFAULT_GAS, checkSendFields } from './pool/send-fields.js';
import { txRecordFromLegacyTx } from './records/transaction.js';
import { decodeRawTransaction, firstLine } from './pool/decode.js';
import { validatePoolTransaction } from './pool/validation.js';
import { type NodeWallet, lockedHint } from './keys/wallet.js';

export class TxIntake {
  /** Whether a pooled transaction is mined at once (evm_setAutomine). */
  automine = true;
  /** anvil_autoImpersonateAccount: eth_sendTransaction sends as any address the node holds no key for. */
  autoImpersonate = false;
  private readonly impersonated = new Set<string>();
  private readonly batch: AutomineBatch;

  /**
   * `batching`: automine puts transactions in flight together into shared blocks (automine.ts).
   * `failOnSend`: a send whose automined transaction fails answers with SentTransactionFailed (Hardhat).
   */
  constructor(
    private readonly parts: ChainParts,
    private readonly producer: BlockProducer,
    private readonly wallet: NodeWallet,
    private readonly batching: boolean,
    private readonly failOnSend: boolean,
  ) {
    this.batch = new AutomineBatch((task) => parts.lock.run(task), (admitted) => this.mineAdmitted(admitted));
  }

  /** Validates and pools a signed transaction, then (automine) mines it. Returns its hash. */
  async sendRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    const tx = decodeRawTransaction(raw, this.parts.common, this.parts.network);
    await this.submit(() => this.admitLocked(tx, raw));
    return tx.hash();
  }

  /** Signs with one of the node's keys and submits (eth_sendTransaction). */
  async sendTransaction(request: CallParams & { from: Address; nonce?: bigint }, signer?: NodeAccount): Promise<Uint8Array> {
    const { common } = this.parts;
    const impersonated = signer === undefined && this.isImpersonated(request.from);
    const key = signer ?? (impersonated ? undefined : this.keyFor(request.from));
    // The nonce is chosen under the lock, so concurrent sends from one account get consecutive nonces.
    const entry = await this.submit(async () => {
      const fields = {
        nonce: request.nonce ?? (await this.pendingNonce(request.from)),
        // The next block's minimum, which may be above the latest block's while it rises to a target.
        gasPrice: request.gasPrice ?? this.producer.nextMinimumGasPrice(),
        gasLimit: request.gas ?? SEND_TRANSACTION_DEFAULT_GAS,
        to: request.to,
        value: request.value ?? 0n,
        data: request.data ?? new Uint8Array(0),
      };
      checkSendFields(fields, this.admissionGasLimit());
      let tx: LegacyTx;
      try {
        tx = key === undefined ? impersonatedTransaction(fields, request.from, common) : createLegacyTx(fields, rskTxOptions(common)).sign(key.privateKey);
      } catch (err) {
        throw new ChainError('invalidArgument', `Invalid transaction: ${firstLine((err as Error).message)}`);
      }
      return this.admitLocked(tx, tx.serialize());
    });
    return entry.record.hash;
  }

  /** The state nonce plus the sender's run of pooled transactions. */
  async pendingNonce(address: Address): Promise<bigint> {
    const { head, pool } = this.parts;
    let nonce = (await head.stateReader(head.stateRoot).getAccount(address))?.nonce ?? 0n;
    const pooled = new Set<bigint>();
    for (const entry of pool.forSender(address.toString())) pooled.add(entry.record.nonce);
    while (pooled.has(nonce)) nonce++;
    return nonce;
  }

  keyFor(address: Address): NodeAccount {
    const wanted = address.toString();
    const privateKey = this.wallet.signingKey(wanted);
    if (privateKey === undefined) throw new ChainError('unknownAccount', `Could not find account for address: ${wanted}${lockedHint(this.wallet, wanted)}`);
    return { address: wanted, privateKey };
  }

  /** Lets eth_sendTransaction send as `address` without its key (hardhat_/anvil_impersonateAccount). */
  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  stopImpersonating(address: Address): void {
    this.impersonated.delete(address.toString());
  }

  /** Impersonated by name, or by anvil_autoImpersonateAccount when the node holds no key for it. */
  isImpersonated(address: Address): boolean {
    const account = address.toString();
    return this.impersonated.has(account) || (this.autoImpersonate && this.wallet.signingKey(account) === undefined);
  }

  /**
   * rskj checks a transaction's gas limit against the best block's. After evm_setBlockGasLimit
   * lowered the limit, the next blocks' is smaller, and a transaction they cannot hold is refused
   * too (without it, rskj's rule stands: a transaction above the next block's limit while the
   * limit steps down is admitted and answered -32009 by automine).
   */
  private admissionGasLimit(): bigint {
    const latest = this.parts.head.block.header.gasLimit;
    const set = this.producer.setGasLimit;
    return set !== undefined && set < latest ? set : latest;
  }

  /** Validates and pools a transaction; the caller holds the lock. */
  private async admitLocked(tx: LegacyTx, raw: Uint8Array): Promise<PoolTx> {
    const { head, pool, events } = this.parts;
    const sender = tx.getSenderAddress();
    const account = await head.stateReader(head.stateRoot).getAccount(sender);
    validatePoolTransaction(tx, raw, sender.toString(), pool, {
      blockGasLimit: this.admissionGasLimit(),
      minimumGasPrice: head.block.header.minimumGasPrice,
      account: account && { nonce: account.nonce, balance: account.balance },
    });
    const entry = pool.add(tx, txRecordFromLegacyTx(tx, raw, sender));
    head.changed();
    events.emit('pendingTransaction', entry.record);
    return entry;
  }

  /**
   * Admits a transaction under the lock and, with automine, waits until it is mined; fails if it was
   * dropped instead. Batching automine mines it with the others in flight (automine.ts); without
   * batching (the Hardhat profile) it is admitted and mined in one turn of the lock, a block each.
   */
  private async submit(admit: () => Promise<PoolTx>): Promise<PoolTx> {
    const { lock } = this.parts;
    if (!this.batching) {
      return lock.run(async () => {
        const entry = await admit();
        if (this.awaitsAutomine(entry)) this.checkOutcome(entry, (await this.mineAdmitted(new Set([entry]))).get(entry));
        return entry;
      });
    }
    const entry = await lock.run(admit);
    if (this.awaitsAutomine(entry)) this.checkOutcome(entry, await this.batch.mined(entry));
    return entry;
  }

  /** A transaction behind a nonce gap waits for the gap to fill (it stays pooled, unmined). */
  private awaitsAutomine(entry: PoolTx): boolean {
    return this.automine && this.parts.pool.get(entry.record.hash) !== undefined;
  }

  /**
   * rskj's autoMine answers -32009 when the transaction was not mined; so do we, with the reason.
   * A mined transaction that failed is answered with its hash (rskj), or with the failure (failOnSend).
   */
  private checkOutcome(entry: PoolTx, outcome: AutomineOutcome | undefined): void {
    if (outcome?.dropped !== undefined) {
      throw new ChainError('notMined', `Unknown error when sending transaction: transaction wasn't mined: ${outcome.dropped}`);
    }
    if (this.failOnSend && outcome?.failed !== undefined) {
      throw new SentTransactionFailed(entry.record.hash, outcome.failed.vmError, outcome.failed.revertData ?? new Uint8Array(0));
    }
  }

  /**
   * Automine's block(s) for transactions admitted together: what can run now, and more blocks while
   * an admitted one is still runnable and the last block made progress (a full block defers some).
   */
  private async mineAdmitted(admitted: ReadonlySet<PoolTx>): Promise<Map<PoolTx, AutomineOutcome>> {
    const { head, pool } = this.parts;
    const outcomes = new Map<PoolTx, AutomineOutcome>();
    if (!this.automine) return outcomes;
    try {
      let candidates = await this.producer.poolCandidates(head.block);
      while (candidates.length > 0) {
        const { built } = await this.producer.mineLocked(undefined, candidates);
        for (const { entry, reason } of built.invalid) outcomes.set(entry, { dropped: reason });
        // included[i] ran as the block's transaction i: its receipt is receipts[i].
        built.included.forEach((entry, i) => {
          const receipt = built.receipts[i]!;
          if (!receipt.success && admitted.has(entry)) outcomes.set(entry, { failed: receipt });
        });
        if (built.included.length === 0) break;
        candidates = await this.producer.poolCandidates(head.block);
        if (!candidates.some((candidate) => admitted.has(candidate))) break;
      }
    } catch (err) {
      // The block was not built: the sends fail, so their transactions must not linger either.
      for (const entry of admitted) if (pool.get(entry.record.hash) === entry) pool.remove(entry);
      head.changed();
      throw err;
    }
    return outcomes;
  }
}
