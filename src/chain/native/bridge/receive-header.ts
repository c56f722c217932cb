/**
 * receiveHeader(bytes) (public since RSKIP200): rskj's BridgeSupport.receiveHeader checks, in its
 * order, against the Bridge's BTC chain, which is the network's Bitcoin chain (./state.ts). Since
 * the Bridge follows that chain by itself, every block the node mines is already "stored"; a header
 * it did not mine cannot join it (the chain keeps whole blocks, and only btc_mine adds them), so
 * the call answers rskj's "any other failure" code for it and stores nothing (see
 * docs/decisions.md).
 */
import { sha256d } from '../../base/bytes.js';
import type { BridgeBtcSource } from './state.js';

/** Bitcoin's header size (BtcTransactionFormatUtils.isBlockHeaderSize). */
const HEADER_BYTES = 80;
/** Bridge RECEIVE_HEADER_ERROR_SIZE_MISTMATCH and BridgeSupport RECEIVE_HEADER_* codes. */
export const RECEIVE_HEADER_SIZE_MISMATCH = -20n;
export const RECEIVE_HEADER_BLOCK_TOO_OLD = -2n;
export const RECEIVE_HEADER_PREVIOUS_UNKNOWN = -3n;
export const RECEIVE_HEADER_PREVIOUSLY_SAVED = -4n;
export const RECEIVE_HEADER_UNEXPECTED = -99n;
/** BridgeRegTestConstants maxDepthBlockchainAccepted: how far below the best block a header may attach. */
const MAX_DEPTH_ACCEPTED = 25;

export function receiveHeader(header: Uint8Array, btc: BridgeBtcSource): bigint {
  if (header.length !== HEADER_BYTES) return RECEIVE_HEADER_SIZE_MISMATCH;
  if (btc.blockByHash(sha256d(header)) !== undefined) return RECEIVE_HEADER_PREVIOUSLY_SAVED;
  // RECEIVE_HEADER_CALLED_TOO_SOON (-1) compares with the time of the last accepted header; none is ever accepted here.
  const parent = btc.blockByHash(header.subarray(4, 36));
  if (parent === undefined) return RECEIVE_HEADER_PREVIOUS_UNKNOWN;
  if (btc.tip.height - (parent.height + 1) > MAX_DEPTH_ACCEPTED) return RECEIVE_HEADER_BLOCK_TOO_OLD;
  return RECEIVE_HEADER_UNEXPECTED;
}
