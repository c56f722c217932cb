/** Block selectors (QUANTITY, tags, hashes, EIP-1898 maps) resolved against a chain. */
import { type RskBlock, type Chain, type PendingView, type StateTarget, ChainError } from '../chain/index.js';
import { bytesToHex } from '@ethereumjs/util';
import type { BlockView } from './format.js';
import type { BlockSelector } from './types.js';

export type Resolved = { pending: false; block: RskBlock } | { pending: true; view: PendingView };

/**
 * `safe` and `finalized` name the head: a single-node chain never reorganises on its own (rskj
 * accepts the tags but cannot answer them; anvil answers latest).
 */
export async function resolveBlock(chain: Chain, selector: BlockSelector): Promise<Resolved | undefined> {
  if ('tag' in selector) {
    switch (selector.tag) {
      case 'pending':
        return { pending: true, view: await chain.pending() };
      case 'earliest':
        return wrap(await chain.blockByNumber(0n));
      default:
        return { pending: false, block: chain.head };
    }
  }
  if ('number' in selector) return wrap(await chain.blockByNumber(selector.number));
  return wrap(await chain.blockByHash(selector.hash));
}

function wrap(block: RskBlock | undefined): Resolved | undefined {
  return block === undefined ? undefined : { pending: false, block };
}

/** For state reads: rskj answers an unknown block with -32600 "Block ... not found". */
export async function stateTarget(chain: Chain, selector: BlockSelector): Promise<StateTarget> {
  const resolved = await resolveBlock(chain, selector);
  if (resolved === undefined) throw new ChainError('blockNotFound', `Block ${describeSelector(selector)} not found`);
  return targetOf(chain, resolved);
}

export function targetOf(chain: Chain, resolved: Resolved): StateTarget {
  return resolved.pending ? { header: resolved.view.header, db: resolved.view.db } : chain.targetOf(resolved.block);
}

export function describeSelector(selector: BlockSelector): string {
  if ('tag' in selector) return selector.tag;
  if ('number' in selector) return `0x${selector.number.toString(16)}`;
  return bytesToHex(selector.hash);
}

export function toBlockView(resolved: Resolved): BlockView {
  return resolved.pending ? { ...resolved.view, hash: undefined } : resolved.block;
}
