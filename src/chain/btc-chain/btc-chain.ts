/**
 * One network's Bitcoin regtest chain: blocks with real proof of work, a pool of transactions
 * for the next block (validated against the unspent outputs, signatures checked), a faucet with a
 * fixed key, and the partial merkle trees the Bridge's registerBtcTransaction takes. Kept in
 * memory, persisted in the network's LevelDB (each change one atomic batch). The caller runs
 * every mutation under the chain's lock; save/rewound follow evm_snapshot/revert/reset.
 *
 * Built on first use, off the start-up path: the premined blocks are the same on every chain
 * (built once per process, never stored), and the blocks mined above them are read at open but
 * decoded only when something asks for the chain (a btc_ method, a Bridge getter).
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { Address, OutScript, Transaction, p2wpkh } from '@scure/btc-signer';
import { ChainError } from '../base/errors.js';
import { reversed } from '../bitcoin/encoding.js';
import { type BtcBlock, decodeStoredBlock, encodeStoredBlock, genesisBlock, mineBlock, witnessHashes } from './block.js';
import {
  BLOCK_VERSION,
  COINBASE_MATURITY,
  DUST_LIMIT_SATOSHIS,
  FAUCET_FEE_RATE,
  FAUCET_PRIVATE_KEY,
  FAUCET_PUBLIC_KEY,
  GENESIS_TIME,
  HALVING_INTERVAL,
  INITIAL_SUBSIDY_SATOSHIS,
  PREMINED_BLOCKS,
  REGTEST_NETWORK,
} from './constants.js';
import { merkleRoot, partialMerkleTree } from './merkle.js';
import { type BtcTransaction, parseTransaction } from './transaction.js';
import { type Utxo, UtxoSet, outpointKey } from './utxo-set.js';
import { type SpentOutput, verifySignatures } from './verify.js';

/** Where the chain is stored (ChainStore implements it). */
export interface BtcPersistence {
  /** Undefined while no block was mined above the premine (the premined blocks are never stored). */
  btcTip(): Promise<number | undefined>;
  btcBlocks(from: number, tip: number): Promise<Uint8Array[]>;
  appendBtcBlocks(from: number, blocks: readonly Uint8Array[]): Promise<void>;
}

/** A pooled transaction and the fee it pays. */
export interface PooledBtcTx {
  tx: BtcTransaction;
  fee: bigint;
}

/** What evm_snapshot records of the Bitcoin chain. */
export interface BtcSnapshot {
  tip: number;
  pool: readonly PooledBtcTx[];
}

export interface BtcTxLookup {
  tx: BtcTransaction;
  /** Undefined while pooled. */
  block?: BtcBlock;
  index?: number;
}

/** Blocks one call may mine: a few seconds of work at most (each block is a handful of hashes and one write). */
export const MAX_BTC_BLOCKS_PER_CALL = 1_000;
/** Bitcoin's block weight limit (BIP141); the pool, the next block, stays under it with room for the coinbase. */
const MAX_BLOCK_WEIGHT = 4_000_000;
const COINBASE_WEIGHT_RESERVE = 4_000;
/** Virtual bytes the faucet counts per P2WPKH input and per output (at most a P2TR/P2WSH one), plus the frame. */
const FAUCET_INPUT_VBYTES = 68n;
const FAUCET_OUTPUT_VBYTES = 43n;
const TX_FRAME_VBYTES = 11n;

const FAUCET = p2wpkh(FAUCET_PUBLIC_KEY, REGTEST_NETWORK);

let premine: readonly BtcBlock[] | undefined;
/** Genesis and the premined blocks: fixed times and coinbase, so one build serves every chain and evm_reset. */
function preminedBlocks(): readonly BtcBlock[] {
  if (premine === undefined) {
    const blocks = [genesisBlock()];
    for (let h = 1; h <= PREMINED_BLOCKS; h++) blocks.push(buildBlock(blocks[h - 1]!, GENESIS_TIME + h, FAUCET.script, []));
    premine = blocks;
  }
  return premine;
}

function buildBlock(parent: BtcBlock, time: number, coinbaseScript: Uint8Array, pool: readonly PooledBtcTx[]): BtcBlock {
  const height = parent.height + 1;
  const fees = pool.reduce((sum, p) => sum + p.fee, 0n);
  return mineBlock({ height, parent: parent.hash, time, version: BLOCK_VERSION, coinbaseValue: subsidyAt(height) + fees, coinbaseScript, transactions: pool.map((p) => p.tx) });
}

