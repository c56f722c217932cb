/**
 * Runs read-only executions (eth_call, eth_estimateGas attempts) over a StateView (state/flat-view.ts),
 * undoing every change after each run. Making an EVM costs about a millisecond (profiled: the
 * constructor rebuilds the opcode table and precompiles), more than a call, so EVMs are not made
 * per call nor per head: each chain keeps up to IDLE_ENGINES idle EVMs with their read-only state
 * managers ("engines"), and a run takes one, points it at its runner's view and hands it back.
 * The head keeps one runner, whose view keeps what earlier calls read; a runner's runs are
 * serialized, so one runner uses one engine at a time.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { OriginalStorageCache } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToHex, unpadBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { ExecutionContext } from './context.js';
import { takeConsoleCalls } from '../console/observer.js';
import { addressKey } from '../state/address-key.js';
import { type StateReader, type StateView, copyAccount } from '../state/flat-view.js';

/** Idle engines a chain keeps; more exist only while more runners run at once. */
export const IDLE_ENGINES = 2;

interface Engine {
  evm: EVM;
  state: CallState;
}

const idleEngines = new WeakMap<ExecutionContext, Engine[]>();

async function takeEngine(execution: ExecutionContext, view: StateView): Promise<Engine> {
  let engine = idleEngines.get(execution)?.pop();
  if (engine === undefined) {
    const state = new CallState(view);
    engine = { evm: await execution.evm(state), state };
  }
  engine.state.use(view);
  return engine;
}

function returnEngine(execution: ExecutionContext, engine: Engine): void {
  engine.state.use(undefined);
  // Console calls a run did not take (a traced call's) are not the next run's, nor kept while idle.
  takeConsoleCalls(engine.evm);
  let idle = idleEngines.get(execution);
  if (idle === undefined) idleEngines.set(execution, (idle = []));
  if (idle.length < IDLE_ENGINES) idle.push(engine);
}

