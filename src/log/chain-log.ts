/**
 * What a developer watches scroll by at `--log-level info`: one line per mined block and one per
 * transaction in it (as anvil and `hardhat node` print them), read from the chain's 'block' event
 * so that the chain itself never logs.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Chain, RskBlock, BlockReceipts, ReceiptRecord, TxRecord } from '../chain/index.js';
import { type Logger, logLines } from '../logger.js';
import { describeRevert } from './revert-reason.js';

/** Logs every block the chain mines from now on; returns the unsubscribe function. */
export function logMinedBlocks(chain: Chain, logger: Logger): () => void {
  const onBlock = (block: RskBlock, receipts: BlockReceipts) => {
    if (!logger.isLevelEnabled('info')) return;
    logLines(logger, 'info', blockLines(chain.network, block, receipts.receipts, chain.fork?.remoteRequests));
  };
  chain.events.on('block', onBlock);
  return () => void chain.events.off('block', onBlock);
}

/**
 * The block's line, then its transactions' lines. REMASC closes every block: it is not counted.
 * A fork's block line adds the requests sent to its remote so far (the hosted gateway allows 25,000 a day).
 */
export function blockLines(network: string, block: RskBlock, receipts: readonly ReceiptRecord[], remoteRequests?: number): string[] {
  const userTxs = block.transactions.filter((tx) => !tx.isRemasc);
  const count = `${userTxs.length} transaction${userTxs.length === 1 ? '' : 's'}`;
  const remote = remoteRequests === undefined ? '' : `, ${remoteRequests} fork remote request${remoteRequests === 1 ? '' : 's'} so far`;
  const lines = [`${network} block ${block.header.number}: ${count}, gas used ${block.header.gasUsed}, hash ${bytesToHex(block.hash)}${remote}`];
  block.transactions.forEach((tx, i) => {
    if (!tx.isRemasc) lines.push(transactionLine(network, tx, receipts[i]!));
  });
  return lines;
}

function transactionLine(network: string, tx: TxRecord, receipt: ReceiptRecord): string {
  const target =
    tx.to !== undefined
      ? `to ${bytesToHex(tx.to)}`
      : receipt.success && receipt.contractAddress !== undefined
        ? `created contract ${bytesToHex(receipt.contractAddress)}`
        : 'creating a contract';
  return `${network} tx ${bytesToHex(tx.hash)}: from ${bytesToHex(tx.from)} ${target}, gas used ${receipt.gasUsed}, ${outcome(receipt)}`;
}

function outcome(receipt: ReceiptRecord): string {
  if (receipt.success) return 'success';
  if (receipt.vmError === 'revert') return describeRevert(receipt.revertData);
  // The error is not stored: a receipt read back from disk says only that the transaction failed.
  return receipt.vmError === undefined ? 'failed' : `failed: ${receipt.vmError}`;
}
