/**
 * Records one transaction's execution from @ethereumjs/evm's events: the call tree (every message
 * the EVM runs, with its gas, input, output and outcome, plus SELFDESTRUCTs and logs), and, when
 * asked, rskj's struct logs (one entry per executed opcode, the shape of rskj's DetailedProgramTrace).
 * The three output formats (struct-log.ts, call-tracer.ts, parity.ts) read this record.
 *
 * Written by hand: ethereumjs ships no tracer, and rskj's shapes are not geth's.
 *
 * Steps come from LeanEVM's step hook (evm/trace-step.ts): this recorder reads memory and the
 * whole stack only for the struct-log fields it was asked for, and otherwise a few stack items and
 * a LOG's data range. What it keeps it copies: call data, CREATE init code and precompile output
 * can be views into a caller's memory, which later opcodes overwrite.
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { EVM } from '@ethereumjs/evm';
import type { TraceStep } from '../evm/trace-step.js';
import { rskOpName } from './opcode-names.js';
import type { NativeExecResult, NativeTransfer } from '../native/types.js';

export type CallKind = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2';

export interface TraceLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
  /** Calls the frame had made when it logged (geth's `position`). */
  position: number;
  /** Order of emission within the transaction. */
  seq: number;
}

export interface SelfDestructRecord {
  kind: 'SELFDESTRUCT';
  /** The destroyed contract. */
  address: Uint8Array;
  beneficiary: Uint8Array;
  balance: bigint;
}

/** What a frame's last executed opcode looked like (for rskj's exception messages). */
export interface LastStep {
  opcode: number;
  /** The code byte at pc (ethereumjs reports every undefined opcode as 0xfe). */
  byte: number;
  pc: number;
  gasLeft: bigint;
  fee: bigint;
  stackLength: number;
  stackTop: bigint | undefined;
}

export interface Frame {
  kind: CallKind;
  depth: number;
  /** msg.caller: the account that sent the message (for DELEGATECALL, the parent's caller). */
  caller: Uint8Array;
  /** The account whose context runs (msg.to); for creates, the new contract's address once known. */
  address: Uint8Array | undefined;
  codeAddress: Uint8Array | undefined;
  value: bigint;
  gas: bigint;
  input: Uint8Array;
  isPrecompile: boolean;
  steps: number;
  lastStep: LastStep | undefined;
  output: Uint8Array;
  gasUsed: bigint;
  /** ethereumjs's EVMError text ('revert', 'out of gas', ...), undefined on success. */
  error: string | undefined;
  children: Array<Frame | SelfDestructRecord>;
  logs: TraceLog[];
  /**
   * The frame's last LOG, whose data is read once the LOG has run: the step event fires before
   * the opcode is charged, so its memory range may not exist yet (a LOG of 4 GiB that runs out of
   * gas must not make the tracer allocate 4 GiB).
   */
  unreadLog: { log: TraceLog; offset: number; size: number } | undefined;
  /** The code that runs: read during the frame only (a CREATE's is a view into its creator's memory). */
  code: Uint8Array;
}

export interface StructLog {
  op: string | null;
  depth: number;
  pc: number;
  gas: number;
  gasCost: number;
  memory?: string[];
  stack?: string[];
  /** The frame's storage view, shared between opcodes as rskj shares its map. */
  storage?: Record<string, string>;
}

/** Which per-opcode fields to record (rskj's disableMemory / disableStack / disableStorage). */
export interface StructLogOptions {
  memory: boolean;
  stack: boolean;
  storage: boolean;
  /** Shared by every transaction of one request; see StructLogBudget. */
  budget?: StructLogBudget;
}

/**
 * Struct logs grow with every step (a loop at the block gas limit makes millions), and their JSON
 * repeats memory, stack and storage per step. One request may build at most this much (estimated
 * JSON bytes); past it the recorder stops and the request is refused. V8's largest string is about
 * 512 MiB, and one trace must not hold the process's memory hostage.
 */
export const MAX_STRUCT_LOG_BYTES = 128 * 1024 * 1024;
/** Estimated JSON bytes of one struct log without memory, stack and storage, and of one word in them. */
const STRUCT_LOG_ENTRY_BYTES = 100;
const STRUCT_LOG_WORD_BYTES = 67;