/** The block subsidy at `height` (regtest halves it every 150 blocks; none after 64 halvings). */
function subsidyAt(height: number): bigint {
  const halvings = Math.floor(height / HALVING_INTERVAL);
  return halvings >= 64 ? 0n : INITIAL_SUBSIDY_SATOSHIS >> BigInt(halvings);
}

/** The output script of a regtest address (bcrt1…, m/n…, 2…); invalidArgument otherwise. */
export function scriptOfAddress(address: string): Uint8Array {
  try {
    return OutScript.encode(Address(REGTEST_NETWORK).decode(address));
  } catch (err) {
    throw new ChainError('invalidArgument', `not a Bitcoin regtest address: ${JSON.stringify(address.slice(0, 100))} (${(err as Error).message})`);
  }
}

/** The regtest address of an output script, or undefined for one without an address (OP_RETURN, bare multisig). */
export function addressOfScript(script: Uint8Array): string | undefined {
  try {
    return Address(REGTEST_NETWORK).encode(OutScript.decode(script));
  } catch {
    return undefined;
  }
}

export class BtcChain {
  private blocks: BtcBlock[] = [];
  private heightByHash = new Map<string, number>();
  private txIndex = new Map<string, { height: number; index: number }>();
  private readonly utxos = new UtxoSet();
  private pool: PooledBtcTx[] = [];
  private poolIds = new Set<string>();
  private poolWeight = 0;

  private constructor(
    private readonly store: BtcPersistence,
    private readonly now: () => number,
    /** Until the first use: the stored blocks above the premine, not yet decoded (load()). */
    private unloaded: Uint8Array[] | undefined,
  ) {}

  /**
   * The stored chain: the premined blocks (the same on every chain) and those mined above them.
   * Data directories written before the premine stopped being stored hold it too: it is not read.
   */
  static async open(store: BtcPersistence, now: () => number): Promise<BtcChain> {
    const tip = (await store.btcTip()) ?? PREMINED_BLOCKS;
    return new BtcChain(store, now, tip > PREMINED_BLOCKS ? await store.btcBlocks(PREMINED_BLOCKS + 1, tip) : []);
  }

  // ---- reads ---------------------------------------------------------------------------------

  get tip(): BtcBlock {
    this.load();
    return this.blocks[this.blocks.length - 1]!;
  }

  /** The tip's height, without building the chain. */
  get height(): number {
    return this.unloaded === undefined ? this.blocks.length - 1 : PREMINED_BLOCKS + this.unloaded.length;
  }

  get faucet(): { address: string; privateKey: Uint8Array; publicKey: Uint8Array } {
    return { address: FAUCET.address!, privateKey: FAUCET_PRIVATE_KEY, publicKey: FAUCET_PUBLIC_KEY };
  }

  blockAt(height: number): BtcBlock | undefined {
    this.load();
    return this.blocks[height];
  }

  /** A block by hash (internal byte order). */
  blockByHash(hash: Uint8Array): BtcBlock | undefined {
    this.load();
    const height = this.heightByHash.get(bytesToHex(hash));
    return height === undefined ? undefined : this.blocks[height];
  }

  /** A mined or pooled transaction by txid (internal byte order). */
  transaction(txid: Uint8Array): BtcTxLookup | undefined {
    this.load();
    const key = bytesToHex(txid);
    const at = this.txIndex.get(key);
    if (at !== undefined) {
      const block = this.blocks[at.height]!;
      return { tx: block.transactions[at.index]!, block, index: at.index };
    }
    const pooled = this.pool.find((p) => bytesToHex(p.tx.txid) === key);
    return pooled && { tx: pooled.tx };
  }

  /** Confirmations of a block: 1 at the tip. */
  confirmations(block: BtcBlock): number {
    return this.tip.height - block.height + 1;
  }

  /**
   * The partial merkle tree proving a mined transaction: over the txids against the header's
   * merkle root, or (`witness`) over the wtxids against the coinbase's witness commitment.
   */
  partialMerkleTree(txid: Uint8Array, witness: boolean): { tree: Uint8Array; root: Uint8Array; block: BtcBlock; index: number } | undefined {
    const found = this.transaction(txid);
    if (found?.block === undefined) return undefined;
    const { block, index } = found;
    const hashes = witness ? witnessHashes(block.transactions) : block.transactions.map((tx) => tx.txid);
    return { tree: partialMerkleTree(hashes, index!), root: merkleRoot(hashes), block, index: index! };
  }

