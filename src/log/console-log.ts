/**
 * Prints contracts' console.log lines, read from the chain's 'consoleLog' event, as `hardhat node`
 * does: a header naming the transaction (or eth_call, or the failed eth_estimateGas), then each
 * line indented. Written straight to the log's destination, whatever the log level (Hardhat prints
 * them with its logging off too): they are the output the contract's author asked for.
 * `--silent-console` (NodeOptions.silentConsole) and `--log-level silent` turn them off.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Chain, ConsoleLogEntry } from '../chain/index.js';
import type { LogDestination } from '../logger.js';

const INDENT = '  ';

/** Prints every console.log line the chain reports from now on; returns the unsubscribe function. */
export function printConsoleLogs(chain: Chain, destination: LogDestination): () => void {
  const onConsole = (entry: ConsoleLogEntry) => void destination.write(consoleText(chain.network, entry));
  chain.events.on('consoleLog', onConsole);
  return () => void chain.events.off('consoleLog', onConsole);
}

/** One execution's block of text: its header line, then its lines (a table's rows each indented). */
export function consoleText(network: string, entry: ConsoleLogEntry): string {
  const header =
    entry.kind === 'transaction'
      ? `${network} tx ${bytesToHex(entry.txHash!)}`
      : entry.kind === 'call'
        ? `${network} eth_call`
        : `${network} eth_estimateGas (failed)`;
  const body = entry.lines.flatMap((line) => line.split('\n')).map((line) => `${INDENT}${line}\n`);
  return `${header} console.log:\n${body.join('')}`;
}
