/** rskj's txpool module, in its exact formats (reference 10.7). */
import type { PoolTx } from '../../chain/index.js';
import { method } from '../context.js';
import { hex, quantity } from '../format.js';
import { params } from '../params.js';

const ZERO_HASH = `0x${'0'.repeat(64)}`;

/** Java's BigInteger.toByteArray in hex: minimal two's complement, "0x00" for zero. */
function signedBytesHex(n: bigint): string {
  let digits = n.toString(16);
  if (digits.length % 2 === 1) digits = `0${digits}`;
  if (parseInt(digits[0]!, 16) >= 8) digits = `00${digits}`;
  return `0x${digits}`;
}

function contentTx(entry: PoolTx): Record<string, unknown> {
  const tx = entry.record;
  return {
    blockHash: ZERO_HASH,
    blockNumber: null,
    transactionIndex: null,
    from: hex(tx.from),
    gas: quantity(tx.gasLimit),
    gasPrice: signedBytesHex(tx.gasPrice),
    hash: hex(tx.hash),
    input: hex(tx.data),
    nonce: quantity(tx.nonce),
    to: tx.to ? hex(tx.to) : '0x00',
    value: signedBytesHex(tx.value),
  };
}

function inspectTx(entry: PoolTx): string {
  const tx = entry.record;
  const to = tx.to ? hex(tx.to).slice(2) : '';
  return `${to}: ${tx.value} wei + ${tx.gasLimit} x ${tx.gasPrice} gas`;
}

/** { <address without 0x>: { "<decimal nonce>": [item] } } */
function group<T>(entries: PoolTx[], item: (entry: PoolTx) => T): Record<string, Record<string, T[]>> {
  const out: Record<string, Record<string, T[]>> = {};
  for (const entry of entries) {
    const bySender = (out[entry.sender.slice(2)] ??= {});
    (bySender[entry.record.nonce.toString()] ??= []).push(item(entry));
  }
  return out;
}

export const txpoolMethods = [
  method('txpool_status', 'Counts of pending and queued pool transactions (JSON numbers, as rskj).', params([]), async (ctx) => {
    const { pending, queued } = await ctx.chain.poolContent();
    return { pending: pending.length, queued: queued.length };
  }),
  method('txpool_content', 'Pool transactions by sender and nonce.', params([]), async (ctx) => {
    const { pending, queued } = await ctx.chain.poolContent();
    return { pending: group(pending, contentTx), queued: group(queued, contentTx) };
  }),
  method('txpool_inspect', 'Pool transactions by sender and nonce, summarised as text.', params([]), async (ctx) => {
    const { pending, queued } = await ctx.chain.poolContent();
    return { pending: group(pending, inspectTx), queued: group(queued, inspectTx) };
  }),
];