export class StructLogBudget {
  bytesLeft = MAX_STRUCT_LOG_BYTES;
  exhausted = false;
}

/** Per-frame state of rskj's DetailedProgramTrace storage view. */
export interface StorageView {
  current: Record<string, string>;
  size: number;
  /** SLOAD/SSTORE seen at the previous opcode: applied when the next opcode of the frame runs. */
  pending: { key: string; stored: bigint | undefined } | undefined;
  /** Index of this frame's latest struct log. */
  lastLog: number;
}

const EMPTY = new Uint8Array(0);
const OP_CALL = 0xf1;
const OP_CALLCODE = 0xf2;
const OP_DELEGATECALL = 0xf4;
const OP_STATICCALL = 0xfa;
const OP_CREATE = 0xf0;
const OP_CREATE2 = 0xf5;
const OP_SLOAD = 0x54;
const OP_SSTORE = 0x55;
const OP_LOG0 = 0xa0;
const OP_LOG4 = 0xa4;
const OP_SELFDESTRUCT = 0xff;

const CALL_KIND_BY_OP: Record<number, CallKind> = {
  [OP_CALL]: 'CALL',
  [OP_CALLCODE]: 'CALLCODE',
  [OP_DELEGATECALL]: 'DELEGATECALL',
  [OP_STATICCALL]: 'STATICCALL',
  [OP_CREATE]: 'CREATE',
  [OP_CREATE2]: 'CREATE2',
};

/** Errors raised after the code ran (deploying the returned code): the last opcode itself succeeded. */
const POST_EXECUTION_ERRORS = new Set(['code store out of gas', 'code size to deposit exceeds maximum code size', 'invalid bytecode deployed']);

const word = (v: bigint): string => v.toString(16).padStart(64, '0');
const WORD_CACHE_ENTRIES = 4096;

export class TxRecorder {
  root: Frame | undefined;
  readonly structLogs: StructLog[] | undefined;
  /** The top frame's storage view (rskj serializes only the top-level trace's). */
  topStorage: StorageView | undefined;
  private readonly frames: Frame[] = [];
  private readonly views: StorageView[] = [];
  private callOp: number | undefined;
  private logSeq = 0;

  /** A copy of the memory last turned into words, and those words: shared while memory does not change. */
  private lastMemory: { bytes: Uint8Array; words: string[] } | undefined;
  /** Stack words by value: the same few values (0, offsets, selectors, addresses) recur. */
  private readonly words = new Map<bigint, string>();

  /** LeanEVM emits TraceSteps (see the file comment). */
  private readonly onStep = (step: InterpreterStep) => this.step(step as TraceStep);
  private readonly onBefore = (message: Message) => this.before(message);
  private readonly onAfter = (result: EVMResult) => this.after(result);

  constructor(
    private readonly evm: EVM,
    private readonly structLogOptions: StructLogOptions | undefined,
  ) {
    this.structLogs = structLogOptions === undefined ? undefined : [];
  }

  attach(): void {
    this.evm.events.on('step', this.onStep);
    this.evm.events.on('beforeMessage', this.onBefore);
    this.evm.events.on('afterMessage', this.onAfter);
  }

  detach(): void {
    this.evm.events.off('step', this.onStep);
    this.evm.events.off('beforeMessage', this.onBefore);
    this.evm.events.off('afterMessage', this.onAfter);
  }

