/**
 * The EVM with a cheaper frame setup, through the hook @ethereumjs/evm gives subclasses: its
 * protected `runInterpreter`, which every CALL and CREATE frame (the outermost included) runs
 * through. Profiled on eth_call (ERC20 balanceOf), the stock method spent most of a call outside
 * the opcodes:
 *
 * - Jump-destination analysis on every frame (`Interpreter._getValidJumpDestinations`): an array
 *   the size of the code, a push-value table with a BigInt per PUSH made through hex strings, about
 *   40% of the bytes a call allocated. Here each EVM keeps the analysis per code (ANALYSED_CODE_BYTES),
 *   set on the frame's interpreter, a public member of it; the analysis depends only on the code
 *   and the EVM's opcode table, and nothing changes it after it is made. Keyed by the code's
 *   bytes object: state views hand out the same object for every read of a code, and nothing
 *   writes to code bytes.
 * - Its result object merged run state, result and environment with three object spreads; past
 *   V8's fast-property limits these become dictionary objects, and they survived scavenges (the
 *   heap grew 1-2 MB per scavenge, each scavenge taking 10-40 ms). Nothing in @ethereumjs/evm or
 *   /vm reads that merged object (`execResult.runState`); here it is the interpreter's run state.
 *
 * - `_executeCall`, the other protected method, handed `runInterpreter` a copy of the message
 *   made with object spreads (`{ ...{ codeAddress }, ...message, gasLimit }`): again a dictionary
 *   object, 12% of the eth_call profile on its own. Under our rules the gas limit it passes is the
 *   message's own, so the lean one passes the message itself; runInterpreter only reads it.
 *
 * - The stock methods read the frame's own account twice: `_executeCall` for the value transfer,
 *   then `runInterpreter` for the frame's environment (`env.contract`). The lean `_executeCall`
 *   hands the account it read on (`readContract`): the same values as a second read, since only
 *   the transfer wrote it since (the caller's debit comes before the read, so a call to itself
 *   sees it), and the stock state managers keep copies of what they are given, never the object.
 *
 * - Each frame's `beforeMessage`/`afterMessage` (and every other) emit ran an async function that
 *   copied the listener list even when there was none (most calls: no tracer, no console.log
 *   observer); with no listener the lean one hands back a settled promise. `getPrecompile`, asked
 *   for every frame's code, answers none at once for an address with a non-zero byte where all
 *   precompile addresses have zeros (every contract's, in practice), else keys the map by hex made
 *   through Buffer (util/hex.ts) instead of one string per byte.
 *
 * - Frames with `step` listeners (tracing) emit their steps through evm/trace-step.ts, which
 *   copies memory and stack only when a listener reads them; the stock hook copied both per step.
 *
 * Everything else is the stock methods of @ethereumjs/evm 10.1 (evm.ts `runInterpreter`,
 * `_executeCall`) for the rules our Common can activate (createRskCommon fixes them): no EOF, so no
 * INVALID_EOF_FORMAT; the EIPs of CALL_EIPS_LEFT_OUT, else the stock `_executeCall` runs.
 * The Interpreter class is not exported; it is taken from a STOP frame on a throwaway EVM
 * (interpreterClass), so no real frame runs through the stock method, which has no time-limit
 * check. Frames the stock loop runs (traced ones) get the check with each step (checkedStep,
 * evm/deadline.ts).
 */
import { EVM, EVMError, type EVMOpts, type EVMResult, type ExecResult, Message } from '@ethereumjs/evm';
import { Account, type Address, createZeroAddress } from '@ethereumjs/util';
import { unprefixedHex } from '../../util/hex.js';
import { TRACED_STEP_WEIGHT, stepCheck, stepsToCheck } from './deadline.js';
import { FramePool } from './frame-pool.js';
import { leanRun, leanRunAllowed } from './lean-run.js';
import { lazyStepHook } from './trace-step.js';

/**
 * Code bytes whose jump-destination analyses one EVM keeps, least recently used first out. An
 * analysis takes about 30 bytes per code byte (an opcode entry per byte, the jump map, a BigInt per
 * PUSH), so about 2 MB per EVM at most: about 30 contracts of ERC20 size (2 KB).
 */
export const ANALYSED_CODE_BYTES = 64 * 1024;

type RunState = NonNullable<ExecResult['runState']>;
type Interpreter = RunState['interpreter'];
type Env = Interpreter['_env'];
type InterpreterOpts = NonNullable<Parameters<Interpreter['run']>[1]>;
type Analysis = ReturnType<Interpreter['_getValidJumpDestinations']>;
type MessageWithTo = Parameters<EVM['_addToBalance']>[1];
/** The EVM's protected `_emit`: awaits each listener of `topic` in turn. */
type Emit = (topic: string, data: unknown) => Promise<void>;

/**
 * EIPs whose steps the lean `_executeCall` leaves out (Verkle/binary-tree witnesses, 2780 state
 * gas, 7702 delegation, 7708 transfer logs, 7928 access lists, 8037 state gas): a Common that
 * activates one runs the stock method.
 */
