/**
 * btc_: the dev methods of each network's Bitcoin regtest chain (chain/btc-chain/): mine blocks,
 * submit raw transactions for the next block, pay from the faucet, and read blocks, headers,
 * transactions, balances and the partial merkle trees the Bridge's registerBtcTransaction takes.
 * Hashes and bytes are answered as Bitcoin tools print them: hex without 0x, hashes in display
 * (reversed) order; amounts are satoshis as JSON numbers (at most 21e14, exact in a double).
 * Inputs take hex with or without 0x.
 */
import { MAX_BTC_BLOCKS_PER_CALL, addressOfScript, serializeBtcBlock, type BtcBlock, type BtcTransaction, type BtcUtxo, type Chain } from '../../chain/index.js';
import { InvalidParams } from '../errors.js';
import { method } from '../context.js';
import { ParamError, atMost, bool, describe, makeDecoder, params, quantityOrDecimal, shortened } from '../params.js';

/** Longest address text taken: a bech32m address has at most 90 characters (BIP173). */
const MAX_ADDRESS_LENGTH = 90;
/** Largest amount: 21 million BTC in satoshis, every bitcoin there will be. */
const MAX_SATOSHIS = 2_100_000_000_000_000n;

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const display = (hash: Uint8Array) => hexOf(Uint8Array.from(hash).reverse());

/** Hex bytes, with or without 0x (Bitcoin tools print them bare). */
function hexBytes(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string') throw new ParamError(`expected a hex string, got ${describe(v)}`);
  const body = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw new ParamError(`${what}: not an even-length hex string: ${shortened(v)}`);
  return Uint8Array.from(Buffer.from(body, 'hex'));
}

const rawTx = makeDecoder('rawTransaction', (v) => {
  const bytes = hexBytes(v, 'raw transaction');
  if (bytes.length === 0) throw new ParamError('empty transaction');
  return bytes;
});

/** A txid or block hash in display order (as printed), turned to internal order. */
const btcHash = makeDecoder('hash', (v) => {
  const bytes = hexBytes(v, 'hash');
  if (bytes.length !== 32) throw new ParamError(`a Bitcoin hash has 32 bytes, got ${bytes.length}`);
  return bytes.reverse();
});

const btcAddress = makeDecoder('address', (v) => {
  if (typeof v !== 'string') throw new ParamError(`expected a Bitcoin address string, got ${describe(v)}`);
  if (v.length > MAX_ADDRESS_LENGTH) throw new ParamError(`an address has at most ${MAX_ADDRESS_LENGTH} characters`);
  return v;
});

const count = atMost(quantityOrDecimal.as('count'), BigInt(MAX_BTC_BLOCKS_PER_CALL), `${MAX_BTC_BLOCKS_PER_CALL}, the blocks one call mines`);
const satoshis = atMost(quantityOrDecimal.as('satoshis'), MAX_SATOSHIS, '21,000,000 BTC');

type BlockId = { height: number } | { hash: Uint8Array };
/** A height (JSON number, decimal string or 0x quantity) or a block hash (64 hex digits). */
const blockId = makeDecoder<BlockId>('block', (v) => {
  if (typeof v === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(v)) return { hash: btcHash.parse(v) };
  const height = quantityOrDecimal.parse(v);
  return { height: height > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(height) };
});

function findBlock(chain: Chain, id: BlockId): BtcBlock | undefined {
  return 'hash' in id ? chain.btc.blockByHash(id.hash) : chain.btc.blockAt(id.height);
}

function blockJson(chain: Chain, block: BtcBlock) {
  const view = new DataView(block.header.buffer, block.header.byteOffset, 80);
  return {
    hash: display(block.hash),
    height: block.height,
    confirmations: chain.btc.confirmations(block),
    version: view.getUint32(0, true),
    previousblockhash: display(block.header.subarray(4, 36)),
    merkleroot: display(block.header.subarray(36, 68)),
    time: view.getUint32(68, true),
    bits: view.getUint32(72, true).toString(16).padStart(8, '0'),
    nonce: view.getUint32(76, true),
    header: hexOf(block.header),
    tx: block.transactions.map((tx) => display(tx.txid)),
    hex: hexOf(serializeBtcBlock(block)),
  };
}

function txJson(chain: Chain, tx: BtcTransaction, block?: BtcBlock, index?: number) {
  return {
    txid: display(tx.txid),
    wtxid: display(tx.wtxid),
    hex: hexOf(tx.raw),
    blockhash: block === undefined ? null : display(block.hash),
    height: block?.height ?? null,
    index: index ?? null,
    confirmations: block === undefined ? 0 : chain.btc.confirmations(block),
    vin: tx.inputs.map((input) => ({ txid: display(input.txid), vout: input.vout })),
    vout: tx.outputs.map((o, n) => ({ n, value: Number(o.amount), scriptPubKey: hexOf(o.script), address: addressOfScript(o.script) ?? null })),
  };
}

