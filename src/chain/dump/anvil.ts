/**
 * anvil's state files (foundry `crates/anvil/src/eth/backend/db.rs` SerializableState), read for
 * their accounts: `{accounts: {address: {nonce, balance, code, storage: {slot: value}}}}`. Its
 * `block`, `best_block_number`, `blocks`, `transactions` and `historical_states` are Ethereum
 * blocks and states under Ethereum's rules: they are not RSK blocks and are ignored.
 */
import { badStateFile } from './format.js';

export interface AnvilAccount {
  address: Uint8Array;
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
  /** 32-byte slot → 32-byte value (zero: the slot is cleared), as hardhat_setStorageAt takes them. */
  storage: Array<[Uint8Array, Uint8Array]>;
}

/** An account nonce stays below 2^64-1 (EIP-2681). */
const MAX_NONCE = 2n ** 64n - 2n;
const MAX_WORD = 2n ** 256n - 1n;

/** The accounts of a parsed anvil state file; anything malformed is refused naming the file and the account. */
export function anvilAccounts(parsed: unknown, file: string): AnvilAccount[] {
  const accounts = (parsed as { accounts?: unknown } | null)?.accounts;
  if (typeof parsed !== 'object' || parsed === null || typeof accounts !== 'object' || accounts === null || Array.isArray(accounts)) {
    throw badStateFile(file, 'neither an rsk-devnode state file nor an anvil state file (no "accounts" object)');
  }
  return Object.entries(accounts as Record<string, unknown>).map(([address, value]) => {
    const fail = (problem: string) => badStateFile(file, `anvil account ${address.slice(0, 42)}: ${problem}`);
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw fail('not a 20-byte 0x address');
    if (typeof value !== 'object' || value === null) throw fail('not an object');
    const { nonce, balance, code, storage } = value as Record<string, unknown>;
    if (storage !== undefined && (typeof storage !== 'object' || Array.isArray(storage))) throw fail('storage is not an object');
    const storageEntries = storage === undefined || storage === null ? [] : Object.entries(storage as Record<string, unknown>);
    return {
      address: hexBytes(address),
      nonce: word(nonce ?? 0, MAX_NONCE, 'nonce', fail),
      balance: word(balance ?? '0x0', MAX_WORD, 'balance', fail),
      code: code === undefined || code === null || code === '0x' ? new Uint8Array(0) : bytes(code, 'code', fail),
      storage: storageEntries.map(([slot, v]) => [wordBytes(word(slot, MAX_WORD, `storage slot ${slot.slice(0, 66)}`, fail), 32), wordBytes(word(v, MAX_WORD, `storage value of ${slot.slice(0, 66)}`, fail), 32)]),
    };
  });
}

/** A JSON number, a 0x-hex string or a decimal string, up to `max`. */
function word(value: unknown, max: bigint, what: string, fail: (problem: string) => Error): bigint {
  let n: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/.test(value)) n = BigInt(value);
  if (n === undefined || n > max) throw fail(`${what} is not a number from 0 to ${max}`);
  return n;
}

function bytes(value: unknown, what: string, fail: (problem: string) => Error): Uint8Array {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw fail(`${what} is not 0x-prefixed hex bytes`);
  return hexBytes(value);
}

const hexBytes = (value: string) => new Uint8Array(Buffer.from(value.slice(2), 'hex'));

function wordBytes(n: bigint, length: number): Uint8Array {
  return hexBytes(`0x${n.toString(16).padStart(length * 2, '0')}`);
}