const CALL_EIPS_LEFT_OUT = [2780, 6800, 7702, 7708, 7864, 7928, 8037];

const EMPTY = new Uint8Array(0);
const SETTLED: Promise<void> = Promise.resolve();
const ADDRESS_BYTES = 20;
/** The stock runInterpreter's default call data. */
const ZERO_BYTE = Uint8Array.from([0]);

/**
 * The stock loop's step (traced frames: step events) with the time-limit check of
 * evm/deadline.ts, which the stock loop does not have; `run` calls `this.runStep`. The step's own
 * promise is handed on unless a check is due: no extra promise per traced step.
 */
function checkedStep(evm: EVM, interpreter: Interpreter): Interpreter['runStep'] {
  const step = interpreter.runStep;
  return (opcode) => {
    stepsToCheck.left -= TRACED_STEP_WEIGHT;
    if (stepsToCheck.left > 0) return step.call(interpreter, opcode);
    return step.call(interpreter, opcode).then(() => stepCheck(evm));
  };
}

/** The Interpreter constructor (interpreter.ts), as declared by @ethereumjs/evm. */
type InterpreterClass = new (evm: EVM, stateManager: EVM['stateManager'], blockchain: EVM['blockchain'], env: Env, gasLeft: bigint, journal: EVM['journal'], performanceLogs: unknown, profilerOpts: unknown) => Interpreter;

/** Set at the first frame any LeanEVM runs; the class is the same for every EVM. */
let InterpreterCtor: InterpreterClass | undefined;

/** The stock EVM's members the probe of `interpreterClass` sets and calls. */
interface ProbeEVM {
  _tx: unknown;
  _block: unknown;
  runInterpreter(message: Message, opts: InterpreterOpts): Promise<ExecResult>;
}
const STOP_CODE = Uint8Array.of(0x00);

/**
 * The Interpreter class, which @ethereumjs/evm does not export: taken from a STOP frame that the
 * stock method runs on a throwaway EVM (once per process), which nothing listens to (no step event
 * reaches a tracer) and which only reads the zero address's account. No real frame goes through
 * the stock method, which has no time-limit check.
 */
async function interpreterClass(evm: EVM, tx: unknown, block: unknown): Promise<InterpreterClass> {
  const probe = new EVM({ common: evm.common, stateManager: evm.stateManager }) as unknown as ProbeEVM;
  probe._tx = tx;
  probe._block = block;
  const result = await probe.runInterpreter(new Message({ to: createZeroAddress(), code: STOP_CODE, gasLimit: 0n }), {});
  return result.runState!.interpreter.constructor as InterpreterClass;
}

/**
 * Whether a message's value transfer must write `account` back. The stock methods always do; with
 * no value the write changes nothing but the journal's `touched` mark, which only EIP-161's
 * removal of touched empty accounts reads (and preimage reporting, which nothing here turns on).
 * An account that does not exist or is empty is written as the stock methods do. Most eth_calls
 * move no value: two journal writes fewer per call.
 */
function writesBalance(message: Message, account: Account): boolean {
  return message.value !== 0n || account.isEmpty();
}

/** What the stock method hands a frame's result from its message. */
function setFrameResult(interpreter: Interpreter, message: Message): void {
  if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
  if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
}

export class LeanEVM extends EVM {
  constructor(opts: EVMOpts) {
    super(opts);
    const self = this as unknown as { _emit: Emit };
    const emit = self._emit;
    self._emit = (topic, data) => (this.events.listenerCount(topic as never) === 0 ? SETTLED : emit(topic, data));
  }

  /** The precompile map `precompileZeros` was counted for, and the fewest leading zero bytes of its addresses. */
  private zerosOf: Map<string, unknown> | undefined;
  private precompileZeros = 0;

  override getPrecompile(address: Address | `0x${string}`): ReturnType<EVM['getPrecompile']> {
    if (typeof address === 'string') return super.getPrecompile(address);
    const precompiles = this.precompiles;
    if (this.zerosOf !== precompiles) {
      this.zerosOf = precompiles;
      this.precompileZeros = Math.min(ADDRESS_BYTES, ...[...precompiles.keys()].map((hex) => /^(00)*/.exec(hex)![0].length / 2));
    }
    // An address with a non-zero byte where every precompile's has zeros (a contract's) is none.
    const bytes = address.bytes;
    for (let i = 0; i < this.precompileZeros; i++) if (bytes[i] !== 0) return undefined;
    return precompiles.get(unprefixedHex(bytes));
  }

  /** Code → its analysis, in order of use (a Map keeps insertion order). */
  private readonly analyses = new Map<Uint8Array, Analysis>();
  private analysedBytes = 0;
  /** The interpreter's own analysis, called for codes not analysed yet. */
  private analyse: ((code: Uint8Array) => Analysis) | undefined;
  private readonly cachedAnalysis = (interpreter: Interpreter) => (code: Uint8Array): Analysis => {
    let analysis = this.analyses.get(code);
    if (analysis !== undefined) {
      this.analyses.delete(code);
      this.analyses.set(code, analysis);
      return analysis;
    }
    analysis = this.analyse!.call(interpreter, code);
    // CREATE's init code is a view into the parent frame's memory, new each time: as a key it would
    // never match again and would keep that whole memory alive.
    if (code.byteLength !== code.buffer.byteLength) return analysis;
    this.analyses.set(code, analysis);
    this.analysedBytes += code.length;
    for (const [oldest] of this.analyses) {
      if (this.analysedBytes <= ANALYSED_CODE_BYTES || oldest === code) break;
      this.analyses.delete(oldest);
      this.analysedBytes -= oldest.length;
    }
    return analysis;
  };

