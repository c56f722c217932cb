/**
 * eth_simulateV1 (execution-apis): calls run as transactions in a sequence of simulated blocks on
 * top of a block's state, each block with its own state and block overrides. The state is a real
 * state manager over a throwaway OverlayDb (as tracing's replay does), so each simulated block gets
 * a real state root, transaction root and receipt root, and nothing reaches the chain's store.
 * Calls run through runTx (impersonated senders: no signatures), so gas, refunds, fees and logs are
 * what a mined transaction would get. Simulated blocks hold no REMASC transaction (REMASC pays
 * from stored blocks' fees, which simulated blocks are not).
 */
import { Account, Address, type DB, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';
import { ZERO_ADDRESS } from '../base/addresses.js';
import { ChainError } from '../base/errors.js';
import { type Deadline, withDeadline } from '../evm/deadline.js';
import type { BlockContext, ExecutionContext } from './context.js';
import { type RskHeader, baseHashForMergedMining, blockHash } from '../records/header.js';
import { type RskBlock, blockRlpLength } from '../records/block.js';
import { type ReceiptRecord, encodeRskReceipt } from '../records/receipt.js';
import { type TxRecord, txRecordFromLegacyTx } from '../records/transaction.js';
import { OverlayDb } from '../storage/state-db.js';
import { orderedTrieRoot } from '../state/ordered-trie.js';
import { impersonatedTransaction } from '../pool/impersonation.js';
import { runTxAs } from './impersonated-run.js';
import { type BlockOverrides, type StateOverrides, applyStateOverrides } from './overrides.js';
import { TransferLogRecorder } from './transfer-logs.js';

export interface SimulatedCallRequest {
  from?: Address;
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
}

export interface SimulatedBlockRequest {
  blockOverrides?: BlockOverrides;
  stateOverrides?: StateOverrides;
  calls: SimulatedCallRequest[];
}

/** The block the simulation starts on. */
export interface SimulationBase {
  header: RskHeader;
  /** undefined for the pending block. */
  hash: Uint8Array | undefined;
  totalDifficulty: bigint;
  /** The pending block's overlay, when simulating on it. */
  db?: DB<string, Uint8Array>;
}

export interface SimulateOptions {
  /** The spec's `validation`: nonces, balances for fees and the minimum gas price are checked. */
  validation: boolean;
  /** The spec's `traceTransfers`: value transfers show in the calls' logs (transfer-logs.ts). */
  traceTransfers?: boolean;
  deadline?: Deadline;
}

export interface SimulatedLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface SimulatedCall {
  returnData: Uint8Array;
  logs: SimulatedLog[];
  gasUsed: bigint;
  /** undefined on success; 'revert' or the EVM's error text ('out of gas', ...). */
  error: string | undefined;
}

export interface SimulatedBlock {
  block: RskBlock;
  calls: SimulatedCall[];
}

/** Why a simulation was refused as a whole (the spec gives each its own error code). */
export type SimulationRefusalKind =
  | 'nonceTooLow'
  | 'nonceTooHigh'
  | 'gasPriceTooLow'
  | 'intrinsicGas'
  | 'insufficientFunds'
  | 'blockGasLimit'
  | 'blockNumberOrder'
  | 'blockTimestampOrder'
  | 'senderNotEoa'
  | 'maxInitCodeSize'
  | 'clientLimit';

export class SimulationRefused extends ChainError {
  constructor(
    readonly refusal: SimulationRefusalKind,
    message: string,
  ) {
    super('invalidArgument', message);
  }
}

/** geth's cap on simulated blocks (the spec lets clients choose; 256 is what geth and Nethermind use). */
export const MAX_SIMULATED_BLOCKS = 256;
/** Calls over all blocks: the batch cap of one request (dispatcher.ts), so one request does no more work than a batch. */
export const MAX_SIMULATED_CALLS = 1_000;
/** EIP-3860 (active on RSK, evm/rsk-common.ts): runTx refuses a creation with more init code. */
const MAX_INIT_CODE_BYTES = 49_152;
/** geth's default gap between simulated blocks' timestamps. */
const TIMESTAMP_STEP = 12n;
const BLOOM_BYTES = 256;
const EMPTY = new Uint8Array(0);
const ZERO = new Address(ZERO_ADDRESS);

export async function simulate(
  execution: ExecutionContext,
  stateNodes: DB<string, Uint8Array>,
  base: SimulationBase,
  blocks: SimulatedBlockRequest[],
  options: SimulateOptions,
): Promise<SimulatedBlock[]> {
  if (blocks.length > MAX_SIMULATED_BLOCKS) throw new SimulationRefused('clientLimit', `too many blocks: ${blocks.length} > ${MAX_SIMULATED_BLOCKS}`);
  const calls = blocks.reduce((n, b) => n + b.calls.length, 0);
  if (calls > MAX_SIMULATED_CALLS) throw new SimulationRefused('clientLimit', `too many calls: ${calls} > ${MAX_SIMULATED_CALLS}`);

  const state = execution.stateManager(new OverlayDb(base.db ?? stateNodes), base.header.stateRoot);
  const vm = await execution.vm(state);
  const evm = vm.evm as EVM;
  const deadline = options.deadline ?? execution.deadline();
  return withDeadline(evm, deadline, async () => {
    const out: SimulatedBlock[] = [];
    let parent = { header: base.header, hash: base.hash ?? new Uint8Array(32), totalDifficulty: base.totalDifficulty };
    for (const request of blocks) {
      const simulated = await simulateBlock(execution, vm, evm, parent, request, options);
      out.push(simulated);
      parent = simulated.block;
    }
    return out;
  });
}

type Vm = Awaited<ReturnType<ExecutionContext['vm']>>;

async function simulateBlock(
  execution: ExecutionContext,
  vm: Vm,
  evm: EVM,
  parent: { header: RskHeader; hash: Uint8Array; totalDifficulty: bigint },
  request: SimulatedBlockRequest,
  { validation, traceTransfers }: SimulateOptions,
): Promise<SimulatedBlock> {
  const state = vm.stateManager;
  const o = request.blockOverrides ?? {};
  const number = o.number ?? parent.header.number + 1n;
  if (number <= parent.header.number) throw new SimulationRefused('blockNumberOrder', `block numbers must be in order: ${number} <= ${parent.header.number}`);
  const timestamp = o.timestamp ?? parent.header.timestamp + TIMESTAMP_STEP;
  if (timestamp <= parent.header.timestamp) throw new SimulationRefused('blockTimestampOrder', `block timestamps must be in order: ${timestamp} <= ${parent.header.timestamp}`);
  const context: BlockContext = {
    number,
    timestamp,
    difficulty: o.difficulty ?? parent.header.difficulty,
    gasLimit: o.gasLimit ?? parent.header.gasLimit,
    minimumGasPrice: o.minimumGasPrice ?? parent.header.minimumGasPrice,
    miner: o.coinbase ?? parent.header.coinbase,
    gasUsed: 0n,
    localCall: false,
  };

  await state.checkpoint();
  if (request.stateOverrides !== undefined) await applyStateOverrides(state, evm, request.stateOverrides);
  const transactions: TxRecord[] = [];
  const receipts: ReceiptRecord[] = [];
  const results: SimulatedCall[] = [];
  const logsBloom = new Uint8Array(BLOOM_BYTES);
  let paidFees = 0n;
  for (const call of request.calls) {
    const from = call.from ?? ZERO;
    const account = (await state.getAccount(from)) ?? new Account();
    const nonce = call.nonce ?? account.nonce;
    const gasPrice = call.gasPrice ?? (validation ? context.minimumGasPrice : 0n);
    // As eth_call: no more than the node's call gas cap; by default what the block has left.
    const wanted = call.gas ?? context.gasLimit - context.gasUsed;
    const gasLimit = execution.callGasCap < wanted ? execution.callGasCap : wanted;
    const value = call.value ?? 0n;
    if (context.gasUsed + gasLimit > context.gasLimit) {
      throw new SimulationRefused('blockGasLimit', `block gas limit reached: ${context.gasUsed} used + ${gasLimit} > ${context.gasLimit}`);
    }
    if (call.to === undefined && (call.data?.length ?? 0) > MAX_INIT_CODE_BYTES) {
      throw new SimulationRefused('maxInitCodeSize', `max initcode size exceeded: ${call.data!.length} > ${MAX_INIT_CODE_BYTES}`);
    }
    const tx = impersonatedTransaction({ nonce, gasPrice, gasLimit, to: call.to, value, data: call.data ?? EMPTY }, from, execution.common);
    const intrinsic = tx.getIntrinsicGas();
    if (gasLimit < intrinsic) throw new SimulationRefused('intrinsicGas', `intrinsic gas too low: have ${gasLimit}, want ${intrinsic}`);
    if (validation) {
      if (nonce < account.nonce) throw new SimulationRefused('nonceTooLow', `nonce too low: address ${from.toString()}, tx: ${nonce} state: ${account.nonce}`);
      if (nonce > account.nonce) throw new SimulationRefused('nonceTooHigh', `nonce too high: address ${from.toString()}, tx: ${nonce} state: ${account.nonce}`);
      if (gasPrice < context.minimumGasPrice) throw new SimulationRefused('gasPriceTooLow', `gas price ${gasPrice} is below the block's minimum gas price ${context.minimumGasPrice}`);
      if (account.isContract()) throw new SimulationRefused('senderNotEoa', `sender is not an EOA: ${from.toString()}`);
    }
    const cost = gasLimit * gasPrice + value;
    if (account.balance < cost) {
      throw new SimulationRefused('insufficientFunds', `insufficient funds for gas * price + value: address ${from.toString()} have ${account.balance} want ${cost}`);
    }
    const transfers = traceTransfers === true ? new TransferLogRecorder(evm) : undefined;
    transfers?.attach();
    let result;
    try {
      result = await runTxAs(
        vm,
        { tx, block: execution.contextBlock(context), blockGasUsed: context.gasUsed, skipHardForkValidation: true, skipNonce: !validation, skipBlockGasLimitValidation: true },
        from,
      );
    } finally {
      transfers?.detach();
    }
    const exec = result.execResult;
    const logs = (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }));
    context.gasUsed += result.totalGasSpent;
    paidFees += result.amountSpent;
    const bloom = result.bloom.bitvector;
    for (let i = 0; i < BLOOM_BYTES; i++) logsBloom[i]! |= bloom[i]!;
    const error = exec.exceptionError?.error;
    receipts.push({
      success: error === undefined,
      cumulativeGasUsed: context.gasUsed,
      gasUsed: result.totalGasSpent,
      logsBloom: bloom,
      logs,
      contractAddress: result.createdAddress?.bytes,
      vmError: error,
      revertData: error === 'revert' ? exec.returnValue : undefined,
    });
    // An impersonated transaction reports its sender (pool/impersonation.ts).
    transactions.push(txRecordFromLegacyTx(tx));
    // The transfer logs are the call's answer only: receipts, roots and bloom keep the EVM's logs.
    results.push({ returnData: exec.returnValue, logs: transfers?.merge(logs) ?? logs, gasUsed: result.totalGasSpent, error });
  }
  await state.commit();
  const header: RskHeader = {
    parentHash: parent.hash,
    unclesHash: KECCAK256_RLP_ARRAY,
    coinbase: context.miner,
    stateRoot: await state.getStateRoot(),
    txTrieRoot: orderedTrieRoot(transactions.map((tx) => tx.raw)),
    receiptTrieRoot: orderedTrieRoot(receipts.map(encodeRskReceipt)),
    logsBloom,
    difficulty: context.difficulty,
    number,
    gasLimit: context.gasLimit,
    gasUsed: context.gasUsed,
    timestamp,
    extraData: EMPTY,
    paidFees,
    minimumGasPrice: context.minimumGasPrice,
    uncleCount: 0,
    ummRoot: EMPTY,
    bitcoinMergedMiningHeader: EMPTY,
    bitcoinMergedMiningMerkleProof: EMPTY,
    bitcoinMergedMiningCoinbaseTransaction: EMPTY,
  };
  const block: RskBlock = {
    header,
    hash: blockHash(header),
    hashForMergedMining: baseHashForMergedMining(header),
    transactions,
    size: blockRlpLength(header, transactions),
    totalDifficulty: parent.totalDifficulty + header.difficulty,
  };
  return { block, calls: results };
}
