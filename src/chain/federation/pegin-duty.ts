/**
 * The federation's peg-in duty (runner.ts): as a PowPeg node's BtcToRskClient does, once
 * a Bitcoin transaction paying the federation has PEGIN_MINIMUM_CONFIRMATIONS, register it with
 * the Bridge: first the block's coinbase when the transaction has a witness (its proof is over the
 * wtxids, against the witness root only the coinbase commits to: registerBtcCoinbaseTransaction),
 * then registerBtcTransaction(tx, height, pmt). Each block is looked at once, when mining gives it
 * its third confirmation; what the Bridge already processed is skipped.
 */
import { equalsBytes } from '@ethereumjs/util';
import { RawTx } from '@scure/btc-signer';
import type { BtcBlock } from '../btc-chain/block.js';
import { witnessRoot } from '../btc-chain/block.js';
import type { BtcChain } from '../btc-chain/btc-chain.js';
import { partialMerkleTree } from '../btc-chain/merkle.js';
import type { BtcTransaction } from '../btc-chain/transaction.js';
import { encodeAbi, selector, type AbiType, type AbiValue } from '../native/abi.js';
import { federationOutputScript } from '../native/bridge/federation.js';
import { activeFederation } from '../native/bridge/getters.js';
import { PEGIN_MINIMUM_CONFIRMATIONS } from '../native/bridge/pegin.js';
import { coinbaseWitnessRoot, processedHeight } from '../native/bridge/processed.js';
import type { BridgeStorage } from '../native/bridge/storage.js';
import type { FederationDuty, FederationDutyContext, FederationTrigger } from './runner.js';
import { reversed } from '../bitcoin/encoding.js';

/** BIP141: the coinbase's witness reserved value, which the node's miner sets to 32 zero bytes (block.ts). */
const WITNESS_RESERVED_VALUE = new Uint8Array(32);

function bridgeCall(name: string, types: AbiType[], values: AbiValue[]): Uint8Array {
  const head = selector(name, types);
  const body = encodeAbi(types, values);
  const data = new Uint8Array(head.length + body.length);
  data.set(head);
  data.set(body, head.length);
  return data;
}



/** The coinbase serialized without its witness: its txid is what the header's merkle tree holds. */
function withoutWitness(tx: BtcTransaction): Uint8Array {
  return RawTx.encode({ ...RawTx.decode(tx.raw), segwitFlag: false, witnesses: undefined });
}

/** registerBtcCoinbaseTransaction's call data for `block`. */
export function coinbaseRegistration(block: BtcBlock): Uint8Array {
  const txids = block.transactions.map((tx) => tx.txid);
  return bridgeCall(
    'registerBtcCoinbaseTransaction',
    ['bytes', 'bytes32', 'bytes', 'bytes32', 'bytes32'],
    [withoutWitness(block.transactions[0]!), reversed(block.hash), partialMerkleTree(txids, 0), reversed(witnessRoot(block.transactions)), WITNESS_RESERVED_VALUE],
  );
}

/** registerBtcTransaction's call data for transaction `index` of `block`. */
export function pegInRegistration(block: BtcBlock, index: number): Uint8Array {
  const tx = block.transactions[index]!;
  const hashes = tx.hasWitness ? [new Uint8Array(32), ...block.transactions.slice(1).map((t) => t.wtxid)] : block.transactions.map((t) => t.txid);
  return bridgeCall('registerBtcTransaction', ['bytes', 'int256', 'bytes'], [tx.raw, BigInt(block.height), partialMerkleTree(hashes, index)]);
}

/** Heights whose blocks reached PEGIN_MINIMUM_CONFIRMATIONS with `mined` (the blocks one btc_mine added). */
function newlyConfirmed(btc: BtcChain, mined: readonly BtcBlock[]): BtcBlock[] {
  if (mined.length === 0) return [];
  const depth = PEGIN_MINIMUM_CONFIRMATIONS - 1;
  const from = Math.max(1, mined[0]!.height - depth);
  const to = mined[mined.length - 1]!.height - depth;
  const blocks: BtcBlock[] = [];
  for (let h = from; h <= to; h++) blocks.push(btc.blockAt(h)!);
  return blocks;
}

async function registerBlock(context: FederationDutyContext, storage: BridgeStorage, block: BtcBlock): Promise<void> {
  const fedScript = federationOutputScript(activeFederation());
  let coinbaseRegistered = false;
  for (let index = 1; index < block.transactions.length; index++) {
    const tx = block.transactions[index]!;
    if (!tx.outputs.some((o) => equalsBytes(o.script, fedScript))) continue;
    if ((await processedHeight(storage, tx.txid)) !== undefined) continue;
    if (tx.hasWitness && !coinbaseRegistered && (await coinbaseWitnessRoot(storage, block.hash)) === undefined) {
      await context.sendToBridge(coinbaseRegistration(block));
      coinbaseRegistered = true;
    }
    await context.sendToBridge(pegInRegistration(block, index));
  }
}

export const PEGIN_DUTY: FederationDuty = {
  name: 'peg-in registration',
  async run(context: FederationDutyContext, trigger: FederationTrigger): Promise<void> {
    if (trigger.kind !== 'btcBlocks') return;
    for (const block of newlyConfirmed(context.btc, trigger.blocks)) await registerBlock(context, context.bridgeAtHead(), block);
  },
};
