/**
 * HDWalletUtils native contract, 0x0000000000000000000000000000000001000009. rskj:
 * co/rsk/pcc/bto/{HDWalletUtils,HDWalletUtilsHelper,ToBase58Check,DeriveExtendedPublicKey,
 * ExtractPublicKeyFromExtendedPublicKey,GetMultisigScriptHash}.java. BIP-32 and base58check come
 * from @scure/bip32 and @scure/base, hashing and curve points from @noble; nothing hand-rolled.
 *
 * Gas (each method's getGas): toBase58Check 13,000; deriveExtendedPublicKey 107,000;
 * extractPublicKeyFromExtendedPublicKey 11,300; getMultisigScriptHash 20,000 + 700 per key past
 * the second. Every refusal below fails the call (rskj throws NativeContractIllegalArgumentException,
 * RSKIP197 charges only the price and returns no data); the messages are rskj's.
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createBase58check } from '@scure/base';
import { HDKey, type Versions } from '@scure/bip32';
import { compareBytes } from '../base/bytes.js';
import { encodeBytes, encodeString } from './abi.js';
import { type NativeMethod, NativeMethodError, nativeContract } from './method.js';

export const HD_WALLET_UTILS_ADDRESS = Uint8Array.from([...new Uint8Array(16), 0x01, 0x00, 0x00, 0x09]);

const base58check = createBase58check(sha256);

/** bitcoinj MainNetParams / TestNet3Params BIP-32 headers (xpub/xprv, tpub/tprv). */
const MAINNET: Versions = { public: 0x0488b21e, private: 0x0488ade4 };
const TESTNET: Versions = { public: 0x043587cf, private: 0x04358394 };

/** HDWalletUtilsHelper.validateAndExtractNetworkFromExtendedPublicKey: the network from the prefix. */
function networkOf(xpub: string): Versions {
  if (xpub.startsWith('xpub')) return MAINNET;
  if (xpub.startsWith('tpub')) return TESTNET;
  throw new NativeMethodError(`Invalid extended public key '${xpub.trim()}'`);
}

/** DeterministicKey.deserializeB58 with the network's headers; undefined when it does not parse. */
function parseExtendedKey(xpub: string, versions: Versions): HDKey | undefined {
  try {
    const key = HDKey.fromExtendedKey(xpub, versions);
    return key.publicKey === null ? undefined : key;
  } catch {
    return undefined;
  }
}

/** Java `Integer.parseInt(s) >= 0` (DeriveExtendedPublicKey.isDecimal): optional sign, ASCII digits, 32-bit. */
function javaNonNegativeInt(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const value = Number(s);
  if (value > 2147483647 || value < -2147483648) return undefined;
  return value >= 0 ? value : undefined;
}

const toBase58Check: NativeMethod = {
  name: 'toBase58Check',
  inputs: ['bytes', 'int256'],
  gas: () => 13_000n,
  execute([hash, version]) {
    const h = hash as Uint8Array;
    if (h.length !== 20) {
      throw new NativeMethodError(`Invalid hash160 '${Buffer.from(h).toString('hex')}' (should be 20 bytes and is ${h.length} bytes)`);
    }
    const v = version as bigint;
    if (v < 0n || v >= 256n) throw new NativeMethodError('version must be a numeric value between 0 and 255');
    const payload = new Uint8Array(21);
    payload[0] = Number(v);
    payload.set(h, 1);
    return encodeString(base58check.encode(payload));
  },
};

const deriveExtendedPublicKey: NativeMethod = {
  name: 'deriveExtendedPublicKey',
  inputs: ['string', 'string'],
  gas: () => 107_000n,
  execute([xpubArg, pathArg]) {
    const xpub = xpubArg as string;
    const path = pathArg as string;
    const versions = networkOf(xpub);
    const key = parseExtendedKey(xpub, versions);
    if (key === undefined) throw new NativeMethodError('Invalid extended public key');
    const invalidPath = () => new NativeMethodError(`Invalid path '${path.trim()}'`);
    // "Path must be of the form S, with S ::= n || n/S with n an unsigned integer".
    if (path.length === 0 || javaNonNegativeInt(path.slice(0, 1)) === undefined || javaNonNegativeInt(path.slice(-1)) === undefined) {
      throw invalidPath();
    }
    const chunks = path.split('/');
    if (chunks.length > 10) throw new NativeMethodError('Path should contain 10 levels at most');
    const indexes = chunks.map(javaNonNegativeInt);
    if (indexes.some((i) => i === undefined)) throw invalidPath();
    let derived = key;
    try {
      for (const index of indexes as number[]) derived = derived.deriveChild(index);
    } catch (err) {
      // bitcoinj's HDDerivationException (an invalid child, probability below 2^-127).
      throw new NativeMethodError(`Invalid extended public key derivation: ${(err as Error).message}`);
    }
    return encodeString(derived.publicExtendedKey);
  },
};