  private leanCalls: boolean | undefined;
  private readonly frames = new FramePool();
  /** The account of the frame `_executeCall` starts next, as it read it; taken by that frame's runInterpreter. */
  private readContract: Account | undefined;

  protected override async _executeCall(message: MessageWithTo): Promise<EVMResult> {
    this.leanCalls ??= CALL_EIPS_LEFT_OUT.every((eip) => !this.common.isActivatedEIP(eip));
    if (!this.leanCalls || this._optsCached.profiler?.enabled === true) return super._executeCall(message);
    let error: EVMError | undefined;
    let toAccount: Account | undefined;
    if (!message.delegatecall) {
      const account = (await this.stateManager.getAccount(message.caller)) ?? new Account();
      if (writesBalance(message, account)) {
        try {
          await this._reduceSenderBalance(account, message);
        } catch (e) {
          error = e as EVMError;
        }
      }
      toAccount = (await this.stateManager.getAccount(message.to)) ?? new Account();
      if (writesBalance(message, toAccount)) {
        try {
          await this._addToBalance(toAccount, message);
        } catch (e) {
          error = e as EVMError;
        }
      }
    }
    await this._loadCode(message);
    if (error !== undefined || !message.code || (typeof message.code !== 'function' && message.code.length === 0)) {
      return { execResult: { gasRefund: message.gasRefund, executionGasUsed: 0n, exceptionError: error, returnValue: EMPTY, logs: undefined } };
    }
    let result: ExecResult;
    if (message.isCompiled) {
      result = await this.runPrecompile(message.code as Parameters<EVM['runPrecompile']>[0], message.data, message.gasLimit);
      result.gasRefund = message.gasRefund;
    } else {
      if (!message.delegatecall) this.readContract = toAccount;
      result = await this.runInterpreter(message, { initialLogs: undefined });
    }
    if (message.depth === 0) (this as unknown as { postMessageCleanup(): void }).postMessageCleanup();
    return { execResult: result };
  }

  protected override async runInterpreter(message: Message, opts: InterpreterOpts = {}): Promise<ExecResult> {
    // Taken before any await: only the frame _executeCall starts right now may use it.
    const readContract = this.readContract;
    this.readContract = undefined;
    if (this._block === undefined || this._tx === undefined) return super.runInterpreter(message, opts);
    InterpreterCtor ??= await interpreterClass(this, this._tx, this._block);
    const contract = readContract ?? (await this.stateManager.getAccount(message.to ?? createZeroAddress())) ?? new Account();
    const env: Env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? ZERO_BYTE,
      callValue: message.value ?? 0n,
      code: message.code as Uint8Array,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    } as Env;
    const create = () => {
      const made = new InterpreterCtor!(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler);
      this.analyse ??= made._getValidJumpDestinations;
      made._getValidJumpDestinations = this.cachedAnalysis(made);
      return made;
    };
    const code = message.code as Uint8Array;
    let run;
    let result: Interpreter['_result'];
    if (leanRunAllowed(this, this._optsCached.profiler?.enabled === true)) {
      // Lean frames reuse their depth's interpreter (evm/frame-pool.ts).
      const depth = env.depth;
      const { interpreter, pooled } = this.frames.take(this, depth, env, message.gasLimit, create);
      try {
        setFrameResult(interpreter, message);
        run = await leanRun(this, interpreter, code, opts);
        result = interpreter._result;
      } finally {
        if (pooled) this.frames.release(depth);
      }
    } else {
      const interpreter = create();
      if (this.events.listenerCount('step') > 0) interpreter._runStepHook = lazyStepHook;
      setFrameResult(interpreter, message);
      interpreter.runStep = checkedStep(this, interpreter);
      run = await interpreter.run(code, opts);
      result = interpreter._result;
    }
    const error = run.exceptionError;
    message.accessWitness?.commit();
    return {
      // The stock method clears these on any error, REVERT included.
      logs: error === undefined ? result.logs : [],
      selfdestruct: error === undefined ? result.selfdestruct : new Map(),
      createdAddresses: error === undefined ? result.createdAddresses : new Set(),
      runState: run.runState,
      exceptionError: error,
      gas: run.runState.gasLeft,
      // Every error but REVERT uses all the frame's gas.
      executionGasUsed: error !== undefined && error.error !== EVMError.errorMessages.REVERT ? message.gasLimit : message.gasLimit - run.runState.gasLeft,
      gasRefund: run.runState.gasRefund,
      stateGasSpilled: run.runState.stateGasSpilled,
      returnValue: result.returnValue ?? EMPTY,
    };
  }
}