  private before(message: Message): void {
    const depth = message.depth;
    const isCreate = message.to === undefined;
    let kind: CallKind;
    if (depth === 0) kind = isCreate ? 'CREATE' : 'CALL';
    else kind = (this.callOp !== undefined ? CALL_KIND_BY_OP[this.callOp] : undefined) ?? (isCreate ? 'CREATE' : message.delegatecall ? 'DELEGATECALL' : 'CALL');
    this.callOp = undefined;
    const address = message.to?.bytes;
    const frame: Frame = {
      kind,
      depth,
      caller: message.caller.bytes,
      address,
      codeAddress: isCreate ? undefined : message.codeAddress.bytes,
      value: message.value,
      gas: message.gasLimit,
      input: message.data.slice(),
      isPrecompile: !isCreate && this.evm.getPrecompile(message.codeAddress) !== undefined,
      steps: 0,
      lastStep: undefined,
      output: new Uint8Array(0),
      gasUsed: 0n,
      error: undefined,
      children: [],
      logs: [],
      unreadLog: undefined,
      code: message.code instanceof Uint8Array ? message.code : EMPTY,
    };
    const parent = this.frames[this.frames.length - 1];
    if (parent === undefined) this.root = frame;
    else parent.children.push(frame);
    this.frames.push(frame);

    if (this.structLogs !== undefined) {
      // rskj's CALL gasCost includes the gas handed to the callee (VM.getMessageCall); CREATE's does not.
      const parentView = this.views[this.views.length - 1];
      if (parentView !== undefined && parentView.lastLog >= 0 && (kind === 'CALL' || kind === 'CALLCODE' || kind === 'DELEGATECALL' || kind === 'STATICCALL')) {
        const callLog = this.structLogs[parentView.lastLog]!;
        callLog.gasCost += Number(message.gasLimit);
      }
      const view: StorageView = { current: {}, size: 0, pending: undefined, lastLog: -1 };
      if (depth === 0) this.topStorage = view;
      this.views.push(view);
    }
  }

  private after(result: EVMResult): void {
    const frame = this.frames.pop();
    const view = this.structLogs !== undefined ? this.views.pop() : undefined;
    if (frame === undefined) return;
    const exec = result.execResult;
    frame.output = exec.returnValue.slice();
    frame.code = EMPTY;
    frame.gasUsed = exec.executionGasUsed;
    frame.error = exec.exceptionError?.error;
    if (frame.unreadLog !== undefined) {
      // The LOG was the frame's last opcode: on success its data is the last log the EVM kept.
      const kept = exec.logs?.[exec.logs.length - 1];
      if (frame.error === undefined && kept !== undefined) frame.unreadLog.log.data = kept[2];
      frame.unreadLog = undefined;
    }
    if (result.createdAddress !== undefined) frame.address = result.createdAddress.bytes;
    // A native contract's own transfers (the Bridge's peg-in credit): rskj's ProgramSubtraces, one
    // CALL each from the contract, no gas, no data (BridgeSupport.transferTo).
    const transfers = (exec as NativeExecResult).nativeTransfers;
    if (frame.error === undefined && transfers !== undefined && frame.address !== undefined) {
      for (const t of transfers) frame.children.push(transferFrame(frame, t));
    }
    if (frame.error !== undefined && frame.error !== 'revert' && !POST_EXECUTION_ERRORS.has(frame.error)) {
      // rskj saves an opcode's gasCost only after it ran: the opcode that threw shows 0.
      if (view !== undefined && view.lastLog >= 0) this.structLogs![view.lastLog]!.gasCost = 0;
      // A SELFDESTRUCT that failed (static context, out of gas) destroyed nothing.
      const last = frame.children[frame.children.length - 1];
      if (last !== undefined && last.kind === 'SELFDESTRUCT' && frame.lastStep?.opcode === OP_SELFDESTRUCT) frame.children.pop();
    }
  }

  private memoryWords(step: TraceStep): string[] {
    const memory = step.memoryView();
    const last = this.lastMemory;
    if (last !== undefined && last.bytes.length === memory.length && Buffer.compare(last.bytes, memory) === 0) return last.words;
    const words = memoryWords(memory);
    this.lastMemory = { bytes: memory.slice(), words };
    return words;
  }

  private word(v: bigint): string {
    let w = this.words.get(v);
    if (w === undefined) {
      if (this.words.size >= WORD_CACHE_ENTRIES) this.words.clear();
      w = word(v);
      this.words.set(v, w);
    }
    return w;
  }

