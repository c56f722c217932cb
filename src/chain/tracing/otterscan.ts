/**
 * Otterscan's two trace shapes, from a replayed transaction's call tree (recorder.ts), as erigon's
 * otterscan tracers print them: ots_traceTransaction's flat list of every frame in call order, and
 * ots_getInternalOperations' value movements below the top call.
 */
import { bytesToHex } from '@ethereumjs/util';
import { REMASC_ADDRESS, ZERO_ADDRESS } from '../base/addresses.js';
import type { Frame, SelfDestructRecord } from './recorder.js';
import type { TracedTx } from './replay.js';

export interface OtsTraceEntry {
  type: string;
  depth: number;
  from: string;
  to: string | null;
  /** null for STATICCALL and DELEGATECALL, which move no value (erigon). */
  value: string | null;
  input: string;
  output: string;
}

/** ots_getInternalOperations' kinds (erigon's OperationType). */
const TRANSFER = 0;
const SELF_DESTRUCT = 1;
const CREATE = 2;
const CREATE2 = 3;

export interface InternalOperation {
  type: number;
  from: string;
  to: string;
  value: string;
}

const quantity = (v: bigint): string => `0x${v.toString(16)}`;

/** Every frame, depth first in call order; the top call is depth 0. */
export function otsTraceEntries(traced: TracedTx): OtsTraceEntry[] {
  const root = traced.recorder?.root;
  if (root === undefined) {
    // REMASC runs no EVM code here: one call from the zero address to the REMASC contract.
    const { tx } = traced;
    return [{ type: 'CALL', depth: 0, from: bytesToHex(tx.from ?? ZERO_ADDRESS), to: bytesToHex(tx.to ?? REMASC_ADDRESS), value: '0x0', input: bytesToHex(tx.data), output: '0x' }];
  }
  const out: OtsTraceEntry[] = [];
  const walk = (frame: Frame | SelfDestructRecord, depth: number) => {
    if (frame.kind === 'SELFDESTRUCT') {
      out.push({ type: 'SELFDESTRUCT', depth, from: bytesToHex(frame.address), to: bytesToHex(frame.beneficiary), value: quantity(frame.balance), input: '0x', output: '0x' });
      return;
    }
    const delegated = frame.kind === 'DELEGATECALL' || frame.kind === 'CALLCODE';
    const from = delegated ? frame.address! : frame.caller;
    const to = delegated ? frame.codeAddress : frame.address;
    const movesValue = frame.kind !== 'STATICCALL' && frame.kind !== 'DELEGATECALL';
    out.push({
      type: frame.kind,
      depth,
      from: bytesToHex(from),
      to: to === undefined ? null : bytesToHex(to),
      value: movesValue ? quantity(frame.value) : null,
      input: bytesToHex(frame.input),
      output: bytesToHex(frame.output),
    });
    for (const child of frame.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

/**
 * Below the top call: CALLs that move value, CREATE/CREATE2 (with the new address) and
 * self-destructs, in the order they happened. Frames that failed are kept, as erigon's tracer does.
 */
export function internalOperations(traced: TracedTx): InternalOperation[] {
  const root = traced.recorder?.root;
  if (root === undefined) return [];
  const out: InternalOperation[] = [];
  const walk = (frame: Frame) => {
    for (const child of frame.children) {
      if (child.kind === 'SELFDESTRUCT') {
        out.push({ type: SELF_DESTRUCT, from: bytesToHex(child.address), to: bytesToHex(child.beneficiary), value: quantity(child.balance) });
        continue;
      }
      if (child.kind === 'CALL' && child.value > 0n) {
        out.push({ type: TRANSFER, from: bytesToHex(child.caller), to: bytesToHex(child.address!), value: quantity(child.value) });
      } else if ((child.kind === 'CREATE' || child.kind === 'CREATE2') && child.address !== undefined) {
        const type = child.kind === 'CREATE' ? CREATE : CREATE2;
        out.push({ type, from: bytesToHex(child.caller), to: bytesToHex(child.address), value: quantity(child.value) });
      }
      walk(child);
    }
  };
  walk(root);
  return out;
}
