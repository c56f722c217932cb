/**
 * Merged mining (rskj's mnr_ module, reference 6.5) and the Ethereum work methods (eth_getWork and
 * friends) answered for an RSK chain. The chain keeps the work (chain/merged-mining/work.ts) and imports
 * solutions (chain/merged-mining/submit.ts); these handlers decode rskj's formats and shape its answers.
 */
import { bytesToHex } from '@ethereumjs/util';
import {
  MINER_ACCOUNT,
  type Chain,
  workTarget,
  type BitcoinSolution,
  BitcoinDataError,
  solutionFromBlock,
  solutionFromMerkleHashes,
  solutionFromTxHashes,
  submitSolution,
} from '../../chain/index.js';
import { method, type RpcContext } from '../context.js';
import { InvalidParams, RpcError } from '../errors.js';
import { quantity } from '../format.js';
import { ParamError, data, describe, hash32, makeDecoder, noParams, params, storageSlot } from '../params.js';

/** rskj JsonRpcApplicationDefinedErrorCodes.SUBMIT_BLOCK: every refused merged-mining submission. */
export const SUBMIT_BLOCK_ERROR = -33000;
/** rskj's hash rate window (HashRateCalculator over Duration.ofHours(1)), in seconds. */
const HASHRATE_WINDOW_SECONDS = 3600n;
/** eth_getWork's seed hash: RSK has no Ethash epochs; epoch 0's seed is 32 zero bytes. */
const SEED_HASH = `0x${'0'.repeat(64)}`;

const HEX_RE = /^[0-9a-fA-F]*$/;

/** rskj decodes these with a plain hex decoder (no 0x); a 0x prefix is accepted as well. */
function bitcoinHex(v: unknown): Uint8Array {
  if (typeof v !== 'string') throw new ParamError(`expected a hex string, got ${describe(v)}`);
  const body = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v;
  if (!HEX_RE.test(body)) throw new ParamError('invalid hex string');
  if (body.length % 2 !== 0) throw new ParamError('hex string of odd length');
  return Uint8Array.from(Buffer.from(body, 'hex'));
}

const bitcoinData = (name: string) => makeDecoder(name, bitcoinHex);

/** A whitespace-separated list of 32-byte hashes in hex (rskj splits on \s+). */
const hashList = (name: string) =>
  makeDecoder(name, (v) => {
    if (typeof v !== 'string') throw new ParamError(`expected a string of whitespace-separated hashes, got ${describe(v)}`);
    return v
      .trim()
      .split(/\s+/)
      .filter((s) => s.length > 0)
      .map((hex, i) => {
        const bytes = bitcoinHex(hex);
        if (bytes.length !== 32) throw new ParamError(`hash ${i} has ${bytes.length} bytes, want 32`);
        return bytes;
      });
  });

/** rskj reads the first argument of the two partial forms and ignores it. */
const ignoredBlockHash = makeDecoder('blockHash', (v) => {
  if (typeof v !== 'string') throw new ParamError(`expected a string, got ${describe(v)}`);
  return v;
});

/** rskj: Integer.parseInt(count, 16); unused by the RSKIP92 proof but still checked. */
const txCount = makeDecoder('blockTxnCount', (v) => {
  if (typeof v !== 'string') throw new ParamError(`expected a hex string, got ${describe(v)}`);
  const body = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v;
  if (!/^[0-9a-fA-F]{1,8}$/.test(body) || Number.parseInt(body, 16) > 0x7fffffff || Number.parseInt(body, 16) === 0) {
    throw new ParamError(`expected a positive base-16 transaction count, got '${v.length > 40 ? v.slice(0, 40) + '...' : v}'`);
  }
  return Number.parseInt(body, 16);
});

/** rskj's eth_submitWork nonce: 8 bytes. */
const workNonce = makeDecoder('nonce', (v) => {
  const bytes = data.parse(v);
  if (bytes.length !== 8) throw new ParamError(`hex string has length ${bytes.length * 2}, want 16 for an 8-byte nonce`);
  return bytes;
});

/** Builds the solution, turning malformed Bitcoin data into invalid params (rskj: -32603). */
function solution(build: () => BitcoinSolution): BitcoinSolution {
  try {
    return build();
  } catch (err) {
    if (err instanceof BitcoinDataError) throw new InvalidParams(`invalid Bitcoin data: ${err.message}`);
    throw err;
  }
}

/** rskj's SubmittedBlockInfo, or its -33000 error. */
async function submit(ctx: RpcContext, sol: BitcoinSolution) {
  const result = await submitSolution(ctx.chain.merged, sol);
  if (!result.ok) throw new RpcError(SUBMIT_BLOCK_ERROR, result.message);
  return {
    blockImportedResult: bytesToHex(new TextEncoder().encode(result.importResult)),
    blockHash: bytesToHex(result.blockHash),
    blockIncludedHeight: quantity(result.height),
  };
}

