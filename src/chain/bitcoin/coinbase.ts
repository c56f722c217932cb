/**
 * A Bitcoin coinbase transaction in the shape rskj's regtest miner builds (reference 6.6): legacy
 * serialization, version 1, one input with the null outpoint and an empty script, output 0 paying
 * the reward to a P2PK script, output 1 paying 0 to a data script, lock time 0. What goes into the
 * key and the data script is the caller's (merged-mining/proof.ts puts RSK's tag there).
 */
import { varInt } from './encoding.js';

const OP_CHECKSIG = 0xac;
/** The input's sequence and the null outpoint's index: both all ones in a coinbase. */
const FINAL = 0xffffffff;

export interface CoinbaseOutputs {
  rewardSatoshis: bigint;
  /** The key output 0 pays to (P2PK: push key, OP_CHECKSIG). */
  publicKey: Uint8Array;
  /** Output 1's script, paid 0. */
  dataScript: Uint8Array;
}

/** Bytes before output 0's script: version, input count, the input (outpoint, empty script, sequence), output count, output 0's value. */
const BEFORE_REWARD_SCRIPT = 4 + 1 + 32 + 4 + 1 + 4 + 1 + 8;

/** The serialized coinbase (no witness), written into one array (it is built for every block sealed). */
export function coinbaseTransaction({ rewardSatoshis, publicKey, dataScript }: CoinbaseOutputs): Uint8Array {
  const p2pkLength = 1 + publicKey.length + 1;
  const dataLength = varInt(dataScript.length);
  const tx = new Uint8Array(BEFORE_REWARD_SCRIPT + 1 + p2pkLength + 8 + dataLength.length + dataScript.length + 4);
  const view = new DataView(tx.buffer);
  view.setUint32(0, 1, true); // version
  tx[4] = 1; // one input: the null outpoint (32 zero bytes at 5..37)
  view.setUint32(37, FINAL, true);
  tx[41] = 0; // empty input script
  view.setUint32(42, FINAL, true);
  tx[46] = 2; // two outputs
  view.setBigUint64(47, rewardSatoshis, true);
  let at = BEFORE_REWARD_SCRIPT;
  tx[at++] = p2pkLength; // one CompactSize byte: 35 for a compressed key
  tx[at++] = publicKey.length;
  tx.set(publicKey, at);
  at += publicKey.length;
  tx[at++] = OP_CHECKSIG;
  at += 8; // output 1 pays 0
  tx.set(dataLength, at);
  tx.set(dataScript, at + dataLength.length);
  // Lock time 0: the last 4 bytes, already zero.
  return tx;
}
