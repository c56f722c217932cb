/**
 * trace_* (Parity style) as rskj builds it (co/rsk/rpc/modules/trace/TraceTransformer.java and the
 * subtraces Program.java records). rskj's quirks are kept, since tools written against rskj expect
 * them:
 * - every call-type entry's `input` is the top-level transaction's data;
 * - the top entry's `gas` is the transaction's gas limit when code runs and 0x0 when none does
 *   (TransferInvoke), its `gasUsed` the receipt's, and its `output` always "0x" (rskj builds it
 *   from an empty ProgramResult);
 * - calls to precompiled contracts and failed creations are not listed; a call to an account
 *   without code is listed with gasUsed 0x0;
 * - errors: "Reverted", or the exception ("class <name>: <message>" on the top entry, Java's
 *   "<name>: <message>" on the others), and then `result` is null.
 */
import { bytesToHex } from '@ethereumjs/util';
import { javaClassAndMessage, javaThrowableString, rskjException } from './failure-text.js';
import type { Frame, SelfDestructRecord } from './recorder.js';
import type { TracedTx } from './replay.js';

export interface ParityTrace {
  action: Record<string, string>;
  blockHash: string | null;
  blockNumber: number;
  transactionHash: string;
  transactionPosition: number;
  type: 'call' | 'create' | 'suicide';
  subtraces: number;
  traceAddress: number[];
  result: Record<string, string> | null;
  error?: string;
}

interface BlockInfo {
  hash: Uint8Array | undefined;
  number: bigint;
}

const quantity = (v: bigint | number): string => `0x${v.toString(16)}`;

/** A child the way rskj lists it, or undefined when rskj records no subtrace for it. */
type Listed = { kind: 'frame'; frame: Frame; children: Listed[] } | { kind: 'suicide'; record: SelfDestructRecord };

function listed(children: Frame['children']): Listed[] {
  const out: Listed[] = [];
  for (const child of children) {
    if (child.kind === 'SELFDESTRUCT') {
      out.push({ kind: 'suicide', record: child });
      continue;
    }
    if (child.isPrecompile) continue;
    const isCreate = child.kind === 'CREATE' || child.kind === 'CREATE2';
    // rskj records a creation only when it succeeded and had init code (Program.getProgramResult).
    if (isCreate && (child.error !== undefined || child.input.length === 0)) continue;
    out.push({ kind: 'frame', frame: child, children: listed(child.children) });
  }
  return out;
}

export function parityTraces(traced: TracedTx, block: BlockInfo): ParityTrace[] {
  const { tx } = traced;
  const base = {
    blockHash: block.hash === undefined ? null : bytesToHex(block.hash),
    blockNumber: Number(block.number),
    transactionHash: bytesToHex(tx.hash),
    transactionPosition: traced.index,
  };
  const root = traced.recorder?.root;
  const isCreate = tx.to === undefined;
  const ranCode = root !== undefined && (root.steps > 0 || (isCreate && root.input.length > 0));
  const txData = bytesToHex(tx.data);
  const out: ParityTrace[] = [];
  const children = root === undefined ? [] : listed(root.children);

  // The top entry, from the transaction and its receipt.
  let error: string | undefined;
  if (root !== undefined && root.error === 'revert') error = 'Reverted';
  else if (root !== undefined) {
    const exception = rskjException(root, tx.hash);
    if (exception !== undefined) error = javaClassAndMessage(exception);
  }
  const gas = quantity(ranCode ? tx.gasLimit : 0n);
  const action: Record<string, string> = isCreate
    ? { from: bytesToHex(tx.from), gas, init: txData, value: quantity(tx.value) }
    : { callType: 'call', from: bytesToHex(tx.from), to: bytesToHex(tx.to!), gas, input: txData, value: quantity(tx.value) };
  let result: Record<string, string> | null;
  if (isCreate) {
    const created = root?.address;
    result = { gasUsed: quantity(traced.gasUsed), code: bytesToHex(root?.output ?? new Uint8Array(0)), address: created === undefined ? '0x' : bytesToHex(created) };
  } else {
    result = { gasUsed: quantity(traced.gasUsed), output: '0x' };
  }
  out.push(entry(base, action, isCreate ? 'create' : 'call', children.length, [], error === undefined ? result : null, error));
  addChildren(out, base, children, [], txData, tx.hash);
  return out;
}

function addChildren(out: ParityTrace[], base: Base, children: Listed[], address: number[], txData: string, txHash: Uint8Array): void {
  children.forEach((child, k) => {
    const traceAddress = [...address, k];
    if (child.kind === 'suicide') {
      const { record } = child;
      const action = { address: bytesToHex(record.address), refundAddress: bytesToHex(record.beneficiary), balance: quantity(record.balance) };
      out.push(entry(base, action, 'suicide', 0, traceAddress, null, undefined));
      return;
    }
    const { frame } = child;
    const isCreate = frame.kind === 'CREATE' || frame.kind === 'CREATE2';
    const parentAddress = frame.kind === 'DELEGATECALL' ? frame.address! : frame.caller;
    let action: Record<string, string>;
    let result: Record<string, string> | null;
    let error: string | undefined;
    if (isCreate) {
      action = { from: bytesToHex(frame.caller), gas: quantity(frame.gas), init: bytesToHex(frame.input), value: quantity(frame.value), creationMethod: frame.kind.toLowerCase() };
      result = { gasUsed: quantity(frame.gasUsed), code: bytesToHex(frame.output), address: bytesToHex(frame.address!) };
    } else {
      const to = frame.kind === 'DELEGATECALL' ? frame.codeAddress! : frame.address!;
      const value = frame.kind === 'DELEGATECALL' && frame.steps === 0 ? 0n : frame.value;
      action = { callType: frame.kind.toLowerCase(), from: bytesToHex(parentAddress), to: bytesToHex(to), gas: quantity(frame.gas), input: txData, value: quantity(value) };
      // A call into an account without code: rskj lists a transfer with an empty ProgramResult.
      result = frame.steps === 0 ? { gasUsed: '0x0', output: '0x' } : { gasUsed: quantity(frame.gasUsed), output: bytesToHex(frame.output) };
      if (frame.steps > 0) {
        if (frame.error === 'revert') error = 'Reverted';
        else {
          const exception = rskjException(frame, txHash);
          if (exception !== undefined) error = javaThrowableString(exception);
        }
      }
    }
    out.push(entry(base, action, isCreate ? 'create' : 'call', child.children.length, traceAddress, error === undefined ? result : null, error));
    addChildren(out, base, child.children, traceAddress, txData, txHash);
  });
}

type Base = Pick<ParityTrace, 'blockHash' | 'blockNumber' | 'transactionHash' | 'transactionPosition'>;

/** rskj's TransactionTrace field order; `result` is always written, `error` only when set. */
function entry(
  base: Base,
  action: Record<string, string>,
  type: ParityTrace['type'],
  subtraces: number,
  traceAddress: number[],
  result: Record<string, string> | null,
  error: string | undefined,
): ParityTrace {
  const trace: ParityTrace = { action, ...base, type, subtraces, traceAddress, result };
  if (error !== undefined) trace.error = error;
  return trace;
}