/**
 * rskj's HashRateCalculator: the difficulty of the blocks from the head back while their
 * timestamps lie within the last hour of the wall clock, per second. `ours` counts only blocks
 * whose coinbase is the node's miner (eth_hashrate); every block here has it, so both agree.
 */
async function measuredHashrate(chain: Chain, ours: boolean): Promise<bigint> {
  const upto = BigInt(Math.floor(Date.now() / 1000));
  const from = upto - HASHRATE_WINDOW_SECONDS;
  let sum = 0n;
  for (let block = chain.head; block.header.number > 0n; ) {
    const { timestamp } = block.header;
    if (timestamp < from || timestamp > upto) break;
    if (!ours || bytesToHex(block.header.coinbase) === MINER_ACCOUNT.address) sum += block.header.difficulty;
    const parent = await chain.blockByNumber(block.header.number - 1n);
    if (parent === undefined) break;
    block = parent;
  }
  return sum / HASHRATE_WINDOW_SECONDS;
}

export const miningMethods = [
  method(
    'mnr_getWork',
    "rskj's MinerWork for the block being built: blockHashForMergedMining, target, feesPaidToMiner (decimal wei), notify, parentBlockHash.",
    noParams,
    async (ctx) => {
      const work = await ctx.chain.merged.currentWork();
      return {
        blockHashForMergedMining: bytesToHex(work.hashForMergedMining),
        target: workTarget(work),
        feesPaidToMiner: work.view.header.paidFees.toString(),
        notify: ctx.chain.merged.works.takeNotify(work),
        parentBlockHash: bytesToHex(work.view.header.parentHash),
      };
    },
  ),
  method(
    'mnr_submitBitcoinBlock',
    'Imports the handed-out block a whole serialized Bitcoin block (hex) merge-mines; the proof covers all its transactions.',
    params([bitcoinData('bitcoinBlock')]),
    (ctx, [block]) => submit(ctx, solution(() => solutionFromBlock(block))),
  ),
  method(
    'mnr_submitBitcoinBlockTransactions',
    'Like mnr_submitBitcoinBlock from the 80-byte header, the coinbase and the txids (display order, whitespace-separated, coinbase first).',
    params([ignoredBlockHash, bitcoinData('blockHeader'), bitcoinData('coinbase'), hashList('txHashes')]),
    (ctx, [, header, coinbase, txHashes]) => submit(ctx, solution(() => solutionFromTxHashes(header, coinbase, txHashes))),
  ),
  method(
    'mnr_submitBitcoinBlockPartialMerkle',
    'Like mnr_submitBitcoinBlock from the header, the coinbase, the merkle branch (coinbase txid then siblings, internal order) and the tx count (hex).',
    params([ignoredBlockHash, bitcoinData('blockHeader'), bitcoinData('coinbase'), hashList('merkleHashes'), txCount]),
    (ctx, [, header, coinbase, hashes]) => {
      if (hashes.length === 0) throw new RpcError(SUBMIT_BLOCK_ERROR, "The list of merkle hashes can't be empty");
      return submit(ctx, solution(() => solutionFromMerkleHashes(header, coinbase, hashes)));
    },
  ),
  method(
    'eth_getWork',
    "[hashForMergedMining of the block being built, seed hash (zero: no Ethash epochs), target]; the target is mnr_getWork's, floor(2^256 / max(difficulty, 3)).",
    noParams,
    async (ctx) => {
      const work = await ctx.chain.merged.currentWork();
      return [bytesToHex(work.hashForMergedMining), SEED_HASH, workTarget(work)];
    },
  ),
  method(
    'eth_submitWork',
    'Always false: an RSK block is sealed by a Bitcoin merged-mining proof, which an Ethash nonce and mix digest cannot be; submit with mnr_submitBitcoinBlock*.',
    params([workNonce, hash32.as('powHash'), hash32.as('mixDigest')]),
    () => false,
  ),
  method(
    'eth_submitHashrate',
    "Records a miner's reported hash rate (32-byte hex) under its id; eth_hashrate adds reports of the last minute. Returns true.",
    params([storageSlot.as('hashrate'), hash32.as('id')]),
    (ctx, [rate, id]) => {
      ctx.chain.merged.works.reportHashrate(id, rate, Date.now());
      return true;
    },
  ),
  method(
    'eth_hashrate',
    "Hashes per second: rskj's measure (difficulty of this node's blocks in the last hour / 3600) plus eth_submitHashrate reports of the last minute.",
    noParams,
    async (ctx) => quantity((await measuredHashrate(ctx.chain, true)) + ctx.chain.merged.works.reportedHashrate(Date.now())),
  ),
  method(
    'eth_netHashrate',
    "rskj's network hash rate as a JSON number: difficulty of the blocks of the last hour / 3600.",
    noParams,
    async (ctx) => Number(await measuredHashrate(ctx.chain, false)),
  ),
];
