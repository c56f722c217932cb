/**
 * trace_replayTransaction's stateDiff (OpenEthereum's shape, which erigon and Otterscan's "State"
 * tab read): for every account the transaction touched, its balance, nonce, code and written
 * storage slots before and after. The transaction is replayed once recording what it touches
 * (senders and recipients of every message, created contracts, self-destruct beneficiaries, SSTORE
 * slots, and REMASC, which receives the fee) and reading their values after it; the values before
 * are read from a replay up to the transaction before it (the parent state for the first).
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { Address, bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { REMASC_ADDRESS } from '../base/addresses.js';
import type { Deadline } from '../evm/deadline.js';
import type { TraceStep } from '../evm/trace-step.js';
import { OverlayDb } from '../storage/state-db.js';
import type { TraceTarget, TracedTx } from './replay.js';
import { type TraceSource, trace } from './trace.js';

const OP_SSTORE = 0x55;
const OP_SELFDESTRUCT = 0xff;
const WORD = 32;

/** `=` unchanged, `+` born, `-` gone, `*` changed. */
export type Delta = '=' | { '+': string } | { '-': string } | { '*': { from: string; to: string } };

export interface AccountDiff {
  balance: Delta;
  nonce: Delta;
  code: Delta;
  storage: Record<string, Delta>;
}

interface Snapshot {
  exists: boolean;
  balance: string;
  nonce: string;
  code: string;
  storage: Map<string, string>;
}

const quantity = (v: bigint): string => `0x${v.toString(16)}`;

/** What the transaction touched: accounts (hex) with the slots it wrote. */
function touchRecorder(touched: Map<string, Set<string>>) {
  const touch = (address: Uint8Array | undefined) => {
    if (address !== undefined && !touched.has(bytesToHex(address))) touched.set(bytesToHex(address), new Set());
  };
  return (evm: EVM) => {
    const onStep = (step: InterpreterStep) => {
      const op = step.opcode.code;
      if (op !== OP_SSTORE && op !== OP_SELFDESTRUCT) return;
      const top = (step as TraceStep).stackItem(0);
      if (top === undefined) return;
      if (op === OP_SSTORE) {
        touch(step.address.bytes);
        touched.get(bytesToHex(step.address.bytes))!.add(bytesToHex(setLengthLeft(bigIntToBytes(top), WORD)));
      } else {
        touch(setLengthLeft(bigIntToBytes(top), 20).subarray(-20));
      }
    };
    const onBefore = (message: Message) => {
      touch(message.caller.bytes);
      touch(message.to?.bytes);
    };
    const onAfter = (result: EVMResult) => touch(result.createdAddress?.bytes);
    evm.events.on('step', onStep);
    evm.events.on('beforeMessage', onBefore);
    evm.events.on('afterMessage', onAfter);
    return () => {
      evm.events.off('step', onStep);
      evm.events.off('beforeMessage', onBefore);
      evm.events.off('afterMessage', onAfter);
    };
  };
}

async function snapshots(state: StateManagerInterface, touched: Map<string, Set<string>>): Promise<Map<string, Snapshot>> {
  const out = new Map<string, Snapshot>();
  for (const [hex, slots] of touched) {
    const address = new Address(Buffer.from(hex.slice(2), 'hex'));
    const account = await state.getAccount(address);
    const storage = new Map<string, string>();
    for (const slot of slots) {
      const value = account === undefined ? new Uint8Array(0) : await state.getStorage(address, Buffer.from(slot.slice(2), 'hex'));
      storage.set(slot, bytesToHex(setLengthLeft(value, WORD)));
    }
    out.set(hex, {
      exists: account !== undefined,
      balance: quantity(account?.balance ?? 0n),
      nonce: quantity(account?.nonce ?? 0n),
      code: account === undefined ? '0x' : bytesToHex(await state.getCode(address)),
      storage,
    });
  }
  return out;
}

function delta(before: string, after: string, born: boolean, gone: boolean): Delta {
  if (born) return { '+': after };
  if (gone) return { '-': before };
  return before === after ? '=' : { '*': { from: before, to: after } };
}

const ZERO_WORD = bytesToHex(new Uint8Array(WORD));

function diff(before: Map<string, Snapshot>, after: Map<string, Snapshot>): Record<string, AccountDiff> {
  const out: Record<string, AccountDiff> = {};
  for (const [hex, post] of after) {
    const pre = before.get(hex)!;
    const born = !pre.exists && post.exists;
    const gone = pre.exists && !post.exists;
    if (!pre.exists && !post.exists) continue;
    const storage: Record<string, Delta> = {};
    for (const [slot, value] of post.storage) {
      const old = pre.storage.get(slot) ?? ZERO_WORD;
      if (born || gone || old !== value) storage[slot] = delta(old, value, born, gone);
    }
    const account: AccountDiff = { balance: delta(pre.balance, post.balance, born, gone), nonce: delta(pre.nonce, post.nonce, born, gone), code: delta(pre.code, post.code, born, gone), storage };
    const unchanged = account.balance === '=' && account.nonce === '=' && account.code === '=' && Object.keys(storage).length === 0;
    if (!unchanged) out[hex] = account;
  }
  return out;
}

/** The transaction at `index` of `target`, traced, with its state diff. */
export async function traceWithStateDiff(
  chain: TraceSource,
  target: TraceTarget,
  index: number,
  deadline: Deadline | undefined,
): Promise<{ traced: TracedTx; stateDiff: Record<string, AccountDiff> }> {
  const touched = new Map<string, Set<string>>();
  const tx = target.transactions[index]!;
  for (const address of [tx.from, tx.to, REMASC_ADDRESS]) if (address !== undefined) touched.set(bytesToHex(address), new Set());
  let after = new Map<string, Snapshot>();
  const [traced] = await trace(chain, target, {
    record: (i) => i === index,
    deadline,
    observe: touchRecorder(touched),
    inspect: async (state) => void (after = await snapshots(state, touched)),
  });
  let before = new Map<string, Snapshot>();
  if (index === 0) {
    before = await snapshots(chain.execution.stateManager(new OverlayDb(chain.stateNodes), target.parentStateRoot), touched);
  } else {
    await trace(chain, target, { record: (i) => i === index - 1, deadline, inspect: async (state) => void (before = await snapshots(state, touched)) });
  }
  return { traced: traced!, stateDiff: diff(before, after) };
}
