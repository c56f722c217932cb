/**
 * personal_: accounts held by the node, after rskj's PersonalModuleWalletEnabled (reference 10.8).
 * The keys live in the chain's NodeWallet (src/chain/keys/wallet.ts); these handlers only translate.
 *
 * Where rskj answers a bare "Internal server error" (-32603) we say what went wrong, with its own
 * exception texts where it has one ("... could not be found in this node"), geth's "could not
 * decrypt key with given password" for a wrong passphrase, and answer them as what they are: a
 * client's mistake, -32602, the code rskj's own eth_sendTransaction gives an unknown sender
 * (docs/decisions.md). -32603 stays for faults of the node.
 */
import { bytesToHex, setLengthLeft, unprefixedHexToBytes } from '@ethereumjs/util';
import { DEFAULT_UNLOCK_MS, WrongPassphrase, lockedHint } from '../../chain/index.js';
import { method, type RpcContext } from '../context.js';
import { InvalidParams } from '../errors.js';
import { ParamError, address, callRequest, describe, makeDecoder, noParams, params, shown } from '../params.js';

/** rskj's HexDurationParam parses the milliseconds into a Java long. */
const MAX_DURATION_MS = (1n << 63n) - 1n;
/** Longest duration string read (0x, leading zeros, 16 digits); longer ones are refused unread. */
const MAX_DURATION_CHARS = 100;

const text = (name: string) =>
  makeDecoder(name, (v) => {
    if (typeof v !== 'string') throw new ParamError(`expected a string, got ${describe(v)}`);
    return v;
  });
const seed = text('seed');
export const passphrase = text('passphrase');

/**
 * A private key: hex with or without 0x (rskj's HexKeyParam), at most 32 bytes, left-padded to 32
 * (rskj reads it as a number). Messages never echo the key.
 */
const privateKey = makeDecoder('key', (v) => {
  if (typeof v !== 'string') throw new ParamError(`expected a hex string, got ${describe(v)}`);
  const body = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v;
  // Length before the regex: a 15 MB string must not hold the event loop.
  if (body.length > 64) throw new ParamError(`a private key has at most 32 bytes, got ${Math.ceil(body.length / 2)}`);
  if (!/^[0-9a-fA-F]+$/.test(body) || body.length % 2 !== 0) throw new ParamError('value must be a valid hex (an even number of hex digits)');
  return setLengthLeft(unprefixedHexToBytes(body), 32);
});

/**
 * rskj's HexDurationParam: a `0x`-hex string of MILLISECONDS; "" means the default (30 minutes).
 * A JSON number (geth's seconds) is refused, as rskj refuses it.
 */
const durationMs = makeDecoder('duration', (v) => {
  if (v === '') return DEFAULT_UNLOCK_MS;
  // Longer than any int64 with leading zeros allowed: refused before the regex and BigInt read it.
  if (typeof v === 'string' && v.length > MAX_DURATION_CHARS) throw new ParamError('Invalid duration param: value must be a valid hex number.');
  if (typeof v !== 'string' || !/^0[xX][0-9a-fA-F]*$/.test(v)) {
    throw new ParamError(`Invalid argument "${typeof v === 'string' ? v.slice(0, 80) : shown(v)}": param should be a hex value string (milliseconds, e.g. "0x1b7740" for 30 minutes).`);
  }
  const digits = v.slice(2).replace(/^0+(?=.)/, '');
  if (digits.length === 0 || digits.length > 16 || BigInt(`0x${digits}`) > MAX_DURATION_MS) {
    throw new ParamError('Invalid duration param: value must be a valid hex number.');
  }
  return Number(BigInt(`0x${digits}`));
});

function wrongPassphrase(err: unknown): never {
  // A wrong passphrase is bad input (geth answers it as an error of the call, not of the node).
  if (err instanceof WrongPassphrase) throw new InvalidParams(err.message);
  throw err;
}

/** The key in `account`'s keystore opened with `pass`; undefined when it has no keystore. */
export function openKeystore(ctx: RpcContext, account: string, pass: string): Promise<Uint8Array | undefined> {
  return ctx.chain.wallet.decrypt(account, pass).catch(wrongPassphrase);
}

