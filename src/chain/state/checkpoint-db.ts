/**
 * @ethereumjs/mpt's CheckpointDB without its read recording. While a checkpoint is open, the stock
 * get files every node it reads from the store in the checkpoint's diff map, as if it had been
 * written, and the last commit writes the whole map back: the miner's one checkpoint around a
 * block (block-builder.ts) stored again every node of the parent state the block read, beside the
 * nodes of its own state. Here a read answers from the open checkpoints' writes, else from the
 * store, and records nothing; writes, commits and reverts are the stock ones.
 */
import { CheckpointDB } from '@ethereumjs/mpt';
import { KeyEncoding, ValueEncoding, bytesToUnprefixedHex, unprefixedHexToBytes } from '@ethereumjs/util';

export class UnrecordedReadsDB extends CheckpointDB {
  /** The stock one's valueEncoding, which it keeps private. */
  private readonly encoding: ValueEncoding;

  constructor(opts: ConstructorParameters<typeof CheckpointDB>[0]) {
    super(opts);
    this.encoding = opts.valueEncoding ?? ValueEncoding.String;
  }

  override async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    // Without a checkpoint, or with the stock read cache (none of the node's tries has one), the stock get records nothing more.
    if (!this.hasCheckpoints() || this._cache !== undefined) return super.get(key);
    const keyHex = bytesToUnprefixedHex(key);
    for (let index = this.checkpoints.length - 1; index >= 0; index--) {
      const written = this.checkpoints[index]!.keyValueMap;
      if (written.has(keyHex)) return written.get(keyHex);
    }
    const value = await this.db.get(keyHex, { keyEncoding: KeyEncoding.String, valueEncoding: this.encoding });
    if (value === undefined) return undefined;
    return value instanceof Uint8Array ? value : unprefixedHexToBytes(value);
  }

}
