/**
 * geth's prestateTracer (eth/tracers/native/prestate.go): the accounts and storage slots a
 * transaction touches, as they were before it ran; with diffMode, `{ pre, post }` holding only what
 * changed. An account is looked up on its first touch, before anything of the transaction can have
 * changed it: the sender, the recipient and the fee recipient before the transaction runs, the
 * others when an opcode names them (BALANCE, EXTCODE*, SELFDESTRUCT's beneficiary, the CALL family's
 * target, the address a CREATE/CREATE2 is about to use), and a slot on its first SLOAD/SSTORE.
 * The state is read through the EVM's state manager, so the step listener is asynchronous (a
 * two-argument listener, which @ethereumjs/evm awaits).
 */
import type { EVM, InterpreterStep } from '@ethereumjs/evm';
import { Address, KECCAK256_RLP, bigIntToUnpaddedBytes, bytesToHex, equalsBytes, generateAddress, generateAddress2, setLengthLeft } from '@ethereumjs/util';
import type { TraceStep } from '../evm/trace-step.js';

export interface PrestateAccountJson {
  balance?: string;
  code?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

export type PrestateJson = Record<string, PrestateAccountJson> | { post: Record<string, PrestateAccountJson>; pre: Record<string, PrestateAccountJson> };

interface AccountState {
  address: Address;
  /** Whether it held anything when first looked up (geth drops created accounts that did not). */
  existed: boolean;
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** Slot (0x + 64 hex) → value (32 bytes). */
  storage: Map<string, Uint8Array>;
}

const OP_BALANCE = 0x31;
const OP_EXTCODESIZE = 0x3b;
const OP_EXTCODECOPY = 0x3c;
const OP_EXTCODEHASH = 0x3f;
const OP_SLOAD = 0x54;
const OP_SSTORE = 0x55;
const OP_CREATE = 0xf0;
const OP_CALL = 0xf1;
const OP_CALLCODE = 0xf2;
const OP_DELEGATECALL = 0xf4;
const OP_CREATE2 = 0xf5;
const OP_STATICCALL = 0xfa;
const OP_SELFDESTRUCT = 0xff;
const ACCOUNT_OPS = new Set([OP_BALANCE, OP_EXTCODESIZE, OP_EXTCODECOPY, OP_EXTCODEHASH, OP_SELFDESTRUCT]);
const CALL_OPS = new Set([OP_CALL, OP_CALLCODE, OP_DELEGATECALL, OP_STATICCALL]);
const TOUCHING_OPS = new Set([...ACCOUNT_OPS, ...CALL_OPS, OP_SLOAD, OP_SSTORE, OP_CREATE, OP_CREATE2]);
/** EIP-3860's init code limit: a CREATE2 with more fails, so its address is never used (and reading it must not allocate gigabytes). */
const MAX_INIT_CODE_BYTES = 49_152;
const ZERO_WORD = new Uint8Array(32);
const ADDRESS_MASK = (1n << 160n) - 1n;

const quantity = (v: bigint): string => `0x${v.toString(16)}`;
const addressOf = (v: bigint): Address => new Address(setLengthLeft(bigIntToUnpaddedBytes(v & ADDRESS_MASK), 20));
const wordHex = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`;

export class PrestateRecorder {
  private readonly pre = new Map<string, AccountState>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private failure: unknown;
  private readonly onStep = (step: InterpreterStep, resolve?: () => void) => {
    // Most opcodes touch nothing this tracer looks up: answered without a state read.
    if (!TOUCHING_OPS.has(step.opcode.code)) return resolve?.();
    this.step(step as TraceStep).then(resolve, (e: unknown) => {
      this.failure ??= e;
      resolve?.();
    });
  };

  constructor(
    private readonly evm: EVM,
    private readonly diffMode: boolean,
  ) {}

  /** Before the transaction: its sender, its recipient (or the address it creates) and the fee recipient. */
  async start(from: Address, to: Address | undefined, feeRecipient: Address): Promise<void> {
    await this.lookupAccount(from);
    if (to !== undefined) await this.lookupAccount(to);
    else {
      const nonce = this.pre.get(from.toString())!.nonce;
      const created = new Address(generateAddress(from.bytes, bigIntToUnpaddedBytes(nonce)));
      await this.lookupAccount(created);
      this.created.add(created.toString());
    }
    await this.lookupAccount(feeRecipient);
  }

  attach(): void {
    this.evm.events.on('step', this.onStep);
  }

  detach(): void {
    this.evm.events.off('step', this.onStep);
    if (this.failure !== undefined) throw this.failure;
  }

  /** After the transaction, on the state it left: the result in geth's shape. */
  async result(): Promise<PrestateJson> {
    if (!this.diffMode) {
      for (const address of this.created) if (!this.pre.get(address)!.existed) this.pre.delete(address);
      return Object.fromEntries([...this.pre].map(([address, account]) => [address, accountJson(account)]));
    }
    const state = this.evm.stateManager;
    const pre: Record<string, PrestateAccountJson> = {};
    const post: Record<string, PrestateAccountJson> = {};
    for (const [address, before] of this.pre) {
      const at = before.address;
      const after = await state.getAccount(at);
      // A destroyed account is in pre as it was, and not in post (a SELFDESTRUCT that was undone
      // with its frame destroyed nothing: the account is still there).
      if (this.deleted.has(address) && after === undefined) {
        pre[address] = accountJson(before);
        continue;
      }
      const changes: PrestateAccountJson = {};
      const balance = after?.balance ?? 0n;
      const nonce = after?.nonce ?? 0n;
      const code = after === undefined ? new Uint8Array(0) : await state.getCode(at);
      if (balance !== before.balance) changes.balance = quantity(balance);
      if (nonce !== before.nonce && nonce !== 0n) changes.nonce = Number(nonce);
      if (!equalsBytes(code, before.code) && code.length > 0) changes.code = bytesToHex(code);
      let modified = balance !== before.balance || nonce !== before.nonce || !equalsBytes(code, before.code);
      const preStorage = new Map<string, Uint8Array>();
      const postStorage: Record<string, string> = {};
      for (const [slot, value] of before.storage) {
        const now = setLengthLeft(await state.getStorage(at, hexBytes(slot)), 32);
        if (equalsBytes(now, value)) continue;
        modified = true;
        if (!equalsBytes(value, ZERO_WORD)) preStorage.set(slot, value);
        if (!equalsBytes(now, ZERO_WORD)) postStorage[slot] = bytesToHex(now);
      }
      if (!modified) continue;
      if (Object.keys(postStorage).length > 0) changes.storage = postStorage;
      post[address] = changes;
      // geth keeps a created account in pre only if it held something before.
      if (!this.created.has(address) || before.existed) pre[address] = accountJson({ ...before, storage: preStorage });
    }
    return { post, pre };
  }

  private async step(step: TraceStep): Promise<void> {
    const code = step.opcode.code;
    const length = step.stackLength;
    if ((code === OP_SLOAD || code === OP_SSTORE) && length >= 1) {
      await this.lookupStorage(step.address, wordHex(step.stackItem(0)!));
    } else if (ACCOUNT_OPS.has(code) && length >= 1) {
      await this.lookupAccount(addressOf(step.stackItem(0)!));
      if (code === OP_SELFDESTRUCT) this.deleted.add(step.address.toString());
    } else if (CALL_OPS.has(code) && length >= 5) {
      await this.lookupAccount(addressOf(step.stackItem(1)!));
    } else if (code === OP_CREATE) {
      const nonce = (await this.evm.stateManager.getAccount(step.address))?.nonce ?? 0n;
      await this.lookupCreated(new Address(generateAddress(step.address.bytes, bigIntToUnpaddedBytes(nonce))));
    } else if (code === OP_CREATE2 && length >= 4) {
      const size = step.stackItem(2)!;
      if (size > BigInt(MAX_INIT_CODE_BYTES)) return;
      const offset = step.stackItem(1)!;
      const init = size === 0n ? new Uint8Array(0) : step.readMemory(Number(offset), Number(size));
      const salt = setLengthLeft(bigIntToUnpaddedBytes(step.stackItem(3)!), 32);
      await this.lookupCreated(new Address(generateAddress2(step.address.bytes, salt, init)));
    }
  }

  private async lookupCreated(address: Address): Promise<void> {
    await this.lookupAccount(address);
    this.created.add(address.toString());
  }

  private async lookupAccount(address: Address): Promise<AccountState> {
    const key = address.toString();
    let account = this.pre.get(key);
    if (account === undefined) {
      const state = this.evm.stateManager;
      const found = await state.getAccount(address);
      const code = found === undefined ? new Uint8Array(0) : await state.getCode(address);
      const balance = found?.balance ?? 0n;
      const nonce = found?.nonce ?? 0n;
      // A non-empty storage root also counts (EIP-7610's collision rule).
      const existed = nonce > 0n || code.length > 0 || balance !== 0n || (found !== undefined && !equalsBytes(found.storageRoot, KECCAK256_RLP));
      account = { address, existed, balance, nonce, code, storage: new Map() };
      this.pre.set(key, account);
    }
    return account;
  }

  private async lookupStorage(address: Address, slot: string): Promise<void> {
    const account = await this.lookupAccount(address);
    if (account.storage.has(slot)) return;
    account.storage.set(slot, setLengthLeft(await this.evm.stateManager.getStorage(address, hexBytes(slot)), 32));
  }
}

/** geth's account JSON: balance always, code and nonce when not empty, storage when it has slots. */
function accountJson(account: AccountState): PrestateAccountJson {
  const json: PrestateAccountJson = { balance: quantity(account.balance) };
  if (account.code.length > 0) json.code = bytesToHex(account.code);
  if (account.nonce > 0n) json.nonce = Number(account.nonce);
  if (account.storage.size > 0) json.storage = Object.fromEntries([...account.storage].map(([slot, value]) => [slot, bytesToHex(value)]));
  return json;
}

/** What a transaction that runs no EVM code (REMASC here) shows. */
export function emptyPrestate(diffMode: boolean): PrestateJson {
  return diffMode ? { post: {}, pre: {} } : {};
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}
