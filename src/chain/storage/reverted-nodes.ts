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
 * Blocks whose new nodes are remembered (about 40 node hashes, 1.3 KB, each: at most ~13 MB).
 * Blocks past this many above the oldest snapshot are not recorded: a revert leaves their nodes
 * behind, as before.
 */
export const MAX_RECORDED_BLOCKS = 10_000;
/** A node key is its 32-byte hash, kept as bytes here (the state store names it in hex). */
const HASH_BYTES = 32;

export class RevertedNodes {
  /** Per block, the hashes of the nodes it added, one after another. */
  private readonly byBlock = new Map<bigint, Buffer>();
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
    // Trie nodes are stored under their hash; anything else is never recorded (nor deleted).
    const nodeHashes = keys.filter((key) => key.length === 2 * HASH_BYTES);
    if (nodeHashes.length === 0) return;
    const hashes = Buffer.from(nodeHashes.join(''), 'hex');
    const known = this.byBlock.get(number);
    this.byBlock.set(number, known === undefined ? hashes : Buffer.concat([known, hashes]));
  }

  /** The nodes first stored above `number`, forgotten here: the caller deletes them. */
  takeAbove(number: bigint): string[] {
    const taken: string[] = [];
    for (const [block, hashes] of this.byBlock) {
      if (block <= number) continue;
      for (let at = 0; at < hashes.length; at += HASH_BYTES) taken.push(hashes.toString('hex', at, at + HASH_BYTES));
      this.byBlock.delete(block);
    }
    return taken;
  }
}
