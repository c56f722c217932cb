/**
 * eth_simulateV1's traceTransfers: every value transfer (the transaction's own, and each CALL,
 * CALLCODE or CREATE that moves value; not DELEGATECALL, which moves none) shows as an ERC-7528
 * log: address 0xEeee…EEeE, topics [Transfer(address,address,uint256), from, to], data the value.
 * They sit among the contract's own logs in execution order, and go with a frame that fails, as
 * geth's simulation tracer (internal/ethapi/logtracer.go) places them. The contract's logs are
 * marked by their LOG opcode and filled in afterwards from the EVM's result, whose logs are exactly
 * those of the frames that did not fail, in the same order.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { TraceStep } from '../evm/trace-step.js';

export interface TransferLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

/** ERC-7528's pseudo-address for the native currency. */
const NATIVE_TOKEN = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
const OP_LOG0 = 0xa0;
const OP_LOG4 = 0xa4;

/** A transfer (its `to` is filled in at the end of a CREATE), or the place of a contract's log. */
type Entry = { from: Uint8Array; to: Uint8Array | undefined; value: bigint } | 'log';

export class TransferLogRecorder {
  private readonly frames: Entry[][] = [];
  private kept: Entry[] = [];
  private readonly onBefore = (message: Message) => {
    const frame: Entry[] = [];
    this.frames.push(frame);
    if (message.value > 0n && message.delegatecall !== true) frame.push({ from: message.caller.bytes, to: message.to?.bytes, value: message.value });
  };
  private readonly onAfter = (result: EVMResult) => {
    const frame = this.frames.pop();
    if (frame === undefined) return;
    const first = frame[0];
    if (first !== undefined && first !== 'log' && first.to === undefined) first.to = result.createdAddress?.bytes;
    if (result.execResult.exceptionError !== undefined) return;
    const parent = this.frames[this.frames.length - 1];
    if (parent === undefined) this.kept = frame;
    else parent.push(...frame);
  };
  private readonly onStep = (step: InterpreterStep) => {
    const code = (step as TraceStep).opcode.code;
    if (code >= OP_LOG0 && code <= OP_LOG4) this.frames[this.frames.length - 1]?.push('log');
  };

  constructor(private readonly evm: EVM) {}

  attach(): void {
    this.evm.events.on('beforeMessage', this.onBefore);
    this.evm.events.on('afterMessage', this.onAfter);
    this.evm.events.on('step', this.onStep);
  }

  detach(): void {
    this.evm.events.off('beforeMessage', this.onBefore);
    this.evm.events.off('afterMessage', this.onAfter);
    this.evm.events.off('step', this.onStep);
  }

  /** The transaction's logs (`logs`, the EVM's) with the transfers among them. */
  merge(logs: TransferLog[]): TransferLog[] {
    const out: TransferLog[] = [];
    let next = 0;
    for (const entry of this.kept) {
      if (entry === 'log') {
        const log = logs[next++];
        if (log !== undefined) out.push(log);
      } else {
        out.push({ address: NATIVE_TOKEN, topics: [TRANSFER_TOPIC, word(entry.from), word(entry.to ?? new Uint8Array(20))], data: setLengthLeft(bigIntToBytes(entry.value), 32) });
      }
    }
    // Should the marks and the EVM ever disagree, no log of the EVM's is lost.
    out.push(...logs.slice(next));
    return out;
  }
}

const word = (address: Uint8Array): Uint8Array => setLengthLeft(address, 32);
