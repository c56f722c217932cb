/** RSK's own module (the spec's "ext"): raw headers and receipts, protocol version. */
import { bytesToHex } from '@ethereumjs/util';
import { encodeHeaderForHash } from '../../chain/header.js';
import { encodeRskReceipt } from '../../chain/receipt.js';
import { method } from '../context.js';
import { blockSelector, hash32, params } from '../params.js';
import { resolveBlock } from '../resolve.js';

export const rskMethods = [
  method(
    'rsk_getRawBlockHeaderByHash',
    'The header RLP whose keccak256 is the block hash, or null.',
    params([hash32.as('blockHash')]),
    async (ctx, [hash]) => {
      const block = await ctx.chain.blockByHash(hash);
      return block === undefined ? null : bytesToHex(encodeHeaderForHash(block.header));
    },
  ),
  method(
    'rsk_getRawBlockHeaderByNumber',
    'The header RLP of a block by number or tag, or null (the pending block has no sealed header).',
    params([blockSelector.as('block')]),
    async (ctx, [id]) => {
      const resolved = await resolveBlock(ctx.chain, id);
      return resolved === undefined || resolved.pending ? null : bytesToHex(encodeHeaderForHash(resolved.block.header));
    },
  ),
  method(
    'rsk_getRawTransactionReceiptByHash',
    "rskj's raw receipt RLP of a mined transaction, or null.",
    params([hash32.as('transactionHash')]),
    async (ctx, [hash]) => {
      const found = await ctx.chain.transaction(hash);
      if (found === undefined) return null;
      const receipt = (await ctx.chain.receipts(found.block))[found.index];
      return receipt === undefined ? null : bytesToHex(encodeRskReceipt(receipt));
    },
  ),
  method('rsk_protocolVersion', 'RSK protocol version (0x3e).', params([]), () => '0x3e'),
];
