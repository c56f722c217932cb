/**
 * Turns submitted bytes into a legacy transaction, refusing what RSK refuses (reference 7). The
 * sender is recovered once, from the submitted field bytes, and the hash taken of the bytes as
 * submitted: the transaction answers both from then on (ethereumjs recomputes the sender's address
 * from its key at every getSenderAddress, and the hash from a second serialization; intake, the
 * pool checks and runTx ask).
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type LegacyTx, createLegacyTxFromBytesArray } from '@ethereumjs/tx';
import { Address, SECP256K1_ORDER_DIV_2, bytesToBigInt } from '@ethereumjs/util';
import { rskTxOptions } from '../evm/rsk-common.js';
import { ChainError } from '../base/errors.js';
import { keccak256 } from '../base/hash.js';
import { unpaddedBytes } from '../base/bytes.js';
import { ecrecover } from '../base/secp256k1.js';
import { MAX_INITCODE_SIZE } from './validation.js';

const LEGACY_FIELD_COUNT = 9;
/** The fields a legacy transaction signs (EIP-155 adds the chain id and two empty fields). */
const SIGNED_FIELD_COUNT = 6;
const EMPTY = new Uint8Array(0);

/** EIP-2718 transaction types other chains use, so a refusal can name what was sent. */
const TYPED_ENVELOPES: Record<number, string> = {
  1: 'an EIP-2930 access-list transaction (type 1)',
  2: 'an EIP-1559 fee-market transaction (type 2)',
  3: 'an EIP-4844 blob transaction (type 3)',
  4: 'an EIP-7702 set-code transaction (type 4)',
};

const NOT_LEGACY_RLP = 'Invalid input: the bytes are not an RLP-encoded legacy transaction (an RLP list of 9 fields: nonce, gasPrice, gas, to, value, data, v, r, s)';

/** `network` names the chain in the wrong-chain-id message ("testnet"). */
export function decodeRawTransaction(raw: Uint8Array, common: Common, network: string): LegacyTx {
  if (raw.length === 0) throw new ChainError('invalidTransaction', 'Invalid input: empty transaction');
  // An RLP list starts at 0xc0; a lower first byte may be an EIP-2718 type byte.
  if (raw[0]! < 0xc0) {
    const envelope = TYPED_ENVELOPES[raw[0]!];
    if (envelope === undefined) throw new ChainError('invalidTransaction', NOT_LEGACY_RLP);
    throw new ChainError(
      'invalidTransaction',
      `RSK accepts legacy transactions only: the bytes are ${envelope}; sign a legacy transaction (type 0, with a gasPrice) instead`,
    );
  }
  let fields: Uint8Array[];
  try {
    const decoded = RLP.decode(raw);
    if (!Array.isArray(decoded) || decoded.length !== LEGACY_FIELD_COUNT || decoded.some((f) => !(f instanceof Uint8Array))) {
      throw new Error(`a legacy transaction is an RLP list of ${LEGACY_FIELD_COUNT} byte strings`);
    }
    fields = decoded as Uint8Array[];
  } catch (err) {
    throw new ChainError('invalidTransaction', `Invalid input: ${(err as Error).message}`);
  }
  const v = bytesToBigInt(fields[6]!);
  let signedChainId: bigint | undefined;
  if (v >= 35n) {
    const chainId = (v - 35n) / 2n;
    const expected = common.chainId();
    signedChainId = chainId;
    if (chainId !== expected) {
      throw new ChainError('invalidTransaction', `Invalid chainId: ${chainId}; this key's network (RSK ${network}) expects chain id ${expected}`);
    }
  } else if (v !== 27n && v !== 28n) {
    throw new ChainError('invalidTransaction', `Invalid signature: v = ${v}`);
  }
  const tx = legacyTransaction(fields, common);
  const sender = recoverSender(fields, v, signedChainId) ?? senderByEthereumjs(tx);
  // The bytes are the transaction's canonical RLP (a strict decode of canonical fields), so their
  // hash is the one ethereumjs would compute from the fields again.
  const hash = keccak256(raw);
  tx.getSenderAddress = () => sender;
  tx.hash = () => hash;
  // Frozen as ethereumjs freezes it by default: it then caches what it computes (the data gas, asked
  // at every intrinsic gas check, allocates a BigInt per data byte).
  Object.freeze(tx);
  return tx;
}

/**
 * The sender from the signature over the submitted field bytes, as ethereumjs recovers it from the
 * fields (they are canonical, so its re-encoding of them is these bytes): the message's RLP, its
 * hash, the key, the key's hash, without a BigInt → hex → bytes trip per field and with the
 * WebAssembly Keccak. undefined when the signature is refused, for ethereumjs to say why.
 */
function recoverSender(fields: Uint8Array[], v: bigint, chainId: bigint | undefined): Address | undefined {
  // EIP-2: a high s is refused (ethereumjs' validateHighS).
  if (bytesToBigInt(fields[8]!) > SECP256K1_ORDER_DIV_2) return undefined;
  const message = fields.slice(0, SIGNED_FIELD_COUNT);
  if (chainId !== undefined) message.push(unpaddedBytes(chainId), EMPTY, EMPTY);
  try {
    const publicKey = ecrecover(keccak256(RLP.encode(message)), v, fields[7]!, fields[8]!, chainId);
    return new Address(keccak256(publicKey).subarray(12));
  } catch {
    return undefined;
  }
}

/** ethereumjs' own recovery, for its message when the signature is refused. */
function senderByEthereumjs(tx: LegacyTx): Address {
  try {
    return tx.getSenderAddress();
  } catch (err) {
    throw new ChainError('invalidTransaction', `Invalid signature: ${firstLine((err as Error).message)}`);
  }
}

/**
 * Builds the transaction, naming range errors (nonce, gas, init code size) for what they are. Not
 * frozen yet, so that decodeRawTransaction can give it the sender and hash it knows first.
 */
function legacyTransaction(fields: Uint8Array[], common: Common): LegacyTx {
  const isCreation = fields[3]!.length === 0;
  if (isCreation && fields[5]!.length > MAX_INITCODE_SIZE) throw new ChainError('txRejected', "transaction's init code size is invalid");
  try {
    return createLegacyTxFromBytesArray(fields, { ...rskTxOptions(common), freeze: false });
  } catch (err) {
    throw new ChainError('invalidTransaction', `Invalid transaction: ${firstLine((err as Error).message)}`);
  }
}

/** ethereumjs appends its debug context to messages; keep the human part. */
export function firstLine(message: string): string {
  return message.split(' (tx type=')[0]!.split('\n')[0]!;
}