const extractPublicKeyFromExtendedPublicKey: NativeMethod = {
  name: 'extractPublicKeyFromExtendedPublicKey',
  inputs: ['string'],
  gas: () => 11_300n,
  execute([xpubArg]) {
    const xpub = xpubArg as string;
    const key = parseExtendedKey(xpub, networkOf(xpub));
    if (key === undefined) throw new NativeMethodError(`Invalid extended public key '${xpub.trim()}'`);
    return encodeBytes(key.publicKey!);
  },
};

/** GetMultisigScriptHash limits: 2 keys at least; 15 at most (the 520-byte P2SH script limit). */
const MINIMUM_REQUIRED_KEYS = 2;
const MAXIMUM_ALLOWED_KEYS = 15;
const OP_CHECKMULTISIG = 0xae;
/** OP_1..OP_16 are 0x51..0x60 (bitcoinj ScriptBuilder.smallNum). */
const smallNum = (n: number) => 0x50 + n;

const getMultisigScriptHash: NativeMethod = {
  name: 'getMultisigScriptHash',
  inputs: ['int256', 'bytes[]'],
  gas: ([, keys]) => {
    const n = (keys as Uint8Array[]).length;
    return n < 2 ? 20_000n : 20_000n + BigInt(n - 2) * 700n;
  },
  execute([required, keysArg]) {
    const keys = keysArg as Uint8Array[];
    const r = required as bigint;
    // BigInteger.intValueExact throws outside the int range: the call fails either way.
    if (r > 2147483647n || r < -2147483648n) throw new NativeMethodError('minimum signatures out of range');
    const minimumSignatures = Number(r);
    if (minimumSignatures <= 0) throw new NativeMethodError('Minimum required signatures must be present and greater than zero');
    if (keys.length < MINIMUM_REQUIRED_KEYS) throw new NativeMethodError(`At least ${MINIMUM_REQUIRED_KEYS} public keys are required`);
    if (keys.length < minimumSignatures) {
      throw new NativeMethodError(`Given public keys (${keys.length}) are less than the minimum required signatures (${minimumSignatures})`);
    }
    if (keys.length > MAXIMUM_ALLOWED_KEYS) {
      throw new NativeMethodError(`Given public keys (${keys.length}) are more than the maximum allowed signatures (${MAXIMUM_ALLOWED_KEYS})`);
    }
    const compressed = keys.map((key) => {
      if (key.length !== 33 && key.length !== 65) throw new NativeMethodError(`Invalid public key length: ${key.length}`);
      try {
        const point = secp256k1.Point.fromBytes(key);
        // A compressed key is kept as given; an uncompressed one is compressed (BtcECKey).
        return key.length === 33 ? key : point.toBytes(true);
      } catch {
        throw new NativeMethodError(`Invalid public key format: ${Buffer.from(key).toString('hex')}`);
      }
    });
    // ScriptBuilder.createP2SHOutputScript(threshold, keys): the redeem script sorts the keys
    // (BtcECKey.PUBKEY_COMPARATOR, unsigned lexicographic): OP_m <keys> OP_n OP_CHECKMULTISIG.
    compressed.sort(compareBytes);
    const script = new Uint8Array(3 + compressed.length * 34);
    let at = 0;
    script[at++] = smallNum(minimumSignatures);
    for (const key of compressed) {
      script[at++] = key.length;
      script.set(key, at);
      at += key.length;
    }
    script[at++] = smallNum(compressed.length);
    script[at++] = OP_CHECKMULTISIG;
    return encodeBytes(ripemd160(sha256(script)));
  },
};

export const hdWalletUtilsContract = nativeContract(HD_WALLET_UTILS_ADDRESS, 'HDWalletUtils', [
  toBase58Check,
  deriveExtendedPublicKey,
  extractPublicKeyFromExtendedPublicKey,
  getMultisigScriptHash,
]);