  /** Mined outputs paying `script` (those the pool spends included), and pooled ones the pool does not spend. */
  unspent(script: Uint8Array): { mined: Utxo[]; pooled: Utxo[] } {
    this.load();
    return { mined: this.utxos.minedTo(script), pooled: this.utxos.pooledTo(script) };
  }

  // ---- changes (under the chain's lock) ------------------------------------------------------------

  /** Mines `count` blocks paying `coinbaseScript` (the faucet when undefined); the pool goes into the first. */
  async mine(count: number, coinbaseScript: Uint8Array = FAUCET.script): Promise<BtcBlock[]> {
    if (!Number.isInteger(count) || count < 1 || count > MAX_BTC_BLOCKS_PER_CALL) {
      throw new ChainError('invalidArgument', `block count ${count}: mine 1 to ${MAX_BTC_BLOCKS_PER_CALL} Bitcoin blocks per call`);
    }
    const built: BtcBlock[] = [];
    let parent = this.tip;
    const nowSeconds = Math.floor(this.now() / 1000);
    for (let i = 0; i < count; i++) {
      // Time moves at least a second a block: above the median of the last 11 (Bitcoin's rule).
      const block = buildBlock(parent, Math.max(nowSeconds, readTime(parent) + 1), coinbaseScript, i === 0 ? this.pool : []);
      built.push(block);
      parent = block;
    }
    await this.store.appendBtcBlocks(built[0]!.height, built.map(encodeStoredBlock));
    this.clearPool();
    built.forEach((b) => this.apply(b));
    return built;
  }

  /** Validates a serialized transaction and pools it for the next block; returns it. */
  submit(raw: Uint8Array): BtcTransaction {
    this.load();
    let tx: BtcTransaction;
    try {
      tx = parseTransaction(raw);
    } catch (err) {
      throw new ChainError('invalidTransaction', `not a Bitcoin transaction: ${(err as Error).message}`);
    }
    const id = bytesToHex(tx.txid);
    if (this.txIndex.has(id) || this.poolIds.has(id)) throw new ChainError('txRejected', `transaction ${displayOf(tx.txid)} is already known`);
    if (tx.inputs.length === 0 || tx.outputs.length === 0) throw new ChainError('txRejected', 'a transaction needs inputs and outputs');
    if (tx.hasWitness && tx.inputs.every((input) => input.witness.length === 0)) throw new ChainError('txRejected', 'the witness flag is set but no input has a witness');
    if (this.poolWeight + tx.weight > MAX_BLOCK_WEIGHT - COINBASE_WEIGHT_RESERVE) {
      throw new ChainError('txRejected', `the next block is full (${MAX_BLOCK_WEIGHT} weight units): mine it first`);
    }
    const nextHeight = this.tip.height + 1;
    const seen = new Set<string>();
    const spent: SpentOutput[] = tx.inputs.map((input, i) => {
      const key = outpointKey(input.txid, input.vout);
      const outpoint = `${displayOf(input.txid)}:${input.vout}`;
      if (seen.has(key)) throw new ChainError('txRejected', `input ${i} spends ${outpoint} twice`);
      seen.add(key);
      const spender = this.utxos.spentInPool(key);
      if (spender !== undefined) throw new ChainError('txRejected', `input ${i} spends ${outpoint}, already spent by pooled transaction ${displayOf(hexBytes(spender))}`);
      const utxo = this.utxos.spendable(key);
      if (utxo === undefined) throw new ChainError('txRejected', `input ${i} spends ${outpoint}, which is not an unspent output of this chain`);
      if (utxo.coinbase && nextHeight - utxo.height! < COINBASE_MATURITY) {
        throw new ChainError('txRejected', `input ${i} spends the coinbase of block ${utxo.height}, spendable from block ${utxo.height! + COINBASE_MATURITY} (coinbase maturity ${COINBASE_MATURITY})`);
      }
      return { amount: utxo.amount, script: utxo.script };
    });
    const fee = spent.reduce((sum, s) => sum + s.amount, 0n) - tx.outputs.reduce((sum, o) => sum + o.amount, 0n);
    if (fee < 0n) throw new ChainError('txRejected', `outputs exceed inputs by ${-fee} satoshis`);
    verifySignatures(tx, spent);
    this.addToPool({ tx, fee });
    return tx;
  }