/** Why a listed account cannot send here: rskj signs personal_sendTransaction with keystores only. */
function noKeystoreHint(ctx: RpcContext, from: string): string {
  if (!ctx.chain.wallet.holds(from)) return '';
  return ' (personal_sendTransaction signs with keystore accounts only, made by personal_newAccount or personal_importRawKey; send from this one with eth_sendTransaction)';
}

export const personalMethods = [
  method(
    'personal_newAccountWithSeed',
    'Adds the account whose key is keccak256(seed), unencrypted and in memory only (gone at restart, as in rskj).',
    params([seed.optional]),
    (ctx, [value]) => {
      if (value === undefined) throw new InvalidParams('Seed is null');
      return ctx.chain.wallet.newAccountWithSeed(value);
    },
  ),
  method(
    'personal_newAccount',
    'Creates a random key, stores it encrypted under the passphrase (a v3 keystore) and unlocks it for 30 minutes.',
    params([passphrase.optional]),
    async (ctx, [pass]) => {
      if (pass === undefined) throw new InvalidParams('Passphrase is null');
      return ctx.chain.wallet.newAccount(pass);
    },
  ),
  method(
    'personal_importRawKey',
    'Stores a private key (hex, 0x optional) encrypted under the passphrase and unlocks it for 30 minutes.',
    params([privateKey.optional, passphrase.optional]),
    async (ctx, [key, pass]) => {
      if (key === undefined) throw new InvalidParams('Key cannot be null.');
      if (pass === undefined) throw new InvalidParams('Passphrase is null');
      try {
        return await ctx.chain.wallet.importRawKey(key, pass);
      } catch (err) {
        // Zero, or not below the secp256k1 group order.
        if (err instanceof Error && /private key/i.test(err.message)) throw new InvalidParams('invalid argument 0 (key): not a valid secp256k1 private key');
        throw err;
      }
    },
  ),
  method(
    'personal_dumpRawKey',
    'The private key (0x + 64 hex) of an unlocked account held by the node.',
    params([address]),
    (ctx, [account]) => {
      const key = ctx.chain.wallet.signingKey(account.toString());
      if (key === undefined) {
        throw new InvalidParams(`Address private key is locked or could not be found in this node${lockedHint(ctx.chain.wallet, account.toString())}`);
      }
      return bytesToHex(key);
    },
  ),
  method(
    'personal_listAccounts',
    'The same list as eth_accounts.',
    noParams,
    (ctx) => ctx.chain.wallet.listAccounts(),
  ),
  method(
    'personal_lockAccount',
    "Drops the account's plain key from memory: true if it was unlocked. A cow or miner account locked stays unusable until restart (rskj).",
    params([address]),
    (ctx, [account]) => ctx.chain.wallet.lock(account.toString()),
  ),
  method(
    'personal_unlockAccount',
    'Decrypts the keystore for duration milliseconds (0x-hex, default 0x1b7740 = 30 minutes); false for accounts without a keystore (cow, miner, seed).',
    params([address, passphrase.optional, durationMs.orDefault(DEFAULT_UNLOCK_MS)]),
    async (ctx, [account, pass, duration]) => {
      const wallet = ctx.chain.wallet;
      if (!wallet.hasKeystore(account.toString())) return false;
      if (pass === undefined) throw new InvalidParams('Passphrase is null');
      return wallet.unlock(account.toString(), pass, duration).catch(wrongPassphrase);
    },
  ),
  method(
    'personal_sendTransaction',
    "eth_sendTransaction signed with the from account's keystore opened by the passphrase (locked or not); same defaults.",
    params([callRequest.as('transaction'), passphrase.optional]),
    async (ctx, [request, pass]) => {
      if (request.from === undefined) throw new InvalidParams('from is null');
      if (pass === undefined) throw new InvalidParams('Passphrase is null');
      const from = request.from.toString();
      const key = await openKeystore(ctx, from, pass);
      if (key === undefined) throw new InvalidParams(`From address private key could not be found in this node${noKeystoreHint(ctx, from)}`);
      return bytesToHex(await ctx.chain.sendTransaction({ ...request, from: request.from }, { address: from, privateKey: key }));
    },
  ),
];
