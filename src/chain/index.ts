/**
 * The chain's one entry for the layers above it (rpc/, server/, log/, node.ts, provider.ts, cli.ts):
 * the facade, the record types, ChainError and the tracing shapes. Those layers import nothing else
 * under chain/ (the import rules in .dependency-cruiser.cjs say so, and `npm test` checks them).
 */
export { ChainError, ExecutionReverted, SentTransactionFailed } from './base/errors.js';
export { keccak256, startFastKeccak } from './base/hash.js';
export { secp256k1, sign } from './base/secp256k1.js';
export { BitcoinDataError } from './bitcoin/parse.js';
export { type BtcBlock, serializeBlock as serializeBtcBlock } from './btc-chain/block.js';
export { MAX_BTC_BLOCKS_PER_CALL, addressOfScript } from './btc-chain/btc-chain.js';
export type { BtcTransaction } from './btc-chain/transaction.js';
export type { Utxo as BtcUtxo } from './btc-chain/utxo-set.js';
export { Chain, type ChainEvents, type ChainFork, type MinerMode, type NetworkName, type PendingView, type StateTarget } from './chain.js';
export { CONSOLE_ADDRESS_HEX } from './console/decode.js';
export type { ConsoleLogEntry } from './console/observer.js';
export { STATE_VERSION, type NetworkSection } from './dump/format.js';
export { stateBytes, writeStateFile, type StateSource } from './dump/io.js';
export { isTimeout, type Deadline } from './evm/deadline.js';
export type { CallParams } from './exec/call.js';
export type { AccountOverride, BlockOverrides, StateOverrides } from './exec/overrides.js';
export {
  MAX_SIMULATED_BLOCKS,
  SimulationRefused,
  type SimulatedBlock,
  type SimulatedBlockRequest,
  type SimulatedCallRequest,
  type SimulationRefusalKind,
} from './exec/simulate.js';
export { PANIC_MEANINGS, errorString, panicCode } from './exec/revert-data.js';
export { ForkStartError, remoteChainId, type ForkOptions } from './fork/open.js';
export { RemoteError, redactedUrl } from './fork/remote-client.js';
export type { RemoteJson } from './fork/remote-state.js';
export { MINER_ACCOUNT } from './keys/accounts.js';
export { TypedDataError, typedDataHash } from './keys/eip712.js';
export { DEFAULT_UNLOCK_MS, NodeWallet, WrongPassphrase, lockedHint } from './keys/wallet.js';
export { decodeMergedMining, type MergedMiningView } from './merged-mining/decode.js';
export { solutionFromBlock, solutionFromMerkleHashes, solutionFromTxHashes, submitSolution, type BitcoinSolution } from './merged-mining/submit.js';
export { workTarget } from './merged-mining/work.js';
export { BLOCK_HEADER_ABI, ENVIRONMENT_ABI, REMASC_ABI, UNPUBLISHED_NATIVE_ABIS, type AbiFunction } from './native/abis.js';
export { bridgeStateView } from './native/bridge/state.js';
export type { PoolTx } from './pool/mempool.js';
export type { RskBlock } from './records/block.js';
export { readGenesisFile, type GenesisConfig } from './records/genesis.js';
export { encodeHeaderForHash, type RskHeader } from './records/header.js';
export { encodeRskReceipt, type BlockReceipts, type ReceiptRecord } from './records/receipt.js';
export type { TxRecord } from './records/transaction.js';
export type { StateReader } from './state/flat-view.js';
export { IndexedTrie, accountProof } from './state/proofs.js';
export { matchesInBlock, type LogCriteria, type LogMatch } from './storage/log-index.js';
export { MAX_LOGS, MAX_LOG_BLOCK_RANGE } from './storage/log-query.js';
export { callTrace } from './tracing/call-tracer.js';
export { internalOperations, otsTraceEntries } from './tracing/otterscan.js';
export { parityTraces, type ParityTrace } from './tracing/parity.js';
export { traceWithStateDiff } from './tracing/state-diff.js';
export { MAX_STRUCT_LOG_BYTES, StructLogBudget, type StructLogOptions } from './tracing/recorder.js';
export type { TraceTarget, TracedTx } from './tracing/replay.js';
export { structLogTrace } from './tracing/struct-log.js';
export type { TraceCallOptions } from './tracing/trace-call.js';
export { blockTarget, pendingTarget, trace } from './tracing/trace.js';