function utxoJson(chain: Chain, u: BtcUtxo) {
  const block = u.height === undefined ? undefined : chain.btc.blockAt(u.height);
  return {
    txid: display(u.txid),
    vout: u.vout,
    amount: Number(u.amount),
    height: u.height ?? null,
    confirmations: block === undefined ? 0 : chain.btc.confirmations(block),
    coinbase: u.coinbase,
  };
}

function balanceJson(chain: Chain, address: string) {
  const { mined, pooled } = chain.btc.unspent(address);
  const sum = (list: BtcUtxo[]) => Number(list.reduce((s, u) => s + u.amount, 0n));
  return { address, confirmed: sum(mined), unconfirmed: sum(pooled) };
}

export const btcMethods = [
  method(
    'btc_mine',
    `Mines count (default 1, at most ${MAX_BTC_BLOCKS_PER_CALL}) Bitcoin regtest blocks, the pooled transactions in the first; the coinbase pays address or the faucet. Returns the block hashes.`,
    params([count.orDefault(1n), btcAddress.optional]),
    async (ctx, [n, address]) => {
      if (n === 0n) throw new InvalidParams('invalid count: mine at least 1 block');
      const blocks = await ctx.chain.btc.mine(Number(n), address);
      return blocks.map((b) => display(b.hash));
    },
  ),
  method(
    'btc_sendRawTransaction',
    'Validates a raw Bitcoin transaction (inputs unspent, signatures, fee ≥ 0) and pools it for the next Bitcoin block; returns its txid.',
    params([rawTx]),
    async (ctx, [raw]) => display((await ctx.chain.btc.sendRawTransaction(raw)).txid),
  ),
  method(
    'btc_fund',
    'Pays satoshis to a regtest address from the faucet: a signed transaction pooled for the next Bitcoin block; returns its txid.',
    params([btcAddress, satoshis]),
    async (ctx, [address, amount]) => display((await ctx.chain.btc.fund(address, amount)).txid),
  ),
  method(
    'btc_getInfo',
    'The Bitcoin chain: height, best block hash, the faucet (address, balances, what it can pay now, its keys) and the federation address with its balances.',
    params([]),
    (ctx) => {
      const btc = ctx.chain.btc;
      return {
        chain: 'regtest',
        height: btc.tip.height,
        bestblockhash: display(btc.tip.hash),
        faucet: { ...balanceJson(ctx.chain, btc.faucet.address), spendable: Number(btc.faucetSpendable), publicKey: hexOf(btc.faucet.publicKey), privateKey: hexOf(btc.faucet.privateKey) },
        federation: balanceJson(ctx.chain, btc.federationAddress),
      };
    },
  ),
  method('btc_getBlock', 'A Bitcoin block by height or hash (header fields, header hex, txids, the serialized block); null when there is none.', params([blockId]), (ctx, [id]) => {
    const block = findBlock(ctx.chain, id);
    return block === undefined ? null : blockJson(ctx.chain, block);
  }),
  method('btc_getBlockHeader', 'The 80-byte header of a Bitcoin block by height or hash, hex; null when there is none.', params([blockId]), (ctx, [id]) => {
    const block = findBlock(ctx.chain, id);
    return block === undefined ? null : hexOf(block.header);
  }),
  method(
    'btc_getTransaction',
    'A mined or pooled Bitcoin transaction by txid: hex, wtxid, block, confirmations, inputs and outputs; null when unknown.',
    params([btcHash.as('txid')]),
    (ctx, [txid]) => {
      const found = ctx.chain.btc.transaction(txid);
      return found === undefined ? null : txJson(ctx.chain, found.tx, found.block, found.index);
    },
  ),
  method(
    'btc_getPartialMerkleTree',
    "The partial merkle tree (Bitcoin's CPartialMerkleTree serialization) proving a mined transaction, as registerBtcTransaction takes it; witness: true gives the tree over wtxids (BIP141). Null for an unknown txid.",
    params([btcHash.as('txid'), bool.as('witness').orDefault(false)]),
    (ctx, [txid, witness]) => {
      const found = ctx.chain.btc.transaction(txid);
      if (found === undefined) return null;
      const proof = ctx.chain.btc.partialMerkleTree(txid, witness);
      if (proof === undefined) throw new InvalidParams(`transaction ${display(txid)} is pooled, not mined: mine a block (btc_mine) first`);
      return { txid: display(txid), blockhash: display(proof.block.hash), height: proof.block.height, index: proof.index, merkleroot: display(proof.root), witness, pmt: hexOf(proof.tree) };
    },
  ),
  method('btc_getBalance', "An address's unspent satoshis: confirmed (mined) and unconfirmed (outputs of pooled transactions).", params([btcAddress]), (ctx, [address]) =>
    balanceJson(ctx.chain, address),
  ),
  method('btc_listUnspent', "An address's unspent outputs, mined then pooled: txid, vout, amount, height, confirmations, coinbase.", params([btcAddress]), (ctx, [address]) => {
    const { mined, pooled } = ctx.chain.btc.unspent(address);
    return [...mined, ...pooled].map((u) => utxoJson(ctx.chain, u));
  }),
];