  /** Pays `amount` satoshis to `script` from the faucet's coins: a signed transaction pooled for the next block. */
  fund(script: Uint8Array, amount: bigint): BtcTransaction {
    if (amount < DUST_LIMIT_SATOSHIS) throw new ChainError('invalidArgument', `amount ${amount}: the faucet pays at least ${DUST_LIMIT_SATOSHIS} satoshis (the dust limit)`);
    const coins = this.faucetCoins().sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
    const picked: Utxo[] = [];
    let total = 0n;
    let fee = 0n;
    for (const coin of coins) {
      picked.push(coin);
      total += coin.amount;
      fee = FAUCET_FEE_RATE * (TX_FRAME_VBYTES + FAUCET_INPUT_VBYTES * BigInt(picked.length) + FAUCET_OUTPUT_VBYTES * 2n);
      if (total >= amount + fee) break;
    }
    if (total < amount + fee) {
      throw new ChainError('txRejected', `the faucet can spend ${total} satoshis now; mine blocks (btc_mine) to mature more of its coinbases`);
    }
    const tx = new Transaction({ allowUnknownOutputs: true });
    for (const coin of picked) tx.addInput({ txid: reversed(coin.txid), index: coin.vout, witnessUtxo: { script: coin.script, amount: coin.amount } });
    tx.addOutput({ script, amount });
    const change = total - amount - fee;
    if (change >= DUST_LIMIT_SATOSHIS) tx.addOutput({ script: FAUCET.script, amount: change });
    tx.sign(FAUCET_PRIVATE_KEY);
    tx.finalize();
    return this.submit(tx.extract());
  }

  /** What the faucet can spend in the next block: its matured coinbases and change the pool does not spend. */
  faucetCoins(): Utxo[] {
    this.load();
    const nextHeight = this.tip.height + 1;
    return [...this.utxos.minedTo(FAUCET.script, true), ...this.utxos.pooledTo(FAUCET.script)].filter(
      (u) => !u.coinbase || nextHeight - u.height! >= COINBASE_MATURITY,
    );
  }

  save(): BtcSnapshot {
    return { tip: this.height, pool: [...this.pool] };
  }

  /** What evm_reset goes back to: the premined blocks and an empty pool. */
  static readonly INITIAL: BtcSnapshot = { tip: PREMINED_BLOCKS, pool: [] };

  /**
   * Follows a rewind to `snapshot`: the caller has deleted the stored blocks above its tip (in the
   * RSK revert's batch, ChainStore.truncateAbove); here the blocks go in memory and its pool comes back.
   */
  rewound(snapshot: BtcSnapshot): void {
    if (this.unloaded !== undefined && snapshot.pool.length === 0) {
      this.unloaded.length = snapshot.tip - PREMINED_BLOCKS;
      return;
    }
    this.load();
    // The common case (evm_revert in a test suite that never touched Bitcoin): nothing to undo.
    if (snapshot.tip === this.height) {
      if (snapshot.pool.length === this.pool.length && snapshot.pool.every((entry, i) => entry === this.pool[i])) return;
      this.clearPool();
      for (const entry of snapshot.pool) this.addToPool(entry);
      return;
    }
    const kept = this.blocks.slice(0, snapshot.tip + 1);
    this.blocks = [];
    this.heightByHash.clear();
    this.txIndex.clear();
    this.utxos.clear();
    this.clearPool();
    kept.forEach((b) => this.apply(b));
    for (const entry of snapshot.pool) this.addToPool(entry);
  }

  // ---- inside --------------------------------------------------------------------------------

  /** Builds the chain in memory on first use: the premine, then the stored blocks above it. */
  private load(): void {
    const stored = this.unloaded;
    if (stored === undefined) return;
    this.unloaded = undefined;
    preminedBlocks().forEach((b) => this.apply(b));
    stored.forEach((bytes, i) => this.apply(decodeStoredBlock(bytes, PREMINED_BLOCKS + 1 + i)));
  }

  private apply(block: BtcBlock): void {
    this.blocks[block.height] = block;
    this.heightByHash.set(bytesToHex(block.hash), block.height);
    block.transactions.forEach((tx, index) => this.txIndex.set(bytesToHex(tx.txid), { height: block.height, index }));
    this.utxos.applyBlock(block);
  }

  private addToPool(entry: PooledBtcTx): void {
    this.pool.push(entry);
    this.poolIds.add(bytesToHex(entry.tx.txid));
    this.poolWeight += entry.tx.weight;
    this.utxos.applyPooled(entry.tx);
  }

  private clearPool(): void {
    this.pool = [];
    this.poolIds.clear();
    this.poolWeight = 0;
    this.utxos.clearPool();
  }

}

function readTime(block: BtcBlock): number {
  return new DataView(block.header.buffer, block.header.byteOffset).getUint32(68, true);
}

const displayOf = (hash: Uint8Array) => bytesToHex(reversed(hash));
const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
