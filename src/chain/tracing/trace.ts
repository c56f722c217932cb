/**
 * Tracing over a chain: finds a block's parent state through the chain's public reads and replays
 * the block there (replay.ts). Reads only: no lock is taken, since every block's state stays
 * readable (nothing is pruned) and the replay writes nothing.
 */
import type { DB } from '@ethereumjs/util';
import type { RskBlock } from '../records/block.js';
import type { ExecutionContext } from '../exec/context.js';
import type { PendingView } from '../exec/block-builder.js';
import type { ReplayOptions, TraceTarget, TracedTx } from './replay.js';

/** What tracing reads of the chain (the facade, chain.ts, has all of it). */
export interface TraceSource {
  blockByHash(hash: Uint8Array): Promise<RskBlock | undefined>;
  stateRootOf(block: RskBlock): Uint8Array;
  readonly execution: ExecutionContext;
  readonly stateNodes: DB<string, Uint8Array>;
}

/** The block's own transactions on its parent's state; undefined for genesis, which has no parent. */
export async function blockTarget(chain: TraceSource, block: RskBlock): Promise<TraceTarget | undefined> {
  if (block.header.number === 0n) return undefined;
  const parent = await chain.blockByHash(block.header.parentHash);
  if (parent === undefined) return undefined;
  return { header: block.header, hash: block.hash, transactions: block.transactions, parentStateRoot: chain.stateRootOf(parent) };
}

/** The pending block, built on the head's latest state. */
export function pendingTarget(view: PendingView): TraceTarget {
  return { header: view.header, hash: undefined, transactions: view.transactions, parentStateRoot: view.parentStateRoot };
}

export async function trace(chain: TraceSource, target: TraceTarget, options: ReplayOptions): Promise<TracedTx[]> {
  // replay.ts runs @ethereumjs/vm's runTx: loaded with the EVM side, on the first trace.
  const { replayBlock } = await import('./replay.js');
  return replayBlock(chain.execution, chain.stateNodes, target, options);
}
