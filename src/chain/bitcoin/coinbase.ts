/**
 * A Bitcoin coinbase transaction in the shape rskj's regtest miner builds (reference 6.6): legacy
 * serialization, version 1, one input with the null outpoint and an empty script, output 0 paying
 * the reward to a P2PK script, output 1 paying 0 to a data script, lock time 0. What goes into the
 * key and the data script is the caller's (merged-mining/proof.ts puts RSK's tag there).
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { u32le, u64le, varInt } from './encoding.js';

const OP_CHECKSIG = 0xac;
/** The input's sequence and the null outpoint's index: both all ones in a coinbase. */
const FINAL = 0xffffffff;
const NULL_TXID = new Uint8Array(32);

export interface CoinbaseOutputs {
  rewardSatoshis: bigint;
  /** The key output 0 pays to (P2PK: push key, OP_CHECKSIG). */
  publicKey: Uint8Array;
  /** Output 1's script, paid 0. */
  dataScript: Uint8Array;
}

/** The serialized coinbase (no witness). */
export function coinbaseTransaction({ rewardSatoshis, publicKey, dataScript }: CoinbaseOutputs): Uint8Array {
  const p2pk = concatBytes(Uint8Array.of(publicKey.length), publicKey, Uint8Array.of(OP_CHECKSIG));
  return concatBytes(
    u32le(1),
    varInt(1),
    NULL_TXID,
    u32le(FINAL),
    varInt(0),
    u32le(FINAL),
    varInt(2),
    u64le(rewardSatoshis),
    varInt(p2pk.length),
    p2pk,
    u64le(0n),
    varInt(dataScript.length),
    dataScript,
    u32le(0),
  );
}
