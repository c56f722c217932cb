/**
 * Decoders of geth's state and block overrides (debug_traceCall's `stateOverrides` and
 * `blockOverrides`; the same objects eth_call takes as its third parameter in geth and rskj).
 * Unknown members are refused rather than ignored: a misspelt override that silently does nothing
 * would make a trace answer a question that was not asked.
 */
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import type { AccountOverride, BlockOverrides, StateOverrides } from '../chain/index.js';
import { ParamError, address, atMost, data, describe, field, makeDecoder, quantity, storageSlot } from './params.js';

const MAX_UINT64 = (1n << 64n) - 1n;
const nonce = atMost(quantity, MAX_UINT64, '2^64-1');
const ACCOUNT_FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff', 'movePrecompileToAddress']);
/** geth's names, old (1.13) and new (1.14+), for the fields an RSK block has. */
const BLOCK_FIELDS: Record<string, keyof BlockOverrides> = {
  number: 'number',
  time: 'timestamp',
  gasLimit: 'gasLimit',
  coinbase: 'coinbase',
  feeRecipient: 'coinbase',
  difficulty: 'difficulty',
  baseFee: 'minimumGasPrice',
  baseFeePerGas: 'minimumGasPrice',
};

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamError(`expected ${what} object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);

function slots(v: unknown, key: string): Array<[Uint8Array, Uint8Array]> {
  return Object.entries(object(v, `a "${key}"`)).map(([slot, value]) => {
    try {
      return [word(storageSlot.parse(slot)), word(storageSlot.parse(value))];
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`"${key}" slot ${slot}: ${err.message}`);
      throw err;
    }
  });
}

function accountOverride(v: unknown): AccountOverride {
  const o = object(v, 'an account override');
  for (const key of Object.keys(o)) if (!ACCOUNT_FIELDS.has(key)) throw new ParamError(`unknown field "${key}"`);
  if (o.movePrecompileToAddress !== undefined && o.movePrecompileToAddress !== null) throw new ParamError('"movePrecompileToAddress" is not supported');
  const account: AccountOverride = {};
  const balance = field(o, 'balance', quantity);
  if (balance !== undefined) account.balance = balance;
  const n = field(o, 'nonce', nonce);
  if (n !== undefined) account.nonce = n;
  const code = field(o, 'code', data);
  if (code !== undefined) account.code = code;
  if (o.state !== undefined && o.state !== null) account.state = slots(o.state, 'state');
  if (o.stateDiff !== undefined && o.stateDiff !== null) account.stateDiff = slots(o.stateDiff, 'stateDiff');
  return account;
}

/** `{ "<address>": { balance, nonce, code, state | stateDiff } }`. */
export const stateOverrides = makeDecoder('stateOverrides', (v): StateOverrides => {
  return Object.entries(object(v, 'a state overrides')).map(([key, value]) => {
    try {
      return { address: address.parse(key), account: accountOverride(value) };
    } catch (err) {
      if (err instanceof ParamError) throw new ParamError(`account ${key}: ${err.message}`);
      throw err;
    }
  });
});

/** `{ number, time, gasLimit, coinbase | feeRecipient, difficulty, baseFee | baseFeePerGas }`. */
export const blockOverrides = makeDecoder('blockOverrides', (v): BlockOverrides => {
  const o = object(v, 'a block overrides');
  const overrides: BlockOverrides = {};
  for (const key of Object.keys(o)) {
    const target = BLOCK_FIELDS[key];
    if (target === undefined) throw new ParamError(`unknown or unsupported field "${key}" (RSK blocks take: ${Object.keys(BLOCK_FIELDS).join(', ')})`);
    if (target === 'coinbase') {
      const miner = field(o, key, address);
      if (miner !== undefined) overrides.coinbase = miner.bytes;
    } else {
      const value = field(o, key, quantity);
      if (value !== undefined) overrides[target] = value;
    }
  }
  return overrides;
});
