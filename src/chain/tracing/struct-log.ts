/**
 * rskj's default tracer ("rskTracer"): the JSON of DetailedProgramTrace for a transaction that runs
 * code, and of SummarizedProgramTrace (with a TransferInvoke) for one that runs none: a value
 * transfer, a call to a precompiled contract, a creation without init code, and REMASC.
 */
import { javaClassAndMessage, rskjException } from './failure-text.js';
import { consoleLinesOf } from './console-lines.js';
import type { Frame } from './recorder.js';
import type { TracedTx } from './replay.js';

const unprefixed = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
/** DataWord.toString(): 32 bytes, hex, no 0x. */
const dataWord = (bytes: Uint8Array): string => unprefixed(bytes).padStart(64, '0');

export function structLogTrace(traced: TracedTx): Record<string, unknown> {
  const root = traced.recorder?.root;
  const ranCode = root !== undefined && (root.steps > 0 || (root.kind === 'CREATE' && root.input.length > 0));
  if (root === undefined || !ranCode) return summarizedTrace(traced);
  const exception = rskjException(root, traced.tx.hash);
  const view = traced.recorder!.topStorage;
  return {
    contractAddress: root.address === undefined ? null : unprefixed(root.address),
    // The state trie hashes slot keys (secure trie), so a contract's slots cannot be listed: this is
    // rskj's output for a contract over its init-storage limit (docs/decisions.md#tracing-debug_-trace_).
    initStorage: {},
    structLogs: traced.recorder!.structLogs ?? [],
    result: unprefixed(root.output),
    error: exception === undefined ? '' : javaClassAndMessage(exception),
    reverted: root.error === 'revert',
    storageSize: view?.size ?? 0,
    currentStorage: view?.current ?? {},
    // Not rskj's: the transaction's console.log lines (console-lines.ts), only when it logged.
    ...consoleLogs(root),
  };
}

function consoleLogs(root: Frame): { consoleLogs?: string[] } {
  const lines = consoleLinesOf(root);
  return lines.length === 0 ? {} : { consoleLogs: lines };
}

/** SummarizedProgramTrace as rskj's field-level serializer writes it (msgData: base64, Jackson's byte[] default). */
function summarizedTrace(traced: TracedTx): Record<string, unknown> {
  const { tx } = traced;
  return {
    programInvoke: null,
    transferInvoke: {
      ownerAddress: dataWord(tx.to ?? new Uint8Array(0)),
      callerAddress: dataWord(tx.from),
      gas: 0,
      callValue: tx.value.toString(16).padStart(64, '0'),
      msgData: Buffer.from(tx.data).toString('base64'),
    },
    subtraces: [],
    result: null,
    error: null,
    reverted: false,
  };
}
