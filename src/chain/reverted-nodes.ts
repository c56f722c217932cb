/**
 * Which trie nodes each block added to the store while a snapshot is live, so that evm_revert can
 * delete them with the blocks it drops. Without it every snapshot / transaction / revert cycle left
 * its nodes behind for good: an in-memory chain grew by kilobytes per cycle without end (issue 12).
 *
 * Nodes are keyed by their hash and shared between states, so a node is recorded only when no
 * earlier state had it (it was neither in the store nor in its cache when the block committed).
 * Every state that survives a revert is older than the dropped blocks, so none of them can refer
 * to a node that one of those blocks was first to add.
 */

/**
 * Blocks whose new nodes are remembered (about 40 node keys, ~4 KB, each). Blocks past this many
 * above the oldest snapshot are not recorded: a revert leaves their nodes behind, as before.
 */
export const MAX_RECORDED_BLOCKS = 10_000;

export class RevertedNodes {
  private readonly byBlock = new Map<bigint, string[]>();
  private tracking = false;

  /** Recording runs while a snapshot is live: only then can blocks be dropped by evm_revert. */
  setTracking(on: boolean): void {
    this.tracking = on;
    if (!on) this.byBlock.clear();
  }

  get isTracking(): boolean {
    return this.tracking && this.byBlock.size < MAX_RECORDED_BLOCKS;
  }

  /** Adds nodes first stored at `number` (a block, or the head's state override). */
  record(number: bigint, keys: string[]): void {
    if (keys.length === 0) return;
    const known = this.byBlock.get(number);
    if (known === undefined) this.byBlock.set(number, keys);
    else known.push(...keys);
  }

  /** The nodes first stored above `number`, forgotten here: the caller deletes them. */
  takeAbove(number: bigint): string[] {
    const taken: string[] = [];
    for (const [block, keys] of this.byBlock) {
      if (block <= number) continue;
      taken.push(...keys);
      this.byBlock.delete(block);
    }
    return taken;
  }
}