  private step(step: TraceStep): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame === undefined) return;
    const code = step.opcode.code;
    const stackLength = step.stackLength;
    const top = step.stackItem(0);
    if (frame.unreadLog !== undefined) {
      // The frame went on, so its LOG ran and its memory covers the range.
      const { log, offset, size } = frame.unreadLog;
      log.data = step.readMemory(offset, size);
      frame.unreadLog = undefined;
    }
    frame.steps++;
    const fee = step.opcode.dynamicFee ?? BigInt(step.opcode.fee);
    const byte = frame.code[step.pc] ?? code;
    frame.lastStep = { opcode: code, byte, pc: step.pc, gasLeft: step.gasLeft, fee, stackLength, stackTop: top };
    this.callOp = CALL_KIND_BY_OP[code] !== undefined ? code : undefined;

    if (code >= OP_LOG0 && code <= OP_LOG4 && stackLength >= 2 + (code - OP_LOG0)) {
      const offset = Number(top!);
      const size = Number(step.stackItem(1)!);
      const topics: Uint8Array[] = [];
      for (let i = 0; i < code - OP_LOG0; i++) topics.push(wordBytes(step.stackItem(2 + i)!));
      const log = { address: step.address.bytes, topics, data: EMPTY, position: frame.children.length, seq: this.logSeq++ };
      frame.logs.push(log);
      frame.unreadLog = { log, offset, size };
    } else if (code === OP_SELFDESTRUCT && top !== undefined) {
      frame.children.push({ kind: 'SELFDESTRUCT', address: step.address.bytes, beneficiary: wordBytes(top).subarray(12), balance: step.account.balance });
    }

    const logs = this.structLogs;
    if (logs === undefined) return;
    const view = this.views[this.views.length - 1]!;
    const options = this.structLogOptions!;
    // rskj's DetailedProgramTrace.addOp: the slot touched by the previous opcode is read now.
    const pending = view.pending;
    if (pending !== undefined) {
      const value = pending.stored ?? top ?? 0n;
      const known = pending.key in view.current;
      if (value !== 0n) {
        // Struct logs share the map they were made with, so a change makes a new one; without
        // per-step storage nothing shares it.
        if (options.storage) view.current = { ...view.current, [pending.key]: word(value) };
        else view.current[pending.key] = word(value);
        if (!known) view.size++;
      } else if (known) {
        // rskj removes from the map in place: earlier opcodes sharing the map lose the slot too.
        delete view.current[pending.key];
        view.size--;
      }
      view.pending = undefined;
    }
    if ((code === OP_SLOAD || code === OP_SSTORE) && top !== undefined) {
      view.pending = { key: word(top), stored: code === OP_SSTORE ? (step.stackItem(1) ?? 0n) : undefined };
    }
    const budget = options.budget;
    if (budget !== undefined) {
      if (budget.exhausted) return;
      const words = (options.memory ? Number(step.memoryWordCount) : 0) + (options.stack ? stackLength : 0) + (options.storage ? 2 * view.size : 0);
      budget.bytesLeft -= STRUCT_LOG_ENTRY_BYTES + STRUCT_LOG_WORD_BYTES * words;
      if (budget.bytesLeft < 0) {
        budget.exhausted = true;
        return;
      }
    }
    // Built in rskj's field order: op, depth, pc, gas, gasCost, memory, stack, storage.
    const entry = { op: rskOpName(code, frame), depth: step.depth, pc: step.pc, gas: Number(step.gasLeft), gasCost: Number(fee) } as StructLog;
    if (options.memory) entry.memory = this.memoryWords(step);
    if (options.stack) entry.stack = step.stack.map((v) => this.word(v));
    if (options.storage) entry.storage = view.current;
    view.lastLog = logs.length;
    logs.push(entry);
  }
}

function transferFrame(parent: Frame, transfer: NativeTransfer): Frame {
  return {
    kind: 'CALL',
    depth: parent.depth + 1,
    caller: parent.address!,
    address: transfer.to,
    codeAddress: transfer.to,
    value: transfer.value,
    gas: 0n,
    input: EMPTY,
    isPrecompile: false,
    steps: 0,
    lastStep: undefined,
    output: EMPTY,
    gasUsed: 0n,
    error: undefined,
    children: [],
    logs: [],
    unreadLog: undefined,
    code: EMPTY,
  };
}

function wordBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

function memoryWords(memory: Uint8Array): string[] {
  if (memory.length === 0) return [];
  const hex = Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength).toString('hex');
  const words: string[] = [];
  for (let i = 0; i < hex.length; i += 64) words.push(hex.slice(i, i + 64));
  return words;
}

/** RSK's opcode names (OpCode.java): SHA3 and SUICIDE; undefined bytes have no name (null). */
