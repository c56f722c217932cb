/**
 * callTracer in geth's shape (eth/tracers/native/call.go), with rskj's field list: a tree of call
 * frames {type, from, to, value, gas, gasUsed, input, output, error, revertReason, calls, logs}.
 * As geth does: the top frame's gas is the transaction's gas limit and its gasUsed the receipt's;
 * a reverted frame has error "execution reverted", its revert data as output and, when it decodes,
 * revertReason; a failed CREATE has no `to`; SELFDESTRUCT is a frame; with withLog, frames carry
 * their logs (dropped from failed frames and their children); onlyTopCall keeps only the top frame.
 * A call to the console address also carries the line it printed, `consoleLog` (console-lines.ts).
 */
import { bytesToHex } from '@ethereumjs/util';
import { REMASC_ADDRESS, ZERO_ADDRESS } from '../base/addresses.js';
import { PANIC_REASONS, errorString, panicCode } from '../exec/revert-data.js';
import { consoleLineOf } from './console-lines.js';
import { gethError } from './failure-text.js';
import type { Frame, SelfDestructRecord } from './recorder.js';
import type { TracedTx } from './replay.js';

export interface CallTracerOptions {
  onlyTopCall: boolean;
  withLog: boolean;
}

export interface CallFrameJson {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  /** A call to the console address: the line it printed (tracing/console-lines.ts). Not in geth's shape. */
  consoleLog?: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrameJson[];
  logs?: CallLogJson[];
}

export interface CallLogJson {
  /** Block-wide log index, as the receipt numbers it (rskj's LogInfoResult.index). */
  index: number;
  address: string;
  topics: string[];
  data: string;
  /** geth: how many calls the frame had made before this log. */
  position: string;
}

const quantity = (v: bigint | number): string => `0x${v.toString(16)}`;

export function callTrace(traced: TracedTx, options: CallTracerOptions): CallFrameJson {
  const { tx } = traced;
  const root = traced.recorder?.root;
  if (root === undefined) {
    // REMASC: a call from the zero address to the REMASC contract that runs no EVM code here.
    return { type: 'CALL', from: bytesToHex(tx.from ?? ZERO_ADDRESS), to: bytesToHex(tx.to ?? REMASC_ADDRESS), value: '0x0', gas: '0x0', gasUsed: '0x0', input: bytesToHex(tx.data) };
  }
  const logIndexes = options.withLog ? survivingLogIndexes(root, traced.logIndexStart) : undefined;
  const top = frameJson(root, options, logIndexes);
  top.gas = quantity(tx.gasLimit);
  top.gasUsed = quantity(traced.gasUsed);
  return top;
}

function frameJson(frame: Frame, options: CallTracerOptions, logIndexes: Map<number, number> | undefined): CallFrameJson {
  const failed = frame.error !== undefined;
  const isCreate = frame.kind === 'CREATE' || frame.kind === 'CREATE2';
  // DELEGATECALL runs in the caller's context: geth shows the delegating contract as `from`.
  const from = frame.kind === 'DELEGATECALL' || frame.kind === 'CALLCODE' ? frame.address! : frame.caller;
  const to = isCreate ? frame.address : frame.kind === 'DELEGATECALL' || frame.kind === 'CALLCODE' ? frame.codeAddress : frame.address;
  // Keys are added in rskj's TxTraceResult order.
  const json = { type: frame.kind, from: bytesToHex(from) } as CallFrameJson;
  if (to !== undefined && !(isCreate && failed)) json.to = bytesToHex(to);
  if (frame.kind !== 'STATICCALL') json.value = quantity(frame.value);
  json.gas = quantity(frame.gas);
  json.gasUsed = quantity(frame.gasUsed);
  json.input = bytesToHex(frame.input);
  const consoleLog = consoleLineOf(frame);
  if (consoleLog !== undefined) json.consoleLog = consoleLog;
  if (!failed) {
    if (frame.output.length > 0) json.output = bytesToHex(frame.output);
  } else if (frame.error === 'revert' && frame.output.length > 0) {
    json.output = bytesToHex(frame.output);
  }
  const error = gethError(frame);
  if (error !== undefined) json.error = error;
  if (frame.error === 'revert') {
    const reason = decodeRevertReason(frame.output);
    if (reason !== undefined) json.revertReason = reason;
  }
  if (!options.onlyTopCall) {
    const calls = frame.children.map((child) => (child.kind === 'SELFDESTRUCT' ? selfDestructJson(child) : frameJson(child, options, logIndexes)));
    if (calls.length > 0) json.calls = calls;
  }
  if (logIndexes !== undefined) {
    const logs = frame.logs
      .filter((log) => logIndexes.has(log.seq))
      .map((log) => ({
        index: logIndexes.get(log.seq)!,
        address: bytesToHex(log.address),
        topics: log.topics.map((topic) => bytesToHex(topic)),
        data: bytesToHex(log.data),
        position: quantity(log.position),
      }));
    if (logs.length > 0) json.logs = logs;
  }
  return json;
}

function selfDestructJson(record: SelfDestructRecord): CallFrameJson {
  return { type: 'SELFDESTRUCT', from: bytesToHex(record.address), to: bytesToHex(record.beneficiary), value: quantity(record.balance), gas: '0x0', gasUsed: '0x0', input: '0x' };
}

/**
 * Logs that reach the receipt (those of frames that did not fail, nor any of whose callers
 * failed), numbered as the receipt numbers them: block-wide, in emission order.
 */
function survivingLogIndexes(root: Frame, start: number): Map<number, number> {
  const kept: number[] = [];
  const walk = (frame: Frame, parentFailed: boolean) => {
    const failed = parentFailed || frame.error !== undefined;
    if (!failed) for (const log of frame.logs) kept.push(log.seq);
    for (const child of frame.children) if (child.kind !== 'SELFDESTRUCT') walk(child, failed);
  };
  walk(root, false);
  kept.sort((a, b) => a - b);
  return new Map(kept.map((seq, i) => [seq, start + i]));
}

export function decodeRevertReason(data: Uint8Array): string | undefined {
  const reason = errorString(data);
  if (reason !== undefined) return reason;
  const code = panicCode(data);
  return code === undefined ? undefined : (PANIC_REASONS[code] ?? `unknown panic code: 0x${code.toString(16)}`);
}