export class CallRunner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly execution: ExecutionContext,
    readonly view: StateView,
  ) {}

  get stateRoot(): Uint8Array {
    return this.view.stateRoot;
  }

  run<T>(execute: (evm: EVM) => Promise<T>): Promise<T> {
    const task = async () => {
      const engine = await takeEngine(this.execution, this.view);
      const { evm } = engine;
      // Not journal.cleanup(): its EIP-161 sweep reads every touched account to delete the empty
      // ones from the state, whose layers takeEngine dropped already.
      evm.journal.cleanJournal();
      evm.transientStorage.clear();
      let result: T;
      try {
        result = await execute(evm);
      } catch (err) {
        // The EVM's own checkpoints may be unbalanced now: the engine is not used again.
        engine.state.use(undefined);
        throw err;
      }
      returnEngine(this.execution, engine);
      return result;
    };
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * One checkpoint level of a call's writes. Each map is made at the level's first write of its
 * kind: most calls write nothing (a read-only call moves no value, lean-evm.ts), and a call's
 * checkpoints then cost an empty object each instead of four collections.
 */
interface Layer {
  accounts?: Map<string, Account | undefined>;
  code?: Map<string, Uint8Array>;
  /** Address hex ‖ slot hex → value in its shortest form. */
  storage?: Map<string, Uint8Array>;
  /** Addresses whose storage was cleared at this level (CREATE, SELFDESTRUCT). */
  cleared?: Set<string>;
}

function emptyLayer(): Layer {
  return {};
}

const EMPTY = new Uint8Array(0);

const idle = (): Promise<never> => Promise.reject(new Error('an idle call engine has no state to read'));
/** The view of an engine between runs: nothing may read through it. */
const NO_VIEW: StateReader = { getAccount: idle, getCode: idle, getStorage: idle };

/**
 * The state manager of read-only executions: writes stay in checkpoint layers in memory, reads
 * fall through them to the view. It never writes to the trie, so a call cannot change state.
 */
export class CallState implements StateManagerInterface {
  private layers: Layer[] = [emptyLayer()];
  originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));

  constructor(private view: StateReader) {}

  /** Forgets every write; the next run reads `view` (none: an idle engine, which must not read). */
  use(view: StateReader | undefined): void {
    this.view = view ?? NO_VIEW;
    this.layers = [emptyLayer()];
    this.originalStorageCache.clear();
  }

  private get top(): Layer {
    return this.layers[this.layers.length - 1]!;
  }

  // The reads are not async functions: one that returns the view's promise would wrap it in another
  // (two more microtask turns per read), and most reads fall through to the view.
  getAccount(address: Address): Promise<Account | undefined> {
    let key: string | undefined;
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const accounts = this.layers[i]!.accounts;
      if (accounts === undefined) continue;
      key ??= addressKey(address);
      if (accounts.has(key)) {
        const account = accounts.get(key);
        return Promise.resolve(account === undefined ? undefined : copyAccount(account));
      }
    }
    return this.view.getAccount(address);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    (this.top.accounts ??= new Map()).set(addressKey(address), account === undefined ? undefined : copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = addressKey(address);
    const top = this.top;
    (top.accounts ??= new Map()).set(key, undefined);
    (top.code ??= new Map()).set(key, EMPTY);
    await this.clearStorage(address);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) account.nonce = fields.nonce;
    if (fields.balance !== undefined) account.balance = fields.balance;
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot;
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    (this.top.code ??= new Map()).set(addressKey(address), value);
    await this.modifyAccountFields(address, { codeHash: keccak_256(value) });
  }

  getCode(address: Address): Promise<Uint8Array> {
    let key: string | undefined;
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const codes = this.layers[i]!.code;
      if (codes === undefined) continue;
      key ??= addressKey(address);
      const code = codes.get(key);
      if (code !== undefined) return Promise.resolve(code);
    }
    return this.view.getCode(address);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    let owner: string | undefined;
    let key: string | undefined;
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const { storage, cleared } = this.layers[i]!;
      if (storage === undefined && cleared === undefined) continue;
      owner ??= addressKey(address);
      if (storage !== undefined) {
        key ??= `${owner}${bytesToHex(slot)}`;
        const value = storage.get(key);
        if (value !== undefined) return Promise.resolve(value);
      }
      if (cleared?.has(owner) === true) return Promise.resolve(EMPTY);
    }
    return this.view.getStorage(address, slot);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    (this.top.storage ??= new Map()).set(`${addressKey(address)}${bytesToHex(slot)}`, unpadBytes(value));
  }

  async clearStorage(address: Address): Promise<void> {
    const owner = addressKey(address);
    const top = this.top;
    if (top.storage !== undefined) for (const key of top.storage.keys()) if (key.startsWith(owner)) top.storage.delete(key);
    (top.cleared ??= new Set()).add(owner);
  }

  async checkpoint(): Promise<void> {
    this.layers.push(emptyLayer());
  }

  /** Folds the top layer into the one below. */
  async commit(): Promise<void> {
    const top = this.layers.pop()!;
    const below = this.top;
    if (top.cleared !== undefined) {
      for (const owner of top.cleared) {
        if (below.storage !== undefined) for (const key of below.storage.keys()) if (key.startsWith(owner)) below.storage.delete(key);
        (below.cleared ??= new Set()).add(owner);
      }
    }
    if (top.storage !== undefined) for (const [key, value] of top.storage) (below.storage ??= new Map()).set(key, value);
    if (top.accounts !== undefined) for (const [key, value] of top.accounts) (below.accounts ??= new Map()).set(key, value);
    if (top.code !== undefined) for (const [key, value] of top.code) (below.code ??= new Map()).set(key, value);
  }

  async revert(): Promise<void> {
    this.layers.pop();
    if (this.layers.length === 0) this.layers.push(emptyLayer());
  }

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('a read-only execution has no state root');
  }

  async setStateRoot(): Promise<void> {
    throw new Error('a read-only execution cannot move to another state root');
  }

  async hasStateRoot(): Promise<boolean> {
    return false;
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new CallState(this.view);
  }
}
