/**
 * What the chain's parts (block production, transaction intake, test control) share: one store,
 * pool, head, clock and lock per network. Chain (chain.ts) builds them (newChainParts) and is the
 * facade over them.
 */
import { EventEmitter } from 'node:events';
import type { Common } from '@ethereumjs/common';
import type { RskBlock } from './records/block.js';
import type { ChainHead } from './head.js';
import type { Execution } from './exec/execution.js';
import { Mempool } from './pool/mempool.js';
import { MinerClock } from './mining/clock.js';
import type { BlockReceipts, ReceiptRecord } from './records/receipt.js';
import type { BtcChain } from './btc-chain/btc-chain.js';
import { SerialLock } from '../util/lock.js';
import type { ChainStore } from './storage/store.js';
import type { TxRecord } from './records/transaction.js';
import { type ConsoleCalls, type ConsoleLogEntry, consoleLines } from './console/observer.js';

export type NetworkName = 'testnet' | 'mainnet';

export interface ChainEvents {
  block: [block: RskBlock, receipts: BlockReceipts];
  rewind: [removed: Array<{ block: RskBlock; receipts: BlockReceipts }>, newHead: RskBlock];
  pendingTransaction: [tx: TxRecord];
  /** console.log lines of a mined transaction (after its 'block'), an eth_call, or a failed eth_estimateGas. */
  consoleLog: [entry: ConsoleLogEntry];
}

export interface ChainParts {
  readonly network: NetworkName;
  readonly common: Common;
  readonly store: ChainStore;
  readonly execution: Execution;
  readonly pool: Mempool;
  readonly head: ChainHead;
  readonly clock: MinerClock;
  /** The network's Bitcoin regtest chain (btc-chain/), snapshotted, reverted and reset with the RSK chain. */
  readonly btc: BtcChain;
  /** Every mutation runs under it, so blocks are built one at a time. */
  readonly lock: SerialLock;
  /** 'block' (block, receipts) after a block is stored; 'rewind' (removed [{block, receipts}], new head)
   *  after evm_revert/evm_reset drops blocks; 'pendingTransaction' (TxRecord) when the pool takes one;
   *  'consoleLog' (ConsoleLogEntry) for executions that called console.log. */
  readonly events: EventEmitter<ChainEvents>;
}

/** The shared pieces of a chain opened on `store` and `head`: a new pool, miner clock (on `now`), lock and event emitter. */
export function newChainParts(network: NetworkName, store: ChainStore, head: ChainHead, btc: BtcChain, now: () => number): ChainParts {
  const { execution } = head;
  return {
    network,
    common: execution.common,
    store,
    execution,
    pool: new Mempool(),
    head,
    clock: new MinerClock(now),
    btc,
    lock: new SerialLock(),
    events: new EventEmitter<ChainEvents>(),
  };
}

export function blockReceipts(block: RskBlock, receipts: ReceiptRecord[]): BlockReceipts {
  return { blockHash: block.hash, blockNumber: block.header.number, txHashes: block.transactions.map((tx) => tx.hash), receipts };
}

/** A mined block's console.log lines, one 'consoleLog' per transaction that logged; decoded only when someone listens. */
export function emitBlockConsoleLogs(events: ChainParts['events'], block: RskBlock, consoleCalls: readonly ConsoleCalls[]): void {
  if (events.listenerCount('consoleLog') === 0) return;
  consoleCalls.forEach((calls, i) => {
    if (calls.calls.length > 0 || calls.dropped > 0) events.emit('consoleLog', { kind: 'transaction', txHash: block.transactions[i]!.hash, lines: consoleLines(calls) });
  });
}
