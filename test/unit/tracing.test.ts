/**
 * Tracing's pure parts and its no-write guarantee: a replay over a key-value store that counts
 * writes leaves the store untouched (the regression: @ethereumjs/statemanager writes SSTOREs to the
 * storage trie's store even with caches and checkpoints on), yet sees the state the block's earlier
 * transactions made.
 */
import { describe, expect, it } from 'vitest';
import { createLegacyTx } from '@ethereumjs/tx';
import { Account, Address, type BatchDBOp, type DB, KECCAK256_RLP, hexToBytes } from '@ethereumjs/util';
import { RSK_TX_PARAMS, createRskCommon } from '../../src/chain/evm/rsk-common.js';
import { Execution } from '../../src/chain/exec/execution.js';
import type { RskHeader } from '../../src/chain/records/header.js';
import { remascTransaction, txRecordFromLegacyTx } from '../../src/chain/records/transaction.js';
import { decodeRevertReason } from '../../src/chain/tracing/call-tracer.js';
import { replayBlock } from '../../src/chain/tracing/replay.js';
import { structLogTrace } from '../../src/chain/tracing/struct-log.js';
import { parseTraceOptions } from '../../src/rpc/methods/debug.js';
import { COW } from '../helpers/node.js';

class CountingDb implements DB<string, Uint8Array> {
  readonly map = new Map<string, Uint8Array>();
  writes = 0;
  async get(key: string) {
    return this.map.get(key);
  }
  async put(key: string, value: Uint8Array) {
    this.writes++;
    this.map.set(key, value);
  }
  async del(key: string) {
    this.writes++;
    this.map.delete(key);
  }
  async batch(ops: BatchDBOp<string, Uint8Array>[]) {
    for (const op of ops) op.type === 'put' ? await this.put(op.key, op.value) : await this.del(op.key);
  }
  shallowCopy() {
    return this;
  }
  async open() {}
}

/** A counter: each call adds 1 to slot 0 and returns the new value. */
const COUNTER = hexToBytes('0x600160005401806000556000526020 6000f3'.replace(/ /g, '') as `0x${string}`);

describe('replayBlock', () => {
  it('writes nothing to the state store and replays earlier transactions first', async () => {
    const common = createRskCommon(31, 'rsk-testnet');
    const execution = new Execution(common, async () => undefined);
    const db = new CountingDb();
    const state = execution.stateManager(db, KECCAK256_RLP);
    const sender = new Address(hexToBytes(COW.address));
    const counter = new Address(hexToBytes('0x00000000000000000000000000000000000c0de0'));
    await state.putAccount(sender, new Account(0n, 10n ** 20n));
    await state.putCode(counter, COUNTER);
    const root = await state.getStateRoot();
    await state.flush();

    const key = hexToBytes(COW.privateKey);
    const txs = [0n, 1n].map((nonce) =>
      txRecordFromLegacyTx(createLegacyTx({ nonce, gasPrice: 1n, gasLimit: 100_000n, to: counter }, { common, params: RSK_TX_PARAMS }).sign(key)),
    );
    const header = { number: 1n, timestamp: 1000n, difficulty: 1n, gasLimit: 6_800_000n, minimumGasPrice: 1n, coinbase: new Uint8Array(20) } as RskHeader;
    const target = { header, hash: undefined, transactions: [...txs, remascTransaction(1n)], parentStateRoot: root };

    const writesBefore = db.writes;
    const traced = await replayBlock(execution, db, target, {
      record: (i) => i >= 1,
      structLogs: { memory: false, stack: false, storage: true },
    });
    expect(db.writes).toBe(writesBefore);
    expect(traced.map((t) => t.index)).toEqual([1, 2]);
    // The second call sees the first one's write: 1 -> 2.
    const second = structLogTrace(traced[0]!);
    expect(second.result).toBe('2'.padStart(64, '0'));
    expect(second.currentStorage).toEqual({ ['0'.repeat(64)]: '2'.padStart(64, '0') });
    expect(traced[1]!.recorder).toBeUndefined();
    // The parent state is still what it was.
    expect(await execution.stateManager(db, root).getStorage(counter, new Uint8Array(32))).toEqual(new Uint8Array(0));
  });
});

describe('parseTraceOptions (rskj DebugTracerParam)', () => {
  it('defaults to rskTracer with everything on', () => {
    expect(parseTraceOptions(undefined)).toEqual({ tracer: 'rskTracer', structLogs: { memory: true, stack: true, storage: true }, onlyTopCall: false, withLog: false, diffMode: false });
  });

  it('reads prestateTracer and its diffMode from tracerConfig', () => {
    expect(parseTraceOptions({ tracer: 'prestateTracer', tracerConfig: { diffMode: true } })).toMatchObject({ tracer: 'prestateTracer', diffMode: true });
    expect(parseTraceOptions({ tracer: 'PRESTATETRACER' })).toMatchObject({ tracer: 'prestateTracer', diffMode: false });
  });

  it('reads tracer case-insensitively, tracerConfig members as options, values as text', () => {
    const o = parseTraceOptions({ tracer: 'CALLTRACER', tracerConfig: { onlyTopCall: 'TRUE', withLog: true }, disableStorage: 'yes', unknown: true });
    expect(o).toMatchObject({ tracer: 'callTracer', onlyTopCall: true, withLog: true, structLogs: { memory: true, stack: true, storage: true } });
  });

  it('refuses unknown tracers', () => {
    expect(() => parseTraceOptions({ tracer: 'jsTracer' })).toThrow('Invalid tracer type: jsTracer');
  });
});

describe('decodeRevertReason', () => {
  const w = (n: number) => n.toString(16).padStart(64, '0');
  const bytes = (hex: string) => hexToBytes(`0x${hex}` as `0x${string}`);

  it('decodes Error(string) and Panic(uint256) as geth does', () => {
    expect(decodeRevertReason(bytes(`08c379a0${w(0x20)}${w(5)}${'68656c6c6f'.padEnd(64, '0')}`))).toBe('hello');
    expect(decodeRevertReason(bytes(`4e487b71${w(0x11)}`))).toBe('arithmetic underflow or overflow');
    expect(decodeRevertReason(bytes('deadbeef'))).toBeUndefined();
    expect(decodeRevertReason(bytes(`08c379a0${w(0x20)}${w(500)}`))).toBeUndefined();
  });
});
