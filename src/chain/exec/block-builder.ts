/**
 * Builds the next block on top of a parent: executes transactions, closes the block with the
 * REMASC transaction, and computes roots, bloom and paidFees. Sealing (merged-mining proof and
 * hash) is separate (seal.ts) so that the pending block can be built without it.
 */
import { Account, Address, type DB, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { Bloom, type VM } from '@ethereumjs/vm';
import { runTxAs } from './impersonated-run.js';
import type { RskBlock } from '../records/block.js';
import { ZERO_ADDRESS } from '../base/addresses.js';
import { ChainError } from '../base/errors.js';
import type { BlockContext, ExecutionContext } from './context.js';
import type { RskHeader } from '../records/header.js';
import type { PoolTx } from '../pool/mempool.js';
import { processMinersFees } from '../native/remasc/index.js';
import { orderedTrieRoot } from '../state/ordered-trie.js';
import { type ReceiptRecord, encodeRskReceipt } from '../records/receipt.js';
import { type TxRecord, remascTransaction } from '../records/transaction.js';
import { type ConsoleCalls, NO_CALLS, takeConsoleCalls } from '../console/observer.js';
import type { ChangeTrackingStateManager, StateChanges } from '../state/tracking-state-manager.js';

export interface BlockTemplate {
  coinbase: Uint8Array;
  extraData: Uint8Array;
  timestamp: bigint;
  gasLimit: bigint;
  minimumGasPrice: bigint;
  difficulty: bigint;
}

export interface BuiltBlock {
  /** Header without merged-mining fields. */
  header: RskHeader;
  transactions: TxRecord[];
  receipts: ReceiptRecord[];
  /** Pool entries that went into the block. */
  included: PoolTx[];
  /** Pool entries that can never be mined on this parent (priced too low, cannot pay...): drop them. */
  invalid: Array<{ entry: PoolTx; reason: string }>;
  /** What the block wrote, from the parent's state to `header.stateRoot` (new account values included). */
  changes: StateChanges;
  /** Each transaction's console.log calls, by its index in `transactions` (console/observer.ts). */
  consoleCalls: ConsoleCalls[];
}

/** A built block as the producer keeps it pending: eth_getBlockByNumber("pending") and merged-mining work. */
export interface PendingView extends BuiltBlock {
  /** Overlay holding the pending block's state. */
  db: DB<string, Uint8Array>;
  /** The state the pending block was built on (the head's, when it was built). */
  parentStateRoot: Uint8Array;
  hashForMergedMining: Uint8Array;
  size: number;
  totalDifficulty: bigint;
}

const EMPTY = new Uint8Array(0);
const BLOOM_BYTES = 256;
const ZERO = new Address(ZERO_ADDRESS);

/** A VM whose state manager is positioned at the parent block's state root. */
export interface Executor {
  vm: VM;
  stateManager: ChangeTrackingStateManager;
}

export async function buildBlock(
  execution: ExecutionContext,
  { vm, stateManager }: Executor,
  parent: RskBlock,
  template: BlockTemplate,
  candidates: PoolTx[],
): Promise<BuiltBlock> {
  const number = parent.header.number + 1n;
  // From the parent's state on: whatever the state manager recorded before is not this block's.
  stateManager.forgetChanges();
  const context: BlockContext = {
    number,
    timestamp: template.timestamp,
    difficulty: template.difficulty,
    gasLimit: template.gasLimit,
    minimumGasPrice: template.minimumGasPrice,
    miner: template.coinbase,
    gasUsed: 0n,
    localCall: false,
  };

  const transactions: TxRecord[] = [];
  const receipts: ReceiptRecord[] = [];
  const included: PoolTx[] = [];
  const invalid: Array<{ entry: PoolTx; reason: string }> = [];
  const consoleCalls: ConsoleCalls[] = [];
  takeConsoleCalls(vm.evm);
  /** Senders with a transaction left for a later block: their higher nonces must wait too. */
  const deferred = new Set<string>();
  const logsBloom = new Uint8Array(BLOOM_BYTES);
  let paidFees = 0n;

  // One state checkpoint around the whole block. ethereumjs writes its caches to the trie when its
  // last open checkpoint closes: without this one, every transaction would rewrite the trie paths
  // of what the block's transactions share (a contract's storage root, REMASC's account) once more.
  // runTx still clears what is per transaction (original storage values, warm sets, touched accounts).
  await stateManager.checkpoint();
  for (const candidate of candidates) {
    if (deferred.has(candidate.sender)) continue;
    // rskj's block builder skips (and evicts) transactions priced below the new block's minimum.
    if (candidate.record.gasPrice < template.minimumGasPrice) {
      invalid.push({ entry: candidate, reason: `gas price ${candidate.record.gasPrice} is below the block's minimum gas price ${template.minimumGasPrice}` });
      deferred.add(candidate.sender);
      continue;
    }
    if (context.gasUsed + candidate.record.gasLimit > template.gasLimit) {
      deferred.add(candidate.sender);
      continue;
    }
    let result;
    const depth = checkpointDepth(stateManager);
    try {
      result = await runTxAs(
        vm,
        { tx: candidate.tx, block: execution.contextBlock(context), blockGasUsed: context.gasUsed, skipHardForkValidation: true },
        new Address(candidate.record.from),
      );
    } catch (err) {
      takeConsoleCalls(vm.evm);
      // A refusal before execution (the sender cannot pay, has code, wrong nonce) leaves the state
      // balanced: the transaction cannot be mined here. An error thrown from inside execution leaves
      // the EVM's checkpoints open, so nothing built on this state may be committed.
      if (checkpointDepth(stateManager) !== depth) throw new BlockAborted(number, err);
      invalid.push({ entry: candidate, reason: executionRefusal(err) });
      deferred.add(candidate.sender);
      continue;
    }
    context.gasUsed += result.totalGasSpent;
    paidFees += result.amountSpent;
    const bloom = result.bloom.bitvector;
    for (let i = 0; i < BLOOM_BYTES; i++) logsBloom[i]! |= bloom[i]!;
    receipts.push({
      success: result.execResult.exceptionError === undefined,
      cumulativeGasUsed: context.gasUsed,
      gasUsed: result.totalGasSpent,
      logsBloom: bloom,
      logs: (result.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
      contractAddress: result.createdAddress?.bytes,
      vmError: result.execResult.exceptionError?.error,
      revertData: result.execResult.exceptionError?.error === 'revert' ? result.execResult.returnValue : undefined,
    });
    transactions.push(candidate.record);
    consoleCalls.push(takeConsoleCalls(vm.evm));
    included.push(candidate);
  }

  // REMASC closes the block; like rskj it advances the zero sender's nonce (nonce = number - 1)
  // and runs REMASC's processMinersFees (native/remasc/): fees of block number - maturity join
  // the reward balance, and the matured share is paid out. Its payments log to its receipt.
  const remasc = remascTransaction(number);
  const zeroAccount = (await stateManager.getAccount(ZERO)) ?? new Account();
  zeroAccount.nonce += 1n;
  await stateManager.putAccount(ZERO, zeroAccount);
  const remascLogs = await processMinersFees(stateManager, {
    number,
    minimumGasPrice: template.minimumGasPrice,
    blockAt: execution.blocks,
    firstBlock: execution.firstLocalBlock,
  });
  // With the Common, the bloom hashes with its Keccak (WebAssembly), not @noble/hashes' (~20 µs a block).
  const remascBloom = new Bloom(undefined, execution.common);
  for (const [address, topics] of remascLogs) {
    remascBloom.add(address);
    for (const topic of topics) remascBloom.add(topic);
  }
  for (let i = 0; i < BLOOM_BYTES; i++) logsBloom[i]! |= remascBloom.bitvector[i]!;
  transactions.push(remasc);
  consoleCalls.push(NO_CALLS);
  receipts.push({
    success: true,
    cumulativeGasUsed: context.gasUsed,
    gasUsed: 0n,
    logsBloom: remascBloom.bitvector,
    logs: remascLogs.map(([address, topics, data]) => ({ address, topics, data })),
    contractAddress: undefined,
  });

  await stateManager.commit();
  const stateRoot = await stateManager.getStateRoot();
  const changes = await stateManager.takeChanges();
  const header: RskHeader = {
    parentHash: parent.hash,
    unclesHash: KECCAK256_RLP_ARRAY,
    coinbase: template.coinbase,
    stateRoot,
    txTrieRoot: orderedTrieRoot(transactions.map((tx) => tx.raw)),
    receiptTrieRoot: orderedTrieRoot(receipts.map(encodeRskReceipt)),
    logsBloom,
    difficulty: template.difficulty,
    number,
    gasLimit: template.gasLimit,
    gasUsed: context.gasUsed,
    timestamp: template.timestamp,
    extraData: template.extraData,
    paidFees,
    minimumGasPrice: template.minimumGasPrice,
    uncleCount: 0,
    ummRoot: EMPTY,
    bitcoinMergedMiningHeader: EMPTY,
    bitcoinMergedMiningMerkleProof: EMPTY,
    bitcoinMergedMiningCoinbaseTransaction: EMPTY,
  };
  return { header, transactions, receipts, included, invalid, changes, consoleCalls };
}

/**
 * How many state checkpoints are open. ethereumjs exposes no accessor; the counter is the one its
 * own commit/revert keep balanced, so a change across a failed runTx means execution broke off.
 */
function checkpointDepth(stateManager: ChangeTrackingStateManager): number {
  return (stateManager as unknown as { _checkpointCount: number })._checkpointCount;
}

/** Execution failed inside the EVM: the block is not built, and the chain stays as it was. */
export class BlockAborted extends ChainError {
  constructor(number: bigint, cause: unknown) {
    super('blockAborted', `block ${number} was not mined, the chain is unchanged: execution failed: ${executionRefusal(cause)}`);
  }
}

/** ethereumjs appends its debug context to messages; keep the human part. */
function executionRefusal(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split(' (tx type=')[0]!.split(' -> block number=')[0]!;
}
