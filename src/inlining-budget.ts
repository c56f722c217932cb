/**
 * How much TurboFan may inline into one optimized function, for the CLI process (issue 25). A
 * transfer runs hundreds of functions once per block (the receipt's encoding, REMASC, the log
 * index, the pool's selection, the block's log lines); each becomes hot only after a thousand or
 * more transfers, so a node under a stream of sends keeps compiling for minutes, and with V8's
 * default budget each of those compiles inlines its callees' callees (logIndexKeys 213 ms,
 * encodeRskReceipt 111 ms, remascTransaction 102 ms of compiler-thread time, measured with
 * --trace-opt). That compiler thread took ~1.6 ms of CPU per sequential transfer, on a second core
 * the client needs too. Half the cumulative budget: ~25% less compiler CPU per transfer and no
 * more main-thread CPU (scripts/profile/write-path.ts, alternating runs; docs/decisions.md, "The CLI halves TurboFan's inlining budget").
 * V8 reads the flag at each compile, so setting it at start-up takes effect. Only the CLI sets it:
 * a library user's process keeps its own V8 settings.
 */
import { setV8Flag } from './v8-flags.js';

/** Bytecode bytes TurboFan may inline into one function, in total; V8's default is 920. */
export const INLINED_BYTECODE_CUMULATIVE = 460;
const V8_DEFAULT = 920;
const FLAG = /^--max[-_]inlined[-_]bytecode[-_]size[-_]cumulative\b/;

/**
 * Sets the budget, unless the process was given its own (on the command line or in NODE_OPTIONS).
 * Returns whether it set it.
 */
export function limitInlining({ execArgv = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? '' } = {}): boolean {
  if ([...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => FLAG.test(arg))) return false;
  setV8Flag(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`, `--max-inlined-bytecode-size-cumulative=${V8_DEFAULT}`);
  return true;
}
