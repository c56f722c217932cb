/**
 * The Bitcoin regtest chain's records (btc-chain/): its blocks by height and its tip, each change
 * one batch. Kept apart from store.ts's RSK records; ChainStore forwards to these, and
 * `btcTruncationOps` rides in evm_revert's batch so both chains go back together.
 */
import { type Kv, type KvOp, btcBlockKey, btcTipKey, decodeNumber, encodeNumber } from './keys.js';

export async function btcTip(kv: Kv): Promise<number | undefined> {
  const tip = await kv.get(btcTipKey());
  return tip === undefined ? undefined : Number(decodeNumber(tip));
}

/** The stored Bitcoin blocks at heights from..tip. */
export async function btcBlocks(kv: Kv, from: number, tip: number): Promise<Uint8Array[]> {
  const values = await kv.getMany(Array.from({ length: tip - from + 1 }, (_, i) => btcBlockKey(from + i)));
  return values.map((value, i) => {
    if (value === undefined) throw new Error(`chain data is damaged: Bitcoin block ${from + i} is missing`);
    return value;
  });
}

/** Writes Bitcoin blocks from height `from` on and moves the tip to the last, atomically. */
export async function appendBtcBlocks(kv: Kv, from: number, blocks: readonly Uint8Array[]): Promise<void> {
  const ops: KvOp[] = blocks.map((value, i) => ({ type: 'put', key: btcBlockKey(from + i), value }));
  ops.push({ type: 'put', key: btcTipKey(), value: encodeNumber(BigInt(from + blocks.length - 1)) });
  await kv.batch(ops);
}

/** Deletes the Bitcoin blocks above `height` (up to `tip`) and makes it the tip. */
export function btcTruncationOps(height: number, tip: number): KvOp[] {
  const ops: KvOp[] = [{ type: 'put', key: btcTipKey(), value: encodeNumber(BigInt(height)) }];
  for (let h = tip; h > height; h--) ops.push({ type: 'del', key: btcBlockKey(h) });
  return ops;
}
