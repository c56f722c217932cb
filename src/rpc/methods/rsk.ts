/**
 * RSK's own module: raw headers and receipts, receipt trie nodes, protocol version (reference
 * 10.3). rskj calls it `rsk`, the spec calls it `ext`: every method is served under both names,
 * generated from one list, so `rpc_modules` and the docs see both.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { type RskBlock, encodeHeaderForHash, IndexedTrie, encodeRskReceipt } from '../../chain/index.js';
import { Lru } from '../../util/lru.js';
import { type RpcContext, method } from '../context.js';
import { InternalError } from '../errors.js';
import { blockSelector, hash32, params } from '../params.js';
import { resolveBlock } from '../resolve.js';
import type { MethodSpec } from '../types.js';

/** The module's two wire prefixes: rskj's name first, then the spec's. */
export const RSK_MODULE_PREFIXES = ['rsk', 'ext'] as const;

/** rskj's rsk_protocolVersion, equal to eth_protocolVersion: the highest "rsk" capability, 62. */
const PROTOCOL_VERSION = '0x3e';

const txHash = hash32.as('transactionHash');

/**
 * Receipt tries of recently proven blocks, so a client proving each receipt of a block hashes its
 * trie once. Keyed by block hash: the hash commits to receiptsRoot, so an entry can never be stale
 * (not after evm_revert, not across the two networks).
 */
const RECEIPT_TRIE_CACHE_BLOCKS = 4;
const receiptTries = new Lru<string, Promise<IndexedTrie>>(RECEIPT_TRIE_CACHE_BLOCKS);

async function receiptTrie(ctx: RpcContext, block: RskBlock): Promise<IndexedTrie> {
  const key = bytesToHex(block.hash);
  const cached = receiptTries.get(key);
  if (cached !== undefined) return cached;
  const built = (async () => {
    const receipts = await ctx.chain.receipts(block);
    if (receipts.length !== block.transactions.length) {
      throw new InternalError(`block ${block.header.number} has ${block.transactions.length} transactions but ${receipts.length} receipts`);
    }
    const trie = IndexedTrie.build(receipts.map(encodeRskReceipt));
    if (!equalsBytes(trie.root, block.header.receiptTrieRoot)) {
      throw new InternalError(`the receipts of block ${block.header.number} do not rebuild its receiptsRoot`);
    }
    return trie;
  })();
  receiptTries.set(key, built);
  built.catch(() => receiptTries.delete(key));
  return built;
}

/** A mined transaction the RPC shows (REMASC is hidden with --skip-remasc, as eth_getTransactionReceipt hides it). */
async function visibleTransaction(ctx: RpcContext, hash: Uint8Array) {
  const found = await ctx.chain.transaction(hash);
  return found === undefined || (ctx.options.skipRemasc && found.tx.isRemasc) ? undefined : found;
}

/**
 * The receipt trie nodes proving transaction `hash` of `block`, leaf first and root last (rskj's
 * order); undefined when the transaction is not in the block (or is hidden).
 */
async function receiptNodes(ctx: RpcContext, block: RskBlock, hash: Uint8Array): Promise<string[] | undefined> {
  const index = block.transactions.findIndex((tx) => equalsBytes(tx.hash, hash));
  if (index < 0 || (ctx.options.skipRemasc && block.transactions[index]!.isRemasc)) return undefined;
  const proof = (await receiptTrie(ctx, block)).prove(index);
  return proof.nodes.reverse().map((node) => bytesToHex(node));
}

/** The module's methods without their prefix. */
const MODULE_METHODS: MethodSpec<RpcContext>[] = [
  method(
    'getRawBlockHeaderByHash',
    'The header RLP whose keccak256 is the block hash, or null.',
    params([hash32.as('blockHash')]),
    async (ctx, [hash]) => {
      const block = await ctx.chain.blockByHash(hash);
      return block === undefined ? null : bytesToHex(encodeHeaderForHash(block.header));
    },
  ),
  method(
    'getRawBlockHeaderByNumber',
    'The header RLP of a block by number or tag, or null (the pending block has no sealed header).',
    params([blockSelector.as('block')]),
    async (ctx, [id]) => {
      const resolved = await resolveBlock(ctx.chain, id);
      return resolved === undefined || resolved.pending ? null : bytesToHex(encodeHeaderForHash(resolved.block.header));
    },
  ),
  method(
    'getRawTransactionReceiptByHash',
    "rskj's raw receipt RLP of a mined transaction (reference 9.5), or null.",
    params([txHash]),
    async (ctx, [hash]) => {
      const found = await visibleTransaction(ctx, hash);
      if (found === undefined) return null;
      const receipt = (await ctx.chain.receipts(found.block))[found.index];
      return receipt === undefined ? null : bytesToHex(encodeRskReceipt(receipt));
    },
  ),
  method(
    'getTransactionReceiptNodesByHash',
    "The receipt trie nodes proving a transaction's receipt against the block's receiptsRoot, leaf first, root last; null when the transaction is not in that block.",
    params([hash32.as('blockHash'), txHash]),
    async (ctx, [blockHash, hash]) => {
      const block = await ctx.chain.blockByHash(blockHash);
      if (block === undefined) return null;
      return (await receiptNodes(ctx, block, hash)) ?? null;
    },
  ),
  method('protocolVersion', 'RSK protocol version (0x3e), as eth_protocolVersion.', params([]), () => PROTOCOL_VERSION),
];

export const rskMethods: MethodSpec<RpcContext>[] = RSK_MODULE_PREFIXES.flatMap((prefix) =>
  MODULE_METHODS.map((spec) => ({ ...spec, name: `${prefix}_${spec.name}` })),
);
